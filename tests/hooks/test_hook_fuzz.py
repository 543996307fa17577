"""Bad input at the hook: whatever arrives on stdin, the answer is a decision or a block with
reason code ``bad_input`` -- never exit 0 or 1 on garbage -- and the ledger stays intact."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from hookcases import AGENTS, Result, assert_blocked_on_error, payload_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clearance.engine.ledger import read_records, verify
from clearance.hooks import protocol
from clearance.hooks.base import handle

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@pytest.fixture
def seeded_ledger(tmp_path: Path, policy: Path, project: Path) -> tuple[Path, bytes]:
    """A ledger holding two real decisions, to check that bad input never damages it."""
    ledger = tmp_path / "fuzz-ledger.jsonl"
    for command in ("touch a", "touch marker_deny"):
        payload = payload_for("claude-code", project, "Bash", {"command": command})
        outcome = handle(
            protocol("claude-code"),
            ["--policy", str(policy), "--ledger", str(ledger)],
            io.BytesIO(json.dumps(payload).encode()),
            {},
        )
        assert outcome.code == 0
    return ledger, ledger.read_bytes()


def call(agent: str, data: bytes, policy: Path, ledger: Path) -> tuple[int, str, str, str | None]:
    outcome = handle(
        protocol(agent), ["--policy", str(policy), "--ledger", str(ledger)], io.BytesIO(data), {}
    )
    code = None if outcome.decision is None else outcome.decision.reason_code
    return outcome.code, outcome.stdout.decode(), outcome.stderr, code


def assert_intact(ledger: Path, before: bytes) -> None:
    assert ledger.read_bytes().startswith(before)
    result = verify(str(ledger))
    assert result.ok, result.message


@pytest.mark.parametrize("agent", AGENTS)
@FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes_block(
    agent: str, data: bytes, policy: Path, seeded_ledger: tuple[Path, bytes]
) -> None:
    ledger, before = seeded_ledger
    code, stdout, stderr, reason = call(agent, data, policy, ledger)
    assert code == 2 and reason == "bad_input"
    assert stderr.strip()
    assert (stdout == "") == (agent == "codex")
    assert_intact(ledger, before)


@pytest.mark.parametrize("agent", AGENTS)
@FUZZ
@given(value=json_values)
def test_json_that_is_not_a_payload_blocks(
    agent: str, value: object, policy: Path, seeded_ledger: tuple[Path, bytes]
) -> None:
    ledger, before = seeded_ledger
    code, _, _, reason = call(agent, json.dumps(value).encode(), policy, ledger)
    assert code == 2 and reason == "bad_input"
    assert_intact(ledger, before)


not_str = json_values.filter(lambda v: not isinstance(v, str))
not_dict = json_values.filter(lambda v: not isinstance(v, dict))
WRONG_TYPES = {
    "tool_name": not_str,
    "tool_input": not_dict,
    "cwd": not_str,
    "hook_event_name": not_str,
    "session_id": not_str.filter(lambda v: v is not None),
}


@pytest.mark.parametrize("field", WRONG_TYPES)
@pytest.mark.parametrize("agent", AGENTS)
@FUZZ
@given(data=st.data())
def test_wrongly_typed_fields_block(
    agent: str,
    field: str,
    data: st.DataObject,
    policy: Path,
    project: Path,
    seeded_ledger: tuple[Path, bytes],
) -> None:
    ledger, before = seeded_ledger
    payload = payload_for(agent, project, "Bash", {"command": "touch a"})
    payload[field] = data.draw(WRONG_TYPES[field])
    code, stdout, _, reason = call(agent, json.dumps(payload).encode(), policy, ledger)
    assert code == 2 and reason == "bad_input", (payload, stdout)
    assert_intact(ledger, before)


@pytest.mark.parametrize("agent", AGENTS)
@FUZZ
@given(
    tool_input=st.dictionaries(
        st.sampled_from(["command", "cmd", "file_path", "url", "x"]), json_values, max_size=3
    )
)
def test_any_tool_input_is_a_decision_or_a_block(
    agent: str,
    tool_input: dict[str, object],
    policy: Path,
    project: Path,
    seeded_ledger: tuple[Path, bytes],
) -> None:
    """Whatever the input holds, the answer is allow/ask/deny or a block, and it is recorded."""
    ledger, before = seeded_ledger
    count = verify(str(ledger)).records
    for tool in ("Bash", "Read", "WebFetch"):
        payload = payload_for(agent, project, tool, tool_input)
        code, _, _, reason = call(agent, json.dumps(payload).encode(), policy, ledger)
        assert code in (0, 2)
        if code == 2:
            assert reason == "bad_input"
        count += 1
    assert_intact(ledger, before)
    assert verify(str(ledger)).records == count


# ---- the real process, hand-written cases -----------------------------------------------------

CASES: dict[str, bytes] = {
    "empty": b"",
    "whitespace": b" \n\t ",
    "not-json": b"hello",
    "truncated": b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"comm',
    "array": b'[{"tool_name": "Bash"}]',
    "string": b'"PreToolUse"',
    "number": b"42",
    "null": b"null",
    "non-utf8": b'{"tool_name": "\xff\xfe"}',
    "nan": b'{"hook_event_name": "PreToolUse", "x": NaN}',
    "deeply-nested": b"[" * 100_000 + b"]" * 100_000,
    "nested-object": b'{"a":' * 5_000 + b"1" + b"}" * 5_000,
    "10MB-garbage": b"A" * (10 * 1024 * 1024),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
@pytest.mark.parametrize("agent", AGENTS)
def test_bad_payloads_block(
    agent: str, case: str, policy: Path, seeded_ledger: tuple[Path, bytes]
) -> None:
    ledger, before = seeded_ledger
    code, stdout, stderr, reason = call(agent, CASES[case], policy, ledger)
    assert (code, reason) == (2, "bad_input")
    assert_blocked_on_error(agent, Result(code, stdout, stderr))
    assert_intact(ledger, before)


PROCESS_CASES = ("truncated", "non-utf8", "deeply-nested", "10MB-garbage")


@pytest.mark.parametrize("case", PROCESS_CASES)
@pytest.mark.parametrize("agent", AGENTS)
def test_bad_payloads_block_the_process(
    agent: str, case: str, hook_process, seeded_ledger: tuple[Path, bytes]
) -> None:
    ledger, before = seeded_ledger
    start = time.monotonic()
    result = hook_process(agent, CASES[case], "--ledger", str(ledger))
    assert time.monotonic() - start < 20
    reason = assert_blocked_on_error(agent, result)
    assert "[bad_input]" in reason
    assert_intact(ledger, before)


@pytest.mark.parametrize("agent", AGENTS)
def test_10mb_valid_payload_blocks_as_oversized(
    agent: str, hook_process, project: Path, seeded_ledger: tuple[Path, bytes]
) -> None:
    ledger, before = seeded_ledger
    payload = payload_for(agent, project, "Bash", {"command": "touch " + "a" * 10_000_000})
    result = hook_process(agent, payload, "--ledger", str(ledger))
    assert "larger than 5 MB" in assert_blocked_on_error(agent, result)
    assert_intact(ledger, before)


def test_bad_payloads_with_a_ledger_are_recorded_without_an_intent(
    hook_process, seeded_ledger: tuple[Path, bytes]
) -> None:
    ledger, _ = seeded_ledger
    hook_process("gemini-cli", b"{oops", "--ledger", str(ledger))
    last = list(read_records(str(ledger)))[-1]
    assert last["intent"] is None and last["agent"] == "gemini-cli"
    decision = last["decision"]
    assert isinstance(decision, dict) and decision["reason_code"] == "bad_input"
