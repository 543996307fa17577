"""Deny-first evaluation: every part against every candidate rule of every scope.

A part's decision is the strictest rule that matches it (deny > ask > allow), or the policy
default -- except for the rules a matching rule ``overrides`` (``rules.override_refusal``
says which it may), which are set aside for that part and recorded in ``overridden_by``;
a ``final`` rule is never set aside. A session grant -- a human's "allow for this
session" -- settles an ask (not a final one) but never overrides a deny. A part carrying
a fail-closed marker is never allowed unless an allow rule names that marker. The
command's decision is the strictest of its parts and of the whole-command rules; it is
allow only when every part is. A tool nothing knows that no rule decides gets the policy's
``unknown_tool`` decision.

``explain`` asks for the trace: a ``Tracer`` then finds the matching rules and records why of
each; without one, matching is a plain filter (the hook's path).
"""

from __future__ import annotations

from clearance.engine.decision import ApprovalDecision, PartDecision
from clearance.engine.views import PartView
from clearance.vocab import DEFAULT_RISK, FAIL_CLOSED, RISK_RANK, STRICTNESS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import TypeVar

    #: An effect class or a marker (a name ``_in_order`` sorts, its type kept).
    _Name = TypeVar("_Name", bound=str)

    from clearance.engine.rules import CompiledRule, PolicySet
    from clearance.engine.types import TraceEntry, TraceRule, Trigger
    from clearance.engine.views import Context
    from clearance.shellparse.facts import SimpleCommandFacts
    from clearance.vocab import Decision, Marker, ReasonCode

    #: How the rules matching a part (or the whole command) are found: plainly, or by a
    #: tracer that records why of each.
    PartMatching = Callable[[PolicySet, PartView, Context], list[CompiledRule]]
    CommandMatching = Callable[[PolicySet, list[PartView], Context], list[CompiledRule]]


def evaluate(
    policy: PolicySet,
    facts_parts: list[SimpleCommandFacts],
    ctx: Context,
    *,
    command_markers: frozenset[Marker] = frozenset(),
    trace: bool = False,
) -> ApprovalDecision:
    """The decision on one intent's parts under ``policy``; with ``trace``, also every rule
    considered and why it did or did not match (``explain``)."""
    parts = [PartView(f, command_markers) for f in facts_parts]
    if not trace:  # the fast path: plain filters, called directly
        judged = [
            _judge(policy, index, part, _matching(policy, part, ctx))
            for index, part in enumerate(parts)
        ]
        return _combine(policy, ctx, judged, _command_matching(policy, parts, ctx), None)
    tracer = Tracer()
    match: PartMatching = tracer.matching
    judged = [
        _judge(policy, index, part, match(policy, part, ctx)) for index, part in enumerate(parts)
    ]
    match_command: CommandMatching = tracer.command_matching
    command_rules = match_command(policy, parts, ctx)
    traces = tracer.finish([pd for pd, _ in judged], ctx.text)
    return _combine(policy, ctx, judged, command_rules, traces)


def _matching(policy: PolicySet, part: PartView, ctx: Context) -> list[CompiledRule]:
    """The candidate rules that match ``part``, in rule order (the fast path: no trace)."""
    return [rule for rule in candidates(policy, part, ctx) if rule.matcher.test(part, ctx)]


def candidates(policy: PolicySet, part: PartView, ctx: Context) -> list[CompiledRule]:
    """The rules the index says ``part`` may match (``PolicySet.applicable``), in rule
    order: what the fast path and the tracer test it against."""
    return policy.applicable(
        part.program,
        part.class_key,
        part.accesses,
        ctx.tool,
        ctx.tool_kind,
        markers=part.marker_key,
        hosts=bool(part.hosts),
    )


def _command_matching(policy: PolicySet, parts: list[PartView], ctx: Context) -> list[CompiledRule]:
    """The whole-command rules that match."""
    tool, kind = ctx.tool, ctx.tool_kind
    return [
        rule
        for rule in policy.command_rules
        if rule.applies_to(tool, kind) and rule.matcher.test_command(parts, ctx)
    ]


