"""The evasion corpus (``data/evasions.yaml``): each command must produce the facts written
for it, and at least one part a strict policy would stop."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from corpus_expect import describe, facts_of, load, strict_reasons, unmatched

CASES = load("evasions.yaml")


def _id(case: dict[str, Any]) -> str:
    return str(case["technique"])


def test_corpus_is_large_and_covers_the_techniques() -> None:
    assert len(CASES) >= 150
    families = Counter(str(c["technique"]).split("/")[0] for c in CASES)
    for family in (
        "wrapper",
        "shell",
        "quoting",
        "variable",
        "substitution",
        "interpreter",
        "redirect",
        "git",
        "env",
        "flags",
        "path",
        "persist",
        "exfil",
        "system",
        "privilege",
        "fetch",
    ):
        assert families[family] >= 5 or family in ("system",), (family, families[family])
    commands = [c["cmd"] for c in CASES]
    assert len(commands) == len(set(commands)), "duplicate commands"
    techniques = [c["technique"] for c in CASES]
    assert len(techniques) == len(set(techniques)), "duplicate technique names"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_evasion(case: dict[str, Any]) -> None:
    facts = facts_of(case["cmd"])
    missing = unmatched(facts, case["expect"])
    assert not missing, (
        f"{case['technique']}: {case['cmd']!r}\n" + "\n".join(missing) + "\n" + describe(facts)
    )
    stopped = [(part.argv, strict_reasons(part)) for part in facts.commands]
    stopped = [(argv, reasons) for argv, reasons in stopped if reasons]
    # sending to the network (a POST, an upload) is what a strict policy asks about too
    sends = any("network_write" in part.classes for part in facts.commands)
    assert stopped or sends or "parse_error" in facts.markers, (
        f"{case['technique']}: {case['cmd']!r} -- no part a strict policy would stop "
        f"(no dangerous class, no write/delete outside the workspace, no secret read, no "
        f"fail-closed marker)\n{describe(facts)}"
    )


def test_the_checks_can_fail() -> None:
    """The two checks above are not vacuous: a harmless command passes neither."""
    harmless = facts_of("git status")
    assert [strict_reasons(part) for part in harmless.commands] == [[]]
    assert unmatched(harmless, [{"program": "rm", "delete": ["/"]}])
    assert not unmatched(harmless, [{"program": "git", "classes": ["vcs_read"]}])
