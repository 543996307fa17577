"""What the policy tests that decide in a real workspace on disk share: the workspace and its
home made from a few files (``World``: the two paths), the default pack loaded for it, and the
decision of a Bash command run there. Test modules import these helpers."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from pathlib import Path

from clearance.engine.api import decide, default_pack_path, load_policy
from clearance.engine.decision import ApprovalDecision
from clearance.engine.intents import ToolIntent
from clearance.engine.rules import PolicySet

#: (workspace, home) as strings, the way ``decide`` takes them.
World = tuple[str, str]


def make_world(
    root: Path,
    files: Mapping[str, str],
    home_files: Mapping[str, str] | None = None,
    *,
    repository: bool = False,
) -> World:
    """``root/proj``, a project holding ``files`` (path relative to it -> text), and
    ``root/home`` holding ``home_files``. The project is a ``.git`` folder, or with
    ``repository`` a real git repository (``git init``) whose index the caller fills."""
    workspace, home = root / "proj", root / "home"
    workspace.mkdir(parents=True)
    home.mkdir()
    if repository:
        subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    else:
        (workspace / ".git").mkdir()
    for base, tree in ((workspace, files), (home, home_files or {})):
        for name, text in tree.items():
            (base / name).parent.mkdir(parents=True, exist_ok=True)
            (base / name).write_text(text)
    return str(workspace), str(home)


def default_pack(world: World) -> PolicySet:
    """The shipped default pack, loaded for the world's workspace (no cache)."""
    return load_policy(world[0], files=[default_pack_path()], use_cache=False)


def decide_in(policy: PolicySet, world: World, command: str) -> ApprovalDecision:
    """The decision on the Bash ``command`` run in the world's workspace."""
    workspace, home = world
    return decide(
        ToolIntent("bash", {"command": command}),
        policy,
        cwd=workspace,
        workspace=workspace,
        home=home,
    )
