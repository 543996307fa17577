"""The process an agent starts before every tool call (``clearance hook <agent>``).

An agent runs the tool when its hook is slow, dies or answers what it does not understand, so
this process is built to answer -- a decision or a block -- within a hard deadline, whatever
happens inside the decision:

* **Supervisor and worker.** The process forks. The worker (the child) reads the payload,
  decides, records and hands its answer to the parent through a pipe; the parent (the
  supervisor, standard library only, a few hundred microseconds of work) waits for it with a
  deadline. A decision stuck anywhere -- a catastrophic regex or a YAML bomb inside a C call
  that holds the GIL (which no thread or ``SIGALRM`` handler can interrupt), an exponential
  expansion, a hung file system -- is cut off from outside: at the deadline the supervisor
  kills the worker (``SIGKILL``) and answers deny with reason code ``timeout``. A worker that
  dies without an answer (a crash, the memory limit, a signal) is a block too.
* **Signals.** Every catchable signal that would end the process (``SIGTERM``, ``SIGHUP``,
  ``SIGQUIT``, ``SIGINT``, ``SIGALRM``, ``SIGUSR1``/``2``, ``SIGXCPU``, ``SIGVTALRM``,
  ``SIGPROF``, ``SIGXFSZ``) makes the supervisor kill the worker and answer a block (reason
  code ``interrupted``); stop signals from a terminal are ignored (a stopped hook is a hook
  that times out). ``SIGKILL`` and ``SIGSTOP`` cannot be caught: nothing in the process can
  answer them.
* **Closed streams.** Descriptors 0-2 closed by the caller are reopened on ``/dev/null`` first
  (otherwise the first file opened -- the ledger -- would *become* stdout); an answer that
  cannot be written to stdout, or a stdout that was closed, ends in exit 2.

Deadline: ``--deadline SECONDS`` or ``$CLEARANCE_HOOK_DEADLINE``, default
:data:`DEFAULT_DEADLINE_S` -- well inside the timeout ``clearance hook install`` gives the
agents (:data:`clearance.hooks.install.DEFAULT_TIMEOUT_S`). Memory: the worker's address space
is capped (``$CLEARANCE_HOOK_MEMORY_MB``, default :data:`DEFAULT_MEMORY_MB`), so a bomb fails
fast with a block instead of swapping the machine until the deadline.

If even the protocol module cannot be loaded, :func:`run` raises and the CLI's fallback table
(``clearance.cli.commands.hook``), which needs no other module, blocks.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import time

from clearance.vocab import HookExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FrameType
    from typing import BinaryIO, Final

    from clearance.hooks.base import Outcome, Protocol

#: Seconds a decision may take before the hook answers deny (reason code ``timeout``).
DEFAULT_DEADLINE_S: Final = 10.0
#: Largest deadline accepted (the agents' own timeouts are a few seconds to ten minutes).
MAX_DEADLINE_S: Final = 600.0
DEADLINE_ENV: Final = "CLEARANCE_HOOK_DEADLINE"
#: Address-space cap of the worker (MiB); 0 turns it off.
DEFAULT_MEMORY_MB: Final = 4096
MEMORY_ENV: Final = "CLEARANCE_HOOK_MEMORY_MB"

#: Signals that end a process by default and can be caught: each ends in a block.
FATAL_SIGNALS: Final = tuple(
    getattr(signal, name)
    for name in (
        "SIGTERM", "SIGHUP", "SIGQUIT", "SIGINT", "SIGALRM", "SIGUSR1", "SIGUSR2",
        "SIGXCPU", "SIGVTALRM", "SIGPROF", "SIGXFSZ", "SIGPOLL",
    )
    if hasattr(signal, name)
)  # fmt: skip
#: Terminal stop signals: a stopped hook would sit until the agent's timeout (and fail open).
STOP_SIGNALS: Final = tuple(
    getattr(signal, name) for name in ("SIGTSTP", "SIGTTIN", "SIGTTOU") if hasattr(signal, name)
)


class _State:
    """The supervisor's state, shared with its signal handler."""

    __slots__ = ("agent", "answering", "child", "protocol", "stdout_closed")

    def __init__(self, agent: str) -> None:
        self.agent = agent
        self.protocol: Protocol | None = None
        self.child = 0
        self.answering = False
        self.stdout_closed = False


