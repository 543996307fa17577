"""``clearance hook claude-code|gemini-cli|codex`` inside the real agent CLIs.

The contract (the hook protocols are characterised in the e2e findings notes):

* a command a policy denies does not run, and the model is told why, rule id included;
* a command a policy allows runs;
* a malformed payload or a broken policy BLOCKS: exit 2, the reason on stderr and, for the agents
  that read stdout alongside exit 2 (Claude Code, Gemini CLI), that agent's deny JSON on stdout.
  Every other way out (exit 1, a crash, a timeout, unreadable output) lets these agents run the
  tool, so nothing but a block is acceptable.

Claude Code runs in bypassPermissions mode unless a test says otherwise, so that the hook is the
only thing that can stop a command (see ``harness.CLAUDE_BYPASS_ENV``).
"""

from __future__ import annotations

import json
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from clearance.engine.ledger import default_ledger_path

from .harness import AGENTS, HOOK_NAMES, Agent, E2ESession, RunSummary

POLICY = """\
version: 1
id: e2e
rules:
  - id: no-marker
    decision: deny
    reason: "E2E marker writes are forbidden"
    when: {argv: ["touch *e2e_marker_deny*"]}
    examples: {match: ["touch /tmp/e2e_marker_deny"], no_match: ["touch /tmp/other"]}
  - id: allow-touch
    decision: allow
    reason: "touch is harmless here"
    when: {program: touch}
    examples: {match: ["touch /tmp/x"]}
"""
RULE_ID = "e2e/no-marker"
RULE_REASON = "E2E marker writes are forbidden"
BROKEN_POLICY = "/nonexistent/broken.yaml"

# Keys the agents accept in a PreToolUse answer. Codex rejects the WHOLE answer (and runs the
# tool) when any other key is present; Claude Code does the same for a wrong value.
CODEX_TOP_KEYS = frozenset(
    {"continue", "decision", "hookSpecificOutput", "reason", "stopReason", "suppressOutput",
     "systemMessage"}
)  # fmt: skip
CODEX_SPECIFIC_KEYS = frozenset(
    {"hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext",
     "updatedInput"}
)  # fmt: skip

MALFORMED_PAYLOADS: dict[str, bytes] = {
    "empty": b"",
    "not-json": b"this is not json {",
    "truncated": b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"comm',
    "array": b"[]",
    "null": b"null",
    "empty-object": b"{}",
}


@pytest.fixture
def policy(tmp_path: Path) -> Path:
    path = tmp_path / "e2e-policy.yaml"
    path.write_text(POLICY, encoding="utf-8")
    return path


def touch(marker: Path) -> str:
    return f"touch {shlex.quote(str(marker))}"


@dataclass(frozen=True)
class HookResult:
    """Exit code and decoded output of one direct hook invocation."""

    code: int
    stdout: str
    stderr: str

    def json(self) -> dict[str, object]:
        """stdout as one JSON object; anything else fails the test (agents would misread it)."""
        try:
            loaded: object = json.loads(self.stdout)
        except ValueError:
            pytest.fail(f"hook stdout is not JSON: {self!r}")
        if not isinstance(loaded, dict):
            pytest.fail(f"hook stdout is not a JSON object: {self!r}")
        return {str(k): v for k, v in loaded.items()}


def run_hook(e2e: E2ESession, agent: Agent, policy: Path | str, stdin: bytes) -> HookResult:
    """Run ``clearance hook <agent> --policy POLICY`` directly, the way the agent would."""
    proc = subprocess.run(
        [str(e2e.clearance()), "hook", HOOK_NAMES[agent], "--policy", str(policy)],
        input=stdin,
        capture_output=True,
        timeout=30,
        check=False,
    )
    return HookResult(
        code=proc.returncode,
        stdout=proc.stdout.decode("utf-8", "replace"),
        stderr=proc.stderr.decode("utf-8", "replace"),
    )


