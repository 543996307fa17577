"""Replay: trace, dry-run and model modes read a recorded run again, executing nothing."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest
from runner_support import PlayRun, script

from clearance.runner.events import EventLog, read_events
from clearance.runner.progress import Progress
from clearance.runner.providers.types import AssistantMessage, ToolResultMessage
from clearance.runner.run_replay import dry_run, events_for_turn, redecide, replay_model, trace

RUN = """
turns:
  - text: "Looking around."
    tool_calls:
      - {tool: bash, input: {command: "echo hi"}}
      - {tool: bash, input: {command: "git reset --hard"}}
  - tool_calls: [{tool: read_file, input: {path: notes.txt}}]
  - text: "Done."
"""

STRICT = """
version: 1
id: strict
rules:
  - id: no-echo
    decision: deny
    reason: Echo is forbidden now.
    when: {program: [echo]}
  - id: files
    decision: allow
    reason: Files are fine.
    when: {tool: [read_file]}
"""


@pytest.fixture
def recorded(play: PlayRun) -> tuple[Path, str]:
    live = io.StringIO()
    done = play(RUN, listeners=[Progress(live)])
    return done.result.log_path, live.getvalue()


def test_trace_prints_exactly_what_was_shown_live(recorded: tuple[Path, str]) -> None:
    log, live = recorded
    out = io.StringIO()
    assert trace(log, out) == 0
    assert out.getvalue() == live
    assert "DENY  test/no-hard-reset" in live


def test_trace_says_when_the_last_line_was_torn(recorded: tuple[Path, str]) -> None:
    log, _ = recorded
    with log.open("a") as tail:
        tail.write('{"type": "tool.obs')
    out = io.StringIO()
    trace(log, out)
    assert "last line was cut off" in out.getvalue()


def test_dry_run_under_the_same_policy_changes_nothing(
    recorded: tuple[Path, str], policy_file: str
) -> None:
    log, _ = recorded
    results = redecide(read_events(log), policy_files=[policy_file])
    assert [r.changed for r in results] == [False, False, False]
    assert [r.now.decision for r in results] == ["allow", "deny", "allow"]


def test_dry_run_under_a_new_policy_shows_the_differences(
    recorded: tuple[Path, str], tmp_path: Path
) -> None:
    log, _ = recorded
    strict = tmp_path / "strict.yaml"
    strict.write_text(textwrap.dedent(STRICT))
    out = io.StringIO()
    assert dry_run(log, out, policy_files=[str(strict)]) == 0
    text = out.getvalue()
    assert "CHANGED [1] bash: echo hi" in text
    assert "then: ALLOW test/allow-harmless" in text
    assert "now:  DENY strict/no-echo: Echo is forbidden now." in text
    assert "CHANGED [2] bash: git reset --hard" in text  # deny -> ask (the default)
    assert "3 of 3 decision(s) would change" in text


def test_dry_run_replays_the_session_grants_of_the_run(play: PlayRun, policy_file: str) -> None:
    class Once:
        name = "human"

        def ask(self, request: object) -> str:
            return "allow_session"

    done = play(
        """
        turns:
          - tool_calls: [{tool: bash, input: {command: "touch a.txt"}}]
          - tool_calls: [{tool: bash, input: {command: "touch b.txt"}}]
          - text: done
        """,
        asker=Once(),
    )
    results = redecide(read_events(done.result.log_path), policy_files=[policy_file])
    assert [(r.now.decision, r.now.rule) for r in results] == [
        ("ask", None),
        ("allow", "session/grant-1"),
    ]
    assert not any(r.changed for r in results)


def test_dry_run_revalidates_against_todays_schemas(play: PlayRun, policy_file: str) -> None:
    done = play('turns:\n  - tool_calls: [{tool: grep, input: {pattern: "(", flags: x}}]\n')
    (result,) = redecide(read_events(done.result.log_path), policy_files=[policy_file])
    assert (result.now.schema_ok, result.now.status) == (False, "invalid_input")
    assert result.now.decision is None
    assert not result.changed  # refused then for the same reason


def test_an_intent_todays_schema_refuses_is_a_change(tmp_path: Path, policy_file: str) -> None:
    log = EventLog(tmp_path / "old.jsonl", "run_old")
    log.emit("run.started", task="t", workspace=str(tmp_path), home=str(tmp_path))
    log.emit("tool_intent.proposed", intent_id="i1", call_id="c", tool="grep", input={"regex": "x"})
    log.emit("tool.validation", intent_id="i1", ok=True, status="ok")
    log.emit(
        "tool.approval",
        intent_id="i1",
        decision_id="d1",
        decision={"decision_id": "d1", "decision": "allow", "policy_id": "old/grep"},
        outcome="allow",
    )
    log.close()
    (result,) = redecide(read_events(log.path), policy_files=[policy_file])
    assert result.changed
    assert result.recorded.label() == "ALLOW old/grep"
    assert result.now.label() == "not valid (invalid_input)"


def test_the_model_is_asked_the_last_turn_again_and_its_proposals_are_recorded(
    recorded: tuple[Path, str], tmp_path: Path
) -> None:
    log, _ = recorded
    provider = script(
        """
        turns:
          - tool_calls: [{tool: bash, input: {command: "rm -rf build"}}]
        """
    )
    requests = []
    original = provider.stream

    def recording(request):  # type: ignore[no-untyped-def]
        requests.append(request)
        return original(request)

    provider.stream = recording  # type: ignore[method-assign]
    out = io.StringIO()
    code, new_log = replay_model(
        log,
        out,
        provider=provider,
        provider_name="scripted",
        model="m",
        log_path=tmp_path / "n.jsonl",
    )
    assert code == 0 and new_log == tmp_path / "n.jsonl"
    (request,) = requests
    assert isinstance(request.messages[-1], ToolResultMessage)  # the answer is asked again
    assert any(isinstance(m, AssistantMessage) and m.tool_calls for m in request.messages)
    events = read_events(new_log).events
    assert [e["type"] for e in events] == [
        "run.started",
        "model.request",
        "tool_intent.proposed",
        "model.finished",
        "run.finished",
    ]
    assert events[0]["mode"] == "replay-model" and events[0]["replay_of"] == str(log)
    assert events[2]["input"] == {"command": "rm -rf build"} and events[2]["executed"] is False
    assert "nothing is executed" in out.getvalue()


def test_events_for_turn_cuts_the_log_before_that_turns_request(
    recorded: tuple[Path, str],
) -> None:
    log, _ = recorded
    events = read_events(log).events
    first = events_for_turn(events, 1)
    assert [e["type"] for e in first] == ["run.started"]
    last = events_for_turn(events, None)
    assert last == events_for_turn(events, 3)
    with pytest.raises(ValueError, match="no turn 9"):
        events_for_turn(events, 9)


def test_a_provider_failure_in_model_replay_is_recorded(
    recorded: tuple[Path, str], tmp_path: Path
) -> None:
    log, _ = recorded
    provider = script("turns:\n  - error: {kind: auth}\n")
    code, new_log = replay_model(
        log,
        io.StringIO(),
        provider=provider,
        provider_name="scripted",
        model="m",
        log_path=tmp_path / "n.jsonl",
    )
    assert code == 5
    assert read_events(new_log).events[-1]["reason"] == "provider_error"


def test_intents_that_stopped_at_runtime_state_are_not_counted_as_changes(
    play: PlayRun, policy_file: str
) -> None:
    done = play(
        "turns:\n  - tool_calls: [{tool: edit_file, "
        "input: {path: notes.txt, old_text: a, new_text: b}}]\n"
    )
    (result,) = redecide(read_events(done.result.log_path), policy_files=[policy_file])
    assert result.recorded.state == "not_read_first"
    assert "runtime state: not_read_first" in result.recorded.label()
    assert result.now.decision == "allow"
    assert not result.changed
