"""A decision is built once: the sandbox plan, the trimming of a recorded decision's parts and
a recorded decision read back each build a whole new decision (or serialise one) and never
change the one they were given; a changed copy keeps the decision's id and time."""

from __future__ import annotations

from pathlib import Path

from clearance.engine.api import decide, load_policy
from clearance.engine.decision import ApprovalDecision
from clearance.engine.intents import ToolIntent
from clearance.engine.ledger import MAX_ITEMS, Ledger, read_records
from clearance.engine.ledger_replay import decision_from_dict
from clearance.sandbox.plan import annotate, annotate_ask
from clearance.sandbox.settings import SandboxSettings

POLICY = """\
version: 1
id: p
rules:
  - id: allow-tests
    decision: allow
    reason: tests
    when: {program: [pytest, "true"]}
  - id: ask-curl
    decision: ask
    reason: network
    when: {program: [curl]}
"""


def _decide(tmp_path: Path, command: str) -> ApprovalDecision:
    path = tmp_path / "p.yaml"
    path.write_text(POLICY)
    policy = load_policy(str(tmp_path), files=[str(path)])
    intent = ToolIntent("Bash", {"command": command}, cwd=str(tmp_path))
    return decide(intent, policy, cwd=str(tmp_path), workspace=str(tmp_path))


def test_a_changed_copy_keeps_id_and_time_and_leaves_the_original(tmp_path: Path) -> None:
    decision = _decide(tmp_path, "pytest -q")
    before = decision.to_dict()
    denied = decision.replaced(decision="deny", reason_code="sandbox_unavailable", reason="no")
    assert (denied.decision_id, denied.time) == (decision.decision_id, decision.time)
    assert (denied.decision, denied.reason_code, denied.reason) == (
        "deny",
        "sandbox_unavailable",
        "no",
    )
    assert denied.risk == "high"  # the new decision's default risk, not the allow's
    assert denied.policy_id == decision.policy_id and denied.parts == decision.parts
    assert decision.to_dict() == before


def test_the_sandbox_plan_returns_a_new_decision(tmp_path: Path) -> None:
    decision = _decide(tmp_path, "pytest -q")
    before = decision.to_dict()
    confined, confinement = annotate(decision, SandboxSettings(), None)
    assert confinement is not None and confined.sandbox == confinement.to_dict()
    unconfined, none = annotate(decision, SandboxSettings("deny"), "no bubblewrap")
    assert none is None and unconfined.decision == "deny"
    assert unconfined.reason_code == "sandbox_unavailable"
    ran, _ = annotate(decision, SandboxSettings("run"), "no bubblewrap")
    assert ran.decision == "allow" and "runs unconfined: no bubblewrap" in ran.reason
    assert decision.to_dict() == before  # the decision it was given is untouched
    for made in (confined, unconfined, ran):
        assert made.decision_id == decision.decision_id and made.time == decision.time
    asked = _decide(tmp_path, "curl https://example.com")
    same, none = annotate(asked, SandboxSettings(), None)
    assert same is asked and none is None  # only an allow is confined
    would, _ = annotate_ask(asked, SandboxSettings(), "no bubblewrap")
    assert would.decision == "ask" and would.sandbox == {
        "confined": False,
        "unavailable": "no bubblewrap",
        "policy": "ask",
    }
    assert asked.sandbox is None


def test_recording_a_long_command_trims_the_record_not_the_decision(tmp_path: Path) -> None:
    decision = _decide(tmp_path, " && ".join(["true"] * (MAX_ITEMS + 10)))
    total = len(decision.parts)
    assert total > MAX_ITEMS + 1
    Ledger(str(tmp_path / "ledger.jsonl")).append(decision, None, surface="check")
    assert len(decision.parts) == total
    (record,) = read_records(str(tmp_path / "ledger.jsonl"))
    recorded = record["decision"]
    assert isinstance(recorded, dict)
    assert recorded["parts_total"] == total
    assert isinstance(recorded["parts"], list) and len(recorded["parts"]) <= MAX_ITEMS + 1
    assert decision.to_dict(max_parts=3)["parts"] == decision.to_dict()["parts"][:3]  # type: ignore[index]


def test_a_recorded_decision_reads_back_whole(tmp_path: Path) -> None:
    decision = _decide(tmp_path, "pytest -q && curl https://example.com")
    data = annotate_ask(decision, SandboxSettings(), "no bubblewrap")[0].to_dict()
    rebuilt = decision_from_dict(data)
    assert rebuilt.to_dict() == data
    assert rebuilt.decision_id == data["decision_id"] and rebuilt.time == data["time"]
    # words this version does not know are shown as recorded
    older = decision_from_dict({**data, "reason_code": "retired_code", "risk": "unheard"})
    assert older.reason_code == "retired_code" and older.risk == "unheard"
