"""From a confinement to a running sandbox: the layout for a directory, and the run.

Used by ``clearance sandbox`` (the agents' rewritten commands) and by the runner's ``bash``
tool. Both fail closed: a machine where bubblewrap cannot confine, a workspace beyond the
mount bounds, a profile that does not exist -- each is a ``SandboxError`` and nothing runs.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from clearance.sandbox.bwrap import Finished, Layout, SandboxError, run
from clearance.sandbox.mounts import MountError, plan_mounts
from clearance.sandbox.plan import Confinement
from clearance.sandbox.probe import Backend, probe


def workspace_for(cwd: str) -> str | None:
    """The project root the sandbox makes writable (decision #1: the engine answers)."""
    from clearance.engine.scopes import workspace_of

    # a directory in no project (no workspace: decision #1) still confines an allowed
    # command to the directory it runs in, unless that is a shared root (below)
    found: str = workspace_of(cwd) or os.path.abspath(cwd)
    real = os.path.realpath(found)
    from clearance.engine.pathsets import PATH_SETS

    shared = {"/", os.path.realpath(os.path.expanduser("~")), *PATH_SETS["system"]}
    shared.update(p for p in PATH_SETS["temp"] if "*" not in p)
    if real in shared:
        return None  # never the whole file system, a home, a system or a shared temp root
    return found


def layout_for(
    confinement: Confinement,
    *,
    cwd: str,
    workspace: str | None = None,
    home: str | None = None,
    env: Mapping[str, str] | None = None,
    backend: Backend | None = None,
) -> Layout:
    """Everything needed to start the sandbox; raises ``SandboxError`` when it cannot be."""
    backend = backend or probe()
    if not backend.available or backend.path is None:
        raise SandboxError(backend.problem or "no sandbox backend")
    home = home or os.path.expanduser("~")
    environment = dict(os.environ if env is None else env)
    cwd = os.path.realpath(cwd)
    if workspace is None:
        workspace = workspace_for(cwd)
    workspace = os.path.realpath(workspace) if workspace else None
    writable: list[str] = []
    expose: list[str] = []
    for profile in confinement.profiles:
        writable.extend(profile.writable_paths(home, workspace))
        expose.extend(profile.expose)
    try:
        mounts = plan_mounts(
            home=home, workspace=workspace, writable=writable, expose=expose, env=environment
        )
    except MountError as exc:
        raise SandboxError(str(exc)) from None
    fresh: list[str] = []
    for name in ("TMPDIR", "TMP", "TEMP", "XDG_RUNTIME_DIR"):
        value = environment.get(name, "")
        if value.startswith(("/tmp/", "/var/tmp/", "/run/")) and ".." not in value.split("/"):
            fresh.append(os.path.normpath(value))
    return Layout(
        fresh_dirs=tuple(dict.fromkeys(fresh)),
        bwrap=backend.path,
        cwd=cwd,
        workspace=workspace,
        writable=tuple(os.path.realpath(p) for p in writable),
        network=confinement.network,
        mounts=mounts,
        disable_userns=backend.disable_userns,
    )


def run_confined(
    command: Sequence[str],
    confinement: Confinement,
    *,
    cwd: str,
    workspace: str | None = None,
    forward_signals: bool = False,
) -> Finished:
    layout = layout_for(confinement, cwd=cwd, workspace=workspace)
    return run(layout, command, forward_signals=forward_signals)