class Tracer:
    """Records, for ``explain``, every rule considered for every part and why it did or did not
    match. Only a traced evaluation has one: the fast path matches without it."""

    __slots__ = ("command", "parts")

    def __init__(self) -> None:
        self.parts: list[list[TraceRule]] = []
        self.command: list[TraceRule] = []

    def matching(self, policy: PolicySet, part: PartView, ctx: Context) -> list[CompiledRule]:
        """What ``_matching`` finds, with the reason for each candidate."""
        considered: list[TraceRule] = []
        matched: list[CompiledRule] = []
        for rule in candidates(policy, part, ctx):
            held, why = rule.matcher.explain(part, ctx)
            if held:
                matched.append(rule)
            considered.append({"rule": rule.policy_id, "matched": held, "why": why})
        self.parts.append(considered)
        return matched

    def command_matching(
        self, policy: PolicySet, parts: list[PartView], ctx: Context
    ) -> list[CompiledRule]:
        """What ``_command_matching`` finds, with the reason for each whole-command rule."""
        matched: list[CompiledRule] = []
        for rule in policy.command_rules:
            if not rule.applies_to(ctx.tool, ctx.tool_kind):
                continue
            held, why = rule.matcher.explain_command(parts, ctx)
            self.command.append({"rule": rule.policy_id, "matched": held, "why": why})
            if held:
                matched.append(rule)
        return matched

    def finish(self, decided: list[PartDecision], text: str) -> list[TraceEntry]:
        """The trace: an entry per part (a rule an override set aside says by which rule),
        then one for the whole-command rules when there are any."""
        out: list[TraceEntry] = []
        for pd, considered in zip(decided, self.parts, strict=True):
            if pd.overridden_by:
                for entry in considered:
                    by = pd.overridden_by.get(entry["rule"])
                    if by is not None:
                        entry["why"] = f"{entry['why']}; overridden by {by}"
            out.append({"part": pd.index, "text": pd.text, "rules": considered})
        if self.command:
            out.append({"part": None, "text": text, "rules": self.command})
        return out


def _judge(
    policy: PolicySet, index: int, part: PartView, matched: list[CompiledRule]
) -> tuple[PartDecision, CompiledRule | None]:
    """The decision of one part from the rules that match it, and the rule that decided
    (``None``: the default, the managed lock or a fail-closed marker decided)."""
    locked_out: list[CompiledRule] = []
    if policy.locked:
        locked_out = [r for r in matched if r.decision == "allow" and r.scope != "managed"]
        matched = [r for r in matched if r not in locked_out]
    matched_ids = [r.policy_id for r in matched]
    overridden_by: dict[str, str] = {}
    if policy.has_overrides:
        matched, overridden_by = _apply_overrides(matched, policy.locked)
    granted = _session_grant(matched)
    if granted is not None:
        # A session grant is a human's answer to an ask: it settles asks of any scope,
        # never a deny, and never a final rule.
        matched = [r for r in matched if r.decision != "ask" or r is granted or r.final]
    deciding: CompiledRule | None = None
    verdict: Decision
    code: ReasonCode
    policy_id: str | None = None
    if matched:
        deciding = _strictest(matched)
        verdict, code, reason = deciding.decision, "rule_matched", deciding.reason
        policy_id = deciding.policy_id
    elif locked_out:
        verdict = "ask" if policy.default_decision == "allow" else policy.default_decision
        code = "managed_lock"
        reason = (
            f"{locked_out[0].policy_id} would allow this, but the managed policy "
            "locks lower scopes and does not allow it itself"
        )
    else:
        verdict = policy.default_decision
        code = "default"
        reason = (
            f"no rule matched {part.program or 'this command'!r}; "
            f"the policy default is {policy.default_decision}"
        )
    if verdict == "allow":
        marker = _fail_closed(part, [r for r in matched if r.decision == "allow"])
        if marker is not None:
            code, sentence = FAIL_CLOSED[marker]
            verdict = "ask"
            reason = sentence.format(program=part.program) + (
                f"; no rule allows the marker {marker!r}"
            )
            policy_id = None
            deciding = None
    facts = part.facts
    pd = PartDecision(
        index,
        text=facts.text,
        span=[facts.start, facts.end],
        argv=list(facts.argv),
        program=facts.program,
        classes=_in_order(facts.classes),
        markers=_in_order(part.markers),
        via=list(facts.via),
        paths=list(facts.paths),
        hosts=list(facts.hosts),
        decision=verdict,
        reason_code=code,
        reason=reason,
        policy_id=policy_id,
        matched=matched_ids,
        overridden_by=overridden_by,
    )
    return pd, deciding


def _in_order(names: Iterable[_Name]) -> list[_Name]:
    """``sorted(names)``, without sorting none or one (most parts' markers, many classes)."""
    out = list(names)
    if len(out) > 1:
        out.sort()
    return out


def _strictest(rules: list[CompiledRule]) -> CompiledRule:
    best = rules[0]
    for rule in rules[1:]:
        if STRICTNESS[rule.decision] > STRICTNESS[best.decision]:
            best = rule
    return best


