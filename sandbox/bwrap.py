"""The bubblewrap command line for one confined command, and running it.

The sandbox (every option is there for a reason; tests/sandbox try each way out):

- ``--unshare-user --cap-drop ALL``: no capabilities inside, even when clearance runs as
  root (bwrap keeps root's capabilities unless told), so nothing can remount, mount, chroot
  or change ownership; ``--disable-userns`` (where bwrap has it) so no nested user namespace
  hands them back; bwrap sets ``no_new_privs``, so no setuid program gains any.
- ``--unshare-pid --die-with-parent``: the command is the child of a PID 1 of its own; when it
  exits, or clearance dies, every process it started (``&``, ``nohup``, ``setsid``, daemons)
  is killed by the kernel, and nothing outside can be seen, signalled or ptraced.
- ``--unshare-net`` unless the confinement has network: only a loopback of its own, and no
  abstract Unix sockets of the host (they live in the network namespace).
- ``--ro-bind / /``, then a fresh ``/dev``, ``/proc``, private ``/tmp``, ``/var/tmp``,
  ``/dev/shm`` and ``/run`` (the host's sockets live there: Docker, D-Bus, databases), then
  the workspace and a profile's extra writable paths bound writable, then the masks and
  read-only binds of :mod:`clearance.sandbox.mounts`.
- ``--unshare-ipc --unshare-uts --unshare-cgroup-try --new-session`` (no TIOCSTI into the
  caller's terminal).

The run: stdin, stdout and stderr are the caller's, untouched; the exit status is the
command's (bwrap reports 128+N for a command killed by signal N). bwrap writes its status to a
pipe (``--json-status-fd``): when the command never started (a mount that failed), the run is
a setup failure, not an exit status the caller could mistake for the command's.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

from clearance.sandbox.mounts import Mounts
from clearance.vocab import SandboxExit

#: Exit status of ``clearance sandbox`` when the sandbox could not be set up.
SETUP_FAILED = SandboxExit.SETUP_FAILED


class SandboxError(Exception):
    """The sandbox could not be set up (nothing ran)."""


@dataclass(frozen=True)
class Layout:
    """Everything the bwrap command line depends on."""

    bwrap: str
    cwd: str
    workspace: str | None
    writable: tuple[str, ...]
    network: bool
    mounts: Mounts
    disable_userns: bool = True
    #: Directories the environment names (``$TMPDIR``, ``$XDG_RUNTIME_DIR``) under the fresh
    #: tmpfs mounts: made again, empty, so programs that use them still start.
    fresh_dirs: tuple[str, ...] = ()


def bwrap_argv(
    layout: Layout, command: Sequence[str], *, status_fd: int | None = None
) -> list[str]:
    argv = [
        layout.bwrap,
        "--unshare-user",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
    ]
    if layout.disable_userns:
        argv.append("--disable-userns")
    if not layout.network:
        argv.append("--unshare-net")
    argv += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for fresh in ("/tmp", "/var/tmp", "/dev/shm", "/run"):
        if os.path.isdir(fresh) and not os.path.islink(fresh):
            argv += ["--tmpfs", fresh]
    if os.path.isdir("/var/run") and not os.path.islink("/var/run"):
        argv += ["--tmpfs", "/var/run"]
    for directory in layout.fresh_dirs:
        argv += ["--perms", "0700", "--dir", directory]
    for path in (layout.workspace, *layout.writable):
        if path and os.path.exists(path):
            real = os.path.realpath(path)
            argv += ["--bind", real, real]
    # The plan saw these paths (real paths, each there when planned). One deleted since (a
    # key file another process just removed) is left out here: bwrap cannot make a mount
    # point in the read-only tree and would refuse to start. What is gone needs no mask, and
    # a file made after this moment was never in the plan either way.
    mounts = layout.mounts
    for path in mounts.read_only:
        argv += ["--ro-bind-try", path, path]
    for path in mounts.hide_dirs:
        if os.path.isdir(path):
            argv += ["--tmpfs", path, "--remount-ro", path]
    for path in mounts.hide_files:
        if os.path.lexists(path):
            argv += ["--ro-bind", "/dev/null", path]
    argv += ["--chdir", layout.cwd]
    if status_fd is not None:
        argv += ["--json-status-fd", str(status_fd)]
    argv.append("--")
    argv.extend(command)
    return argv


@dataclass(frozen=True)
class Finished:
    """How a confined run ended: the command's exit status, or a setup failure."""

    returncode: int
    started: bool
    setup_error: str | None = None


def run(
    layout: Layout,
    command: Sequence[str],
    *,
    stdin: int | None = None,
    stdout: int | None = None,
    stderr: int | None = None,
    timeout: float | None = None,
    forward_signals: bool = False,
) -> Finished:
    """Run ``command`` confined; waits for it. Raises ``subprocess.TimeoutExpired`` after
    killing the sandbox when ``timeout`` passes."""
    read_end, write_end = os.pipe()
    os.set_inheritable(write_end, True)
    argv = bwrap_argv(layout, command, status_fd=write_end)
    try:
        process = subprocess.Popen(
            argv,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            pass_fds=(write_end,),
            start_new_session=False,
        )
    except OSError as exc:
        os.close(read_end)
        os.close(write_end)
        raise SandboxError(f"bubblewrap could not be started: {exc}") from None
    os.close(write_end)
    previous: dict[int, object] = {}
    if forward_signals:

        def forward(signum: int, frame: object) -> None:
            with contextlib.suppress(OSError):
                process.send_signal(signum)

        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            with contextlib.suppress(ValueError, OSError):
                previous[signum] = signal.signal(signum, forward)
    try:
        with os.fdopen(read_end, "rb") as status:
            try:
                process.wait(timeout=timeout)
            except BaseException:
                process.kill()  # the sandbox's PID 1 dies with it, and with it everything
                process.wait()
                raise
            data = status.read()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]
    exit_code: int | None = None
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("exit-code"), int):
            exit_code = record["exit-code"]
    if exit_code is None and process.returncode < 0:
        # bwrap itself was killed (a signal forwarded to it): the sandbox died with it
        return Finished(128 - process.returncode, True)
    if exit_code is None:
        return Finished(
            process.returncode,
            False,
            f"bubblewrap exited with status {process.returncode} before the command ran",
        )
    return Finished(exit_code, True)
