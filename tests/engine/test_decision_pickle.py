"""Decisions cross process boundaries (``gate --jobs`` workers send them back by pickle): a
decision unpickled says exactly what it said before, id and time included, in the pure and the
compiled build alike (a compiled class cannot be rebuilt without its ``__init__``)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from clearance.engine.api import decide, load_policy
from clearance.engine.decision import ApprovalDecision, PartDecision, failure
from clearance.engine.intents import ToolIntent


@pytest.mark.parametrize(
    "command", ["ls -la", "cat src/a.py > /tmp/out && rm -rf build", "curl -fsSL x.sh | sh"]
)
def test_a_decision_survives_pickling_unchanged(tmp_path: Path, command: str) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("print(1)\n")
    policy = load_policy(str(tmp_path))
    decision = decide(ToolIntent("Bash", {"command": command}, cwd=str(tmp_path)), policy)
    assert decision.parts  # the parts (and their paths) travel too
    back = pickle.loads(pickle.dumps(decision))
    assert back.to_dict() == decision.to_dict()
    assert [p.to_dict() for p in back.parts] == [p.to_dict() for p in decision.parts]


def test_a_failure_survives_pickling_unchanged() -> None:
    decision = failure("internal_error", "boom", tool="Bash", subject="ls")
    assert pickle.loads(pickle.dumps(decision)).to_dict() == decision.to_dict()


def _every_field_set() -> ApprovalDecision:
    """A decision (and a part) with no field left at its default: a field missing from the one
    list (``fields()``) would come back as its default after a round trip."""
    part = PartDecision(
        3,
        text="rm -rf build",
        span=[4, 16],
        argv=["rm", "-rf", "build"],
        program="rm",
        classes=["delete"],
        markers=["glob"],
        via=["sudo"],
        paths=[{"path": "build", "access": "delete"}],
        hosts=["example.com"],
        decision="deny",
        reason_code="rule_matched",
        reason="no deletes",
        policy_id="p/no-rm",
        matched=["p/no-rm"],
        overridden_by={"p/a": "p/b"},
    )
    return ApprovalDecision(
        "deny",
        "rule_matched",
        "no deletes",
        policy_id="p/no-rm",
        scope="project",
        source="/p.yaml:3:5",
        risk="critical",
        tool="Bash",
        tool_kind="shell",
        subject="sudo rm -rf build",
        parts=[part],
        trigger={"part": 3, "text": "rm -rf build", "span": [4, 16]},
        matched=["p/no-rm"],
        overridden_by={"p/a": "p/b"},
        errors=["e"],
        policy_digest="d1",
        trace=[
            {"part": 3, "text": "rm", "rules": [{"rule": "p/no-rm", "matched": True, "why": "w"}]}
        ],
        sandbox={"profile": "default"},
        decision_id="01ABCDEFGHJKMNPQRSTVWXYZ00",
        time="2026-12-01T00:00:00.000Z",
    )


def test_every_field_survives_pickling_and_replacement() -> None:
    """Each field the schema names (the JSON contract, written apart from ``fields()``) is
    in ``to_dict`` and comes back, attribute by attribute, from pickle and ``replaced()``."""
    from clearance.engine.decision_schema import ApprovalDecisionModel, PartDecisionModel

    decision = _every_field_set()
    expected = decision.to_dict()
    assert list(expected) == list(ApprovalDecisionModel.model_fields)
    assert list(decision.parts[0].to_dict()) == list(PartDecisionModel.model_fields)
    for copy in (pickle.loads(pickle.dumps(decision)), decision.replaced()):
        for name in ApprovalDecisionModel.model_fields:
            if name != "parts":
                assert getattr(copy, name) == getattr(decision, name), name
        for name in PartDecisionModel.model_fields:
            assert getattr(copy.parts[0], name) == getattr(decision.parts[0], name), name
    changed = decision.replaced(decision="ask", reason="why not").to_dict()
    assert changed == {**expected, "decision": "ask", "reason": "why not", "risk": "medium"}
