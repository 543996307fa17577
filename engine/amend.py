"""Session grants: the rule a human's "allow for this session" adds, built beside the policy.

A grant is exactly as wide as what the human saw and approved, part by part:

- the same program, and the same subcommand (or none);
- no option the approved call did not have (``only_flags``): a grant for ``chmod 755 x``
  is not one for ``chmod -R``;
- every path in the same class as the approved call's paths (``paths.every``): a path inside
  the workspace grants its directory (its siblings, not their subtrees), a path outside the
  workspace grants that path only; a path the analysis cannot resolve cannot be granted;
- only the hosts it contacted (``only_hosts``);
- no grant for a tool clearance does not know (its input is not judged, so nothing could
  hold a grant to what the human saw);
- never a destructive or privileged variant: the grant rule excludes every part that
  deletes, rewrites history, escalates privilege, changes the system, reads secrets or runs
  remote code, and a call that does any of these is not granted at all (allow it once).

The grant is a rule of the session pack with its own id (``session/grant-N``), evaluated
with every other scope, so deny-first still holds and a ``final`` rule is never settled.
``propose_grant`` also proves the grant would turn this very call into an allow (a trial
decision under the policy plus the grant); a grant that would not is never offered. The
runner shows ``Grant.summary`` before the human chooses, and records ``Grant.rule``.
"""

from __future__ import annotations

import hashlib
import json

from clearance.engine.api import decide, intent_parts
from clearance.engine.intents import BadIntent, tool_kind
from clearance.engine.rules import PolicySet

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.intents import ToolIntent
    from clearance.engine.types import PackData, RuleData
    from clearance.shellparse.facts import SimpleCommandFacts

#: Effect classes a session grant never covers.
NEVER_GRANTED: Final = (
    "delete",
    "vcs_destructive",
    "privilege",
    "system",
    "secret_read",
    "remote_code_exec",
)

_GLOB_CHARS: Final = frozenset("*?[]!\\$")


def literal(word: str) -> str | None:
    """``word`` as a name pattern that matches only itself, or ``None`` when the pattern
    syntax cannot say it (a glob character, ``|``, a blank)."""
    if not word or any(c in _GLOB_CHARS or c in "| \t'\"" for c in word):
        return None
    return word


class Grant:
    """A proposed grant: the rule to add and what it covers, in words."""

    __slots__ = ("rule", "summary")

    def __init__(self, rule: RuleData, summary: list[str]) -> None:
        self.rule = rule
        self.summary = summary


def _path_class(path: str, inside: bool | None, workspace: str) -> tuple[str, str] | None:
    """``(glob, words)`` of the class a path belongs to, or ``None`` (cannot be granted)."""
    if any(c in _GLOB_CHARS for c in path):
        return None
    if inside:
        if path == workspace:
            return f"{path}$", f"the workspace directory {path} itself"
        parent = path.rsplit("/", 1)[0] or "/"
        return f"{parent}/*$", f"files directly in {parent}/"
    return f"{path}$", f"the path {path}"


def _part_when(
    facts: SimpleCommandFacts, workspace: str
) -> tuple[dict[str, object] | None, str | None, str]:
    """``(when, refusal, words)`` for one part that asked."""
    program = facts.program
    if program is None:
        return None, "it runs no program that can be named", ""
    name = literal(program)
    if name is None:
        return None, f"the program name {program!r} cannot be written as a rule", ""
    risky = sorted(set(facts.classes) & set(NEVER_GRANTED))
    if risky:
        return (
            None,
            f"{program} here is {', '.join(risky)}: a session grant never covers destructive "
            "or privileged actions (allow it once instead)",
            "",
        )
    words = [f"`{program}`"]
    when: list[dict[str, object]] = [{"program": [name]}]
    if facts.subcommand is not None:
        sub = facts.subcommand
        if any(literal(w) is None for w in sub.split(" ")) or "  " in sub:
            return None, f"the subcommand {sub!r} cannot be written as a rule", ""
        when.append({"subcommand": [sub]})
        words.append(f"subcommand `{sub}`")
    else:
        when.append({"not": {"subcommand": ["*"]}})
    options = sorted(set(facts.options))
    if any(not o.startswith("-") for o in options):
        return None, "an option cannot be written as a rule", ""
    when.append({"only_flags": options})
    words.append(f"options only {', '.join(options)}" if options else "no options")
    globs: list[str] = []
    classes: list[str] = []
    for path in facts.paths:
        if path.resolved is None or path.inside_workspace is None:
            return None, f"the path {path.path!r} is only known when the command runs", ""
        found = _path_class(path.resolved, path.inside_workspace, workspace)
        if found is None:
            return None, f"the path {path.resolved!r} cannot be written as a rule", ""
        if found[0] not in globs:
            globs.append(found[0])
            classes.append(found[1])
    if globs:
        when.append({"paths": {"match": globs, "every": True}})
        words.append("paths only " + "; ".join(classes))
    else:
        when.append({"paths": {"every": True, "location": "inside"}})
        words.append("no paths outside the workspace")
    hosts = sorted(set(facts.hosts))
    if any(literal(h) is None for h in hosts):
        return None, "a host cannot be written as a rule", ""
    when.append({"only_hosts": hosts})
    words.append(f"hosts only {', '.join(hosts)}" if hosts else "no network hosts")
    when.append({"not": {"classes": list(NEVER_GRANTED)}})
    return {"all": when}, None, ", ".join(words)


