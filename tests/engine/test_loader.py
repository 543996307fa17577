"""Policy errors name file:line:column and the rule; loading never falls back to allow."""

from __future__ import annotations

import pytest
from engine_support import Write, check, policy_of

from clearance.engine.entry import decide_intent
from clearance.engine.errors import PolicyError
from clearance.engine.intents import ToolIntent


def issues(path: str) -> list[str]:
    with pytest.raises(PolicyError) as exc:
        policy_of(path)
    return [str(issue) for issue in exc.value.issues]


def test_yaml_syntax_error_has_position(write_policy: Write) -> None:
    path = write_policy("version: 1\nid: p\nrules:\n  - id: x\n    decision: [deny\n")
    (found,) = issues(path)
    assert found.startswith(f"{path}:")
    assert "YAML syntax" in found


def test_unknown_key_names_line_column_and_rule(write_policy: Write) -> None:
    path = write_policy(
        """\
        version: 1
        id: p
        rules:
          - id: no-rm
            decision: deny
            reason: x
            when: {program: rm}
            exampels: {match: [rm x]}
        """
    )
    (found,) = issues(path)
    assert found.startswith(f"{path}:8:5:")
    assert "[rule no-rm]" in found
    assert "unknown key 'exampels'" in found


def test_wrong_type_and_bad_decision(write_policy: Write) -> None:
    path = write_policy(
        """\
        version: 1
        id: p
        rules:
          - id: a
            decision: maybe
            reason: x
            when: {program: rm}
          - id: b
            decision: deny
            reason: x
            when: {classes: [teleport]}
        """
    )
    found = issues(path)
    assert any(":5:" in f and "[rule a]" in f for f in found), found
    assert any(":11:" in f and "[rule b]" in f and "teleport" in f for f in found), found


def test_duplicate_id_points_at_the_second(write_policy: Write) -> None:
    path = write_policy(
        """\
        version: 1
        id: p
        rules:
          - {id: same, decision: deny, reason: x, when: {program: rm}}
          - {id: same, decision: deny, reason: x, when: {program: mv}}
        """
    )
    (found,) = issues(path)
    assert f"{path}:5:" in found and "duplicate rule id 'same'" in found


def test_invalid_regex_and_glob(write_policy: Write) -> None:
    path = write_policy(
        """\
        version: 1
        id: p
        rules:
          - {id: r, decision: deny, reason: x, when: {regex: "(unclosed"}}
          - {id: g, decision: deny, reason: x, when: {program: "rm[x"}}
        """
    )
    found = issues(path)
    assert any("[rule r]" in f and "invalid regex" in f for f in found), found
    assert any("[rule g]" in f and "invalid glob" in f for f in found), found


def test_example_that_does_not_behave(write_policy: Write) -> None:
    path = write_policy(
        """\
        version: 1
        id: p
        rules:
          - id: no-rm
            decision: deny
            reason: x
            when: {program: rm}
            examples:
              match: ["rm -rf x", "ls"]
              no_match: ["rm y"]
        """
    )
    found = issues(path)
    assert len(found) == 2
    assert any(f.startswith(f"{path}:9:") and "'ls'" in f and "[rule no-rm]" in f for f in found)
    assert any(f.startswith(f"{path}:10:") and "'rm y'" in f for f in found)


def test_missing_file_and_cycle(write_policy: Write, tmp_path: object) -> None:
    assert "no such file" in issues("/nonexistent/policy.yaml")[0]
    a = write_policy("version: 1\nid: a\nextends: b.yaml\n", name="a.yaml")
    write_policy("version: 1\nid: b\nextends: a.yaml\n", name="b.yaml")
    assert "cycle" in " ".join(issues(a))


def test_broken_policy_fails_closed_on_every_decision(write_policy: Write) -> None:
    path = write_policy("version: 1\nid: p\nrules: [{id: x}]\n")
    decision = decide_intent(ToolIntent("bash", {"command": "ls"}), files=[path], cwd="/tmp")
    assert decision.decision == "deny"
    assert decision.reason_code == "policy_error"
    assert decision.errors and path in decision.errors[0]


def test_policy_flag_means_exactly_these_files(write_policy: Write) -> None:
    bare = write_policy("version: 1\nid: p\n")
    assert check(policy_of(bare), "rm -rf /").decision == "ask"
    extending = write_policy("version: 1\nid: q\nextends: default\n")
    decision = check(policy_of(extending), "rm -rf /")
    assert decision.decision == "deny"
    assert decision.policy_id is not None and decision.policy_id.startswith("default/")
