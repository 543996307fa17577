"""``match_sequence``: the one ``**`` matcher behind path globs and rule argv patterns."""

from __future__ import annotations

import pytest

from clearance.shellparse.globs import match_sequence


def _same(a: str, b: str) -> bool:
    return a == b


@pytest.mark.parametrize(
    ("pattern", "items", "prefix", "expected"),
    [
        ("a b", "a b", False, True),
        ("a b", "a b c", False, False),
        ("a b", "a b c", True, True),
        ("a ** c", "a c", False, True),
        ("a ** c", "a x y c", False, True),
        ("a ** c", "a x y c d", False, False),
        ("a ** c ** e", "a c x c y e", False, True),
        ("a **", "a", False, True),
        ("** b", "a a a b", False, True),
        ("** b", "a a a", False, False),
        ("", "", False, True),
        ("", "a", False, False),
        ("", "a", True, True),
    ],
)
def test_star_spans_any_number_of_items(
    pattern: str, items: str, prefix: bool, expected: bool
) -> None:
    assert match_sequence(pattern.split(), items.split(), _same, prefix) is expected


def test_many_stars_stay_linear() -> None:
    """A pattern of many ``**`` against a long subject that fails at its end: without
    backtracking over every star this would not finish."""
    pattern = ["**", "x"] * 200 + ["never"]
    items = ["x"] * 5000
    assert match_sequence(pattern, items, _same, False) is False
