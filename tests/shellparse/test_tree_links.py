"""A tree search meets a link: programs that follow it read its target.

``grep -R``, ``rg -L``, ``zip -r`` (without ``-y``), ``7z a`` and ``git grep`` (over a tracked
file that became a link in the working tree) read what a link points at, whatever the link is
called; so do the archivers and copiers told to (``tar -h``, ``cp -L``, ``rsync -L``/``-k``/
``--copy-unsafe-links``), and every program that opens the files a ``find`` hands it
(``-exec cat {} +``, ``| xargs cat``, ``$(find …)``). ``grep -r``, ``rg`` without ``-L``, plain
``tar``/``cp -r``/``rsync -a`` (a link stored as a link) and ``stat`` (metadata) do not. A
``find -L`` descends into linked directories, so what it hands on is not known. Each case has
its twin, decided by the default pack on a real tree.
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
    ("7z a", "7z a out.7z src", "7z a out.7z src/app.py"),
    ("tar -h", "tar -czhf out.tgz src", "tar -czf out.tgz src"),
    ("tar old-style h", "tar czhf out.tgz src", "tar czf out.tgz src"),
    ("tar --deref", "tar --deref -czf out.tgz src", "tar --totals -czf out.tgz src"),
    ("bsdtar -h", "bsdtar -czhf out.tgz src", "bsdtar -czf out.tgz src"),
    ("cp -rL", "cp -rL src copy", "cp -r src copy"),
    ("rsync -L", "rsync -aL src/ copy", "rsync -a src/ copy"),
    ("rsync unsafe links", "rsync -a --copy-unsafe-links src/ c", "rsync -a --safe-links src/ c"),
    ("find -exec", "find src -name '*.txt' -exec cat {} +", "find src -name '*.txt' -exec du {} +"),
    ("find | xargs", "find src -name '*.txt' | xargs cat", "find src -name '*.py' | xargs cat"),
    ("$(find)", "cat $(find src -name '*.txt')", "cat $(find src -name '*.py')"),
]


@pytest.mark.parametrize(("technique", "command", "twin"), CASES, ids=[c[0] for c in CASES])
def test_links_met_in_a_tree(technique: str, command: str, twin: str, world: World) -> None:
    policy = default_pack(world)

    def decided(text: str) -> str:
        return decide_in(policy, world, text).decision

    assert decided(command) == "deny", command
    assert decided(twin) != "deny", twin


@pytest.fixture(scope="module")
def linked_directory(tmp_path_factory: pytest.TempPathFactory) -> World:
    """A project whose ``src/keys`` is a link to ``~/.ssh`` (no link to a file in it)."""
    root = tmp_path_factory.mktemp("dirlinks")
    workspace, home = make_world(root, {"src/app.py": "KEY = 1\n"}, {".ssh/id_rsa": "KEY\n"})
    (Path(workspace) / "src" / "keys").symlink_to(Path(home) / ".ssh")
    return workspace, home


#: (technique, a copy or search that enters the linked directory, its twin that does not)
DIRECTORY_CASES = [
    ("rsync -k", "rsync -ak src/ copy", "rsync -a src/ copy"),
    ("cp -rL", "cp -rL src copy", "cp -r src copy"),
    ("tar -h", "tar -czhf out.tgz src", "tar -czf out.tgz src"),
    ("grep -R", "grep -R KEY src", "grep -r KEY src"),
]


@pytest.mark.parametrize(
    ("technique", "command", "twin"), DIRECTORY_CASES, ids=[c[0] for c in DIRECTORY_CASES]
)
def test_links_to_directories(
    technique: str, command: str, twin: str, linked_directory: World
) -> None:
    policy = default_pack(linked_directory)
    assert decide_in(policy, linked_directory, command).decision == "deny", command
    assert decide_in(policy, linked_directory, twin).decision == "allow", twin


def test_find_following_links_hands_on_what_is_not_known(linked_directory: World) -> None:
    """``find -L`` (or ``-follow``) finds what is under the linked directory too: the names
    it hands to ``cat`` are not known from its starting point, so the line is not allowed;
    without it, the link is not entered and the line is allowed."""
    policy = default_pack(linked_directory)
    for command in ("find -L src -exec cat {} +", "find src -follow -exec cat {} +"):
        assert decide_in(policy, linked_directory, command).decision != "allow", command
    for command in ("find -L src -type f | xargs cat", "cat $(find -L src -name '*.py')"):
        assert decide_in(policy, linked_directory, command).decision != "allow", command
    assert decide_in(policy, linked_directory, "find src -exec cat {} +").decision == "allow"
    assert decide_in(policy, linked_directory, "find src | xargs cat").decision == "allow"
