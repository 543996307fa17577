"""`bash`: run a command line in the workspace, with a timeout and an output cap.

By default the command runs inside the sandbox (`clearance.sandbox`) with the confinement its
decision gave it: the file system read-only but the workspace and a private /tmp, secrets
hidden, network only for a part the policy allowed as a network action. `--no-sandbox` runs it
unconfined, and the run log says so.

Every process a call starts ends with the call: in the sandbox, the command is the first
process of a PID namespace of its own, which the kernel empties when it exits; unconfined, the
runner is the subreaper of whatever the command leaves behind (`setsid`, `nohup`, `&`,
`disown`) and kills every descendant after the call. The observation names what was killed.
A timeout (or Ctrl-C) ends the whole tree the same way. stdout and stderr go to files rather
than pipes, so a flood of output costs disk, not memory. The exit status is reported on its
own line, apart from the output, and a stream cut for length is saved whole as an artifact
whose path the observation gives. When a failure looks like the sandbox refusing (a
read-only file system outside the workspace, no network), the observation says so, so the
model can ask for the permission rather than guess.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO

from pydantic import Field

from .artifacts import cap_text, save_artifact
from .base import Tool, ToolContext, ToolInput, ToolResult
from .paths import display
from .status import Status

#: Bytes of a stream read into memory at most; the rest is only in the artifact.
_READ_LIMIT = 8 * 1024 * 1024


class BashInput(ToolInput):
    command: str = Field(min_length=1, description="The command line, run with `bash -c`.")


class Bash(Tool[BashInput]):
    name = "bash"
    description = (
        "Run a bash command line in the workspace (non-interactive, no stdin). The result "
        "gives the exit status apart from stdout and stderr; long output is cut and saved "
        "whole as an artifact file whose path is given."
    )
    read_only = False
    input_model = BashInput

    def run(self, args: BashInput, ctx: ToolContext, invocation_id: str) -> ToolResult:
        confinement = ctx.confinement if ctx.sandbox else None
        with (
            tempfile.TemporaryFile() as out,
            tempfile.TemporaryFile() as err,
            tempfile.TemporaryFile() as left,
        ):
            started = time.monotonic()
            if confinement is not None:
                outcome = _run_confined(
                    args.command, ctx.workspace, out, err, left, ctx.bash_timeout, confinement
                )
            else:
                outcome = _run(args.command, ctx.workspace, out, err, ctx.bash_timeout)
            code, timed_out, killed = outcome
            duration_ms = int((time.monotonic() - started) * 1000)
            half = max(ctx.output_cap // 2, 1)
            streams = {
                name: _collect(handle, half, ctx.artifacts, f"{invocation_id}.{name}")
                for name, handle in (("stdout", out), ("stderr", err))
            }
        truncated = any(stream.artifact is not None for stream in streams.values())
        if timed_out:
            status = Status.TIMEOUT
        elif code != 0:
            status = Status.NONZERO_EXIT
        elif truncated:
            status = Status.OUTPUT_TRUNCATED
        else:
            status = Status.OK
        data: dict[str, object] = {
            "exit_code": code if code is not None and code >= 0 else None,
            "signal": -code if code is not None and code < 0 else None,
            "timed_out": timed_out,
            "timeout_s": ctx.bash_timeout,
            "duration_ms": duration_ms,
            "truncated": truncated,
            "stdout_bytes": streams["stdout"].size,
            "stderr_bytes": streams["stderr"].size,
            "artifacts": {
                name: str(stream.artifact)
                for name, stream in streams.items()
                if stream.artifact is not None
            },
            "sandbox": confinement.to_dict() if confinement is not None else {"confined": False},
            "killed": killed,
        }
        lines = [_exit_line(code, timed_out, ctx.bash_timeout)]
        if killed:
            shown = "; ".join(killed[:10]) + ("; …" if len(killed) > 10 else "")
            lines.append(
                f"killed {len(killed)} process(es) the command left running "
                f"(every process ends with the call): {shown}"
            )
        if confinement is not None and code not in (0, None):
            from clearance.sandbox.refusal import refusals

            notes = refusals(
                streams["stderr"].shown + "\n" + streams["stdout"].shown,
                network=confinement.network,
                writable=[str(ctx.workspace), "/tmp", "/var/tmp", "/dev"],
            )
            data["sandbox_refusals"] = notes
            lines.extend(f"note: this looks like the sandbox refusing: {n}" for n in notes)
        for name, stream in streams.items():
            lines.append(f"--- {name} ({stream.size} bytes) ---")
            lines.append(stream.shown if stream.size else "(empty)")
            if stream.artifact is not None:
                lines.append(
                    f"[{name} cut to fit: the whole {stream.size} bytes are saved at "
                    f"{display(ctx.workspace, stream.artifact)}]"
                )
        return ToolResult(status, "\n".join(lines), data)


#: Run inside the sandbox: the command, then a list of what it left running (to fd {fd})
#: before the PID namespace is torn down with this shell. Builtins only, so the list is only
#: theirs.
_LAUNCH = (
    'bash -c "$1"; s=$?; for d in /proc/[0-9]*; do p=${{d#/proc/}}; '
    '[ "$p" = 1 ] || [ "$p" = $$ ] || {{ c=; read -r c < "$d/comm" 2>/dev/null; '
    'echo "$p $c"; }}; done >&{fd} 2>/dev/null; exit $s'
)


def _run_confined(
    command: str,
    cwd: Path,
    out: IO[bytes],
    err: IO[bytes],
    left: IO[bytes],
    timeout: float,
    confinement: object,
) -> tuple[int | None, bool, list[str]]:
    """(return code, timed out?, what was killed) for a run in the sandbox."""
    from clearance.sandbox.bwrap import SETUP_FAILED, bwrap_argv
    from clearance.sandbox.confine import layout_for
    from clearance.sandbox.plan import Confinement
    from clearance.sandbox.reaper import descendants, describe, kill_descendants

    assert isinstance(confinement, Confinement)
    before = set(descendants(os.getpid()))
    try:
        layout = layout_for(confinement, cwd=str(cwd), workspace=str(cwd))
    except Exception as exc:  # SandboxError, or the probe failing: nothing runs
        err.write(f"clearance: the sandbox could not be set up, nothing ran: {exc}\n".encode())
        return SETUP_FAILED, False, []
    fd = left.fileno()
    argv = bwrap_argv(layout, ["bash", "-c", _LAUNCH.format(fd=fd), "bash", command])
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, pass_fds=(fd,)
    )
    try:
        code = process.wait(timeout=timeout)
    except BaseException as exc:
        killed = [describe(pid) for pid in descendants(process.pid)][2:]  # not bwrap's init
        process.kill()  # the sandbox's PID 1 dies with it (--die-with-parent), and all in it
        process.wait()
        kill_descendants(spare=before)
        if isinstance(exc, subprocess.TimeoutExpired):
            return None, True, killed
        raise
    left.seek(0)
    killed = [line for line in left.read().decode("utf-8", "replace").splitlines() if line]
    # The sandbox's PID 1 may outlive bwrap by a moment and end as our orphan (we are the
    # runner's subreaper): reap it, and anything else the call left, here.
    killed += kill_descendants(spare=before)
    return code, False, killed


_SUBREAPER: list[bool] = []


def _run(
    command: str, cwd: Path, out: IO[bytes], err: IO[bytes], timeout: float
) -> tuple[int | None, bool, list[str]]:
    """(return code, timed out?, what was killed): unconfined, in its own process group,
    with this process as the subreaper of everything it starts; every descendant left after
    the call (or on timeout, or on error) is killed."""
    from clearance.sandbox.reaper import become_subreaper, descendants, kill_descendants

    if not _SUBREAPER:
        _SUBREAPER.append(become_subreaper())
    before = set(descendants(os.getpid()))  # not ours to kill (a server a test started)
    process = subprocess.Popen(
        ["bash", "-c", command],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=out,
        stderr=err,
        start_new_session=True,
    )
    try:
        code = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        killed = kill_descendants(spare=before)
        process.wait()
        return None, True, killed
    except BaseException:
        _kill_group(process)
        kill_descendants(spare=before)
        process.wait()
        raise
    return code, False, kill_descendants(spare=before)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


def _exit_line(code: int | None, timed_out: bool, timeout: float) -> str:
    if timed_out:
        return f"exit status: none (killed after the {timeout:g}s timeout)"
    if code is not None and code < 0:
        return f"exit status: none (killed by signal {-code})"
    return f"exit status: {code}"


class _Stream:
    __slots__ = ("artifact", "shown", "size")

    def __init__(self, shown: str, size: int, artifact: Path | None) -> None:
        self.shown = shown
        self.size = size
        self.artifact = artifact


def _collect(handle: IO[bytes], limit: int, artifacts: Path, name: str) -> _Stream:
    """Read a finished stream back; save it whole as an artifact if it must be cut."""
    size = handle.seek(0, os.SEEK_END)
    handle.seek(0)
    if size > _READ_LIMIT:
        head = handle.read(_READ_LIMIT // 2)
        handle.seek(size - _READ_LIMIT // 2)
        data = head + b"\n[...]\n" + handle.read()
    else:
        data = handle.read()
    capped = cap_text(data.decode("utf-8", errors="replace"), limit)
    if not capped.truncated:
        return _Stream(capped.shown, size, None)
    handle.seek(0)
    path = save_artifact(artifacts, name, b"")
    with path.open("wb") as target:
        shutil.copyfileobj(handle, target)
    return _Stream(capped.shown, size, path)
