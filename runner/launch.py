"""Put a run together: ids, event log, tools, approver, audit, and the core that owns them.

Everything a run needs is built here, in one place, from plain settings, so the command
line, the tests and any embedding program start runs the same way. Nothing here calls a
model or a tool; `AgentRun.run` does.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from clearance.runner.providers.base import Provider

from .approval import Approver, Asker
from .audit import Audit, LedgerAudit, NoAudit
from .core import AgentRun, RunSettings
from .events import EventLog, Listener
from .ids import new_run_id
from .tools.base import ToolContext
from .tools.runtime import ToolRuntime
from .tools.toolbox import Toolbox

RUNS_DIR = Path(".clearance") / "runs"


def default_log_path(workspace: Path, run_id: str) -> Path:
    """`<workspace>/.clearance/runs/<run_id>.jsonl`."""
    return workspace / RUNS_DIR / f"{run_id}.jsonl"


def artifacts_dir(workspace: Path, run_id: str) -> Path:
    """`<workspace>/.clearance/runs/<run_id>/artifacts/`: where cut output is kept whole."""
    return workspace / RUNS_DIR / run_id / "artifacts"


def build_run(
    settings: RunSettings,
    *,
    provider: Provider,
    asker: Asker,
    policy_files: list[str] | None = None,
    log_path: Path | None = None,
    ledger: Path | None = None,
    record_ledger: bool = True,
    listeners: Sequence[Listener] = (),
    home: str | None = None,
    env: Mapping[str, str] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    run_id: str | None = None,
) -> AgentRun:
    """A ready-to-run `AgentRun`; the event log file is created, nothing else is touched."""
    workspace = settings.workspace.resolve()
    if workspace != settings.workspace:
        settings = replace(settings, workspace=workspace)
    run_id = run_id or new_run_id()
    home = home or os.path.expanduser("~")
    log = EventLog(log_path or default_log_path(workspace, run_id), run_id, listeners=listeners)
    context = ToolContext(
        workspace=workspace,
        artifacts=artifacts_dir(workspace, run_id),
        bash_timeout=settings.bash_timeout,
        output_cap=settings.output_cap,
        sandbox=settings.sandbox,
    )
    runtime = ToolRuntime(Toolbox(), context)
    approver = Approver(
        workspace=workspace, asker=asker, policy_files=policy_files, home=home, env=env
    )
    audit: Audit = (
        LedgerAudit(ledger, workspace=workspace, home=home, run_id=run_id)
        if record_ledger
        else NoAudit()
    )
    return AgentRun(
        settings,
        provider=provider,
        approver=approver,
        audit=audit,
        runtime=runtime,
        log=log,
        sleep=sleep,
    )
