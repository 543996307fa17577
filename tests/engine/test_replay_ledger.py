"""Replay: recorded intents re-decided under a new policy, nothing executed, loosening flagged."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from clearance.cli.commands.replay import run_replay
from clearance.engine.api import decide, load_policy
from clearance.engine.decision import ApprovalDecision
from clearance.engine.errors import PolicyError
from clearance.engine.intents import ToolIntent
from clearance.engine.ledger import Ledger, read_records
from clearance.engine.ledger_replay import decision_from_dict, intent_from_record, replay

OLD = """\
version: 1
id: old
rules:
  - id: no-rm
    decision: deny
    reason: no deletes
    when: {program: rm}
  - id: ls
    decision: allow
    reason: listing
    when: {program: ls}
  - id: touch
    decision: allow
    reason: touching
    when: {program: touch}
"""

NEW = """\
version: 1
id: new
rules:
  - id: rm-build
    decision: allow
    reason: build output may go
    when: {argv: ["rm -rf build"]}
  - id: ls
    decision: allow
    reason: listing
    when: {program: ls}
  - id: no-touch
    decision: deny
    reason: no new files
    when: {program: touch}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def record_all(tmp_path: Path, policy_file: str, commands: list[str]) -> str:
    ledger = Ledger(str(tmp_path / "ledger.jsonl"))
    policy = load_policy(str(tmp_path), files=[policy_file])
    for command in commands:
        intent = ToolIntent("Bash", {"command": command}, source="codex", cwd=str(tmp_path))
        decision = decide(intent, policy, cwd=str(tmp_path), workspace=str(tmp_path))
        ledger.append(
            decision,
            intent,
            surface="hook",
            agent="codex",
            workspace=str(tmp_path),
            home=str(tmp_path),
            policy_files=[policy_file],
        )
    return ledger.path


def test_replay_reports_changes_by_kind_with_old_and_new_rules(tmp_path: Path) -> None:
    marker = tmp_path / "must-not-exist"
    old = write(tmp_path, "old.yaml", OLD)
    new = write(tmp_path, "new.yaml", NEW)
    path = record_all(tmp_path, old, ["rm -rf build", "ls", f"touch {marker}", "rm -rf src"])
    result = replay(read_records(path), files=[new])
    assert result.records == result.replayed == 4
    assert result.counts == {"allow->deny": 1, "deny->allow": 1, "deny->ask": 1}
    by_kind = {c.kind: c for c in result.changes}
    loosened = by_kind["deny->allow"]
    assert loosened.looser and not by_kind["allow->deny"].looser and by_kind["deny->ask"].looser
    assert loosened.old["policy_id"] == "old/no-rm" and loosened.new.policy_id == "new/rm-build"
    assert by_kind["allow->deny"].new.policy_id == "new/no-touch"
    assert [c.index for c in result.loosened] == [0, 3]
    # "ls" kept its decision but another pack's rule decides it now.
    assert [(c.index, c.new.policy_id) for c in result.rule_changes] == [(1, "new/ls")]
    assert not marker.exists()  # replay decides; it never runs anything


def test_unchanged_policy_changes_nothing(tmp_path: Path) -> None:
    old = write(tmp_path, "old.yaml", OLD)
    path = record_all(tmp_path, old, ["rm -rf build", "ls", "cat x"])
    result = replay(read_records(path), files=[old])
    assert result.changes == [] and result.rule_changes == [] and result.replayed == 3


def test_records_without_an_intent_are_skipped(tmp_path: Path) -> None:
    from clearance.engine.decision import failure

    old = write(tmp_path, "old.yaml", OLD)
    path = record_all(tmp_path, old, ["ls"])
    Ledger(path).append(failure("bad_input", "payload is not JSON"), None, surface="hook")
    result = replay(read_records(path), files=[old])
    assert result.records == 2 and result.replayed == 1
    assert [index for index, _ in result.skipped] == [1]


def test_broken_new_policy_raises(tmp_path: Path) -> None:
    old = write(tmp_path, "old.yaml", OLD)
    path = record_all(tmp_path, old, ["ls"])
    broken = write(tmp_path, "broken.yaml", "version: 1\nid: b\nrules:\n  - decision: maybe\n")
    with pytest.raises(PolicyError):
        replay(read_records(path), files=[broken])