def run(agent: str, args: list[str]) -> int:
    """Decide the payload on stdin for ``agent``; the exit status the agent acts on. Raises
    only when the agent's protocol cannot be loaded (the caller blocks then)."""
    # The process lives for one decision: the cyclic collector would only run during the
    # imports (a few ms of the start-up budget) and find nothing worth freeing.
    gc.disable()
    start = time.monotonic()
    state = _State(agent)
    previous = {number: signal.getsignal(number) for number in (*FATAL_SIGNALS, *STOP_SIGNALS)}
    for number in FATAL_SIGNALS:
        signal.signal(number, lambda signum, frame: _on_signal(state, signum, frame))
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    try:
        return _run(state, args, start)
    finally:
        # a caller that lives on (a test, an embedding) gets its own handlers back
        state.answering = True
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)


def _run(state: _State, args: list[str], start: float) -> int:
    state.stdout_closed = 1 in _reopen_closed_std_fds()
    from clearance.hooks import protocol

    state.protocol = protocol(state.agent)
    try:
        args, deadline = split_deadline(args, os.environ)
        memory_mb = _memory_limit(os.environ)
    except ValueError as exc:
        return _answer(state, _block(state, "bad_input", f"bad hook arguments: {exc}"))
    try:
        outcome = _supervise(state, args, start + deadline, deadline, memory_mb)
    except BaseException as crash:  # the supervisor itself failed: still a block
        outcome = _block(state, "internal_error", f"{type(crash).__name__}: {crash}")
    return _answer(state, outcome)


def split_deadline(
    args: list[str], env: os._Environ[str] | dict[str, str]
) -> tuple[list[str], float]:
    """``args`` without ``--deadline S`` and the deadline in seconds (argument, else
    ``$CLEARANCE_HOOK_DEADLINE``, else the default); a bad value is a :class:`ValueError`."""
    rest: list[str] = []
    text: str | None = env.get(DEADLINE_ENV) or None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--deadline":
            if i + 1 >= len(args):
                raise ValueError("--deadline needs a number of seconds")
            text = args[i + 1]
            i += 2
            continue
        if arg.startswith("--deadline="):
            text = arg.partition("=")[2]
        else:
            rest.append(arg)
        i += 1
    if text is None:
        return rest, DEFAULT_DEADLINE_S
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"deadline {text!r} is not a number of seconds") from None
    if not 0 < value <= MAX_DEADLINE_S:  # also refuses NaN
        raise ValueError(f"deadline {text!r} must be between 0 and {MAX_DEADLINE_S:g} seconds")
    return rest, value


def _memory_limit(env: os._Environ[str]) -> int:
    text = env.get(MEMORY_ENV)
    if not text:
        return DEFAULT_MEMORY_MB
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{MEMORY_ENV}={text!r} is not a whole number of MiB") from None
    if value < 0:
        raise ValueError(f"{MEMORY_ENV}={text!r} must not be negative")
    return value


def _reopen_closed_std_fds() -> set[int]:
    """Reopen any of fds 0-2 that is closed on ``/dev/null``; the set of those that were."""
    closed: set[int] = set()
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.add(fd)
    for fd in sorted(closed):
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    return closed


# ---- supervisor -------------------------------------------------------------------------------


def _supervise(
    state: _State, args: list[str], until: float, deadline: float, memory_mb: int
) -> Outcome:
    import select

    read_end, write_end = os.pipe()
    # No handler may run between the fork and the moment each side knows who it is.
    signal.pthread_sigmask(signal.SIG_BLOCK, FATAL_SIGNALS)
    pid = os.fork()
    if pid == 0:  # pragma: no cover -- the worker; its effects are tested through the process
        os.close(read_end)
        _worker(state, args, write_end, memory_mb)
    state.child = pid
    signal.pthread_sigmask(signal.SIG_UNBLOCK, FATAL_SIGNALS)
    os.close(write_end)
    chunks: list[bytes] = []
    try:
        while True:
            left = until - time.monotonic()
            if left <= 0:
                return _timed_out(state, deadline)
            ready, _, _ = select.select([read_end], [], [], left)
            if not ready:
                return _timed_out(state, deadline)
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_end)
    status = _reap(state)
    outcome = _decode(b"".join(chunks))
    if outcome is None:
        return _block(state, "internal_error", f"the decision ended without an answer ({status})")
    return outcome


