"""Deny-first evaluation: every part against every candidate rule of every scope.

A part's decision is the strictest rule that matches it (deny > ask > allow), or the policy
default -- except for the rules a matching rule ``overrides`` (``rules.override_refusal``
says which it may), which are set aside for that part and recorded in ``overridden_by``;
a ``final`` rule is never set aside. A session grant -- a human's "allow for this
session" -- settles an ask (not a final one) but never overrides a deny. A part carrying
a fail-closed marker is never allowed unless an allow rule names that marker. The
command's decision is the strictest of its parts and of the whole-command rules; it is
allow only when every part is.
"""

from __future__ import annotations

from clearance.engine.decision import (
    DEFAULT_RISK,
    FAIL_CLOSED_MARKERS,
    STRICTNESS,
    ApprovalDecision,
    PartDecision,
)
from clearance.engine.views import PartView

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.engine.rules import CompiledRule, PolicySet
    from clearance.engine.views import Context
    from clearance.shellparse.facts import SimpleCommandFacts

_FAIL_CLOSED_TEXT = {
    "parse_error": "the command does not parse",
    "dynamic_program": "the program to run is computed when the command runs",
    "unknown_program": "clearance knows nothing about the program {program!r}",
    "unknown_option": "{program!r} is given an option its table does not know",
    "depth_limit": "commands are nested deeper than the analysis follows",
    "inline_code": "an interpreter runs code given on its command line",
    "stdin_code": "an interpreter runs code it reads from its input",
    "invalid_substitution": "the command holds a substitution bash rejects when it runs",
    "truncated": "an expansion is larger than the analysis follows",
    "path_modified": "PATH was changed before, so which program runs is not known",
    "env_code": "an environment variable makes the program load or run other code",
    "too_large": "the command is larger than clearance analyses (a size or step budget)",
    "unknown_env": "an environment variable clearance knows nothing about rides along",
    "workspace_wide": "it deletes, truncates or rewrites the workspace, every file in it, or .git",
    "dynamic_arithmetic": "bash evaluates a value not in the text as arithmetic ($(…) in it runs)",
    "unresolved_path": "a path it uses cannot be resolved here (its value is not known before it "
    "runs, or a permission, a link loop or a bound stopped the resolution)",
    "archive_escape": "the archive it extracts holds a member that would land outside the "
    "destination (an absolute name, '..', or a link pointing out)",
}


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


def _fail_closed(part: PartView, allowing: list[CompiledRule]) -> str | None:
    """The first fail-closed marker of ``part`` that no allowing rule names."""
    for marker in FAIL_CLOSED_MARKERS:
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


def evaluate(
    policy: PolicySet,
    facts_parts: list[SimpleCommandFacts],
    ctx: Context,
    *,
    command_markers: frozenset[str] = frozenset(),
    trace: bool = False,
) -> ApprovalDecision:
    parts = [PartView(f, command_markers) for f in facts_parts]
    part_decisions: list[PartDecision] = []
    traces: list[dict[str, object]] = []
    deciding_rules: list[CompiledRule | None] = []
    all_matched: list[str] = []
    for index, part in enumerate(parts):
        pd = _part_decision(policy, index, part, ctx)
        matched: list[CompiledRule] = []
        considered: list[dict[str, object]] = []
        for rule in policy.candidates(part.program, part.class_key):
            if not rule.applies_to(ctx.tool, ctx.tool_kind):
                if trace:
                    considered.append(
                        {"rule": rule.policy_id, "matched": False, "why": "not for this tool"}
                    )
                continue
            if trace:
                held, why = rule.matcher.explain(part, ctx)
            else:
                held, why = rule.matcher.test(part, ctx), ""
            if held:
                matched.append(rule)
            if trace:
                considered.append({"rule": rule.policy_id, "matched": held, "why": why})
        locked_out: list[CompiledRule] = []
        if policy.locked:
            locked_out = [r for r in matched if r.decision == "allow" and r.scope != "managed"]
            matched = [r for r in matched if r not in locked_out]
        pd.matched = [r.policy_id for r in matched]
        if policy.has_overrides:
            matched, pd.overridden_by = _apply_overrides(matched, policy.locked)
            if trace and pd.overridden_by:
                for entry in considered:
                    by = pd.overridden_by.get(str(entry["rule"]))
                    if by is not None:
                        entry["why"] = f"{entry['why']}; overridden by {by}"
        deciding: CompiledRule | None = None
        granted = _session_grant(matched)
        if granted is not None:
            # A session grant is a human's answer to an ask: it settles asks of any scope,
            # never a deny, and never a final rule.
            matched = [r for r in matched if r.decision != "ask" or r is granted or r.final]
        if matched:
            deciding = _strictest(matched)
            pd.decision = deciding.decision
            pd.reason_code = "rule_matched"
            pd.reason = deciding.reason
            pd.policy_id = deciding.policy_id
        else:
            pd.decision = policy.default_decision
            if locked_out:
                pd.reason_code = "managed_lock"
                pd.reason = (
                    f"{locked_out[0].policy_id} would allow this, but the managed policy "
                    "locks lower scopes and does not allow it itself"
                )
                if pd.decision == "allow":
                    pd.decision = "ask"
            else:
                pd.reason_code = "default"
                pd.reason = (
                    f"no rule matched {part.program or 'this command'!r}; "
                    f"the policy default is {policy.default_decision}"
                )
        if pd.decision == "allow":
            marker = _fail_closed(part, [r for r in matched if r.decision == "allow"])
            if marker is not None:
                pd.decision = "ask"
                pd.reason_code = FAIL_CLOSED_MARKERS[marker]
                pd.reason = _FAIL_CLOSED_TEXT[marker].format(program=part.program) + (
                    f"; no rule allows the marker {marker!r}"
                )
                deciding = None
                pd.policy_id = None
        part_decisions.append(pd)
        deciding_rules.append(deciding)
        for policy_id in pd.matched:
            if policy_id not in all_matched:
                all_matched.append(policy_id)
        if trace:
            traces.append({"part": index, "text": pd.text, "rules": considered})

    command_matched: list[CompiledRule] = []
    command_trace: list[dict[str, object]] = []
    for rule in policy.command_rules:
        if not rule.applies_to(ctx.tool, ctx.tool_kind):
            continue
        if trace:
            held, why = rule.matcher.explain_command(parts, ctx)
            command_trace.append({"rule": rule.policy_id, "matched": held, "why": why})
        else:
            held = rule.matcher.test_command(parts, ctx)
        if held:
            command_matched.append(rule)
            if rule.policy_id not in all_matched:
                all_matched.append(rule.policy_id)
    if trace and command_trace:
        traces.append({"part": None, "text": ctx.text, "rules": command_trace})

    return _combine(
        policy,
        part_decisions,
        deciding_rules,
        command_matched,
        all_matched,
        traces if trace else None,
    )


