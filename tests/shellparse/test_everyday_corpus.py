"""The everyday corpus (``data/everyday.yaml``): what agents run all day must come out as
the harmless thing it is -- the facts written for it, nothing dangerous, nothing unknown,
every path in the workspace. A name known only when the command runs (xargs's input, a loop
variable) is allowed for reading: it comes from the project's own listing."""

from __future__ import annotations

from typing import Any

import pytest
from corpus_expect import WORKSPACE, describe, facts_of, load, strict_reasons, unmatched

CASES = load("everyday.yaml")


def test_corpus_is_large() -> None:
    assert len(CASES) >= 150
    commands = [c["cmd"] for c in CASES]
    assert len(commands) == len(set(commands)), "duplicate commands"


@pytest.mark.parametrize("case", CASES, ids=lambda case: str(case["cmd"])[:60])
def test_everyday(case: dict[str, Any]) -> None:
    facts = facts_of(case["cmd"])
    assert facts.ok, f"{case['cmd']!r} does not parse: {facts.error}"
    missing = unmatched(facts, case["expect"])
    assert not missing, f"{case['cmd']!r}\n" + "\n".join(missing) + "\n" + describe(facts)
    for part in facts.commands:
        reasons = strict_reasons(part)
        assert not reasons, f"{case['cmd']!r}: {part.argv!r} would be stopped: {reasons}"
        outside = [
            f"{p.access} {p.path}"
            for p in part.paths
            if not p.inside_workspace and not (p.resolved is None and p.access == "read")
        ]
        assert not outside, f"{case['cmd']!r}: {part.argv!r} reaches outside {WORKSPACE}: {outside}"
