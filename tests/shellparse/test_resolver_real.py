"""``Resolver.real`` against the operating system's own answer, on a tree of links, files,
missing names and a dangling link: every path, resolved alone and with what one line already
resolved (the directories it knows, the working directory it starts from), gives what
``os.path.realpath`` gives -- whichever route (a ``lstat`` per level below a known directory,
the kernel's resolution, the walk) took it there."""

from __future__ import annotations

import itertools
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from clearance.shellparse.resolve import Resolver

NAMES = ("a", "b", "f", "l", "lf", "dl", "rl", "up", "no")


@pytest.fixture
def tree(tmp_path: Path) -> Iterator[Path]:
    root = Path(os.path.realpath(tmp_path))
    (root / "a" / "b" / "a").mkdir(parents=True)
    (root / "a" / "f").write_text("file\n")
    (root / "f").write_text("file\n")
    (root / "a" / "b" / "f").write_text("file\n")
    os.symlink(root / "a", root / "l")  # a link to a directory, absolute
    os.symlink("f", root / "lf")  # a link to a file, relative
    os.symlink(root / "no" / "where", root / "dl")  # dangling
    os.symlink("a/b", root / "rl")  # relative, two levels
    os.symlink("..", root / "a" / "b" / "up")  # a link upwards
    os.symlink("../l", root / "a" / "l")  # a link to a link
    here = os.getcwd()
    try:
        yield root
    finally:
        os.chdir(here)


def _paths(root: Path, depth: int) -> list[str]:
    out = []
    for size in range(1, depth + 1):
        for names in itertools.product(NAMES, repeat=size):
            out.append(str(root) + "/" + "/".join(names))
    return out


def _mismatches(resolver_for: object, paths: list[str]) -> list[tuple[str, str, str]]:
    wrong = []
    for path in paths:
        resolver = resolver_for() if callable(resolver_for) else resolver_for
        assert isinstance(resolver, Resolver)
        got = resolver.real(path)
        expected = os.path.realpath(path)
        if got != expected:
            wrong.append((path, got, expected))
    return wrong


@pytest.mark.parametrize("start", ["elsewhere", "root", "a/b", "l", "rl"])
def test_real_is_the_systems_resolution(tree: Path, start: str) -> None:
    """Fresh per path, and one resolver for all (each path then starts from what the ones
    before it taught it), from working directories reached directly and through links."""
    os.chdir("/" if start == "elsewhere" else tree / ("" if start == "root" else start))
    paths = _paths(tree, 3)
    assert _mismatches(Resolver, paths) == []
    assert _mismatches(Resolver(), paths) == []
    assert _mismatches(Resolver(), list(reversed(paths))) == []


def test_a_link_made_after_the_walk_is_seen_by_the_next_line(tree: Path) -> None:
    """What one line learnt of a directory is not the next line's: a directory replaced by a
    link between two lines resolves to the link's target."""
    os.chdir(tree)
    first = Resolver()
    assert first.real(str(tree / "a" / "b" / "x")) == str(tree / "a" / "b" / "x")
    shutil.rmtree(tree / "a" / "b")
    os.symlink("/etc", tree / "a" / "b")
    assert Resolver().real(str(tree / "a" / "b" / "x")) == "/etc/x"


def test_working_directory_removed(tree: Path) -> None:
    """A working directory that no longer exists is no known directory: paths resolve as the
    system says."""
    (tree / "gone").mkdir()
    os.chdir(tree / "gone")
    (tree / "gone").rmdir()
    paths = [*_paths(tree, 2), str(tree / "gone" / "x" / "y")]
    assert _mismatches(Resolver, paths) == []
