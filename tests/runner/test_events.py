"""The event log: complete lines, a monotonic seq, linking ids, and Ctrl-C between events."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from clearance.runner.events import (
    EVENT_TYPES,
    TOOL_STAGE_TYPES,
    EventLog,
    LogError,
    read_events,
    sigint_deferred,
)


def test_events_carry_the_header_and_a_monotonic_seq(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "runs" / "r.jsonl", "run_1", clock=lambda: "T")
    log.emit("run.started", task="x")
    log.emit("model.request", turn=1)
    log.emit("run.finished", reason="final_answer")
    log.close()
    lines = (tmp_path / "runs" / "r.jsonl").read_text().splitlines()
    events = [json.loads(line) for line in lines]
    assert [e["seq"] for e in events] == [1, 2, 3]
    assert all(e["run_id"] == "run_1" and e["time"] == "T" for e in events)
    assert events[0] == {
        "type": "run.started",
        "run_id": "run_1",
        "seq": 1,
        "time": "T",
        "task": "x",
    }


def test_every_tool_stage_event_must_name_its_intent(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "r.jsonl", "run_1")
    for kind in TOOL_STAGE_TYPES:
        with pytest.raises(ValueError, match="intent_id"):
            log.emit(kind, call_id="c")  # type: ignore[arg-type]
    assert log.events == []


def test_the_header_cannot_be_overwritten_and_types_are_closed(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "r.jsonl", "run_1")
    with pytest.raises(ValueError, match="set by the log"):
        log.emit("run.started", seq=7)
    with pytest.raises(ValueError, match="unknown event type"):
        log.emit("tool.exploded")  # type: ignore[arg-type]
    assert "tool.approval" in EVENT_TYPES


def test_a_closed_log_refuses_events(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "r.jsonl", "run_1")
    log.close()
    log.close()  # closing twice is harmless
    assert log.closed
    with pytest.raises(ValueError, match="closed"):
        log.emit("run.finished", reason="final_answer")


def test_listeners_see_an_event_only_once_it_is_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    seen_on_disk: list[int] = []

    def listener(event: dict[str, object]) -> None:
        seen_on_disk.append(len(path.read_text().splitlines()))

    log = EventLog(path, "run_1", listeners=[listener])
    log.emit("run.started")
    log.emit("run.finished", reason="final_answer")
    assert seen_on_disk == [1, 2]


def test_a_log_reads_back_and_a_torn_last_line_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    log = EventLog(path, "run_1")
    log.emit("run.started", task="t")
    log.close()
    with path.open("a") as out:
        out.write('{"type": "model.req')
    contents = read_events(path)
    assert contents.torn_tail
    assert [e["type"] for e in contents.events] == ["run.started"]
    assert contents.run_id == "run_1"


def test_a_malformed_line_in_the_middle_is_an_error_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"type": "run.started"}\nnot json\n{"type": "run.finished"}\n')
    with pytest.raises(LogError, match=r"r.jsonl:2"):
        read_events(path)
    path.write_text("")
    with pytest.raises(LogError, match="no events"):
        read_events(path)
    with pytest.raises(LogError, match="cannot read"):
        read_events(tmp_path / "missing.jsonl")


def test_sigint_waits_until_the_event_is_written() -> None:
    order: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        with sigint_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            order.append("still writing")
        order.append("never reached")
    assert order == ["still writing"]


def test_a_log_file_holds_one_run(tmp_path: Path) -> None:
    EventLog(tmp_path / "r.jsonl", "run_1").close()
    with pytest.raises(FileExistsError):
        EventLog(tmp_path / "r.jsonl", "run_2")
