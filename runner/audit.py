"""The audit ledger, as the run sees it: one record per decision, or the run knows why not.

Runs record their decisions (surface `run`, agent `clearance-run`, the run id as session)
in the same hash-chained ledger as every other surface, so "why was this allowed?" has one
place to look. A decision that cannot be recorded is not auditable, so the pipeline treats
an `AuditError` as a refusal: the intent does not run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from clearance.engine.decision import ApprovalDecision
from clearance.engine.intents import ToolIntent
from clearance.engine.ledger import Ledger, LedgerError, default_ledger_path

SURFACE = "run"
AGENT = "clearance-run"


class AuditError(Exception):
    """The decision could not be recorded; the message says why."""


class Audit(Protocol):
    """Where decisions are recorded."""

    @property
    def location(self) -> str | None:
        """The ledger file, or `None` when decisions are not recorded."""
        ...

    def record(self, decision: ApprovalDecision, intent: ToolIntent) -> None:
        """Record one decision; raises `AuditError` when it cannot."""
        ...


class NoAudit:
    """`--no-ledger`: decisions live only in the run's event log."""

    @property
    def location(self) -> str | None:
        return None

    def record(self, decision: ApprovalDecision, intent: ToolIntent) -> None:
        return None


class LedgerAudit:
    """Appends to the ledger at `path`, by default the workspace's ledger in the user's state
    directory (`clearance.engine.state`)."""

    def __init__(self, path: Path | None, *, workspace: Path, home: str, run_id: str) -> None:
        resolved = path if path is not None else Path(default_ledger_path(str(workspace)))
        self._ledger = Ledger(str(resolved))
        self._workspace = str(workspace)
        self._home = home
        self._run_id = run_id

    @property
    def location(self) -> str | None:
        return self._ledger.path

    def record(self, decision: ApprovalDecision, intent: ToolIntent) -> None:
        try:
            self._ledger.append(
                decision,
                intent,
                surface=SURFACE,
                agent=AGENT,
                session_id=self._run_id,
                workspace=self._workspace,
                home=self._home,
            )
        except LedgerError as exc:
            raise AuditError(str(exc)) from exc
