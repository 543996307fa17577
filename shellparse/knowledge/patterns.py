"""Ordered ``*`` patterns as dictionaries: the first pattern of a table that matches a name,
found with a few dictionary lookups instead of a scan of every pattern.

A table is a sequence of ``(pattern, value)`` in order; the only wildcard is ``*``. It is
split once (by ``python -m clearance.shellparse.knowledge``, into the generated ``_index``)
into exact names, ``PREFIX*`` and ``*SUFFIX`` patterns keyed by their literal part, and the
rest (two stars or more) kept in order. Each entry carries its position in the table, so the
answer is the one a scan in order would give.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

#: exact, prefixes, suffixes (literal -> (position, value)), the lengths of the prefixes and
#: of the suffixes (the only slices worth looking up), then the others in order.
Split = tuple[
    dict[str, tuple[int, str]],
    dict[str, tuple[int, str]],
    dict[str, tuple[int, str]],
    tuple[int, ...],
    tuple[int, ...],
    tuple[tuple[int, str, str], ...],
]


def split(table: Iterable[tuple[str, str]]) -> Split:
    """The four parts of ``table`` (the first of equal patterns wins, as in a scan)."""
    exact: dict[str, tuple[int, str]] = {}
    prefixes: dict[str, tuple[int, str]] = {}
    suffixes: dict[str, tuple[int, str]] = {}
    others: list[tuple[int, str, str]] = []
    for position, (pattern, value) in enumerate(table):
        stars = pattern.count("*")
        if stars == 0:
            exact.setdefault(pattern, (position, value))
        elif stars == 1 and pattern.endswith("*"):
            prefixes.setdefault(pattern[:-1], (position, value))
        elif stars == 1 and pattern.startswith("*"):
            suffixes.setdefault(pattern[1:], (position, value))
        else:
            others.append((position, pattern, value))
    return (
        exact,
        prefixes,
        suffixes,
        tuple(sorted({len(k) for k in prefixes})),
        tuple(sorted({len(k) for k in suffixes})),
        tuple(others),
    )


def star_match(name: str, pattern: str) -> bool:
    """``fnmatch`` for patterns whose only wildcard is ``*``, without a regular expression."""
    if "*" not in pattern:
        return name == pattern
    pieces = pattern.split("*")
    head, tail = pieces[0], pieces[-1]
    if len(name) < len(head) + len(tail) or not name.startswith(head) or not name.endswith(tail):
        return False
    at = len(head)
    end = len(name) - len(tail)
    for piece in pieces[1:-1]:
        found = name.find(piece, at, end)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def first(parts: Split, name: str) -> tuple[int, str] | None:
    """``(position, value)`` of the first pattern of the table matching ``name``."""
    exact, prefixes, suffixes, prefix_lengths, suffix_lengths, others = parts
    best = exact.get(name)
    size = len(name)
    for length in prefix_lengths:
        if length > size:
            break
        hit = prefixes.get(name[:length])
        if hit is not None and (best is None or hit[0] < best[0]):
            best = hit
    for length in suffix_lengths:
        if length > size:
            break
        hit = suffixes.get(name[size - length :])
        if hit is not None and (best is None or hit[0] < best[0]):
            best = hit
    for position, pattern, value in others:
        if best is not None and position > best[0]:
            break
        if star_match(name, pattern):
            return position, value
    return best


def source(name: str, parts: Split) -> list[str]:
    """Lines of Python that bind ``name`` to ``parts`` (for the generated index)."""
    exact, prefixes, suffixes, prefix_lengths, suffix_lengths, others = parts
    lines = [f"{name} = ("]
    for mapping in (exact, prefixes, suffixes):
        lines.append("    {")
        lines.extend(f"        {k!r}: {v!r}," for k, v in sorted(mapping.items()))
        lines.append("    },")
    lines.append(f"    {prefix_lengths!r},")
    lines.append(f"    {suffix_lengths!r},")
    lines.append("    (")
    lines.extend(f"        {entry!r}," for entry in others)
    lines.append("    ),")
    lines.append(")")
    return lines