def specific(answer: dict[str, object]) -> dict[str, object]:
    block = answer.get("hookSpecificOutput")
    assert isinstance(block, dict), f"no hookSpecificOutput object in {answer!r}"
    return {str(k): v for k, v in block.items()}


def assert_deny_json(agent: Agent, answer: dict[str, object]) -> str:
    """Check ``answer`` is a deny the agent honours; return its reason."""
    if agent == "gemini":
        assert answer.get("decision") in ("deny", "block"), answer
        reason = answer.get("reason")
    else:
        block = specific(answer)
        assert block.get("hookEventName") == "PreToolUse", answer
        assert block.get("permissionDecision") == "deny", answer
        reason = block.get("permissionDecisionReason")
        if agent == "codex":
            assert set(answer) <= CODEX_TOP_KEYS, answer
            assert set(block) <= CODEX_SPECIFIC_KEYS, answer
        if agent == "claude":
            # Claude Code validates the whole answer; a top-level decision other than
            # approve/block makes it ignore the answer and run the tool.
            assert answer.get("decision") in (None, "block"), answer
    assert isinstance(reason, str), answer
    assert reason.strip(), f"empty reason: Codex ignores a deny without one ({answer!r})"
    return reason


def assert_blocks_on_error(agent: Agent, result: HookResult) -> None:
    """An internal error: exit 2, reason on stderr, deny JSON where the agent reads stdout."""
    assert result.code == 2, result
    assert result.stderr.strip(), f"exit 2 needs the reason on stderr (Codex, Gemini): {result!r}"
    if agent in ("claude", "gemini"):
        # Both read stdout JSON even on exit 2; a valid deny there is what the model sees.
        assert_deny_json(agent, result.json())
    elif result.stdout.strip():
        # Codex ignores stdout on exit 2; if anything is printed it must still say deny.
        assert_deny_json(agent, result.json())


def assert_blocked(summary: RunSummary) -> None:
    assert summary.hook_called, summary.describe()
    assert summary.marker_exists is False, summary.describe()
    assert not summary.executed, summary.describe()


# ---- through the real agents ------------------------------------------------------------------


@pytest.mark.parametrize("agent", AGENTS)
def test_denied_command_does_not_run_and_model_sees_rule(
    agent: Agent, e2e: E2ESession, tmp_path: Path, policy: Path
) -> None:
    marker = tmp_path / "e2e_marker_deny"
    summary = e2e.run(agent, e2e.clearance_hook(agent, policy), touch(marker), marker=marker)
    assert_blocked(summary)
    assert RULE_ID in summary.seen, summary.describe()
    assert RULE_REASON in summary.seen, summary.describe()


@pytest.mark.parametrize("agent", AGENTS)
def test_allowed_command_runs(agent: Agent, e2e: E2ESession, tmp_path: Path, policy: Path) -> None:
    marker = tmp_path / "e2e_marker_allowed"
    summary = e2e.run(agent, e2e.clearance_hook(agent, policy), touch(marker), marker=marker)
    assert summary.hook_called, summary.describe()
    assert summary.marker_exists is True, summary.describe()
    assert summary.executed, summary.describe()


def test_claude_allow_is_a_real_allow(e2e: E2ESession, tmp_path: Path, policy: Path) -> None:
    """In default mode headless Claude Code refuses this write unless the hook answers allow, so
    "no opinion" output would fail here while passing the bypass-mode test above."""
    marker = tmp_path / "e2e_marker_allowed_default_mode"
    hook = e2e.clearance_hook("claude", policy)
    summary = e2e.run("claude", hook, touch(marker), marker=marker, claude_bypass=False)
    assert summary.marker_exists is True, summary.describe()
    assert summary.executed, summary.describe()


@pytest.mark.parametrize("agent", AGENTS)
def test_broken_policy_blocks_in_agent(agent: Agent, e2e: E2ESession, tmp_path: Path) -> None:
    marker = tmp_path / "e2e_marker_broken_policy"
    hook = e2e.clearance_hook(agent, BROKEN_POLICY)
    summary = e2e.run(agent, hook, touch(marker), marker=marker)
    assert_blocked(summary)
    assert summary.hook_exit_code == 2, summary.describe()
    assert summary.seen.strip(), summary.describe()


