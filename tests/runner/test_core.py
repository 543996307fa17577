"""The core loop: every stage an event, every ending a recorded reason and exit status."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest
from runner_fakes import Recording, Turns, interrupt
from runner_support import PlayRun, script

from clearance.engine.ledger import read_records
from clearance.runner.approval import AskChoice, AskRequest, OnAsk
from clearance.runner.providers.types import (
    Finished,
    FinishReason,
    MalformedToolCall,
    TextDelta,
    ToolResultMessage,
)
from clearance.runner.tools.bash import Bash

ECHO_THEN_ANSWER = """
turns:
  - text: "Checking."
    tool_calls:
      - tool: bash
        input: {command: "echo hello"}
  - text: "All done."
"""


def _types(events: list[dict[str, object]]) -> list[object]:
    return [event["type"] for event in events]


def test_a_final_answer_ends_the_run_with_every_stage_recorded_in_order(play: PlayRun) -> None:
    done = play(ECHO_THEN_ANSWER)
    assert done.result.reason == "final_answer"
    assert done.result.exit_code == 0
    assert done.result.final_answer == "All done."
    assert _types(done.events) == [
        "run.started",
        "model.request",
        "model.text",
        "tool_intent.proposed",
        "model.finished",
        "tool.validation",
        "tool.approval",
        "tool.execution.started",
        "tool.execution.completed",
        "tool.observation",
        "model.request",
        "model.text",
        "model.finished",
        "run.finished",
    ]
    assert [event["seq"] for event in done.events] == list(range(1, len(done.events) + 1))
    finished = done.events[-1]
    assert finished["reason"] == "final_answer" and finished["tool_calls"] == 1


def test_the_linking_ids_chain_intent_decision_invocation_observation(play: PlayRun) -> None:
    done = play(ECHO_THEN_ANSWER)
    (proposed,) = done.of_type("tool_intent.proposed")
    (approval,) = done.of_type("tool.approval")
    (started,) = done.of_type("tool.execution.started")
    (completed,) = done.of_type("tool.execution.completed")
    (observed,) = done.of_type("tool.observation")
    intent_id = proposed["intent_id"]
    assert str(intent_id).startswith("int_")
    decision = approval["decision"]
    assert isinstance(decision, dict) and decision["decision"] == "allow"
    assert approval["decision_id"] == decision["decision_id"]
    assert approval["outcome"] == "allow"
    for event in (started, completed, observed):
        assert event["intent_id"] == intent_id
        assert event["decision_id"] == approval["decision_id"]
    assert str(started["invocation_id"]).startswith("inv_")
    assert completed["invocation_id"] == observed["invocation_id"] == started["invocation_id"]
    assert observed["stage"] == "execution" and observed["status"] == "ok"
    assert "hello" in str(observed["content"])


def test_the_next_request_carries_the_observation(play: PlayRun) -> None:
    provider = Recording(script(ECHO_THEN_ANSWER))
    play(provider)
    second = provider.requests[1]
    result = second.messages[-1]
    assert isinstance(result, ToolResultMessage)
    assert result.call_id == "call_0_0" and "hello" in result.content
    assert [tool.name for tool in second.tools][:2] == ["bash", "read_file"]
    assert "policy decides" in second.system


def test_the_turn_limit_stops_the_run(play: PlayRun) -> None:
    turn = '  - tool_calls: [{tool: bash, input: {command: "echo again"}}]\n'
    done = play("turns:\n" + turn * 5, max_turns=2)
    assert done.result.reason == "turn_limit"
    assert done.result.exit_code == 3
    assert len(done.of_type("model.request")) == 2
    assert done.events[-1]["type"] == "run.finished"


def test_the_tool_call_budget_closes_the_calls_it_cannot_afford(play: PlayRun) -> None:
    calls = ", ".join(f'{{tool: bash, input: {{command: "echo {n}"}}}}' for n in range(3))
    done = play(f"turns:\n  - tool_calls: [{calls}]\n", max_tool_calls=2)
    assert done.result.reason == "budget_limit" and done.result.exit_code == 4
    assert len(done.of_type("tool.execution.started")) == 2
    last = done.of_type("tool.observation")[-1]
    assert last["status"] == "budget_exhausted" and last["stage"] == "budget"
    assert "budget of 2 tool calls" in str(last["content"])


def test_a_retryable_failure_is_retried_after_retry_after(play: PlayRun) -> None:
    slept: list[float] = []
    done = play(
        """
        turns:
          - error: {kind: rate_limit, retry_after: 0.25}
          - text: "Recovered."
        """,
        sleep=slept.append,
    )
    assert done.result.reason == "final_answer"
    assert slept == [0.25]
    (error,) = done.of_type("provider.error")
    (retry,) = done.of_type("provider.retry")
    assert error["attempt"] == 1 and retry["attempt"] == 2 and retry["delay_s"] == 0.25
    requests = done.of_type("model.request")
    assert [(r["turn"], r["attempt"]) for r in requests] == [(1, 1), (1, 2)]


def test_a_failure_that_retrying_cannot_fix_ends_the_run(play: PlayRun) -> None:
    done = play("turns:\n  - error: {kind: auth}\n  - text: never\n")
    assert done.result.reason == "provider_error" and done.result.exit_code == 5
    assert done.of_type("provider.retry") == []
    assert "auth" in str(done.events[-1]["error"])


def test_retries_are_bounded(play: PlayRun) -> None:
    done = play("turns:\n" + "  - error: {kind: overloaded}\n" * 4)
    assert done.result.reason == "provider_error"
    assert len(done.of_type("provider.error")) == 3  # max_attempts=3 in these tests
    assert len(done.of_type("provider.retry")) == 2


def test_an_aborted_turn_never_proposes_anything(play: PlayRun) -> None:
    provider = Turns(
        [
            TextDelta(text="half"),
            MalformedToolCall(call_id="x", name="bash", raw_arguments="{", error="cut"),
        ],
        [TextDelta(text="fine"), Finished(reason=FinishReason.STOP)],
    )
    # the first turn has no terminal event: an interrupted stream, retried
    done = play(provider)
    assert done.of_type("tool_intent.proposed") == []
    (error,) = done.of_type("provider.error")
    assert error["discarded"] == {"text": "half", "tool_calls": 1}


def test_a_malformed_call_is_a_validation_observation(play: PlayRun) -> None:
    provider = Turns(
        [
            MalformedToolCall(
                call_id="c1", name="bash", raw_arguments='{"command": ', error="bad JSON"
            ),
            Finished(reason=FinishReason.TOOL_CALLS),
        ],
        [TextDelta(text="ok"), Finished(reason=FinishReason.STOP)],
    )
    done = play(provider)
    (proposed,) = done.of_type("tool_intent.proposed")
    assert proposed["malformed"] == {"error": "bad JSON", "raw_arguments": '{"command": '}
    (validation,) = done.of_type("tool.validation")
    assert validation["ok"] is False and validation["status"] == "invalid_input"
    assert done.of_type("tool.approval") == []
    (observed,) = done.of_type("tool.observation")
    assert observed["stage"] == "validation" and observed["is_error"] is True


def test_schema_and_state_failures_never_reach_the_policy(play: PlayRun) -> None:
    done = play(
        """
        turns:
          - tool_calls:
              - {tool: delete_everything, input: {}}
              - {tool: read_file, input: {file: notes.txt}}
              - {tool: edit_file, input: {path: notes.txt, old_text: beta, new_text: BETA}}
          - text: done
        """
    )
    statuses = [(e["status"], e.get("failed_check")) for e in done.of_type("tool.validation")]
    assert statuses == [
        ("unknown_tool", "schema"),
        ("invalid_input", "schema"),
        ("not_read_first", "state"),
    ]
    assert done.of_type("tool.approval") == []
    contents = [str(e["content"]) for e in done.of_type("tool.observation")]
    assert contents[0].startswith("status: unknown_tool\nNot run:")
    assert "path: Field required" in contents[1]
    assert "read the file with read_file" in contents[2]


def test_a_denied_intent_is_observed_with_its_rule_and_never_runs(play: PlayRun) -> None:
    done = play(
        """
        turns:
          - tool_calls: [{tool: bash, input: {command: "git reset --hard HEAD~1"}}]
          - text: "I will not do that then."
        """
    )
    (approval,) = done.of_type("tool.approval")
    assert approval["outcome"] == "deny" and approval["answer"] is None
    assert done.of_type("tool.execution.started") == []
    (observed,) = done.of_type("tool.observation")
    assert observed["status"] == "denied" and observed["stage"] == "approval"
    assert "test/no-hard-reset" in str(observed["content"])
    assert "Hard resets destroy uncommitted work." in str(observed["content"])
    assert done.result.reason == "final_answer"


def test_an_ask_without_a_terminal_is_refused_and_the_model_is_told_who_refused(
    play: PlayRun,
) -> None:
    done = play(
        'turns:\n  - tool_calls: [{tool: bash, input: {command: "touch made.txt"}}]\n'
        "  - text: ok\n",
        asker=OnAsk(),
    )
    (approval,) = done.of_type("tool.approval")
    assert approval["answer"] == "deny" and approval["answered_by"] == "--on-ask deny"
    assert not (done.run.settings.workspace / "made.txt").exists()
    content = str(done.of_type("tool.observation")[0]["content"])
    assert "asks for a human's approval" in content and "--on-ask deny refused" in content


class SessionOnce:
    """Answers the first ask with "allow for this session" and fails on any later one."""

    name = "human"

    def __init__(self) -> None:
        self.asked = 0

    def ask(self, request: AskRequest) -> AskChoice:
        self.asked += 1
        assert self.asked == 1, "asked again despite the session grant"
        return "allow_session"


def test_a_session_grant_is_recorded_and_spares_the_next_ask(play: PlayRun) -> None:
    asker = SessionOnce()
    done = play(
        """
        turns:
          - tool_calls: [{tool: bash, input: {command: "touch one.txt"}}]
          - tool_calls: [{tool: bash, input: {command: "touch two.txt"}}]
          - text: done
        """,
        asker=asker,
    )
    first, second = done.of_type("tool.approval")
    assert (first["answer"], first["answered_by"], first["grant_id"]) == (
        "allow_session",
        "human",
        "grant-1",
    )
    (grant,) = done.of_type("session.grant")
    assert grant["intent_id"] == first["intent_id"]
    rule = grant["grant"]
    assert isinstance(rule, dict)
    assert (rule["id"], rule["decision"]) == ("grant-1", "allow")
    assert str(rule["reason"]).startswith("granted by human for this session: `touch`")
    assert f"files directly in {done.run.settings.workspace}/" in str(rule["reason"])
    decision = second["decision"]
    assert isinstance(decision, dict) and decision["policy_id"] == "session/grant-1"
    assert second["answer"] is None
    workspace = done.run.settings.workspace
    assert (workspace / "one.txt").exists() and (workspace / "two.txt").exists()


def test_a_broken_policy_refuses_to_start_and_names_the_line(play: PlayRun, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: 1\nid: b\nrules:\n  - id: x\n    decision: maybe\n")
    done = play(ECHO_THEN_ANSWER, policies=[str(broken)])
    assert done.result.reason == "policy_error" and done.result.exit_code == 2
    assert _types(done.events) == ["run.started", "run.finished"]
    assert "broken.yaml:5" in str(done.result.error)
    policy = done.events[0]["policy"]
    assert isinstance(policy, dict) and policy["errors"][0]["line"] == 5


def test_an_interrupt_while_waiting_for_the_model_is_recorded(play: PlayRun) -> None:
    provider = Turns(
        [
            *script(ECHO_THEN_ANSWER).stream(None),  # type: ignore[arg-type]
        ],
        interrupt,
    )
    done = play(provider)
    assert done.result.reason == "interrupted" and done.result.exit_code == 130
    assert done.events[-1]["type"] == "run.finished"
    assert done.events[-1]["reason"] == "interrupted"
    assert done.run.log.closed


def test_an_interrupt_during_a_tool_closes_every_open_intent(
    play: PlayRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted_run(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Bash, "run", interrupted_run)
    done = play(
        """
        turns:
          - tool_calls:
              - {tool: bash, input: {command: "echo first"}}
              - {tool: bash, input: {command: "echo second"}}
        """
    )
    assert done.result.reason == "interrupted"
    first, second = done.of_type("tool_intent.proposed")
    (completed,) = done.of_type("tool.execution.completed")
    assert completed["intent_id"] == first["intent_id"]
    assert completed["status"] == "interrupted"
    observed = done.of_type("tool.observation")
    assert [(o["intent_id"], o["status"]) for o in observed] == [
        (first["intent_id"], "interrupted"),
        (second["intent_id"], "interrupted"),
    ]
    assert done.events[-1]["type"] == "run.finished"


def test_ctrl_c_during_a_command_leaves_a_complete_log(play: PlayRun) -> None:
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    started = time.monotonic()
    try:
        done = play(
            'turns:\n  - tool_calls: [{tool: bash, input: {command: "sleep 20"}}]\n',
        )
    finally:
        timer.cancel()
    assert time.monotonic() - started < 10
    assert done.result.reason == "interrupted"
    assert _types(done.events)[-3:] == [
        "tool.execution.completed",
        "tool.observation",
        "run.finished",
    ]
    text = done.result.log_path.read_text()
    assert text.endswith("\n") and len(text.splitlines()) == len(done.events)


def test_sigterm_during_a_command_also_leaves_a_complete_log(play: PlayRun) -> None:
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM))
    timer.start()
    try:
        done = play('turns:\n  - tool_calls: [{tool: bash, input: {command: "sleep 20"}}]\n')
    finally:
        timer.cancel()
    assert done.result.reason == "interrupted"
    assert done.events[-1]["type"] == "run.finished"
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # restored after the run


def test_decisions_are_recorded_in_the_ledger_with_the_run_as_session(
    play: PlayRun, tmp_path: Path
) -> None:
    ledger = tmp_path / "audit" / "ledger.jsonl"
    done = play(
        """
        turns:
          - tool_calls:
              - {tool: bash, input: {command: "echo hi"}}
              - {tool: bash, input: {command: "git reset --hard"}}
          - text: done
        """,
        record_ledger=True,
        ledger=ledger,
    )
    records = list(read_records(str(ledger)))
    approvals = done.of_type("tool.approval")
    assert [r["decision_id"] for r in records] == [a["decision_id"] for a in approvals]
    assert {(r["surface"], r["agent"], r["session_id"]) for r in records} == {
        ("run", "clearance-run", done.result.run_id)
    }
    assert approvals[0]["ledger"] == str(ledger)


def test_a_decision_the_ledger_cannot_record_is_never_executed(
    play: PlayRun, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    done = play(ECHO_THEN_ANSWER, record_ledger=True, ledger=blocker / "ledger.jsonl")
    (approval,) = done.of_type("tool.approval")
    assert approval["outcome"] == "deny" and approval["audit_error"]
    assert done.of_type("tool.execution.started") == []
    assert "audit ledger" in str(done.of_type("tool.observation")[0]["content"])


def test_the_runner_logs_its_diagnostics_as_json_on_stderr(
    play: PlayRun, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the operator needs beside the event log: structured lines on stderr, each with
    the run id; ``CLEARANCE_LOG_LEVEL=info`` shows how the run ended too."""
    import json

    monkeypatch.setenv("CLEARANCE_LOG_LEVEL", "info")
    done = play("turns:\n  - error: {kind: overloaded}\n  - error: {kind: auth}\n")
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [line["event"] for line in lines] == ["provider_error", "provider_error", "run_finished"]
    first, second, finished = lines
    assert (first["kind"], first["retry_in_s"], first["level"]) == ("overloaded", 0.01, "warning")
    assert (second["kind"], second["retry_in_s"]) == ("auth", None)
    assert finished["reason"] == "provider_error" and finished["exit_code"] == 5
    assert {line["run_id"] for line in lines} == {done.result.run_id}
    assert all(line["timestamp"].endswith("Z") for line in lines)


def test_a_run_that_ends_well_prints_no_diagnostics(
    play: PlayRun, capsys: pytest.CaptureFixture[str]
) -> None:
    done = play("turns:\n  - text: done\n")
    assert done.result.reason == "final_answer"
    assert capsys.readouterr().err == ""
