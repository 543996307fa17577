"""Policy errors in the policy's own words: file:line:column, the rule, did-you-mean, the
YAML 1.1 boolean trap, no validation-library jargon."""

from __future__ import annotations

import pytest
from engine_support import Write, policy_of

from clearance.engine.errors import PolicyError


def _errors(write_policy: Write, rules: str) -> list[str]:
    path = write_policy("version: 1\nid: p\nrules:\n" + rules)
    with pytest.raises(PolicyError) as caught:
        policy_of(path)
    return [str(issue) for issue in caught.value.issues]


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (
            "  - {id: a, decision: no, reason: r r r, when: {program: git}}\n",
            ":4:23: [rule a] decision: the boolean false is not one of allow, ask, deny; "
            "YAML 1.1 reads an unquoted no/off/false",
        ),
        (
            "  - {id: a, decision: alow, reason: r r r, when: {program: git}}\n",
            "[rule a] decision: 'alow' is not one of allow, ask, deny (did you mean 'allow'?)",
        ),
        (
            "  - {id: a, decision: deny, reason: r r r, when: {programm: git}}\n",
            "[rule a] when.programm: unknown key 'programm' (did you mean 'program'?)",
        ),
        (
            "  - {id: a, decision: deny, reasn: r r r, when: {program: git}}\n",
            "[rule a] reasn: unknown key 'reasn' (did you mean 'reason'?)",
        ),
        (
            "  - {id: a, decision: deny, reason: r, when: {paths: {acess: [read]}}}\n",
            "when.paths.acess: unknown key 'acess' (did you mean 'access'?)",
        ),
        (
            "  - {id: a, decision: deny, reason: r, when: {classes: [netwrk]}}\n",
            "unknown effect class 'netwrk' (did you mean 'network'?)",
        ),
        (
            "  - {id: a, decision: deny, reason: r, when: {program: on}}\n",
            "when.program: expected a list (or one string), got the boolean true; YAML 1.1",
        ),
        (
            "  - {id: a, decision: deny, reason: r, when: {program: x}, examples: {match: [1]}}\n",
            "examples.match[1]: expected a string, got the number 1",
        ),
    ],
)
def test_errors_name_the_place_and_what_was_meant(
    write_policy: Write, rule: str, expected: str
) -> None:
    errors = _errors(write_policy, rule)
    assert any(expected in e for e in errors), errors
    for error in errors:
        assert "Input should" not in error and "Value error" not in error
        assert "rules.0" not in error


def test_an_unknown_top_level_key_is_suggested(write_policy: Write) -> None:
    path = write_policy("version: 1\nid: p\nrulez: []\n")
    with pytest.raises(PolicyError) as caught:
        policy_of(path)
    assert "3:1: (top level)" not in str(caught.value)
    assert "rulez: unknown key 'rulez' (did you mean 'rules'?)" in str(caught.value)
