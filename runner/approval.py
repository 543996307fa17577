"""Approval: the engine decides; a human (or `--on-ask`) settles what the engine asks.

The runner never second-guesses the policy: `allow` runs, `deny` does not, and `ask` goes
to whoever may answer. On a terminal that is the human, who can allow once, allow for the
rest of the session (which becomes a session-scope grant rule the engine evaluates from
then on) or deny. Without a terminal nobody can answer, so `--on-ask` does, and its
default is `deny`: an unattended run never does what the policy wanted a human to see.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, TextIO

from clearance.engine.amend import Grant, propose_grant
from clearance.engine.api import load_policy, policy_sources
from clearance.engine.decision import ApprovalDecision
from clearance.engine.entry import decide_in_force
from clearance.engine.intents import ToolIntent
from clearance.engine.rules import PolicySet

from .grants import SessionGrants

if TYPE_CHECKING:
    from clearance.engine.types import RuleData

AskChoice = Literal["allow_once", "allow_session", "deny"]
Outcome = Literal["allow", "deny"]
OnAskAnswer = Literal["deny", "allow"]


@dataclass(frozen=True)
class AskRequest:
    """What a human is asked about: the intent, the engine's answer, and the grant that
    "allow for this session" would create (built by the engine), shown before they choose."""

    intent: ToolIntent
    decision: ApprovalDecision
    grant: Grant | None = None
    #: Why "allow for this session" is not offered, when it is not.
    no_grant_because: str | None = None

    @property
    def grant_summary(self) -> list[str]:
        """What the grant covers, in words (empty: no grant offered)."""
        return list(self.grant.summary) if self.grant is not None else []


class Asker(Protocol):
    """Whoever answers an `ask`; `name` is recorded as who answered."""

    @property
    def name(self) -> str: ...

    def ask(self, request: AskRequest) -> AskChoice: ...


class OnAsk:
    """The answer given when no terminal is attached (`--on-ask`): allow once, or deny."""

    def __init__(self, answer: OnAskAnswer = "deny") -> None:
        self.answer = answer

    @property
    def name(self) -> str:
        return f"--on-ask {self.answer}"

    def ask(self, request: AskRequest) -> AskChoice:
        return "allow_once" if self.answer == "allow" else "deny"


class TerminalAsker:
    """Asks a human on a terminal; anything but a clear yes is a no (end of input too)."""

    def __init__(self, input: TextIO, output: TextIO, *, attempts: int = 3) -> None:
        self._input = input
        self._output = output
        self._attempts = attempts

    @property
    def name(self) -> str:
        return "terminal"

    def ask(self, request: AskRequest) -> AskChoice:
        decision = request.decision
        rule = decision.policy_id or decision.reason_code
        out = self._output
        out.write(f"\n  ? {request.intent.tool}: {decision.subject or request.intent.tool}\n")
        out.write(f"    asks: {rule}: {decision.reason}\n")
        options = "[o] allow once"
        if request.grant is not None:
            options += "   [s] allow for this session"
        options += "   [d] deny"
        out.write(f"    {options}\n")
        if request.grant is not None:
            out.write(f"    [s] would add {request.grant.rule['id']}, allowing only:\n")
            for line in request.grant.summary:
                out.write(f"        {line}\n")
        if request.no_grant_because:
            out.write(f"    (no session grant: {request.no_grant_because})\n")
        keys = "o/s/d" if request.grant is not None else "o/d"
        for _ in range(self._attempts):
            out.write(f"    answer [{keys}, default d]: ")
            out.flush()
            line = self._input.readline()
            if not line:
                out.write("\n")
                return "deny"
            answer = line.strip().lower()
            if answer in ("o", "once", "y", "yes"):
                return "allow_once"
            if answer in ("s", "session") and request.grant is not None:
                return "allow_session"
            if answer in ("", "d", "deny", "n", "no"):
                return "deny"
            out.write(f"    not an answer: {answer!r}\n")
        return "deny"


@dataclass(frozen=True)
class Approval:
    """The settled answer for one intent: the engine's decision and what became of it."""

    decision: ApprovalDecision
    outcome: Outcome
    answer: AskChoice | None = None
    answered_by: str | None = None
    grant: RuleData | None = None
    #: Set when the decision could not be recorded in the audit ledger (then never allow).
    audit_error: str | None = None
    #: For an ask: what the grant offered covers (its summary), or why none was.
    grant_offered: list[str] | None = None
    no_grant_because: str | None = None

    def fields(self) -> dict[str, object]:
        """The event fields of `tool.approval` (the decision in its one serialisation)."""
        return {
            "decision_id": self.decision.decision_id,
            "decision": self.decision.to_dict(),
            "outcome": self.outcome,
            "answer": self.answer,
            "answered_by": self.answered_by,
            "grant_id": self.grant["id"] if self.grant else None,
            "audit_error": self.audit_error,
            "grant_offered": self.grant_offered,
            "no_grant_because": self.no_grant_because,
        }


class Approver:
    """Loads the policy once per run, decides intents, and settles asks."""

    def __init__(
        self,
        *,
        workspace: Path,
        asker: Asker,
        policy_files: list[str] | None = None,
        home: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.workspace = workspace
        self.asker = asker
        self.policy_files = policy_files
        self.home = home or os.path.expanduser("~")
        self.env = env
        self.grants = SessionGrants()
        self._policy: PolicySet | None = None

    def sources(self) -> list[tuple[str, str]]:
        """`(scope, file)` of every policy file in force; raises `PolicyError`."""
        return policy_sources(str(self.workspace), self.policy_files, self.env)

    def load(self) -> PolicySet:
        """Load (or reload, after a grant) the policy; raises `PolicyError` naming file:line."""
        self._policy = load_policy(
            str(self.workspace),
            files=self.policy_files,
            session=self.grants.packs(),
            env=self.env,
        )
        return self._policy

    @property
    def policy(self) -> PolicySet:
        if self._policy is None:
            return self.load()
        return self._policy

    def decide(self, intent: ToolIntent) -> ApprovalDecision:
        """The engine's decision under the policy in force (session grants included)."""
        decision, _ = decide_in_force(
            intent,
            policy=self.policy,
            cwd=str(self.workspace),
            workspace=str(self.workspace),
            home=self.home,
        )
        return decision

    def settle(self, intent: ToolIntent, decision: ApprovalDecision) -> Approval:
        """Turn the decision into allow or deny, asking whoever may answer an `ask`."""
        if decision.decision == "allow":
            return Approval(decision, "allow")
        if decision.decision != "ask":
            return Approval(decision, "deny")
        grant, blocked = propose_grant(
            intent,
            decision,
            self.policy,
            grant_id=self.grants.next_id(),
            who=self.asker.name,
            cwd=str(self.workspace),
            workspace=str(self.workspace),
            home=self.home,
        )
        choice = self.asker.ask(AskRequest(intent, decision, grant, blocked))
        who = self.asker.name
        offered = list(grant.summary) if grant is not None else None
        if choice == "deny":
            return Approval(
                decision, "deny", choice, who, grant_offered=offered, no_grant_because=blocked
            )
        rule: RuleData | None = None
        if choice == "allow_session" and grant is not None:
            rule = self.grants.add(grant.rule)
            self.load()
        else:
            choice = "allow_once"
        return Approval(
            decision,
            "allow",
            choice,
            who,
            rule,
            grant_offered=offered,
            no_grant_because=blocked,
        )
