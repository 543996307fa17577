"""``clearance sandbox [--profile NAME]… [--allow-network] [--cwd DIR] [--workspace DIR]
[--policy FILE]… -- COMMAND…``: run a command confined (see ``clearance.sandbox``).

``--workspace`` is the writable project root (default: the engine's workspace of the
directory); a hook passes the one it judged the command in. It is never ``/`` or a home
directory.

The command's stdin, stdout, stderr and exit status are its own. When the sandbox cannot be
set up nothing runs: a message on stderr and exit status 125 (never an unconfined run; whether
an unconfinable command may run at all is the policy's ``sandbox.unavailable``, decided before
this is called).
"""

from __future__ import annotations

import os
import sys

from clearance.hooks.base import option_value
from clearance.vocab import SandboxExit

USAGE = (
    "usage: clearance sandbox [--profile NAME]... [--allow-network] [--cwd DIR] "
    "[--workspace DIR] [--policy FILE]... -- COMMAND [ARG]..."
)


class _Args:
    def __init__(self) -> None:
        self.profiles: list[str] = []
        self.policies: list[str] | None = None
        self.network = False
        self.cwd: str | None = None
        self.workspace: str | None = None
        self.command: list[str] = []


def _parse(args: list[str]) -> _Args | str:
    out = _Args()
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            out.command = args[i + 1 :]
            break
        name = arg.partition("=")[0]
        if name in ("--profile", "--cwd", "--policy", "--workspace"):
            taken = option_value(args, i)
            if isinstance(taken, str):
                return taken
            value, i = taken
            if name == "--profile":
                out.profiles.append(value)
            elif name == "--cwd":
                out.cwd = value
            elif name == "--workspace":
                out.workspace = value
            else:
                out.policies = [*(out.policies or []), os.path.abspath(value)]
        elif arg == "--allow-network":
            out.network = True
        elif arg in ("-h", "--help"):
            return "help"
        elif arg.startswith("-"):
            return f"unknown option {arg!r}"
        else:
            out.command = args[i:]
            break
        i += 1
    if not out.command:
        return "no command given"
    return out


def _fail(message: str) -> int:
    sys.stderr.write(f"clearance sandbox: {message}; the command did not run\n")
    sys.stderr.flush()
    return SandboxExit.SETUP_FAILED


def run_sandbox(args: list[str]) -> int:
    parsed = _parse(args)
    if parsed == "help":
        sys.stdout.write(USAGE + "\n")
        return 0
    if isinstance(parsed, str):
        sys.stderr.write(f"clearance sandbox: {parsed}\n{USAGE}\n")
        return SandboxExit.USAGE
    from clearance.sandbox.bwrap import SandboxError
    from clearance.sandbox.confine import layout_for
    from clearance.sandbox.plan import Confinement
    from clearance.sandbox.settings import Profile

    cwd = os.path.abspath(parsed.cwd or os.getcwd())
    if not os.path.isdir(cwd):
        return _fail(f"--cwd {cwd} is not a directory")
    workspace: str | None = None
    if parsed.workspace is not None:
        workspace = os.path.realpath(parsed.workspace)
        homes = {os.path.realpath(os.path.expanduser("~")), "/"}
        if not os.path.isdir(workspace) or workspace in homes:
            return _fail(f"--workspace {workspace}: not a project directory")
    profiles: list[Profile] = []
    if parsed.profiles:
        from clearance.engine.api import load_policy
        from clearance.engine.errors import PolicyError
        from clearance.sandbox.settings import settings_of

        try:
            settings = settings_of(load_policy(cwd, files=parsed.policies))
        except PolicyError as exc:
            return _fail(f"policy error: {exc.summary()}")
        for name in parsed.profiles:
            profile = settings.profile(name)
            if profile is None:
                return _fail(f"no sandbox profile named {name!r} in the policy")
            profiles.append(profile)
    network = parsed.network or any(p.network for p in profiles)
    confinement = Confinement(
        network=network,
        profiles=tuple(profiles),
        network_because="--allow-network" if parsed.network else None,
    )
    from clearance.sandbox.bwrap import run

    try:
        layout = layout_for(confinement, cwd=cwd, workspace=workspace)
        sys.stdout.flush()
        finished = run(layout, parsed.command, forward_signals=True)
    except SandboxError as exc:
        return _fail(f"cannot confine: {exc}")
    if not finished.started:
        return _fail(f"cannot confine: {finished.setup_error}")
    return finished.returncode
