"""Appending one decision to the ledger from a command (``check``, ``gate``): errors become
messages, because each command decides on its own how a failed record ends (``check`` exits 1;
the hook blocks)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.intents import ToolIntent


def record(
    path: str,
    decision: ApprovalDecision,
    intent: ToolIntent | None,
    *,
    surface: str,
    agent: str | None = None,
    workspace: str | None = None,
    policy_files: list[str] | None = None,
) -> str | None:
    """Append ``decision`` to the ledger at ``path``; ``None`` on success, else why not."""
    import os

    from clearance.engine.ledger import Ledger, LedgerError

    try:
        Ledger(path).append(
            decision,
            intent,
            surface=surface,
            agent=agent,
            session_id=intent.session_id if intent is not None else None,
            workspace=workspace,
            home=os.path.expanduser("~"),
            policy_files=[os.path.abspath(p) for p in policy_files] if policy_files else None,
        )
    except LedgerError as exc:
        return f"the decision was not recorded: {exc}"
    return None
