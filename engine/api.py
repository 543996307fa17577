"""The engine's building blocks: load the policy in force, decide an intent under a policy.

``decide`` never raises and never allows what it could not judge: an intent without the input
its tool needs, or a bug, become a deny with the reason code saying which (``bad_input``,
``internal_error``). Surfaces do not pair ``load_policy`` with ``decide`` themselves: they go
through ``clearance.engine.entry`` (load, decide, fail closed on a policy that does not load).
"""

from __future__ import annotations

import os

from clearance.engine import cache
from clearance.engine.decision import ApprovalDecision, failure
from clearance.engine.errors import PolicyError
from clearance.engine.evaluator import evaluate
from clearance.engine.intents import (
    BadIntent,
    ToolIntent,
    agent_part,
    fetch_part,
    file_part,
    shell_command,
    tool_kind,
)
from clearance.engine.rules import PolicySet
from clearance.engine.scopes import discover, workspace_of
from clearance.engine.views import Context
from clearance.policies import DEFAULT_DISPLAY, default_pack_path
from clearance.shellparse import classify
from clearance.shellparse.paths import absolute
from clearance.vocab import FILE_TOOL_KINDS, WEB_TOOL_KINDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

    from clearance.engine.errors import PolicyIssue
    from clearance.engine.types import PackData
    from clearance.shellparse.facts import SimpleCommandFacts
    from clearance.vocab import Decision, Marker, ReasonCode, ToolKind


#: Judge paths as the machine has them (globs expanded, links resolved, trees searched). Only
#: ``benchmarks/resolution_cost.py`` turns it off, to measure what resolution costs.
RESOLVE: Final = True


def policy_sources(
    cwd: str, files: list[str] | None = None, env: Mapping[str, str] | None = None
) -> list[tuple[str, str]]:
    """``(scope, path)`` of the files to load: exactly ``files`` when given (``--policy``),
    else the scopes discovered at ``cwd`` over the shipped default pack."""
    if files is not None:
        return [("cli", path) for path in files]
    return [*discover(cwd, env), ("default", default_pack_path())]


def load_policy(
    cwd: str,
    *,
    files: list[str] | None = None,
    session: list[PackData] | None = None,
    env: Mapping[str, str] | None = None,
    use_cache: bool = True,
    check: bool = True,
) -> PolicySet:
    """The policy set in force; raises ``PolicyError`` (with file:line:column) if any file is
    broken or, unless ``check`` is false (``clearance test`` reports them one by one), any
    rule's examples do not behave as declared."""
    sources = policy_sources(cwd, files, env)
    key = cache.key_for(sources)
    use_cache = use_cache and check
    packs = cache.load(key, env) if use_cache else None
    if packs is None:
        from clearance.engine.examples import check_examples
        from clearance.engine.loader import load_pack

        known = cache.load_error(key, env) if use_cache else None
        if known is not None:
            raise PolicyError([_issue_from(i) for i in known])
        packs = []
        issues: list[PolicyIssue] = []
        for scope, path in sources:
            display = DEFAULT_DISPLAY if scope == "default" else path
            try:
                packs.extend(load_pack(path, scope, display=display))
            except PolicyError as exc:
                issues.extend(exc.issues)
        if not issues and check:
            issues = check_examples(PolicySet(packs))
        if issues:
            if use_cache:  # a broken policy costs later calls a hash, not another load
                read = [p for _, p in sources] + [str(pk["path"]) for pk in packs]
                read += [issue.file for issue in issues]
                cache.store_error(key, [i.to_dict() for i in issues], read, env)
            raise PolicyError(issues)
        if use_cache:
            cache.store(key, packs, env)
    return PolicySet([*packs, *(session or [])])


def _issue_from(data: Mapping[str, object]) -> PolicyIssue:
    from clearance.engine.errors import PolicyIssue

    line, column, rule = data.get("line"), data.get("column"), data.get("rule")
    return PolicyIssue(
        str(data.get("file") or ""),
        line if isinstance(line, int) else 0,
        column if isinstance(column, int) else 0,
        rule if isinstance(rule, str) else None,
        str(data.get("message") or "policy error"),
    )


def intent_parts(
    intent: ToolIntent,
    policy: PolicySet,
    *,
    cwd: str,
    workspace: str | None,
    home: str,
    resolve: bool = True,
) -> tuple[ToolKind, list[SimpleCommandFacts], str, frozenset[Marker], bool]:
    """(kind, parts, subject, command markers, parsed ok) of an intent; raises BadIntent.

    ``workspace`` ``None``: the cwd belongs to no project. ``resolve``: judge the paths as
    this machine's file system has them (off for policy examples)."""
    kind = tool_kind(intent.tool)
    if kind == "shell":
        command = shell_command(intent)
        facts = classify(command, cwd=cwd, home=home, workspace=workspace or "", resolve=resolve)
        return kind, facts.commands, command, frozenset(facts.markers), facts.ok
    if kind in FILE_TOOL_KINDS:
        part, subject = file_part(
            intent, kind, cwd=cwd, home=home, workspace=workspace, resolve=resolve
        )
        return kind, [part], subject, frozenset(), True
    if kind in WEB_TOOL_KINDS:
        part, subject = fetch_part(intent, kind, home)
        return kind, [part], subject, frozenset(), True
    return kind, [agent_part(intent)], intent.tool, frozenset(), True


def decide(
    intent: ToolIntent,
    policy: PolicySet,
    *,
    cwd: str | None = None,
    workspace: str | None = None,
    home: str | None = None,
    trace: bool = False,
    resolve: bool | None = None,
) -> ApprovalDecision:
    """Decide one intent under ``policy``. Never raises.

    ``workspace``: the project root (default: ``workspace_of(cwd)``); ``""``: there is none,
    the cwd belongs to no project, and nothing is inside a workspace."""
    cwd = absolute(cwd or intent.cwd or os.getcwd())
    home = home or os.path.expanduser("~")
    if workspace is None:
        workspace = workspace_of(cwd, home)
    workspace = workspace or None
    resolve = RESOLVE if resolve is None else resolve
    try:
        decision = _decide(intent, policy, cwd, workspace, home, trace, resolve)
    except BadIntent as exc:
        kind = tool_kind(intent.tool)
        decision = failure(
            "bad_input", str(exc), tool=intent.tool, tool_kind=kind, digest=policy.digest
        )
    except Exception as crash:  # a bug: fail closed, and say so
        decision = failure(
            "internal_error",
            f"internal error while deciding: {crash!r}",
            tool=intent.tool,
            tool_kind=tool_kind(intent.tool),
            digest=policy.digest,
        )
    return decision


def _decide(
    intent: ToolIntent,
    policy: PolicySet,
    cwd: str,
    workspace: str | None,
    home: str,
    trace: bool,
    resolve: bool,
) -> ApprovalDecision:
    kind, parts, subject, markers, parsed = intent_parts(
        intent, policy, cwd=cwd, workspace=workspace, home=home, resolve=resolve
    )
    if not parts:
        verdict: Decision
        code: ReasonCode
        verdict, code, reason = (
            ("allow", "no_op", "nothing would run")
            if parsed
            else ("ask", "parse_error", "the command does not parse")
        )
        return ApprovalDecision(
            verdict,
            code,
            reason,
            tool=intent.tool,
            tool_kind=kind,
            subject=subject,
            policy_digest=policy.digest,
        )
    ctx = Context(intent.tool, kind, workspace, home, cwd, subject)
    return evaluate(policy, parts, ctx, command_markers=markers, trace=trace)
