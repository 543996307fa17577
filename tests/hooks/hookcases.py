"""Payloads, results and assertions shared by the hook tests."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

POLICY = """\
version: 1
id: t
rules:
  - id: no-marker
    decision: deny
    reason: "marker writes are forbidden"
    when: {argv: ["touch *marker_deny*"]}
  - id: allow-touch
    decision: allow
    reason: "touch is harmless here"
    when: {program: touch}
  - id: no-secrets
    decision: deny
    reason: "secrets stay put"
    when: {paths: {sets: [secrets]}}
  - id: allow-reads
    decision: allow
    reason: "reading the project is fine"
    when: {classes: [read_only], paths: {location: inside}}
  - id: allow-edits
    decision: allow
    reason: "editing the project is fine"
    when: {classes: [write], paths: {location: inside}}
"""


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str
    reason_code: str | None = None

    def json(self) -> dict[str, object]:
        loaded = json.loads(self.stdout)
        assert isinstance(loaded, dict), self
        return loaded


def payload_for(
    agent: str, project: Path, tool: str, tool_input: dict[str, object], **extra: object
) -> dict[str, object]:
    """A payload shaped like the agent's real one (see the e2e samples)."""
    base: dict[str, object] = {
        "session_id": "sess-1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(project),
        "tool_name": tool,
        "tool_input": tool_input,
    }
    if agent == "claude-code":
        base.update(hook_event_name="PreToolUse", permission_mode="default", tool_use_id="tu-1")
    elif agent == "gemini-cli":
        base.update(hook_event_name="BeforeTool", timestamp="2026-01-01T00:00:00Z")
    else:
        base.update(
            hook_event_name="PreToolUse",
            model="m",
            permission_mode="default",
            tool_use_id="call-1",
            turn_id="turn-1",
        )
    base.update(extra)
    return base


AGENTS = ("claude-code", "gemini-cli", "codex")
CODEX_TOP_KEYS = {
    "continue",
    "decision",
    "hookSpecificOutput",
    "reason",
    "stopReason",
    "suppressOutput",
    "systemMessage",
}
CODEX_SPECIFIC_KEYS = {
    "hookEventName",
    "permissionDecision",
    "permissionDecisionReason",
    "additionalContext",
    "updatedInput",
}


def denial_reason(agent: str, result: Result) -> str:
    """The reason of a deny the agent honours; fails on anything else."""
    if agent == "codex" and result.code == 2:
        assert result.stdout == "", result  # Codex ignores stdout on exit 2
        assert result.stderr.strip(), result
        return result.stderr
    answer = result.json()
    if agent == "gemini-cli":
        assert set(answer) == {"decision", "reason"} and answer["decision"] == "deny", answer
        reason = answer["reason"]
    else:
        assert set(answer) == {"hookSpecificOutput"}, answer
        block = answer["hookSpecificOutput"]
        assert isinstance(block, dict)
        assert block["hookEventName"] == "PreToolUse", block
        assert block["permissionDecision"] == "deny", block
        if agent == "codex":
            assert set(answer) <= CODEX_TOP_KEYS and set(block) <= CODEX_SPECIFIC_KEYS
        reason = block["permissionDecisionReason"]
    assert isinstance(reason, str) and reason.strip(), answer
    return reason


def assert_blocked_on_error(agent: str, result: Result) -> str:
    """exit 2, a plain-text reason on stderr, the agent's deny on stdout where it reads one."""
    assert result.code == 2, result
    assert result.stderr.strip(), result
    try:
        json.loads(result.stderr)
    except ValueError:
        pass
    else:
        pytest.fail(f"stderr must never be JSON (Gemini CLI would read it): {result!r}")
    if agent == "codex":
        assert result.stdout == "", result
        return result.stderr
    return denial_reason(agent, result)
