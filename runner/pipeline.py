"""One intent's way through the run: validate → approve → execute → observe.

Each stage is a method that records its own event before the next stage may start, so the
log shows exactly how far an intent got and why it stopped there. Execution is reachable
only through an approval whose outcome is `allow`; every path ends in one observation.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clearance.engine.decision import ApprovalDecision
from clearance.engine.intents import ToolIntent
from clearance.runner.providers.types import MalformedToolCall, ToolCall

from .approval import Approval, Approver
from .audit import AGENT, Audit, AuditError
from .events import EventLog
from .ids import new_intent_id, new_invocation_id
from .observation import Observation, Stage, interrupted_text, not_run, refusal_text
from .tools.runtime import ToolRuntime
from .tools.status import Status
from .tools.toolbox import Invalid, Validated


@dataclass(frozen=True)
class Proposal:
    """A tool call the model proposed, with the intent id the rest of its stages carry.

    A call whose arguments were not a JSON object is still a proposal (`malformed` says
    what was wrong), so it goes through validation and the model hears about it.
    """

    intent_id: str
    call_id: str
    tool: str
    arguments: dict[str, object]
    malformed: str | None = None
    raw_arguments: str | None = None

    @classmethod
    def of(cls, call: ToolCall | MalformedToolCall) -> Proposal:
        if isinstance(call, ToolCall):
            return cls(new_intent_id(), call.call_id, call.name, dict(call.arguments))
        return cls(new_intent_id(), call.call_id, call.name, {}, call.error, call.raw_arguments)

    def fields(self) -> dict[str, object]:
        """The event fields of `tool_intent.proposed`."""
        fields: dict[str, object] = {
            "intent_id": self.intent_id,
            "call_id": self.call_id,
            "tool": self.tool,
            "input": self.arguments,
        }
        if self.malformed is not None:
            fields["malformed"] = {"error": self.malformed, "raw_arguments": self.raw_arguments}
        return fields


@dataclass
class _Progress:
    """How far the intent being handled has got; used to close it if the run ends."""

    proposal: Proposal
    decision_id: str | None = None
    invocation_id: str | None = None
    #: The sandbox the decision gave the call (``clearance.sandbox.plan.Confinement``).
    confinement: object = None
    completed: bool = False
    observed: bool = False


class IntentPipeline:
    """Takes proposals through the stages; the only caller of `ToolRuntime.execute`."""

    def __init__(
        self,
        *,
        log: EventLog,
        runtime: ToolRuntime,
        approver: Approver,
        audit: Audit,
        workspace: Path,
    ) -> None:
        self.log = log
        self.runtime = runtime
        self.toolbox = runtime.toolbox
        self.approver = approver
        self.audit = audit
        self.workspace = workspace
        self._current: _Progress | None = None

    def propose(self, proposal: Proposal, *, turn: int) -> None:
        """Record the proposal (before any stage looks at it)."""
        self.log.emit("tool_intent.proposed", turn=turn, **proposal.fields())

    def handle(self, proposal: Proposal) -> Observation:
        """Take one recorded proposal through every stage; returns its observation."""
        self._current = _Progress(proposal)
        checked = self.validate(proposal)
        if isinstance(checked, Observation):
            return self.observe(checked)
        approval = self.approve(proposal, checked)
        if approval.outcome != "allow":
            return self.observe(
                Observation(
                    proposal.intent_id,
                    proposal.call_id,
                    proposal.tool,
                    Status.DENIED,
                    refusal_text(approval),
                    "approval",
                    decision_id=approval.decision.decision_id,
                )
            )
        return self.observe(self.execute(proposal, checked, approval))

    # --- stages -------------------------------------------------------------------

    def validate(self, proposal: Proposal) -> Validated | Observation:
        """Schema first, then the runtime state the call depends on; touches nothing."""
        if proposal.malformed is not None:
            invalid = Invalid(
                Status.INVALID_INPUT,
                f"the arguments are not a JSON object ({proposal.malformed})",
                [proposal.malformed],
            )
            return self._invalid(proposal, invalid, "schema")
        checked = self.toolbox.validate(proposal.tool, proposal.arguments)
        if isinstance(checked, Invalid):
            return self._invalid(proposal, checked, "schema")
        refused = self.runtime.precondition(checked)
        if refused is not None:
            invalid = Invalid(refused.status, refused.text, [refused.text])
            return self._invalid(proposal, invalid, "state")
        self.log.emit(
            "tool.validation",
            intent_id=proposal.intent_id,
            ok=True,
            status=str(Status.OK),
            checks=["schema", "state"],
            input=checked.args.model_dump(mode="json"),
        )
        return checked

    def _invalid(self, proposal: Proposal, invalid: Invalid, check: str) -> Observation:
        self.log.emit(
            "tool.validation",
            intent_id=proposal.intent_id,
            ok=False,
            status=str(invalid.status),
            failed_check=check,
            errors=invalid.errors,
        )
        return Observation(
            proposal.intent_id,
            proposal.call_id,
            proposal.tool,
            invalid.status,
            not_run(invalid.status, invalid.message),
            "validation",
        )

    def approve(self, proposal: Proposal, call: Validated) -> Approval:
        """The engine decides, the ledger records, and an `ask` is settled."""
        intent = ToolIntent(
            proposal.tool,
            call.args.model_dump(mode="json"),
            source=AGENT,
            cwd=str(self.workspace),
            id=proposal.intent_id,
            session_id=self.log.run_id,
        )
        decision = self.approver.decide(intent)
        assert self._current is not None
        self._current.decision_id = decision.decision_id
        decision, self._current.confinement = self._confine(decision)
        try:
            self.audit.record(decision, intent)
        except AuditError as exc:
            approval = Approval(decision, "deny", audit_error=str(exc))
        else:
            approval = self.approver.settle(intent, decision)
        self.log.emit(
            "tool.approval",
            intent_id=proposal.intent_id,
            **approval.fields(),
            ledger=self.audit.location,
        )
        if approval.grant is not None:
            self.log.emit(
                "session.grant",
                intent_id=proposal.intent_id,
                decision_id=decision.decision_id,
                grant=approval.grant,
                answered_by=approval.answered_by,
                policy_digest=self.approver.policy.digest,
            )
        return approval

    def _confine(self, decision: ApprovalDecision) -> tuple[ApprovalDecision, object]:
        """An allowed shell command's decision with its sandbox written in, and the
        confinement; an allow that cannot be confined becomes what the policy's
        ``sandbox.unavailable`` says."""
        if not self.runtime.ctx.sandbox or decision.tool_kind != "shell":
            return decision, None
        from clearance.sandbox.plan import annotate, annotate_ask
        from clearance.sandbox.probe import probe
        from clearance.sandbox.settings import settings_of

        if decision.decision == "deny":
            return decision, None
        settings = settings_of(self.approver.policy)
        if decision.decision == "ask":
            return annotate_ask(decision, settings, probe().problem)
        return annotate(decision, settings, probe().problem)

    def execute(self, proposal: Proposal, call: Validated, approval: Approval) -> Observation:
        """Run an approved call through the tool runtime."""
        if approval.outcome != "allow":  # the one gate in front of the world
            raise RuntimeError(f"{proposal.intent_id}: execute without an allow")
        invocation_id = new_invocation_id()
        decision_id = approval.decision.decision_id
        assert self._current is not None
        self._current.invocation_id = invocation_id
        self.log.emit(
            "tool.execution.started",
            intent_id=proposal.intent_id,
            decision_id=decision_id,
            invocation_id=invocation_id,
            tool=proposal.tool,
            input=call.args.model_dump(mode="json"),
        )
        result = self.runtime.execute(call, invocation_id, self._current.confinement)
        self.log.emit(
            "tool.execution.completed",
            intent_id=proposal.intent_id,
            decision_id=decision_id,
            invocation_id=invocation_id,
            status=str(result.status),
            result=result.to_dict(),
        )
        self._current.completed = True
        return Observation(
            proposal.intent_id,
            proposal.call_id,
            proposal.tool,
            result.status,
            call.tool.observe(result),
            "execution",
            decision_id=decision_id,
            invocation_id=invocation_id,
        )

    def observe(self, observation: Observation) -> Observation:
        """Record the observation; the intent is closed."""
        self.log.emit("tool.observation", **observation.fields())
        if self._current is not None and self._current.proposal.intent_id == (
            observation.intent_id
        ):
            self._current.observed = True
        return observation

    # --- ending early --------------------------------------------------------------

    def close(self, proposal: Proposal, status: Status, content: str) -> Observation:
        """Give a proposal that will not be handled its observation (budget, run end)."""
        current = self._current
        if current is None or current.proposal.intent_id != proposal.intent_id:
            current = self._current = _Progress(proposal)
        if current.observed:
            raise ValueError(f"{proposal.intent_id} already has its observation")
        if current.invocation_id is not None and not current.completed:
            self.log.emit(
                "tool.execution.completed",
                intent_id=proposal.intent_id,
                decision_id=current.decision_id,
                invocation_id=current.invocation_id,
                status=str(Status.INTERRUPTED),
                result={"status": str(Status.INTERRUPTED), "text": "interrupted"},
            )
            current.completed = True
        stage: Stage = "budget" if status is Status.BUDGET_EXHAUSTED else "interrupt"
        return self.observe(
            Observation(
                proposal.intent_id,
                proposal.call_id,
                proposal.tool,
                status,
                content,
                stage,
                decision_id=current.decision_id,
                invocation_id=current.invocation_id,
            )
        )

    def interrupted(self, proposal: Proposal) -> Observation | None:
        """Close `proposal` as interrupted unless it already has its observation."""
        current = self._current
        if (
            current is not None
            and current.proposal.intent_id == proposal.intent_id
            and current.observed
        ):
            return None
        return self.close(proposal, Status.INTERRUPTED, interrupted_text())
