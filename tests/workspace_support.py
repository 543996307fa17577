"""What the tests that decide in a workspace share: the workspace and its home made on disk
from a few files (``World``: the two paths), or ``NOWHERE`` (two paths that are not on disk),
the default pack loaded for it, and the decision of a Bash command run there. Test modules of
any folder import these helpers (tests/policies, tests/shellparse)."""

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

#: A workspace and home that are not on disk: what is decided there comes from the command's
#: text and the default pack as every user starts from it (no project policy is discovered).
NOWHERE: World = ("/work/proj", "/home/u")


def make_world(
    root: Path,
    files: Mapping[str, str],
    home_files: Mapping[str, str] | None = None,
    *,
    repository: bool = False,
    marker: str = ".git",
) -> World:
    """``root/proj``, a project holding ``files`` (path relative to it -> text), and
    ``root/home`` holding ``home_files``. The project is the folder ``marker`` in it (``.git``;
    ``.clearance`` for a project that is no git repository), or with ``repository`` a real git
    repository (``git init``) whose index the caller fills."""
    workspace, home = root / "proj", root / "home"
    workspace.mkdir(parents=True)
    home.mkdir()
    if repository:
        subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    else:
        (workspace / marker).mkdir()
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
