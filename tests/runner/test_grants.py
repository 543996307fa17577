"""Session grants in the runner: numbered, kept for the run, evaluated by the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from clearance.engine.amend import propose_grant
from clearance.engine.api import decide, load_policy
from clearance.engine.decision import ApprovalDecision
from clearance.engine.intents import ToolIntent
from clearance.runner.grants import SessionGrants


def test_the_session_pack_has_the_engine_shape_and_a_content_digest() -> None:
    grants = SessionGrants()
    assert grants.packs() == []
    rule = {"id": "grant-1", "decision": "allow", "reason": "r", "when": {"program": ["ls"]}}
    assert grants.add(rule) == rule
    (pack,) = grants.packs()
    assert pack["scope"] == "session" and pack["id"] == "session"
    first_digest = pack["digest"]
    grants.add({**rule, "id": "grant-2"})
    assert grants.packs()[0]["digest"] != first_digest


def test_grant_ids_are_not_reused_or_skipped() -> None:
    grants = SessionGrants()
    with pytest.raises(ValueError):
        grants.add({"id": "grant-2", "decision": "allow", "reason": "r", "when": {}})
    with pytest.raises(ValueError):
        grants.add({"id": "grant-1", "decision": "deny", "reason": "r", "when": {}})


def test_the_engine_allows_what_was_granted_and_still_denies_what_is_denied(
    policy_file: str, workspace: Path
) -> None:
    ws = str(workspace)

    def verdict(session: list[dict[str, object]], command: str) -> ApprovalDecision:
        policy = load_policy(ws, files=[policy_file], session=session)
        intent = ToolIntent("bash", {"command": command}, cwd=ws)
        return decide(intent, policy, cwd=ws, workspace=ws, home=ws)

    asked = verdict([], "npm install lodash")
    assert asked.decision == "ask"
    grants = SessionGrants()
    grant, why = propose_grant(
        ToolIntent("bash", {"command": "npm install lodash"}, cwd=ws),
        asked,
        load_policy(ws, files=[policy_file]),
        grant_id=grants.next_id(),
        who="terminal",
        cwd=ws,
        workspace=ws,
        home=ws,
    )
    assert grant is not None, why
    grants.add(grant.rule)
    allowed = verdict(grants.packs(), "npm install left-pad")
    assert allowed.decision == "allow"
    assert allowed.policy_id == "session/grant-1"
    assert verdict(grants.packs(), "npm publish").decision == "ask"
    assert verdict(grants.packs(), "npm install x && rm -rf build").decision == "deny"