def _worker(state: _State, args: list[str], out: int, memory_mb: int) -> None:
    """The child: decide, hand the outcome to the parent, exit. Never returns."""
    try:
        for number in FATAL_SIGNALS:
            signal.signal(number, signal.SIG_DFL)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, FATAL_SIGNALS)
        # stdout and stderr belong to the supervisor: the worker's stray writes go nowhere,
        # and a worker that outlives its parent holds no pipe the agent waits on.
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.close(null)
        if memory_mb:
            import resource

            limit = memory_mb * 1024 * 1024
            _, hard = resource.getrlimit(resource.RLIMIT_AS)
            if hard == resource.RLIM_INFINITY or hard > limit:
                resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        from clearance.hooks.base import _write_all, answer_once

        assert state.protocol is not None

        def stdin() -> BinaryIO:
            return sys.stdin.buffer if sys.stdin is not None else open(0, "rb", closefd=False)

        def deliver(outcome: Outcome) -> int:
            _write_all(out, _encode(outcome))
            os.close(out)  # the supervisor has the answer: what follows never changes it
            return 0

        answer_once(state.protocol, state.agent, args, stdin, deliver)
    except BaseException:
        pass
    finally:
        os._exit(0)


def _encode(outcome: Outcome) -> bytes:
    stderr = outcome.stderr.encode("utf-8", "replace")
    return (
        b"%d %d %d\n" % (outcome.code, len(outcome.stdout), len(stderr)) + outcome.stdout + stderr
    )


def _decode(data: bytes) -> Outcome | None:
    from clearance.hooks.base import Outcome

    head, newline, body = data.partition(b"\n")
    fields = head.split()
    if not newline or len(fields) != 3 or not all(f.isdigit() for f in fields):
        return None
    code, out_len, err_len = (int(f) for f in fields)
    if code not in (0, 2) or len(body) != out_len + err_len:
        return None
    return Outcome(code, body[:out_len], body[out_len:].decode("utf-8", "replace"))


def _reap(state: _State) -> str:
    """Collect the worker (it has closed its pipe: it is exiting); how it ended."""
    pid, state.child = state.child, 0
    for _ in range(200):  # up to ~1 s for an exiting process to become a zombie
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return "exited"
        if done:
            if os.WIFSIGNALED(status):
                return f"killed by signal {os.WTERMSIG(status)}"
            return f"exit status {os.WEXITSTATUS(status)}"
        time.sleep(0.005)
    _kill(pid)
    return "did not exit"


def _kill(pid: int) -> None:
    try:  # noqa: SIM105 -- contextlib is not worth its import on the hook's path
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    try:  # noqa: SIM105
        os.waitpid(pid, os.WNOHANG)
    except OSError:
        pass


def _timed_out(state: _State, deadline: float) -> Outcome:
    pid, state.child = state.child, 0
    _kill(pid)
    return _block(
        state,
        "timeout",
        f"no decision within the hook's deadline of {deadline:g} s; "
        f"raise it with --deadline or ${DEADLINE_ENV} if this input is legitimate",
    )


def _on_signal(state: _State, signum: int, frame: FrameType | None) -> None:
    if state.answering:  # the answer is being written: let it finish
        return
    if state.child:
        pid, state.child = state.child, 0
        _kill(pid)
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    code = _answer(state, _block(state, "interrupted", f"the hook received {name}"))
    os._exit(code)


# ---- answers ----------------------------------------------------------------------------------


def _block(state: _State, reason_code: str, problem: str) -> Outcome:
    from clearance.hooks.base import Outcome, _cap

    what = "it could not judge it" if reason_code in ("timeout", "bad_input") else "it failed"
    reason = _cap(f"clearance blocked this call because {what}: [{reason_code}] {problem}")
    stdout = b""
    if state.protocol is not None:
        try:
            stdout = state.protocol.blocked(reason)
        except Exception:
            stdout = b""
    return Outcome(HookExit.BLOCKED, stdout, f"clearance hook {state.agent}: {reason}\n")


def _answer(state: _State, outcome: Outcome) -> int:
    from clearance.hooks.base import emit

    state.answering = True
    if state.stdout_closed and outcome.code == HookExit.ANSWERED:
        outcome.code = HookExit.BLOCKED
        outcome.stderr += (
            f"clearance hook {state.agent}: stdout is closed, so no answer can reach the agent; "
            "blocking\n"
        )
    return emit(outcome)
