"""Observations: what the model is told about each of its tool calls.

Every proposal ends in exactly one observation, whatever stage it stopped at, and the
observation says which stage that was. A call that failed validation, a call the policy
refused and a call that ran and failed are three different things, and the model needs to
know which one happened to decide what to do next (fix the input, take another route,
fix the code).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from clearance.runner.providers.types import ToolResultMessage

from .approval import Approval
from .tools.status import NOT_ERRORS, Status

#: Where the call stopped: before running (validation, approval, budget, interrupt) or after.
Stage = Literal["validation", "approval", "execution", "budget", "interrupt"]


@dataclass(frozen=True)
class Observation:
    """The closing fact about one intent; links back to it by `intent_id`."""

    intent_id: str
    call_id: str
    tool: str
    status: Status
    content: str
    stage: Stage
    decision_id: str | None = None
    invocation_id: str | None = None

    @property
    def is_error(self) -> bool:
        return self.status not in NOT_ERRORS

    def fields(self) -> dict[str, object]:
        """The event fields of `tool.observation`."""
        return {
            "intent_id": self.intent_id,
            "decision_id": self.decision_id,
            "invocation_id": self.invocation_id,
            "call_id": self.call_id,
            "tool": self.tool,
            "stage": self.stage,
            "status": str(self.status),
            "is_error": self.is_error,
            "content": self.content,
        }

    def message(self) -> ToolResultMessage:
        """The tool result the model receives."""
        return ToolResultMessage(
            call_id=self.call_id, tool=self.tool, content=self.content, is_error=self.is_error
        )


def not_run(status: Status, why: str) -> str:
    """The text of an observation for a call that never ran."""
    return f"status: {status}\nNot run: {why}"


def refusal_text(approval: Approval) -> str:
    """Why an approval ended in deny: the rule, its reason, and who refused an ask."""
    decision = approval.decision
    rule = decision.policy_id or "(no rule)"
    code = decision.reason_code
    if approval.audit_error is not None:
        why = (
            "the decision could not be recorded in the audit ledger, and an unrecorded "
            f"action is never run ({approval.audit_error})."
        )
    elif decision.decision == "deny":
        why = f"the policy denies it (rule {rule}, {code}).\nReason: {decision.reason}"
    else:
        who = approval.answered_by or "nobody"
        why = (
            f"the policy asks for a human's approval (rule {rule}, {code}) and {who} "
            f"refused.\nReason: {decision.reason}"
        )
    return not_run(Status.DENIED, why + "\nDo not try to get around this; take another way.")


def interrupted_text() -> str:
    return not_run(Status.INTERRUPTED, "the run was interrupted before this call finished.")


def budget_text(limit: int) -> str:
    return not_run(Status.BUDGET_EXHAUSTED, f"the run's budget of {limit} tool calls is used up.")
