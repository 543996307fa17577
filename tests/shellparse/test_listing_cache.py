"""Directory listings kept per process (``resolve._list``): a tree searched again reads one
``stat`` per directory instead of listing it again while it does not change -- also for a tree
of more directories than a batch's ``find /`` or ``find /usr`` lists before its bound
(thousands) -- and a directory that changed since is listed again. A tree searched once costs
no ``stat`` for keeping: a listing is kept from a directory's second listing on."""

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


def _listings(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The directories ``os.scandir`` lists from here on, and the paths ``os.stat`` reads."""
    listed: list[str] = []
    stated: list[str] = []
    scandir, stat = os.scandir, os.stat

    def counting(path: str) -> object:
        listed.append(path)
        return scandir(path)

    def stating(path: str, *args: object, **kwargs: object) -> os.stat_result:
        stated.append(path)
        return stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", counting)
    monkeypatch.setattr(os, "stat", stating)
    return listed, stated


def test_a_search_repeated_over_a_large_unchanged_tree_lists_nothing_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = Path(os.path.realpath(tmp_path)) / "tree"
    for p in range(PARENTS):
        for c in range(CHILDREN):
            (root / f"p{p}" / f"c{c}").mkdir(parents=True)
    time.sleep(2.1)  # older than RACY_NS: a listing may be kept
    directories = sorted(str(p) for p in root.glob("p*/**") if p != root)
    resolve._LISTINGS.clear()
    resolve._LISTED_ONCE.clear()
    listed, stated = _listings(monkeypatch)
    first = _search(root)
    assert len(first) == PARENTS * CHILDREN
    assert len(listed) == PARENTS + PARENTS * CHILDREN
    assert not set(stated) & set(listed)  # a first listing is only read
    # searched again: each directory listed a second time, and kept from now on
    listed.clear()
    assert _search(root) == first
    assert len(listed) == PARENTS + PARENTS * CHILDREN
    listed.clear()
    stated.clear()
    assert _search(root) == first
    assert listed == []  # every listing came from the process's own, one stat each
    assert sorted(set(stated)) == directories
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


def test_a_line_that_searches_a_tree_twice_lists_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first listing is not kept for the process, but it is for the line: ``find /usr
    -exec grep …`` searches the tree for its paths and again for the secrets below them."""
    root = Path(os.path.realpath(tmp_path)) / "tree"
    for p in range(5):
        for c in range(4):
            (root / f"p{p}" / f"c{c}").mkdir(parents=True)
        (root / f"p{p}" / "id_rsa").write_text("k")
    resolve._LISTINGS.clear()
    resolve._LISTED_ONCE.clear()
    listed, stated = _listings(monkeypatch)
    line = Resolver()
    paths = line.walk(str(root))
    assert len(paths) == 5 * 4 + 5 + 5
    assert len(listed) == 1 + 5 + 5 * 4
    listed.clear()
    assert line.walk(str(root)) == paths
    assert listed == [] and stated == []
    # the next line lists them again, and from then on keeps them
    assert Resolver().walk(str(root)) == paths
    assert len(listed) == 1 + 5 + 5 * 4
