"""The runner's boundaries, checked on its code and on real event logs.

- Only the tool runtime touches the world, and only the intent pipeline calls it.
- No execution without an approval: every `tool.execution.started` follows a
  `tool.approval` with outcome allow for the same intent.
- A denied (or asked-and-refused) intent has no execution events.
- Every observation links back to a proposed intent; every proposal gets one.
- Replay never executes (see also test_replay_never_executes below).
"""

from __future__ import annotations

import ast
import io
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest
from runner_support import PlayRun, script

import clearance.runner as runner_package
from clearance.runner import run_replay
from clearance.runner.events import TOOL_STAGE_TYPES, Event, read_events
from clearance.runner.tools.base import Tool
from clearance.runner.tools.runtime import ToolRuntime

RUNNER_DIR = Path(runner_package.__file__).parent
CORE_MODULES = sorted(RUNNER_DIR.glob("*.py"))
TOOL_MODULES = sorted((RUNNER_DIR / "tools").glob("*.py"))

PROCESS_MODULES = {"subprocess", "pty", "multiprocessing", "asyncio.subprocess"}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _calls_of(path: Path, attribute: str) -> int:
    return sum(
        1
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == attribute
    )


def test_the_scans_see_the_modules() -> None:
    assert {"core", "pipeline", "run_replay", "approval"} <= {p.stem for p in CORE_MODULES}
    assert {"bash", "runtime", "toolbox"} <= {p.stem for p in TOOL_MODULES}


def test_only_the_bash_tool_starts_processes() -> None:
    starting = {
        path.relative_to(RUNNER_DIR).as_posix()
        for path in [*CORE_MODULES, *TOOL_MODULES]
        if _imports(path) & PROCESS_MODULES
    }
    assert starting == {"tools/bash.py"}


def test_only_the_pipeline_calls_the_tool_runtime() -> None:
    callers = {path.name for path in CORE_MODULES if _calls_of(path, "execute")}
    assert callers == {"pipeline.py"}


def test_replay_builds_no_tool_runtime() -> None:
    source = (RUNNER_DIR / "run_replay.py").read_text()
    assert "ToolRuntime" not in source
    assert _calls_of(RUNNER_DIR / "run_replay.py", "execute") == 0


# --- invariants of real event logs ----------------------------------------------


def check_log(events: Sequence[Event]) -> None:
    """Every invariant an event log must satisfy; raises AssertionError naming the event."""
    assert events[0]["type"] == "run.started", "a log starts with run.started"
    assert events[-1]["type"] == "run.finished", "a log ends with run.finished"
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert len({e["run_id"] for e in events}) == 1
    proposed: set[object] = set()
    allowed: set[object] = set()
    refused: set[object] = set()
    observed: dict[object, int] = {}
    for event in events:
        kind = event["type"]
        intent = event.get("intent_id")
        if kind in TOOL_STAGE_TYPES:
            assert intent, f"seq {event['seq']}: {kind} without intent_id"
            if kind != "tool_intent.proposed":
                assert intent in proposed, f"seq {event['seq']}: {kind} of an unknown intent"
        if kind == "tool_intent.proposed":
            proposed.add(intent)
        elif kind == "tool.approval":
            decision = event["decision"]
            assert isinstance(decision, dict)
            assert event["decision_id"] == decision["decision_id"]
            if event["outcome"] == "allow":
                assert decision["decision"] in ("allow", "ask")
                assert decision["decision"] == "allow" or event["answer"] in (
                    "allow_once",
                    "allow_session",
                )
                allowed.add(intent)
            else:
                refused.add(intent)
        elif kind == "tool.execution.started":
            assert intent in allowed, f"seq {event['seq']}: executed without an allow"
            assert intent not in refused
        elif kind == "tool.execution.completed":
            assert intent in allowed
        elif kind == "tool.observation":
            observed[intent] = observed.get(intent, 0) + 1
    for intent in refused:
        stages = {e["type"] for e in events if e.get("intent_id") == intent}
        assert not stages & {"tool.execution.started", "tool.execution.completed"}
    assert set(observed) == proposed, "every proposal ends in an observation"
    assert all(count == 1 for count in observed.values()), "exactly one observation each"


SCENARIOS = {
    "allowed, denied and refused": """
        turns:
          - tool_calls:
              - {tool: bash, input: {command: "echo hi"}}
              - {tool: bash, input: {command: "git reset --hard"}}
              - {tool: bash, input: {command: "touch asked.txt"}}
          - text: done
    """,
    "validation failures": """
        turns:
          - tool_calls:
              - {tool: nope, input: {}}
              - {tool: edit_file, input: {path: notes.txt, old_text: a, new_text: b}}
              - {tool: read_file, input: {}}
          - text: done
    """,
    "read then edit": """
        turns:
          - tool_calls: [{tool: read_file, input: {path: notes.txt}}]
          - tool_calls: [{tool: edit_file, input: {path: notes.txt, old_text: beta, new_text: B}}]
          - text: done
    """,
    "retry then budget": """
        turns:
          - error: {kind: overloaded}
          - tool_calls:
              - {tool: bash, input: {command: "echo 1"}}
              - {tool: bash, input: {command: "echo 2"}}
    """,
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_logs_of_real_runs_keep_every_invariant(play: PlayRun, name: str) -> None:
    done = play(SCENARIOS[name], max_tool_calls=1 if "budget" in name else 100)
    check_log(read_events(done.result.log_path).events)


def test_the_invariant_check_catches_an_execution_without_approval() -> None:
    events: list[Event] = [
        {"type": "run.started", "seq": 1, "run_id": "r"},
        {"type": "tool_intent.proposed", "seq": 2, "run_id": "r", "intent_id": "i"},
        {"type": "tool.execution.started", "seq": 3, "run_id": "r", "intent_id": "i"},
        {"type": "tool.observation", "seq": 4, "run_id": "r", "intent_id": "i"},
        {"type": "run.finished", "seq": 5, "run_id": "r"},
    ]
    with pytest.raises(AssertionError, match="executed without an allow"):
        check_log(events)


# --- replay never executes ---------------------------------------------------------


def test_replay_never_executes(
    play: PlayRun, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    done = play(SCENARIOS["allowed, denied and refused"])
    log = done.result.log_path
    workspace = done.run.settings.workspace
    before = sorted(p.relative_to(workspace) for p in workspace.rglob("*"))

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("replay tried to execute something")

    monkeypatch.setattr(subprocess, "Popen", forbidden)
    monkeypatch.setattr(subprocess, "run", forbidden)
    monkeypatch.setattr("os.system", forbidden)
    monkeypatch.setattr(ToolRuntime, "execute", forbidden)
    monkeypatch.setattr(ToolRuntime, "precondition", forbidden)
    for tool in Tool.__subclasses__():
        monkeypatch.setattr(tool, "run", forbidden)

    out = io.StringIO()
    assert run_replay.trace(log, out) == 0
    assert run_replay.dry_run(log, out) == 0
    provider = script('turns:\n  - tool_calls: [{tool: bash, input: {command: "echo replayed"}}]\n')
    code, new_log = run_replay.replay_model(
        log,
        out,
        provider=provider,
        provider_name="scripted",
        model="m",
        log_path=tmp_path / "replayed.jsonl",
    )
    assert code == 0
    after = sorted(p.relative_to(workspace) for p in workspace.rglob("*"))
    assert after == before
    new_events = read_events(new_log).events
    assert not any(e["type"].startswith("tool.execution") for e in new_events)
