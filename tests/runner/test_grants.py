"""Session grants: built from the parts that asked, evaluated by the engine like any rule."""

from __future__ import annotations

from pathlib import Path

from clearance.engine.api import decide, load_policy
from clearance.engine.decision import ApprovalDecision, PartDecision
from clearance.engine.intents import ToolIntent
from clearance.runner.grants import SessionGrants, grant_patterns, literal


def _decision(*parts: tuple[list[str], str]) -> ApprovalDecision:
    decision = ApprovalDecision("ask", "default", "")
    for index, (argv, verdict) in enumerate(parts):
        part = PartDecision(index)
        part.argv = argv
        part.program = argv[0]
        part.decision = verdict
        decision.parts.append(part)
    return decision


def test_a_grant_covers_program_and_subcommand_of_each_part_that_asked() -> None:
    decision = _decision(
        (["npm", "install", "lodash"], "ask"),
        (["echo", "done"], "allow"),
        (["curl", "https://example.com"], "ask"),
        (["npm", "install", "react"], "ask"),
    )
    assert grant_patterns(decision) == ["npm install **", "curl **"]


def test_a_file_tool_is_granted_its_exact_path_only() -> None:
    decision = _decision((["write_file", "/etc/hosts"], "ask"))
    assert grant_patterns(decision) == ["write_file /etc/hosts $"]


def test_literal_words_cannot_widen_a_pattern() -> None:
    assert literal("a*b?[c]") == "a[*]b[?][[]c]"
    assert literal("**") == "[*][*]"
    assert literal("$") == "[$]"
    assert literal("two words") == "'two words'"
    assert literal("") == "''"


def test_the_session_pack_has_the_engine_shape_and_a_content_digest() -> None:
    grants = SessionGrants()
    assert grants.packs() == []
    rule = grants.add(["npm install **"], who="terminal")
    assert rule == {
        "id": "grant-1",
        "decision": "allow",
        "reason": "granted by terminal for this session",
        "when": {"argv": ["npm install **"]},
    }
    (pack,) = grants.packs()
    assert pack["scope"] == "session" and pack["id"] == "session"
    first_digest = pack["digest"]
    grants.add(["curl **"], who="terminal")
    assert grants.packs()[0]["digest"] != first_digest


def test_the_engine_allows_what_was_granted_and_still_denies_what_is_denied(
    policy_file: str, workspace: Path
) -> None:
    ws = str(workspace)

    def verdict(policy_session: list[dict[str, object]], command: str) -> ApprovalDecision:
        policy = load_policy(ws, files=[policy_file], session=policy_session)
        intent = ToolIntent("bash", {"command": command}, cwd=ws)
        return decide(intent, policy, cwd=ws, workspace=ws, home=ws)

    asked = verdict([], "npm install lodash")
    assert asked.decision == "ask"
    grants = SessionGrants()
    grants.add(grant_patterns(asked), who="terminal")
    allowed = verdict(grants.packs(), "npm install left-pad")
    assert allowed.decision == "allow"
    assert allowed.policy_id == "session/grant-1"
    assert verdict(grants.packs(), "npm publish").decision == "ask"
    assert verdict(grants.packs(), "npm install x && rm -rf build").decision == "deny"
