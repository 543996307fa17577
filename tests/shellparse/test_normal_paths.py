"""``paths.normal`` and ``paths.absolute``: ``normpath`` and ``abspath`` without their work for
a path that is normal already -- the same answer for every path, exhaustively over short ones."""

from __future__ import annotations

import itertools
import os
import posixpath

import pytest

from clearance.shellparse.paths import absolute, is_normal, normal
from clearance.shellparse.world import _relative

#: Every path of up to seven characters over these: slashes, dots, a name character.
_ALPHABET = "/.a"
_PATHS = [
    "".join(chars)
    for length in range(1, 8)
    for chars in itertools.product(_ALPHABET, repeat=length)
]


def test_normal_is_normpath_for_every_absolute_path() -> None:
    checked = 0
    for path in _PATHS:
        if not path.startswith("/"):
            continue
        assert normal(path) == posixpath.normpath(path), path
        # never normal when normpath would change it; a path it keeps may be left to it
        # (``//a``, a hidden name), but not a plain one
        normalised = posixpath.normpath(path)
        if is_normal(path):
            assert normalised == path, path
        elif "/." not in path and not path.startswith("//"):
            assert normalised != path, path
        checked += 1
    assert checked > 1000


def test_absolute_is_abspath_for_every_path(
    tmp_path: os.PathLike[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for path in _PATHS:
        assert absolute(path) == os.path.abspath(path), path


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/", True),
        ("/usr/bin", True),
        ("/a..b/c", True),
        ("/a/.c", False),  # normal, but left to normpath
        ("//usr", False),  # POSIX keeps two leading slashes: normpath's answer, not this one
        ("/usr/", False),
        ("/usr/./bin", False),
        ("/usr/../bin", False),
        ("/usr/..", False),
        ("usr/bin", False),
        ("", False),
    ],
)
def test_is_normal(path: str, expected: bool) -> None:
    assert is_normal(path) is expected
    if path.startswith("/"):
        assert normal(path) == posixpath.normpath(path)


def test_relative_is_relpath_below_and_beside_the_root(
    tmp_path: os.PathLike[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    roots = ["/", "/a", "/a/b", "/a/", "/a/./b", "/ab", "a", "."]
    for root in roots:
        for path in _PATHS:
            assert _relative(path, root) == os.path.relpath(path, root), (path, root)