def session_pack(rules: list[RuleData]) -> PackData:
    """The session-scope pack of these grant rules (with a content digest)."""
    canonical = json.dumps(rules, sort_keys=True, separators=(",", ":"))
    return {
        "id": "session",
        "scope": "session",
        "path": "<session>",
        "digest": hashlib.sha256(canonical.encode()).hexdigest(),
        "defaults": {"decision": "ask"},
        "rules": [rule.copy() for rule in rules],
    }


def with_grants(policy: PolicySet, rules: list[RuleData]) -> PolicySet:
    """``policy`` with its session pack replaced by one of ``rules``."""
    packs = [data for data in policy.sources if str(data.get("scope")) != "session"]
    return PolicySet([*packs, session_pack(rules)] if rules else packs)


def propose_grant(
    intent: ToolIntent,
    decision: ApprovalDecision,
    policy: PolicySet,
    *,
    grant_id: str,
    who: str,
    cwd: str,
    workspace: str,
    home: str,
) -> tuple[Grant | None, str | None]:
    """The grant "allow for this session" would add for ``intent`` (whose ``decision``
    asked), or ``None`` and why not. ``policy`` is the policy in force, grants included."""
    if decision.decision != "ask":
        return None, f"only an ask can be granted (this is {decision.decision})"
    if tool_kind(intent.tool) == "unknown":
        return None, (
            f"clearance does not know the tool {intent.tool!r}, so a grant could not be held "
            "to this input (allow it once instead)"
        )
    try:
        _, parts, _, _, _ = intent_parts(intent, policy, cwd=cwd, workspace=workspace, home=home)
    except BadIntent as exc:
        return None, str(exc)
    if len(parts) != len(decision.parts):
        return None, "the call no longer reads as it did when it was decided"
    alternatives: list[dict[str, object]] = []
    summary: list[str] = []
    for facts, pd in zip(parts, decision.parts, strict=True):
        if pd.decision != "ask":
            continue
        when, refusal, words = _part_when(facts, workspace)
        if when is None:
            return None, f"part {pd.index + 1} (`{pd.text}`): {refusal}"
        if when not in alternatives:
            alternatives.append(when)
            summary.append(words)
    if not alternatives:
        return None, "no part of this call asked"
    rule: RuleData = {
        "id": grant_id,
        "decision": "allow",
        "reason": f"granted by {who} for this session: " + "; ".join(summary),
        "when": alternatives[0] if len(alternatives) == 1 else {"any": alternatives},
    }
    session = [r for d in policy.sources if d.get("scope") == "session" for r in _rules(d)]
    trial = with_grants(policy, [*session, rule])
    again = decide(intent, trial, cwd=cwd, workspace=workspace, home=home)
    if again.decision != "allow":
        blocker = again.policy_id or again.reason_code
        return None, f"{blocker} asks even with a grant (a stricter or final rule wins)"
    return Grant(rule, summary), None


def _rules(pack: PackData) -> list[RuleData]:
    rules = pack.get("rules") or []
    assert isinstance(rules, list)
    return [r for r in rules if isinstance(r, dict)]
