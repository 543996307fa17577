"""``clearance lint``: rules that cannot do what their author meant.

Findings: rules that can never match (their matchers require disjoint programs, or a tool
that cannot carry what they look at), rules shadowed by stricter ones (every example a rule
matches is also matched by a stricter rule, so it never decides), duplicate ids across packs,
rules without examples, reasons too thin to tell an agent anything, examples that misbehave
(the policy would not load), overrides that name no rule, name one they may not relax or
never apply, and ``argv`` patterns that depend on where a word stands (``subcommand:`` says
it whatever global options come first).

Severity ``error``: the policy would not load, or a rule cannot work; ``warning``: the rest.
"""

from __future__ import annotations

from clearance.engine.examples import check_examples, rule_matches
from clearance.engine.matchers import All, Any_, Argv, Not, Program
from clearance.shellparse.knowledge import lookup
from clearance.vocab import PSEUDO_PROGRAMS, STRICTNESS, TOOL_KINDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.engine.matchers import Matcher
    from clearance.engine.rules import CompiledRule, PolicySet


class Finding:
    __slots__ = ("kind", "message", "policy_id", "severity", "source")

    def __init__(self, severity: str, kind: str, policy_id: str, source: str, message: str) -> None:
        self.severity = severity
        self.kind = kind
        self.policy_id = policy_id
        self.source = source
        self.message = message

    def __str__(self) -> str:
        return f"{self.source}: {self.severity}: [{self.policy_id}] {self.kind}: {self.message}"

    def to_dict(self) -> dict[str, str]:
        return {
            "severity": self.severity,
            "kind": self.kind,
            "policy_id": self.policy_id,
            "source": self.source,
            "message": self.message,
        }


def _program_sets(matcher: Matcher) -> list[frozenset[str]]:
    if isinstance(matcher, All):
        out: list[frozenset[str]] = []
        for child in matcher.children:
            out.extend(_program_sets(child))
        return out
    if isinstance(matcher, (Program, Argv)):
        found = matcher.programs()
        return [found] if found is not None else []
    return []


def never_matches(rule: CompiledRule) -> str | None:
    sets = _program_sets(rule.matcher)
    for i, a in enumerate(sets):
        for b in sets[i + 1 :]:
            if a.isdisjoint(b):
                return f"it requires the program to be one of {sorted(a)} and one of {sorted(b)}"
    if rule.tools is not None and rule.programs:
        kinds = set(TOOL_KINDS) - {"shell", "unknown"}
        pseudo = set(PSEUDO_PROGRAMS.values())
        if all(t in kinds for t in rule.tools.patterns) and not any(
            p in pseudo for p in rule.programs
        ):
            return "it names programs but applies only to tools that run none"
    return None


def shadowed_by(rule: CompiledRule, policy: PolicySet) -> CompiledRule | None:
    examples = rule.examples.get("match") or []
    assert isinstance(examples, list)
    if not examples or rule.decision == "deny":
        return None
    stricter = [
        r
        for r in policy.rules
        if STRICTNESS[r.decision] > STRICTNESS[rule.decision] and r not in rule.settles
    ]
    for candidate in stricter:
        if all(rule_matches(candidate, example, policy) for example in examples):
            return candidate
    return None


def _argv_matchers(matcher: Matcher) -> list[Argv]:
    if isinstance(matcher, Argv):
        return [matcher]
    if isinstance(matcher, (All, Any_)):
        return [found for child in matcher.children for found in _argv_matchers(child)]
    if isinstance(matcher, Not):
        return _argv_matchers(matcher.child)
    return []


def position_dependent(pattern: str) -> str | None:
    """Why an argv pattern depends on token position in a way ``subcommand:`` would not
    (``kubectl * delete **``, ``git -C * push``), or ``None``."""
    from clearance.engine.matchers import _split_words

    words = _split_words(pattern)
    if len(words) < 3 or any(c in words[0] for c in "*?[|"):
        return None
    spec = lookup(words[0])
    if spec is None or spec.subcommands is None:
        return None
    loose = False
    for word in words[1:]:
        if word in ("**", "$"):
            return None
        if word.startswith("-") or any(c in word for c in "*?["):
            loose = True
            continue
        if not loose:
            return None  # the subcommand comes first: what follows is the command's own
        if loose:
            sub = word.split("|")[0]
            return (
                f"{pattern!r} finds {sub!r} by its position after options or wildcards; "
                f"write `program: {words[0]}` with `subcommand: {sub}` (global options such as "
                "-C or --context are taken out before the subcommand)"
            )
    return None