def test_scopes_at_each_records_directory_are_used_without_files(tmp_path: Path) -> None:
    # with the shipped default pack in force below each project's policy (as in real use)
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    good, bad = tmp_path / "good", tmp_path / "bad"
    for project, text in ((good, NEW), (bad, "version: 1\nrules: [\n")):
        (project / ".clearance").mkdir(parents=True)
        (project / ".git").mkdir()
        (project / ".clearance" / "policy.yaml").write_text(text)
    ledger = Ledger(str(tmp_path / "ledger.jsonl"))
    old = load_policy(str(tmp_path), files=[write(tmp_path, "old.yaml", OLD)])
    for project in (good, bad, good):
        intent = ToolIntent("Bash", {"command": "touch a"}, cwd=str(project))
        ledger.append(decide(intent, old, cwd=str(project)), intent, surface="check")
    result = replay(read_records(ledger.path), env=env)
    assert [(c.index, c.kind, c.new.policy_id) for c in result.changes] == [
        (0, "allow->deny", "new/no-touch"),
        (2, "allow->deny", "new/no-touch"),
    ]
    assert result.replayed == 2 and [i for i, _ in result.skipped] == [1]
    (error,) = result.errors
    assert error.startswith(f"policy at {bad}:") and "policy.yaml" in error


def test_recorded_decision_round_trips(tmp_path: Path) -> None:
    old = write(tmp_path, "old.yaml", OLD)
    path = record_all(tmp_path, old, ["ls -la | grep x && rm -rf build"])
    (record,) = read_records(path)
    data = record["decision"]
    assert isinstance(data, dict)
    rebuilt = decision_from_dict(data)
    assert isinstance(rebuilt, ApprovalDecision)
    assert rebuilt.to_dict() == data
    intent = intent_from_record(record)
    assert intent is not None and intent.to_dict() == record["intent"]


def test_decision_from_a_damaged_dict_fails_closed() -> None:
    rebuilt = decision_from_dict({"decision": "maybe", "parts": [{"decision": 3}]})
    assert rebuilt.decision == "deny" and rebuilt.parts[0].decision == "deny"


def run(path: str, policies: list[str], **kwargs: bool) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_replay(path, policies=policies, out=out, err=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


def test_command_exit_status(tmp_path: Path) -> None:
    old = write(tmp_path, "old.yaml", OLD)
    new = write(tmp_path, "new.yaml", NEW)
    path = record_all(tmp_path, old, ["rm -rf build", "touch x"])
    code, out, _ = run(path, [new])
    assert code == 4
    assert "deny->allow" in out and "LOOSER" in out
    assert "old deny old/no-rm  ->  new allow new/rm-build" in out
    assert run(path, [new], allow_loosening=True)[0] == 0
    assert run(path, [old])[0] == 0
    stricter = write(tmp_path, "strict.yaml", OLD.replace("decision: allow", "decision: deny"))
    code, out, _ = run(path, [stricter])
    assert code == 0 and "allow->deny" in out


def test_command_json(tmp_path: Path) -> None:
    old = write(tmp_path, "old.yaml", OLD)
    new = write(tmp_path, "new.yaml", NEW)
    path = record_all(tmp_path, old, ["rm -rf build"])
    code, out, _ = run(path, [new], as_json=True)
    body = json.loads(out)
    assert code == 4 and body["counts"] == {"deny->allow": 1} and body["loosened"] == 1
    (change,) = body["changes"]
    assert change["old"]["policy_id"] == "old/no-rm" and change["new"]["policy_id"] == (
        "new/rm-build"
    )


def test_command_refuses_a_tampered_ledger(tmp_path: Path) -> None:
    old = write(tmp_path, "old.yaml", OLD)
    path = record_all(tmp_path, old, ["rm -rf build", "ls"])
    text = Path(path).read_text().replace('"decision":"deny"', '"decision":"allow"', 1)
    Path(path).write_text(text)
    code, out, err = run(path, [old])
    assert code == 2 and out == ""
    assert "fails verification at record 0 (edited)" in err


def test_command_usage_errors(tmp_path: Path) -> None:
    old = write(tmp_path, "old.yaml", OLD)
    assert run(str(tmp_path / "missing.jsonl"), [old])[0] == 2
    path = record_all(tmp_path, old, ["ls"])
    code, _, err = run(path, [str(tmp_path / "nope.yaml")])
    assert code == 2 and "nope.yaml" in err


def test_the_report_counts_the_changes_by_kind_and_marks_the_less_strict(tmp_path: Path) -> None:
    old = write(tmp_path, "old.yaml", OLD)
    new = write(tmp_path, "new.yaml", NEW)
    path = record_all(tmp_path, old, ["rm -rf build", "rm -rf build", "touch x", "ls"])
    _, out, _ = run(path, [new])
    assert "3 decision(s) changed:\n" in out
    assert "  deny->allow      2  (less strict)\n" in out
    assert "  allow->deny      1\n" in out
    _, same, _ = run(path, [old])
    assert "no decision changed\n" in same and "changed:" not in same
