"""Progress lines: drawn from events, one per stage, never stopping the run."""

from __future__ import annotations

import io

from clearance.runner.progress import Progress, render, subject, summary


def test_a_commands_observation_is_summed_up_by_its_last_output_line() -> None:
    content = "status: nonzero_exit\nexit status: 1\n--- stdout (0 bytes) ---\n(empty)\n"
    content += "--- stderr (40 bytes) ---\nF.\nFAILED (failures=1)\n"
    event = {"tool": "bash", "stage": "execution", "content": content}
    assert summary(event) == "FAILED (failures=1)"
    assert summary({"tool": "grep", "stage": "execution", "content": "status: ok\n3 hits"}) == (
        "3 hits"
    )
    assert summary({"tool": "bash", "stage": "approval", "content": "status: denied"}) == "not run"


def test_subject_names_what_a_call_is_about() -> None:
    assert subject("bash", {"command": "ls -la"}) == "ls -la"
    assert subject("grep", {"pattern": "TODO", "path": "src"}) == "TODO in src"
    assert subject("x", {}) == "(no input)"


def test_an_ask_shows_the_answer_and_who_gave_it() -> None:
    event = {
        "type": "tool.approval",
        "decision": {"decision": "ask", "policy_id": "p/r", "reason": "why"},
        "answer": "allow_once",
        "outcome": "allow",
        "answered_by": "terminal",
    }
    (line,) = render(event, "[2]")
    assert line == "  [2]   decision  ASK  p/r  -> allow (allow_once, terminal): why"


def test_a_closed_output_never_stops_the_run() -> None:
    out = io.StringIO()
    progress = Progress(out)
    out.close()
    progress({"type": "model.text", "turn": 1, "text": "hi"})  # no exception
    assert progress.broken