def _override_findings(policy: PolicySet) -> list[Finding]:
    findings = []
    for rule, name, why in policy.override_problems:
        kind = "override-unknown" if why == "no rule has this id" else "override-refused"
        findings.append(
            Finding(
                "warning",
                kind,
                rule.policy_id,
                rule.source,
                f"overrides {name}, which it cannot relax: {why}",
            )
        )
    for rule in policy.rules:
        examples = rule.examples.get("match") or []
        assert isinstance(examples, list)
        if not examples:
            continue
        for target in sorted(rule.settles, key=lambda r: r.order):
            if not any(rule_matches(target, example, policy) for example in examples):
                findings.append(
                    Finding(
                        "warning",
                        "override-never-applies",
                        rule.policy_id,
                        rule.source,
                        f"overrides {target.policy_id}, but {target.policy_id} matches none "
                        "of this rule's examples: the override never settles anything",
                    )
                )
    return findings


def lint(policy: PolicySet) -> list[Finding]:
    findings: list[Finding] = []
    for issue in check_examples(policy):
        owner = next(
            (r for r in policy.rules if r.id == issue.rule and r.pack.display == issue.file),
            None,
        )
        findings.append(
            Finding(
                "error",
                "example",
                owner.policy_id if owner is not None else str(issue.rule),
                f"{issue.file}:{issue.line}:{issue.column}",
                f"{issue.message} (the policy does not load while this holds)",
            )
        )
    findings.extend(_override_findings(policy))
    seen_packs: dict[str, str] = {}
    for pack in policy.packs:
        if pack.id in seen_packs and seen_packs[pack.id] != pack.path:
            findings.append(
                Finding(
                    "error",
                    "duplicate-id",
                    pack.id,
                    pack.display,
                    f"pack id {pack.id!r} is also used by {seen_packs[pack.id]}: policy ids "
                    "in decisions would be ambiguous",
                )
            )
        seen_packs.setdefault(pack.id, pack.path)
    ids: dict[str, CompiledRule] = {}
    for rule in policy.rules:
        if rule.policy_id in ids and ids[rule.policy_id].pack.path != rule.pack.path:
            findings.append(
                Finding(
                    "error",
                    "duplicate-id",
                    rule.policy_id,
                    rule.source,
                    f"also defined at {ids[rule.policy_id].source}",
                )
            )
        ids.setdefault(rule.policy_id, rule)
        why = never_matches(rule)
        if why is not None:
            findings.append(Finding("error", "never-matches", rule.policy_id, rule.source, why))
        shadow = shadowed_by(rule, policy)
        if shadow is not None:
            findings.append(
                Finding(
                    "warning",
                    "shadowed",
                    rule.policy_id,
                    rule.source,
                    f"every example it matches is also matched by the stricter "
                    f"{shadow.policy_id} ({shadow.decision}), so it never decides them",
                )
            )
        if not (rule.examples.get("match") or []):
            findings.append(
                Finding(
                    "warning",
                    "no-examples",
                    rule.policy_id,
                    rule.source,
                    "no 'match' examples: nothing shows what the rule is for",
                )
            )
        for argv in _argv_matchers(rule.matcher):
            for pattern in argv.patterns:
                hint = position_dependent(pattern)
                if hint is not None:
                    findings.append(
                        Finding("warning", "position-dependent", rule.policy_id, rule.source, hint)
                    )
        if rule.final and rule.scope not in ("managed", "cli"):
            findings.append(
                Finding(
                    "warning",
                    "final-outside-managed",
                    rule.policy_id,
                    rule.source,
                    f"'final' in the {rule.scope} scope only stops the scopes below it "
                    "(session grants, the default pack); it is meant for managed policies",
                )
            )
        if len(rule.reason.split()) < 3:
            findings.append(
                Finding(
                    "warning",
                    "thin-reason",
                    rule.policy_id,
                    rule.source,
                    f"reason {rule.reason!r} tells the agent little",
                )
            )
    return findings
