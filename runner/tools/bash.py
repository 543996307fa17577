"""`bash`: run a command line in the workspace, with a timeout and an output cap.

The command runs in its own process group, so a timeout (or Ctrl-C) ends everything it
started, not just the shell. stdout and stderr go to files rather than pipes, so a child
that outlives the shell cannot hang the runner and a flood of output costs disk, not
memory. The exit status is reported on its own line, apart from the output, and a stream
cut for length is saved whole as an artifact whose path the observation gives.
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
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            started = time.monotonic()
            code, timed_out = _run(args.command, ctx.workspace, out, err, ctx.bash_timeout)
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
        }
        lines = [_exit_line(code, timed_out, ctx.bash_timeout)]
        for name, stream in streams.items():
            lines.append(f"--- {name} ({stream.size} bytes) ---")
            lines.append(stream.shown if stream.size else "(empty)")
            if stream.artifact is not None:
                lines.append(
                    f"[{name} cut to fit: the whole {stream.size} bytes are saved at "
                    f"{display(ctx.workspace, stream.artifact)}]"
                )
        return ToolResult(status, "\n".join(lines), data)


def _run(
    command: str, cwd: Path, out: IO[bytes], err: IO[bytes], timeout: float
) -> tuple[int | None, bool]:
    """(return code, timed out?); the whole process group is killed on timeout or error."""
    process = subprocess.Popen(
        ["bash", "-c", command],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=out,
        stderr=err,
        start_new_session=True,
    )
    try:
        return process.wait(timeout=timeout), False
    except subprocess.TimeoutExpired:
        _kill_group(process)
        process.wait()
        return None, True
    except BaseException:
        _kill_group(process)
        process.wait()
        raise


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
