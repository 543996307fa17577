"""The runner's bash tool in the sandbox (real bubblewrap): confined by default, the
decision names the confinement, refusals are explained, nothing a call starts outlives it,
`--no-sandbox` is recorded; SIGHUP and SIGQUIT end a run like SIGTERM; a full disk ends it
without a torn event line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from runner_support import PlayRun

from clearance.runner.events import EventLog, LogWriteError

POLICY = """
version: 1
id: sandboxed
defaults: {decision: ask}
rules:
  - id: allow-shell
    decision: allow
    reason: these tests run shell commands
    when:
      program: [echo, bash, sleep, touch, cat, python3, nohup, setsid, exec, disown, "true"]
  - id: allow-curl
    decision: allow
    reason: a network read the policy allows
    when: {program: [curl]}
"""


@pytest.fixture
def sandbox_policy(tmp_path: Path) -> str:
    path = tmp_path / "sandbox-policy.yaml"
    path.write_text(POLICY)
    return str(path)


def _bash(command: str) -> str:
    return f"turns:\n  - tool_calls: [{{tool: bash, input: {{command: {json.dumps(command)}}}}}]\n"


def _completed(done: object) -> dict[str, object]:
    events = done.of_type("tool.execution.completed")  # type: ignore[attr-defined]
    assert len(events) == 1
    result = events[0]["result"]
    assert isinstance(result, dict)
    return result


def test_an_allowed_command_runs_confined_and_the_decision_says_so(
    play: PlayRun, sandbox_policy: str, workspace: Path
) -> None:
    target = Path("/var/tmp") / f"clearance-runner-{uuid.uuid4().hex[:8]}"
    done = play(_bash(f"echo in > inside.txt; touch {target}"), policies=[sandbox_policy])
    result = _completed(done)
    assert (workspace / "inside.txt").read_text() == "in\n"
    assert not target.exists()
    assert result["sandbox"] == {
        "confined": True,
        "profile": "default",
        "network": False,
        "network_because": None,
        "widenings": [],
    }
    approval = done.of_type("tool.approval")[0]
    assert approval["decision"]["sandbox"]["confined"] is True
    started = done.of_type("run.started")[0]
    assert started["sandbox"]["enabled"] is True


def test_a_refusal_by_the_sandbox_is_explained(play: PlayRun, sandbox_policy: str) -> None:
    done = play(_bash("touch /etc/clearance-test-refused"), policies=[sandbox_policy])
    result = _completed(done)
    assert result["exit_code"] != 0
    notes = result["sandbox_refusals"]
    assert isinstance(notes, list) and "read-only" in notes[0]
    observation = done.of_type("tool.observation")[0]
    assert "looks like the sandbox refusing" in str(observation["content"])


def test_no_network_for_a_command_that_is_not_a_network_action(
    play: PlayRun, sandbox_policy: str, workspace: Path
) -> None:
    (workspace / "probe.py").write_text(
        "import socket\nsocket.create_connection(('192.0.2.1', 80), 2)\n"
    )
    done = play(_bash("python3 probe.py"), policies=[sandbox_policy])
    result = _completed(done)
    assert result["exit_code"] != 0
    assert any("network" in note for note in result["sandbox_refusals"])  # type: ignore[union-attr]


def test_a_network_read_the_policy_allows_gets_network(play: PlayRun, sandbox_policy: str) -> None:
    # a GET is a network read (``curl --version`` only prints: no network class at all)
    done = play(_bash("curl -sS -m 2 -o /dev/null http://127.0.0.1:9/"), policies=[sandbox_policy])
    sandbox = _completed(done)["sandbox"]
    assert isinstance(sandbox, dict) and sandbox["network"] is True
    assert "curl" in str(sandbox["network_because"])


@pytest.mark.parametrize("sandboxed", [True, False])
def test_background_children_end_with_the_call_and_are_named(
    play: PlayRun, sandbox_policy: str, sandboxed: bool
) -> None:
    marker = f"clearance-left-{uuid.uuid4().hex[:8]}"
    command = (
        f"(exec -a {marker} sleep 60) & disown; "
        f"setsid bash -c 'exec -a {marker} sleep 60' & "
        f"nohup bash -c 'exec -a {marker} sleep 60' >/dev/null 2>&1 & echo started"
    )
    done = play(_bash(command), policies=[sandbox_policy], sandbox=sandboxed)
    result = _completed(done)
    killed = result["killed"]
    assert isinstance(killed, list) and len(killed) >= 3, result
    assert "killed" in str(done.of_type("tool.observation")[0]["content"])
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True, check=False)
    assert left.stdout == ""
    started = done.of_type("run.started")[0]["sandbox"]
    assert started["enabled"] is sandboxed
    if not sandboxed:
        assert started["by"] == "--no-sandbox"
        assert result["sandbox"] == {"confined": False}


def test_a_run_started_under_nohup_outlives_a_hangup(play: PlayRun, sandbox_policy: str) -> None:
    """SIGHUP ignored when the run starts (``nohup``) stays ignored: the hangup does not end
    the run, which completes; its twin above, with SIGHUP at its default, is interrupted."""
    found = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGHUP))
    timer.start()
    try:
        done = play(_bash("sleep 1.5"), policies=[sandbox_policy])
        after = signal.getsignal(signal.SIGHUP)
    finally:
        timer.cancel()
        signal.signal(signal.SIGHUP, found)
    assert done.result.reason != "interrupted"
    assert _completed(done)["exit_code"] == 0
    assert after is signal.SIG_IGN


def test_a_setsid_child_does_not_escape_the_timeout(play: PlayRun, sandbox_policy: str) -> None:
    marker = f"clearance-timeout-{uuid.uuid4().hex[:8]}"
    command = f"setsid bash -c 'exec -a {marker} sleep 60' & sleep 30"
    done = play(_bash(command), policies=[sandbox_policy], sandbox=False, bash_timeout=0.5)
    assert _completed(done)["timed_out"] is True
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True, check=False)
    assert left.stdout == ""


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGQUIT])
def test_sighup_and_sigquit_end_the_run_like_sigterm(
    play: PlayRun, sandbox_policy: str, signum: int
) -> None:
    marker = f"clearance-signal-{uuid.uuid4().hex[:8]}"
    # the suite may itself run under nohup (SIGHUP ignored, which the run respects: below)
    found = signal.signal(signum, signal.SIG_DFL)
    timer = threading.Timer(0.8, os.kill, (os.getpid(), signum))
    timer.start()
    try:
        done = play(
            _bash(f"(exec -a {marker} sleep 60) & sleep 20"),
            policies=[sandbox_policy],
        )
        restored = signal.getsignal(signum)
    finally:
        timer.cancel()
        signal.signal(signum, found)
    assert done.result.reason == "interrupted"
    assert done.events[-1]["type"] == "run.finished"
    assert restored is signal.SIG_DFL
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True, check=False)
    assert left.stdout == ""


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
def test_a_full_disk_ends_the_run_with_a_clear_error_and_whole_lines(tmp_path: Path) -> None:
    mount = tmp_path / "small"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], check=True)
    try:
        log = EventLog(mount / "run.jsonl", "run_full")
        with pytest.raises(LogWriteError, match="No space left"):
            for _ in range(10_000):
                log.emit("model.text", turn=1, text="x" * 3000)
        log.close()
        text = (mount / "run.jsonl").read_text()
        assert text.endswith("\n")
        assert all(line.startswith("{") and line.endswith("}") for line in text.splitlines())
        # the whole run through the CLI: a clear error, an exit status, no torn line
        workspace = tmp_path / "ws"
        workspace.mkdir()
        play = tmp_path / "script.yaml"
        play.write_text(_bash("echo hello") + "  - text: done\n")
        done = subprocess.run(
            [
                sys.executable, "-m", "clearance", "run", "say hello", "--workspace",
                str(workspace), "--script", str(play), "--log", str(mount / "cli.jsonl"),
                "--no-ledger",
            ],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode != 0
        assert "No space left on device" in done.stderr
        content = (mount / "cli.jsonl").read_text()
        assert content == "" or content.endswith("\n")
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_no_sandbox_here_means_the_policy_decides_and_the_command_waits(
    play: PlayRun, sandbox_policy: str, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLEARANCE_BWRAP", "/nonexistent/bwrap")
    done = play(_bash("echo ran > ran.txt"), policies=[sandbox_policy])
    approval = done.of_type("tool.approval")[0]
    assert approval["decision"]["reason_code"] == "sandbox_unavailable"
    assert approval["decision"]["decision"] == "ask"
    assert approval["outcome"] == "deny"  # --on-ask deny: nobody said yes
    assert not (workspace / "ran.txt").exists()
    assert done.of_type("run.started")[0]["sandbox"]["unavailable"] is not None
