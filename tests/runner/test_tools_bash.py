"""`bash`: exit status apart from output, a timeout that ends the whole group, cut output
saved whole as an artifact."""

from __future__ import annotations

import time
from pathlib import Path

from clearance.runner.tools import Status, ToolContext
from clearance.runner.tools.bash import Bash, BashInput


def _context(workspace: Path, **limits: float) -> ToolContext:
    return ToolContext(
        workspace=workspace,
        artifacts=workspace / ".clearance" / "runs" / "r" / "artifacts",
        bash_timeout=float(limits.get("timeout", 10.0)),
        output_cap=int(limits.get("cap", 2000)),
    )


def _run(workspace: Path, command: str, **limits: float):  # type: ignore[no-untyped-def]
    return Bash().run(BashInput(command=command), _context(workspace, **limits), "inv_1")


def test_exit_status_is_kept_apart_from_stdout_and_stderr(workspace: Path) -> None:
    result = _run(workspace, "echo out; echo err >&2; exit 3")
    assert result.status is Status.NONZERO_EXIT
    assert result.data["exit_code"] == 3
    assert result.data["stdout_bytes"] == 4 and result.data["stderr_bytes"] == 4
    text = Bash().observe(result)
    assert text.splitlines()[:2] == ["status: nonzero_exit", "exit status: 3"]
    assert "--- stdout (4 bytes) ---\nout" in text
    assert "--- stderr (4 bytes) ---\nerr" in text


def test_a_clean_run_is_ok_and_says_empty_output_out_loud(workspace: Path) -> None:
    result = _run(workspace, "pwd >/dev/null")
    assert result.status is Status.OK
    assert result.data["exit_code"] == 0
    assert result.text.count("(empty)") == 2


def test_commands_run_in_the_workspace(workspace: Path) -> None:
    result = _run(workspace, "pwd; cat notes.txt")
    assert str(workspace) in result.text
    assert "beta" in result.text


def test_a_timeout_kills_the_whole_process_group(workspace: Path) -> None:
    started = time.monotonic()
    result = _run(workspace, "sleep 30 & sleep 30; echo never", timeout=0.5)
    assert time.monotonic() - started < 10
    assert result.status is Status.TIMEOUT
    assert result.data["timed_out"] is True
    assert result.data["exit_code"] is None
    assert "killed after the 0.5s timeout" in result.text
    assert "never" not in result.text


def test_cut_output_is_saved_whole_and_the_observation_says_where(workspace: Path) -> None:
    result = _run(workspace, "seq 1 20000", cap=400)
    assert result.status is Status.OUTPUT_TRUNCATED
    assert result.data["truncated"] is True
    artifacts = result.data["artifacts"]
    assert isinstance(artifacts, dict) and set(artifacts) == {"stdout"}
    saved = Path(str(artifacts["stdout"]))
    assert saved.read_text().splitlines() == [str(n) for n in range(1, 20001)]
    assert saved.parent == workspace / ".clearance" / "runs" / "r" / "artifacts"
    text = result.text
    assert "characters omitted" in text
    assert ".clearance/runs/r/artifacts/inv_1.stdout" in text
    assert text.splitlines()[2] == "1"  # the head is shown ...
    assert "20000" in text  # ... and the tail
    assert len(text) < 1000


def test_a_failing_command_with_cut_output_reports_the_failure_first(workspace: Path) -> None:
    result = _run(workspace, "seq 1 5000; exit 1", cap=200)
    assert result.status is Status.NONZERO_EXIT
    assert result.data["truncated"] is True
