"""Breadth: every program that appears three or more times in the shared corpus has a table
entry, or is listed in data/unknown_programs.tsv as deliberately unknown, with a reason from a
closed set; and nothing listed there has an entry (the list never goes stale)."""

from __future__ import annotations

import collections
from pathlib import Path
from typing import Any

from clearance.shellparse import classify
from clearance.shellparse.knowledge import lookup

DATA = Path(__file__).parent / "data" / "unknown_programs.tsv"
REASONS = frozenset(
    (
        "placeholder",
        "project-script",
        "other-vcs",
        "machine-admin",
        "package-tool",
        "runs-code",
        "interactive",
        "niche",
    )
)
#: Names the extractor emits for shell constructs, not programs (``[[ … ]]``, ``(( … ))``).
#: Shell constructs the facts list as parts of their own (arithmetic in ``$((…))`` included).
CONSTRUCTS = frozenset(("[[", "((", "$((", "for (("))


def listed() -> dict[str, str]:
    out: dict[str, str] = {}
    for number, line in enumerate(DATA.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        program, _, reason = line.partition("\t")
        assert reason in REASONS, f"line {number}: reason {reason!r} not in {sorted(REASONS)}"
        assert program not in out, f"line {number}: {program} listed twice"
        out[program] = reason
    return out


def test_the_list_is_well_formed_and_not_stale() -> None:
    entries = listed()
    assert entries
    stale = sorted(p for p in entries if lookup(p) is not None)
    assert not stale, f"listed as unknown but the tables know them: {stale}"


def test_every_frequent_corpus_program_is_known_or_listed(corpus: Any) -> None:
    counts: collections.Counter[str] = collections.Counter()
    for line in corpus.commands:
        for part in classify(line, cwd="/work/proj", home="/home/u").commands:
            if part.program and "dynamic_program" not in part.markers:
                counts[part.program] += 1
    entries = listed()
    missing = sorted(
        p
        for p, n in counts.items()
        if n >= 3 and p not in CONSTRUCTS and lookup(p) is None and p not in entries
    )
    assert not missing, f"corpus programs with no table entry and no reason: {missing[:50]}"