def _apply_overrides(
    matched: list[CompiledRule], locked: bool
) -> tuple[list[CompiledRule], dict[str, str]]:
    """Drop the matched rules that a matched overriding rule settles; returns what is left
    and ``{overridden policy id: overriding policy id}``. Under a managed lock only managed
    rules may override (lower scopes cannot loosen anything)."""
    settled: dict[str, str] = {}
    present = set(matched)
    removed: set[CompiledRule] = set()
    for rule in matched:
        if not rule.settles or (locked and rule.scope != "managed"):
            continue
        for target in rule.settles:
            if target in present and target not in removed:
                removed.add(target)
                settled[target.policy_id] = rule.policy_id
    if not removed:
        return matched, settled
    return [r for r in matched if r not in removed], settled


def _session_grant(matched: list[CompiledRule]) -> CompiledRule | None:
    """The session-scope allow among ``matched``, when nothing denies."""
    if any(rule.decision == "deny" for rule in matched):
        return None
    for rule in matched:
        if rule.scope == "session" and rule.decision == "allow":
            return rule
    return None


def _fail_closed(part: PartView, allowing: list[CompiledRule]) -> Marker | None:
    """The first fail-closed marker of ``part`` that no allowing rule names."""
    if not part.markers:
        return None  # (most parts: no walk over the vocabulary)
    for marker in FAIL_CLOSED:
        if marker not in part.markers:
            continue
        if (
            marker == "unknown_program"
            and part.program is not None
            and any(part.program in rule.named_programs for rule in allowing)
        ):
            continue
        if any(marker in rule.named_markers for rule in allowing):
            continue
        return marker
    return None


def _combine(
    policy: PolicySet,
    ctx: Context,
    judged: list[tuple[PartDecision, CompiledRule | None]],
    command_rules: list[CompiledRule],
    traces: list[TraceEntry] | None,
) -> ApprovalDecision:
    """The command's decision, built once: the strictest of its parts and of the whole-command
    rules, attributed to the rule that decided."""
    parts = [pd for pd, _ in judged]
    worst: Decision = "allow"
    for pd in parts:
        if STRICTNESS[pd.decision] > STRICTNESS[worst]:
            worst = pd.decision
    trigger: Trigger | None
    verdict: Decision
    code: ReasonCode
    command_rule = _strictest(command_rules) if command_rules else None
    if command_rule is not None and STRICTNESS[command_rule.decision] > STRICTNESS[worst]:
        rule: CompiledRule | None = command_rule
        verdict, code, reason = command_rule.decision, "rule_matched", command_rule.reason
        risk = command_rule.risk or DEFAULT_RISK[command_rule.decision]
        trigger = {"part": None, "text": "the whole command", "span": None}
    else:
        index = 0
        while parts[index].decision != worst:
            index += 1
        pd = parts[index]
        rule = judged[index][1]
        verdict, code, reason = worst, pd.reason_code, pd.reason
        if worst == "allow":
            reason = _allow_reason(parts)
            trigger = None
        else:
            trigger = {"part": index, "text": pd.text, "span": pd.span}
        # the highest risk among the rules that decided a part so
        risk = DEFAULT_RISK[worst]
        rank = -1
        for _, deciding in judged:
            if deciding is not None and deciding.decision == worst:
                said = deciding.risk or DEFAULT_RISK[deciding.decision]
                if RISK_RANK[said] > rank:
                    risk, rank = said, RISK_RANK[said]
    if ctx.tool_kind == "unknown" and code == "default":
        verdict = policy.unknown_tool_decision
        code = "unknown_tool"
        reason = (
            f"clearance does not know the tool {ctx.tool!r} and no rule names it; "
            f"unknown tools get {verdict}"
        )
        risk = "medium" if verdict == "ask" else "high"
    matched: list[str] = []
    overridden_by: dict[str, str] = {}
    for pd in parts:
        for policy_id in pd.matched:
            if policy_id not in matched:
                matched.append(policy_id)
        overridden_by.update(pd.overridden_by)
    for r in command_rules:
        if r.policy_id not in matched:
            matched.append(r.policy_id)
    return ApprovalDecision(
        verdict,
        code,
        reason,
        policy_id=None if rule is None else rule.policy_id,
        scope=None if rule is None else rule.scope,
        source=None if rule is None else rule.source,
        risk=risk,
        tool=ctx.tool,
        tool_kind=ctx.tool_kind,
        subject=ctx.text,
        parts=parts,
        trigger=trigger,
        matched=matched,
        overridden_by=overridden_by,
        policy_digest=policy.digest,
        trace=traces,
    )


def _allow_reason(parts: list[PartDecision]) -> str:
    if len(parts) == 1:
        return parts[0].reason
    ids = sorted({pd.policy_id for pd in parts if pd.policy_id})
    return f"every part is allowed ({', '.join(ids)})" if ids else "every part is allowed"
