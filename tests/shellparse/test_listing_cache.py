"""Directory listings kept per process (``resolve._list``): a tree search repeated over a tree
that did not change reads one ``stat`` per directory instead of listing it again -- also for a
tree of more directories than a batch's ``find /`` or ``find /usr`` lists before its bound
(thousands) -- and a directory that changed since is listed again."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from clearance.shellparse import resolve
from clearance.shellparse.resolve import Resolver

#: Directories of the tree: more than a few thousand, as a walk stopped at its entry bound
#: lists on a machine's ``/usr`` (about 6,000 for 50,000 entries).
PARENTS, CHILDREN = 50, 100


def _listings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The directories ``os.scandir`` lists from here on."""
    listed: list[str] = []
    scandir = os.scandir

    def counting(path: str) -> object:
        listed.append(path)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", counting)
    return listed


def test_a_search_repeated_over_a_large_unchanged_tree_lists_nothing_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = Path(os.path.realpath(tmp_path)) / "tree"
    for p in range(PARENTS):
        for c in range(CHILDREN):
            (root / f"p{p}" / f"c{c}").mkdir(parents=True)
    time.sleep(2.1)  # older than RACY_NS: a listing may be kept
    resolve._LISTINGS.clear()
    listed = _listings(monkeypatch)
    first = _search(root)
    assert len(first) == PARENTS * CHILDREN
    assert len(listed) == PARENTS + PARENTS * CHILDREN
    listed.clear()
    assert _search(root) == first
    assert listed == []  # every listing came from the process's own, one stat each
    # a directory that changed is listed again (and only it): a file added below it
    (root / "p3" / "c7" / "new").write_text("x")
    again = _search(root)
    assert listed == [str(root / "p3" / "c7")]
    assert str(root / "p3" / "c7" / "new") in again


def _search(root: Path) -> list[str]:
    """Every path below each directory of ``root``, each searched by a line of its own (a
    batch's lines, each within its own bounds)."""
    found: list[str] = []
    for p in range(PARENTS):
        found += Resolver().walk(str(root / f"p{p}"))
    return found
