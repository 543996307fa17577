"""What reaches a find action: the names its expression lets through, as find evaluates it."""

from __future__ import annotations

import shlex

import pytest

from clearance.shellparse.findexpr import (
    MAX_FOUND,
    Bound,
    action_bounds,
    found_paths,
    name_glob,
    printed,
)


def _exec_bound(expression: str) -> Bound:
    tokens = shlex.split(expression)
    bounds, _ = action_bounds(tokens)
    (index,) = [k for k, t in enumerate(tokens) if t == "-exec"]
    return bounds[index]


@pytest.mark.parametrize(
    ("expression", "bound"),
    [
        ("-name '*.c' -exec cat {} +", [("*.c", False)]),
        ("-type f -name '*.c' -exec cat {} +", [("*.c", False)]),
        ("-iname '*.C' -exec cat {} +", [("*.C", True)]),
        ("( -name '*.c' -o -name '*.h' ) -exec cat {} +", [("*.c", False), ("*.h", False)]),
        ("-name a -a -name b -exec cat {} +", [("a", False)]),
        ("! ! -name a -exec cat {} +", [("a", False)]),
        # any name reaches these
        ("-exec cat {} +", None),
        ("! -name a -exec cat {} +", None),
        ("-not -name a -exec cat {} +", None),
        ("-exec cat {} + -name a", None),
        ("-name a -o -exec cat {} +", None),
        ("( -name a -o -type f ) -exec cat {} +", None),
        ("-name node_modules -prune -o -exec cat {} +", None),
        ("-name a , -exec cat {} +", None),
        ("-path '*/a' -exec cat {} +", None),
        ("-name 'a/b' -exec cat {} +", None),
        # a value that looks like an operator is a value
        ("-name -o -exec cat {} +", [("-o", False)]),
    ],
)
def test_what_reaches_an_exec(expression: str, bound: Bound) -> None:
    assert _exec_bound(expression) == bound


def test_each_action_has_its_own_bound() -> None:
    tokens = shlex.split("-name '*.py' -exec cat {} ; -o -name '*.md' -exec wc {} ;")
    bounds, _ = action_bounds(tokens)
    first, second = [k for k, t in enumerate(tokens) if t == "-exec"]
    assert bounds[first] == [("*.py", False)]
    assert bounds[second] == [("*.md", False)]  # what is not a .py, and is a .md


def test_what_is_printed() -> None:
    assert printed(shlex.split("-name '*.py'")) == [("*.py", False)]
    assert printed(shlex.split("-type f")) is None
    assert printed(shlex.split("! -name '*.py'")) is None
    assert printed(shlex.split("-name '*.py' -print0")) == [("*.py", False)]
    assert printed(shlex.split("-name x -prune -o -print")) is None


def test_hostile_expressions_end_within_bounds() -> None:
    """Nesting deeper than the depth budget, stray and unclosed parentheses: an answer, and
    one that allows any name, never an exception."""
    deep = ["("] * 100_000 + ["-name", "a", "-exec", "cat", "{}", "+"] + [")"] * 100_000
    bounds, _ = action_bounds(deep)
    assert all(b is None for b in bounds.values())
    for expression in (") -name a -exec cat {} +", "( -name a -exec cat {} +", "-exec cat {}"):
        tokens = shlex.split(expression)
        bounds, _ = action_bounds(tokens)
        index = tokens.index("-exec")
        assert bounds[index] is None or bounds[index] == [("a", False)], expression


def test_case_folded_names() -> None:
    assert name_glob("ID_rsa*", True) == "[iI][dD]_[rR][sS][aA]*"
    assert name_glob("ID", False) == "ID"
    assert name_glob("[ab]x", True) is None  # not folded: any name instead


def test_found_paths() -> None:
    assert found_paths(["."], None) == ["./{}"]
    assert found_paths(["/"], [("*.c", False)]) == ["/{}/*.c"]
    assert found_paths(["src/", "/etc"], [("a", False), ("b", True)]) == [
        "src/{}/a",
        "src/{}/[bB]",
        "/etc/{}/a",
        "/etc/{}/[bB]",
    ]
    assert found_paths(["src"], [("[ab]", True)]) == ["src/{}"]
    assert found_paths([f"d{k}" for k in range(MAX_FOUND + 1)], None) == ["/{}"]
