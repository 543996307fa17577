"""A tree search meets a link to a file: programs that follow it read its target.

``grep -R``, ``rg -L``, ``zip -r`` (without ``-y``) and ``git grep`` (over a tracked file that
became a link in the working tree) read what a link points at, whatever the link is called;
``grep -r`` and ``rg`` without ``-L`` do not follow links met below the paths they are given.
Each case has its twin, decided by the default pack on a real tree.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from workspace_support import World, decide_in, default_pack, make_world


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    root = tmp_path_factory.mktemp("treelinks")
    files = {"src/app.py": "KEY = 1\n", "src/notes.txt": "KEY\n"}
    workspace, home = make_world(root, files, {".ssh/id_rsa": "KEY\n"}, repository=True)
    subprocess.run(["git", "-C", workspace, "add", "src"], check=True)
    notes = Path(workspace) / "src" / "notes.txt"
    notes.unlink()
    notes.symlink_to(Path(home) / ".ssh" / "id_rsa")  # tracked as a file, a link in the tree
    time.sleep(2.1)
    return workspace, home


#: (technique, a search that follows the link, its twin that does not)
CASES = [
    ("grep -R", "grep -R KEY src", "grep -r KEY src"),
    ("rg -L", "rg -L KEY src", "rg KEY src"),
    ("zip -r", "zip -r out.zip src", "zip -ry out.zip src"),
    ("git grep", "git grep KEY", "git grep KEY -- src/app.py"),
]


@pytest.mark.parametrize(("technique", "command", "twin"), CASES, ids=[c[0] for c in CASES])
def test_links_met_in_a_tree(technique: str, command: str, twin: str, world: World) -> None:
    policy = default_pack(world)

    def decided(text: str) -> str:
        return decide_in(policy, world, text).decision

    assert decided(command) == "deny", command
    assert decided(twin) != "deny", twin