# ---- the hook command on its own, fed what the agents send ------------------------------------


@pytest.mark.parametrize("payload", MALFORMED_PAYLOADS.values(), ids=MALFORMED_PAYLOADS.keys())
@pytest.mark.parametrize("agent", AGENTS)
def test_malformed_payload_blocks(
    agent: Agent, payload: bytes, e2e: E2ESession, policy: Path
) -> None:
    assert_blocks_on_error(agent, run_hook(e2e, agent, policy, payload))


@pytest.mark.parametrize("broken", ["missing", "invalid-yaml", "invalid-schema"])
@pytest.mark.parametrize("agent", AGENTS)
def test_broken_policy_blocks(agent: Agent, broken: str, e2e: E2ESession, tmp_path: Path) -> None:
    policy = tmp_path / "broken.yaml"
    if broken == "invalid-yaml":
        policy.write_text("version: 1\nrules: [\n  - id: {{{\n", encoding="utf-8")
    elif broken == "invalid-schema":
        policy.write_text("version: 1\nid: e2e\nrules:\n  - decision: maybe\n", encoding="utf-8")
    payload = json.dumps(e2e.payload(agent, "touch /tmp/x", tmp_path)).encode()
    assert_blocks_on_error(agent, run_hook(e2e, agent, policy, payload))


def recorded(e2e: E2ESession, project: Path) -> list[dict[str, object]]:
    """The records of the project's ledger, after ``clearance audit verify`` accepted it."""
    ledger = Path(default_ledger_path(str(project)))  # the project's, in the state dir
    check = subprocess.run(
        [str(e2e.clearance()), "audit", "verify", str(ledger)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert check.returncode == 0, check
    lines = ledger.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.mark.parametrize("agent", AGENTS)
def test_deny_answer_is_one_the_agent_honours(
    agent: Agent, e2e: E2ESession, policy: Path, tmp_path: Path
) -> None:
    """A policy deny is a decision, not an error: exit 0 and a deny the agent accepts as is."""
    payload = json.dumps(e2e.payload(agent, "touch /tmp/e2e_marker_deny", tmp_path)).encode()
    result = run_hook(e2e, agent, policy, payload)
    assert result.code == 0, result
    reason = assert_deny_json(agent, result.json())
    assert RULE_ID in reason, result
    assert RULE_REASON in reason, result
    (record,) = recorded(e2e, tmp_path)
    decision = record["decision"]
    assert isinstance(decision, dict), record
    assert decision["decision"] == "deny" and decision["policy_id"] == RULE_ID, record
    assert record["agent"] == HOOK_NAMES[agent] and record["surface"] == "hook", record
    assert decision["decision_id"] in reason, "the model is told which decision to look up"


@pytest.mark.parametrize("agent", AGENTS)
def test_allow_answer_is_one_the_agent_honours(
    agent: Agent, e2e: E2ESession, policy: Path, tmp_path: Path
) -> None:
    payload = json.dumps(e2e.payload(agent, "touch /tmp/other", tmp_path)).encode()
    result = run_hook(e2e, agent, policy, payload)
    assert result.code == 0, result
    (record,) = recorded(e2e, tmp_path)
    decision = record["decision"]
    assert isinstance(decision, dict) and decision["decision"] == "allow", record
    if agent == "claude":
        # Only an explicit allow skips Claude Code's own permission prompt.
        block = specific(result.json())
        assert block.get("hookEventName") == "PreToolUse", result
        assert block.get("permissionDecision") == "allow", result
    elif result.stdout.strip():
        # Gemini CLI and Codex run the tool on empty output; anything printed must not refuse it.
        answer = result.json()
        assert answer.get("decision") not in ("deny", "block", "ask"), result
        if "hookSpecificOutput" in answer:
            assert specific(answer).get("permissionDecision") in (None, "allow"), result
