"""Ending every process a command started, when it ran without the sandbox's PID namespace.

A process group is not enough: ``setsid`` leaves it, a double fork leaves its parent. So the
process that runs commands becomes a *child subreaper* (``PR_SET_CHILD_SUBREAPER``): whatever a
command leaves behind is re-parented to it rather than to init, and after the call every
descendant is found in ``/proc`` by its parent chain, killed and reaped. Inside the sandbox
this is the kernel's job (the PID namespace dies with its first process); for a timeout the
sandbox's processes are listed the same way before it is killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux); True if it is."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _parents(zombies: set[int] | None = None) -> dict[int, int]:
    """pid -> parent pid of every process; ``zombies`` collects those already dead."""
    out: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        fields = data[data.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            out[int(name)] = int(fields[1])
            if zombies is not None and fields[0] == b"Z":
                zombies.add(int(name))
    return out


def describe(pid: int) -> str:
    """``"PID name"`` (the kernel's short program name, as ``ps -o comm`` shows it)."""
    try:
        with open(f"/proc/{pid}/comm", "rb") as handle:
            name = handle.read().decode("utf-8", "replace").strip()
    except OSError:
        name = "?"
    return f"{pid} {name}"


def descendants(
    root: int, *, spare: set[int] | None = None, zombies: set[int] | None = None
) -> list[int]:
    """Every process below ``root``, parents before children (not those in ``spare``, nor
    what is below them); the dead ones among them are added to ``zombies``."""
    children: dict[int, list[int]] = {}
    for pid, parent in _parents(zombies).items():
        children.setdefault(parent, []).append(pid)
    out: list[int] = []
    stack = [pid for pid in children.get(root, ()) if not spare or pid not in spare]
    while stack:
        pid = stack.pop()
        out.append(pid)
        stack.extend(p for p in children.get(pid, ()) if not spare or p not in spare)
    return out


def kill_descendants(root: int | None = None, *, spare: set[int] | None = None) -> list[str]:
    """Kill (SIGKILL) and reap every descendant of ``root`` (default: this process) but those
    in ``spare`` (and their own descendants); what was killed, one ``"PID name"`` each."""
    root = os.getpid() if root is None else root
    spared = spare or set()
    killed: list[str] = []
    for _ in range(5):  # a process forking while we kill: go round again
        dead: set[int] = set()
        found = descendants(root, spare=spared, zombies=dead)
        if not found:
            break
        for pid in found:
            if pid not in dead:  # a zombie is only reaped (a sandbox's PID 1, orphaned)
                killed.append(describe(pid))
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        _reap(found)
    return list(dict.fromkeys(killed))


def _reap(pids: list[int]) -> None:
    """Reap the killed processes that are (or become, as orphans) our children; only those:
    a child of someone else's (a server a test started) is never waited for here."""
    pending = set(pids)
    deadline = time.monotonic() + 1.0
    while pending and time.monotonic() < deadline:
        for pid in list(pending):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                if not os.path.exists(f"/proc/{pid}"):
                    pending.discard(pid)  # gone, reaped by its own parent
                continue
            if done:
                pending.discard(pid)
        if pending:
            time.sleep(0.005)