def _part_decision(policy: PolicySet, index: int, part: PartView, ctx: Context) -> PartDecision:
    pd = PartDecision(index)
    facts = part.facts
    pd.text = facts.text
    pd.span = [facts.start, facts.end]
    pd.argv = list(facts.argv)
    pd.program = facts.program
    pd.classes = sorted(facts.classes)
    pd.markers = sorted(part.markers)
    pd.via = list(facts.via)
    pd.paths.extend(facts.paths)
    pd.hosts = list(facts.hosts)
    return pd


def _combine(
    policy: PolicySet,
    parts: list[PartDecision],
    deciding: list[CompiledRule | None],
    command_rules: list[CompiledRule],
    matched: list[str],
    traces: list[dict[str, object]] | None,
) -> ApprovalDecision:
    worst = "allow"
    for pd in parts:
        if STRICTNESS[pd.decision] > STRICTNESS[worst]:
            worst = pd.decision
    command_rule = _strictest(command_rules) if command_rules else None
    if command_rule is not None and STRICTNESS[command_rule.decision] > STRICTNESS[worst]:
        decision = ApprovalDecision(command_rule.decision, "rule_matched", command_rule.reason)
        _attribute(decision, command_rule)
        decision.trigger = {"part": None, "text": "the whole command", "span": None}
    else:
        index = next(i for i, pd in enumerate(parts) if pd.decision == worst)
        pd = parts[index]
        decision = ApprovalDecision(worst, pd.reason_code, pd.reason)
        rule = deciding[index]
        if rule is not None:
            _attribute(decision, rule)
        if worst == "allow":
            decision.reason = _allow_reason(parts)
            decision.trigger = None
        else:
            decision.trigger = {"part": index, "text": pd.text, "span": pd.span}
        decision.risk = max(
            (
                r.risk or DEFAULT_RISK[r.decision]
                for r in deciding
                if r is not None and r.decision == worst
            ),
            key=("low", "medium", "high", "critical").index,
            default=DEFAULT_RISK[worst],
        )
    decision.parts = parts
    decision.matched = matched
    for pd in parts:
        decision.overridden_by.update(pd.overridden_by)
    decision.policy_digest = policy.digest
    decision.trace = traces
    return decision


def _attribute(decision: ApprovalDecision, rule: CompiledRule) -> None:
    decision.policy_id = rule.policy_id
    decision.scope = rule.scope
    decision.source = rule.source
    decision.risk = rule.risk or DEFAULT_RISK[rule.decision]


def _allow_reason(parts: list[PartDecision]) -> str:
    if len(parts) == 1:
        return parts[0].reason
    ids = sorted({pd.policy_id for pd in parts if pd.policy_id})
    return f"every part is allowed ({', '.join(ids)})" if ids else "every part is allowed"
