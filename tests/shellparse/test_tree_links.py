"""A tree search meets a link to a file: programs that follow it read its target.

``grep -R``, ``rg -L``, ``zip -r`` (without ``-y``) and ``git grep`` (over a tracked file that
became a link in the working tree) read what a link points at, whatever the link is called;
``grep -r`` and ``rg`` without ``-L`` do not follow links met below the paths they are given.
Each case has its twin, decided by the default pack on a real tree.
"""

from __future__ import annotations

import subprocess
import time

import pytest

from clearance.engine.api import decide, default_pack_path, load_policy
from clearance.engine.intents import ToolIntent


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    root = tmp_path_factory.mktemp("treelinks")
    workspace, home = root / "proj", root / "home"
    (workspace / "src").mkdir(parents=True)
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("KEY\n")
    (workspace / "src" / "app.py").write_text("KEY = 1\n")
    (workspace / "src" / "notes.txt").write_text("KEY\n")
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    subprocess.run(["git", "-C", str(workspace), "add", "src"], check=True)
    notes = workspace / "src" / "notes.txt"
    notes.unlink()
    notes.symlink_to(home / ".ssh" / "id_rsa")  # tracked as a file, a link in the tree
    time.sleep(2.1)
    return str(workspace), str(home)


#: (technique, a search that follows the link, its twin that does not)
CASES = [
    ("grep -R", "grep -R KEY src", "grep -r KEY src"),
    ("rg -L", "rg -L KEY src", "rg KEY src"),
    ("zip -r", "zip -r out.zip src", "zip -ry out.zip src"),
    ("git grep", "git grep KEY", "git grep KEY -- src/app.py"),
]


@pytest.mark.parametrize(("technique", "command", "twin"), CASES, ids=[c[0] for c in CASES])
def test_links_met_in_a_tree(
    technique: str, command: str, twin: str, world: tuple[str, str]
) -> None:
    workspace, home = world
    policy = load_policy(workspace, files=[default_pack_path()], use_cache=False)

    def decided(text: str) -> str:
        return decide(
            ToolIntent("bash", {"command": text}),
            policy,
            cwd=workspace,
            workspace=workspace,
            home=home,
        ).decision

    assert decided(command) == "deny", command
    assert decided(twin) != "deny", twin
