"""Can bubblewrap confine a command on this machine, as this user?

The answer comes from running it: ``bwrap`` with the namespaces the sandbox uses around
``true``. A machine where unprivileged user namespaces are off, a container without the
capability to make mounts, or a missing ``bwrap`` all fail here, and the failure (bwrap's own
message) is what the decision says. The result is cached for an hour per bwrap binary, user
and kernel, so the hook pays for the probe once, not per call; a stale "available" costs
nothing, because ``clearance sandbox`` refuses to run a command it cannot confine.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass

#: Where bwrap is looked for first (a system path the workspace cannot shadow), then $PATH.
BWRAP_PATHS = ("/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap")
CACHE_SECONDS = 3600
PROBE_TIMEOUT = 5.0


@dataclass(frozen=True)
class Backend:
    """A usable bubblewrap, or why there is none."""

    path: str | None
    problem: str | None = None
    #: ``--disable-userns`` works (bwrap ≥ 0.8 on a kernel that allows it).
    disable_userns: bool = False

    @property
    def available(self) -> bool:
        return self.path is not None and self.problem is None


def find_bwrap() -> str | None:
    """``$CLEARANCE_BWRAP`` when set (an operator's choice of binary; a path that is not an
    executable means none), else the first system path that has it, else ``$PATH``."""
    chosen = os.environ.get("CLEARANCE_BWRAP")
    if chosen is not None:
        return chosen if chosen and os.access(chosen, os.X_OK) else None
    for path in BWRAP_PATHS:
        if os.access(path, os.X_OK):
            return path
    return shutil.which("bwrap")


def base_probe_argv(bwrap: str) -> list[str]:
    return [
        bwrap,
        "--unshare-user",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--die-with-parent",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/",
        "/",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/tmp",
    ]


def _try(argv: list[str]) -> str | None:
    import subprocess  # not on the hook's path when the cached answer is fresh

    try:
        done = subprocess.run(
            [*argv, "--", "true"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=PROBE_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not be started: {exc}"
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        last = message[-1] if message else f"exit status {done.returncode}"
        return f"bubblewrap cannot set up a sandbox here: {last}"
    return None


def probe_now(bwrap: str | None = None) -> Backend:
    """Run the probe (no cache)."""
    bwrap = bwrap or find_bwrap()
    if bwrap is None:
        return Backend(None, "bubblewrap (bwrap) is not installed")
    problem = _try(base_probe_argv(bwrap))
    if problem is not None:
        return Backend(bwrap, problem)
    disable = _try([*base_probe_argv(bwrap), "--disable-userns"]) is None
    return Backend(bwrap, None, disable)


def _cache_path() -> str:
    from clearance.engine.cache import cache_dir

    return os.path.join(cache_dir(), "sandbox-probe.json")


def _identity(bwrap: str) -> str:
    stat = os.stat(bwrap)
    return f"{bwrap}:{stat.st_mtime_ns}:{stat.st_size}:{os.geteuid()}:{os.uname().release}"


def probe() -> Backend:
    """The cached probe result (probing when the cache is missing, stale or elsewhere)."""
    bwrap = find_bwrap()
    if bwrap is None:
        return Backend(None, "bubblewrap (bwrap) is not installed")
    try:
        identity = _identity(bwrap)
    except OSError as exc:
        return Backend(None, f"bubblewrap is not usable: {exc}")
    path = _cache_path()
    try:
        with open(path, encoding="utf-8") as handle:
            cached = json.load(handle)
        if (
            isinstance(cached, dict)
            and cached.get("identity") == identity
            and time.time() - float(cached.get("time", 0)) < CACHE_SECONDS
        ):
            return Backend(bwrap, cached.get("problem"), bool(cached.get("disable_userns")))
    except (OSError, ValueError, TypeError):
        pass
    found = probe_now(bwrap)
    record = {
        "identity": identity,
        "time": time.time(),
        "problem": found.problem,
        "disable_userns": found.disable_userns,
    }
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        temp = f"{path}.{os.getpid()}"
        with open(temp, "w", encoding="utf-8") as handle:
            json.dump(record, handle)
        os.replace(temp, path)
    except OSError:
        pass
    return found
