"""Reads whose file is not known before the command runs, and loops over known values.

``cat $F`` reads whatever ``F`` holds when it runs -- ``export F=.env`` in an earlier call of a
persistent shell makes it a secret read the text cannot show -- so a read of a path whose value
is unknown carries ``unresolved_path`` and is never allowed by the read-only rule. A ``for``
loop over a few values the text gives is judged with each value (a pattern stays a pattern), so
the ordinary loops stay allowed. Each case runs in a real workspace on disk.
"""

from __future__ import annotations

import pytest
from workspace_support import World, decide_in, default_pack, make_world

from clearance.engine.rules import PolicySet

#: (technique, command, decision, rule id or reason code, benign twin that must stay allowed)
CASES = [
    ("variable-from-outside", "cat $F", "ask", "unresolved_path", 'F=README.md; cat "$F"'),
    ("positional", 'cat "$1"', "ask", "unresolved_path", "cat README.md"),
    ("recursive", "grep -r TODO $D", "ask", "unresolved_path", "grep -r TODO src"),
    (
        "loop-pattern",
        'for f in .env*; do cat "$f"; done',
        "deny",
        "default/no-secret-reads",
        'for f in *.md; do cat "$f"; done',
    ),
    (
        "loop-words",
        'for f in README.md .env; do cat "$f"; done',
        "deny",
        "default/no-secret-reads",
        'for f in README.md setup.cfg; do cat "$f"; done',
    ),
    (
        "ls-files-pathspec",
        "git ls-files ../proj/.env | xargs cat",
        "deny",
        "default/no-secret-reads",
        "git ls-files src/app.py | xargs cat",
    ),
    (
        "loop-unknown",
        "for f in $(cat list.txt); do cat $f; done",
        "ask",
        "unresolved_path",
        "for f in a b; do echo $f; done",
    ),
]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    files = {"README.md": "# proj\n", "setup.cfg": "[x]\n", ".env": "K=v\n"}
    return make_world(tmp_path_factory.mktemp("unresolved"), {**files, "src/app.py": "# TODO\n"})


@pytest.fixture(scope="module")
def policy(world: World) -> PolicySet:
    return default_pack(world)


@pytest.mark.parametrize(
    ("technique", "bad", "decision", "why", "twin"), CASES, ids=[c[0] for c in CASES]
)
def test_unknown_reads_are_not_allowed_and_known_loops_are(
    policy: PolicySet,
    world: World,
    technique: str,
    bad: str,
    decision: str,
    why: str,
    twin: str,
) -> None:
    found = decide_in(policy, world, bad)
    assert found.decision == decision, (bad, found.decision, found.policy_id, found.reason_code)
    assert why in (found.policy_id, found.reason_code), (bad, found.policy_id, found.reason_code)
    allowed = decide_in(policy, world, twin)
    assert allowed.decision == "allow", (twin, allowed.policy_id, allowed.reason_code)


def test_listing_an_unknown_directory_is_metadata(policy: PolicySet, world: World) -> None:
    """``ls $D`` shows names, not contents: it stays allowed."""
    assert decide_in(policy, world, "ls $D").decision == "allow"


def test_the_path_says_why_it_is_unresolved() -> None:
    from clearance.shellparse import classify

    facts = classify("cat $F", cwd="/work/proj", home="/home/u", workspace="/work/proj")
    (part,) = facts.commands
    assert "unresolved_path" in part.markers
    assert [p.why for p in part.paths if p.resolved is None] == [
        "its value is not known before the command runs"
    ]
