"""Session grants: "allow this for the rest of the session", as a policy pack.

A human who answers an `ask` with "allow for this session" creates a rule, not a
side-channel exception: the grant is a session-scope pack the engine evaluates with every
other scope, so deny-first still holds (a grant can turn an ask into an allow, never a
deny into anything, never a final rule) and every later decision names the grant rule that
allowed it.

The engine builds the grant (``clearance.engine.amend``: program, subcommand, the options
seen, the path class, never a destructive or privileged variant) and proves it would allow
the call; this module only keeps the grants made during one run and numbers them.
"""

from __future__ import annotations

from clearance.engine.amend import session_pack

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.engine.types import PackData, RuleData


class SessionGrants:
    """The grants made during one run, and the session pack they form."""

    def __init__(self) -> None:
        self.rules: list[RuleData] = []

    def next_id(self) -> str:
        """The id the next grant gets (``grant-N``)."""
        return f"grant-{len(self.rules) + 1}"

    def add(self, rule: RuleData) -> RuleData:
        """Record a grant rule built by the engine; returns it (as it appears in the pack)."""
        if rule.get("id") != self.next_id() or rule.get("decision") != "allow":
            raise ValueError("a grant is an allow rule with the next grant id")
        self.rules.append(rule.copy())
        return self.rules[-1]

    def packs(self) -> list[PackData]:
        """The session pack (none before the first grant), ready for `load_policy`."""
        if not self.rules:
            return []
        return [session_pack(self.rules)]
