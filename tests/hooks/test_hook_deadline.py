"""The hook answers, whatever happens: a hard deadline enforced from outside the decision, every
catchable fatal signal, closed standard streams, a worker that dies -- each ends in a block
(exit 2, the reason on stderr, the agent's deny on stdout where it reads one), never exit 1,
never silence.

The slow inputs here are slow *today* (an expansion that doubles a value, a YAML alias bomb in
the project's policy, a rule whose regex backtracks catastrophically): the budgets in the
parser, the loader and the matchers may make them fast, and the deadline stays the backstop.
Bounds are asserted with a wide margin; speed itself is measured in benchmarks/.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hookcases import AGENTS, Result, assert_blocked_on_error, payload_for

from clearance.hooks.supervisor import FATAL_SIGNALS, split_deadline

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from slow_inputs import REGEX_POLICY, yaml_bomb

DEADLINE = 2.0
#: How long past the deadline an answer may take on a loaded machine (process start, kill).
MARGIN = 8.0

#: Doubles a value 26 times, then runs it: the expansion budget (or the deadline) must answer,
#: and the answer can never be an allow (the program is the unknown value).
EXPANSION_BOMB = "x=ab;" + "x=$x$x;" * 26 + "$x"


def start(
    agent: str, *args: str, env: dict[str, str] | None = None, stdin: int = subprocess.PIPE
) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "clearance", "hook", agent, *args]
    return subprocess.Popen(
        argv,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )


def finish(proc: subprocess.Popen[bytes], stdin: bytes | None = None) -> Result:
    out, err = proc.communicate(stdin, timeout=60)
    return Result(proc.returncode, (out or b"").decode(), (err or b"").decode())


def timed(agent: str, payload: dict[str, object], *args: str) -> tuple[Result, float]:
    began = time.monotonic()
    proc = start(agent, "--deadline", str(DEADLINE), *args)
    result = finish(proc, json.dumps(payload).encode())
    return result, time.monotonic() - began


# ---- the deadline, on each slow path ----------------------------------------------------------


@pytest.mark.parametrize("agent", AGENTS)
def test_exponential_expansion_is_cut_off_at_the_deadline(agent: str, project: Path) -> None:
    payload = payload_for(agent, project, "Bash", {"command": EXPANSION_BOMB})
    result, took = timed(agent, payload, "--no-ledger")
    if "[timeout]" in result.stderr:
        assert "[timeout]" in assert_blocked_on_error(agent, result)
    else:  # the expansion budget answered first: still never an allow
        assert "allow" not in result.stdout, result
    assert took < DEADLINE + MARGIN, took


@pytest.mark.parametrize(
    ("name", "policy"), [("yaml-alias-bomb", yaml_bomb()), ("backtracking-regex", REGEX_POLICY)]
)
def test_hostile_project_policy_is_cut_off_at_the_deadline(
    name: str, policy: str, project: Path
) -> None:
    (project / ".clearance").mkdir()
    (project / ".clearance" / "policy.yaml").write_text(policy)
    for agent in AGENTS:
        payload = payload_for(agent, project, "Bash", {"command": "echo hi"})
        result, took = timed(agent, payload, "--no-ledger")
        assert took < DEADLINE + MARGIN, (name, took)
        if name == "backtracking-regex" and result.code == 0 and "[timeout]" not in result.stderr:
            continue  # rule regexes run on RE2 (linear time): the policy loads and decides
        reason = assert_blocked_on_error(agent, result)  # a timeout or a policy error: a block
        assert "[timeout]" in reason or "[policy_error]" in reason, result


@pytest.mark.parametrize("agent", AGENTS)
def test_a_payload_that_never_ends_is_cut_off(agent: str) -> None:
    """An agent that never closes stdin: the read itself is under the deadline."""
    began = time.monotonic()
    read_end, write_end = os.pipe()
    try:
        proc = start(agent, "--deadline", str(DEADLINE), "--no-ledger", stdin=read_end)
        os.write(write_end, b'{"hook_event_name": "PreToolUse", ')
        result = finish(proc)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert "[timeout]" in assert_blocked_on_error(agent, result)
    assert time.monotonic() - began < DEADLINE + MARGIN


def test_the_worker_left_behind_is_killed(project: Path) -> None:
    read_end, write_end = os.pipe()
    try:
        proc = start("claude-code", "--deadline", str(DEADLINE), "--no-ledger", stdin=read_end)
        os.write(write_end, b'{"hook_event_name": "PreToolUse", ')
        result = finish(proc)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert "[timeout]" in assert_blocked_on_error("claude-code", result)
    time.sleep(0.5)
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True)
    assert not [line for line in ps.stdout.splitlines() if f"--deadline {DEADLINE}" in line]


def test_deadline_settings() -> None:
    assert split_deadline(["--no-ledger"], {}) == (["--no-ledger"], 10.0)
    assert split_deadline(["--deadline", "3", "--no-ledger"], {}) == (["--no-ledger"], 3.0)
    assert split_deadline(["--deadline=0.5"], {"CLEARANCE_HOOK_DEADLINE": "4"}) == ([], 0.5)
    assert split_deadline([], {"CLEARANCE_HOOK_DEADLINE": "4"}) == ([], 4.0)
    for bad in ("0", "-1", "nan", "inf", "x", "601"):
        with pytest.raises(ValueError):
            split_deadline(["--deadline", bad], {})
    with pytest.raises(ValueError):
        split_deadline(["--deadline"], {})


@pytest.mark.parametrize("value", ["0", "soon", "nan"])
def test_a_bad_deadline_blocks(value: str, project: Path) -> None:
    payload = payload_for("claude-code", project, "Bash", {"command": "ls"})
    proc = start("claude-code", "--no-ledger", env={"CLEARANCE_HOOK_DEADLINE": value})
    result = finish(proc, json.dumps(payload).encode())
    assert "[bad_input]" in assert_blocked_on_error("claude-code", result)


# ---- signals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "number", FATAL_SIGNALS, ids=[signal.Signals(n).name for n in FATAL_SIGNALS]
)
def test_every_fatal_signal_mid_decision_blocks(number: int, project: Path) -> None:
    """The budgets make every decision quick, so the call is held open by a payload that has
    not ended yet: the signal reaches the supervisor while its worker is still busy."""
    read_end, write_end = os.pipe()
    try:
        proc = start("claude-code", "--deadline", "30", "--no-ledger", stdin=read_end)
        os.write(
            write_end, json.dumps(payload_for("claude-code", project, "Bash", {}))[:40].encode()
        )
        time.sleep(0.6)  # past interpreter start: the worker is reading the payload
        proc.send_signal(number)
        result = finish(proc)
    finally:
        os.close(read_end)
        os.close(write_end)
    reason = assert_blocked_on_error("claude-code", result)
    assert "[interrupted]" in reason or "[timeout]" in reason, result


@pytest.mark.parametrize("agent", AGENTS)
def test_sigterm_while_reading_stdin_blocks(agent: str) -> None:
    read_end, write_end = os.pipe()
    try:
        proc = start(agent, "--no-ledger", stdin=read_end)
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        result = finish(proc)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert "[interrupted]" in assert_blocked_on_error(agent, result)


def test_stop_signals_do_not_stop_the_hook(project: Path) -> None:
    payload = payload_for("claude-code", project, "Bash", {"command": "ls"})
    proc = start("claude-code", "--no-ledger")
    time.sleep(0.5)  # past interpreter start (a stop signal before it is a stop: see README)
    proc.send_signal(signal.SIGTSTP)
    result = finish(proc, json.dumps(payload).encode())
    assert result.code == 0, result


# ---- streams and a dying worker ----------------------------------------------------------------


@pytest.mark.parametrize("agent", AGENTS)
def test_closed_stdout_blocks_and_writes_nothing_into_files(
    agent: str, project: Path, tmp_path: Path
) -> None:
    """With fd 1 closed, the first file opened (the ledger) would become stdout."""
    ledger = tmp_path / "ledger.jsonl"
    payload = payload_for(agent, project, "Bash", {"command": "touch marker_deny"})
    argv = [sys.executable, "-m", "clearance", "hook", agent, "--ledger", str(ledger)]
    proc = subprocess.run(
        argv,
        input=json.dumps(payload).encode(),
        stdout=None,
        stderr=subprocess.PIPE,
        close_fds=True,
        pass_fds=(),
        timeout=60,
        check=False,
        preexec_fn=lambda: os.close(1),
    )
    assert proc.returncode == 2, proc
    assert b"stdout is closed" in proc.stderr
    for line in ledger.read_text().splitlines():
        json.loads(line)  # records only, no answer written into the file
        assert "hookSpecificOutput" not in line and '"decision": "deny"' not in line


@pytest.mark.parametrize("agent", AGENTS)
def test_closed_stderr_never_exits_1(agent: str, project: Path) -> None:
    for command, expected in (("ls", 0), ("touch marker_deny", 0)):
        payload = payload_for(agent, project, "Bash", {"command": command})
        proc = subprocess.run(
            [sys.executable, "-m", "clearance", "hook", agent, "--no-ledger"],
            input=json.dumps(payload).encode(),
            capture_output=False,
            stdout=subprocess.PIPE,
            timeout=60,
            check=False,
            preexec_fn=lambda: os.close(2),
        )
        assert proc.returncode == expected, proc
    broken = subprocess.run(
        [sys.executable, "-m", "clearance", "hook", agent, "--no-ledger"],
        input=b"{not json",
        stdout=subprocess.PIPE,
        timeout=60,
        check=False,
        preexec_fn=lambda: os.close(2),
    )
    assert broken.returncode == 2, broken


@pytest.mark.parametrize("agent", AGENTS)
def test_closed_stdin_blocks(agent: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "clearance", "hook", agent, "--no-ledger"],
        capture_output=True,
        timeout=60,
        check=False,
        preexec_fn=lambda: os.close(0),
    )
    result = Result(proc.returncode, proc.stdout.decode(), proc.stderr.decode())
    assert "[bad_input]" in assert_blocked_on_error(agent, result)


def test_a_worker_out_of_memory_blocks(project: Path) -> None:
    payload = payload_for("gemini-cli", project, "Bash", {"command": EXPANSION_BOMB})
    proc = start("gemini-cli", "--no-ledger", env={"CLEARANCE_HOOK_MEMORY_MB": "200"})
    result = finish(proc, json.dumps(payload).encode())
    # a MemoryError the parser catches is a parse error (deny for Gemini CLI), one it does not
    # is a block: never an allow
    assert result.code in (0, 2), result
    assert result.json()["decision"] == "deny", result


def test_an_embedding_process_gets_its_signal_handlers_back(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """In a long-lived caller (this test process), the hook's handlers -- which answer a block
    and exit -- must not outlive the call."""
    from clearance.cli.commands.hook import run_hook
    from clearance.hooks import AGENTS

    # the protocol module cannot be imported (None in sys.modules): the hook gives up early
    monkeypatch.setitem(sys.modules, AGENTS["claude-code"], None)
    before = {number: signal.getsignal(number) for number in FATAL_SIGNALS}
    assert run_hook("claude-code", []) == 2
    capfd.readouterr()
    assert {number: signal.getsignal(number) for number in FATAL_SIGNALS} == before
