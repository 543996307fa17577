"""Checking CommandFacts against the expectations written in ``data/*.yaml``.

Each corpus entry has a command (``cmd``), the technique it stands for, and ``expect``: a list
of parts that must each be found among the facts' commands. A part expectation holds any of

``program``, ``subcommand``
    equal to the fact's;
``classes``, ``markers``, ``options``, ``via``, ``context``, ``hosts``
    all present in the fact's (a subset);
``not_classes``, ``not_markers``
    none present;
``read``, ``write``, ``delete``, ``exec``, ``unknown``
    resolved paths the fact touches with that access (``"?"``: a path that cannot be
    resolved, e.g. ``$(…)`` or ``xargs``'s input).

Commands run as if in ``/work/proj`` (also the workspace) by a user whose home is ``/home/u``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from clearance.shellparse import classify
from clearance.shellparse.facts import CommandFacts, SimpleCommandFacts

DATA = Path(__file__).parent / "data"
CWD = WORKSPACE = "/work/proj"
HOME = "/home/u"

#: Classes a strict policy never lets through without asking.
DANGEROUS_CLASSES = frozenset(
    (
        "code_exec",
        "remote_code_exec",
        "privilege",
        "system",
        "secret_read",
        "vcs_destructive",
        "process_control",
        "unknown",
    )
)
#: Markers that say the analysis could not see what runs, or that what runs is suspect.
FAIL_CLOSED_MARKERS = frozenset(
    (
        "parse_error",
        "dynamic_program",
        "unknown_program",
        "unknown_option",
        "depth_limit",
        "inline_code",
        "stdin_code",
        "env_code",
        "sensitive_write",
        "invalid_substitution",
        "truncated",
        "path_modified",
        "unknown_cwd",
        "unknown_env",
        "dynamic_arithmetic",
        "workspace_wide",
        "unresolved_path",
        "archive_escape",
    )
)
_SET_KEYS = ("classes", "markers", "options", "via", "context", "hosts")
_ACCESS_KEYS = ("read", "write", "delete", "exec", "unknown")
KNOWN_KEYS = frozenset(
    ("program", "subcommand", "not_classes", "not_markers", *_SET_KEYS, *_ACCESS_KEYS)
)


def load(name: str) -> list[dict[str, Any]]:
    entries = yaml.safe_load((DATA / name).read_text(encoding="utf-8"))
    assert isinstance(entries, list), f"{name}: a list of entries"
    return entries


def facts_of(command: str) -> CommandFacts:
    return classify(command, cwd=CWD, home=HOME, workspace=WORKSPACE)


def describe(facts: CommandFacts) -> str:
    """The facts, one part a line, for failure messages."""
    lines = [f"  ok={facts.ok} line markers={sorted(facts.markers)}"]
    for c in facts.commands:
        paths = ", ".join(
            f"{p.access}:{p.resolved if p.resolved is not None else '?'}" for p in c.paths
        )
        lines.append(
            f"  - {c.argv!r} program={c.program} sub={c.subcommand} options={c.options} "
            f"classes={sorted(c.classes)} markers={sorted(c.markers)} via={c.via} "
            f"paths=[{paths}] hosts={c.hosts}"
        )
    return "\n".join(lines)


def part_problems(part: SimpleCommandFacts, expect: dict[str, Any]) -> list[str]:
    """What in ``part`` differs from ``expect`` (empty when it matches)."""
    problems: list[str] = []
    unknown = set(expect) - KNOWN_KEYS
    assert not unknown, f"unknown expectation keys {sorted(unknown)}"
    for key in ("program", "subcommand"):
        if key in expect and getattr(part, key) != expect[key]:
            problems.append(f"{key} is {getattr(part, key)!r}, not {expect[key]!r}")
    for key in _SET_KEYS:
        have = getattr(part, key)
        missing = [v for v in expect.get(key, ()) if v not in have]
        if missing:
            problems.append(f"{key} lacks {missing}")
    for key, attr in (("not_classes", "classes"), ("not_markers", "markers")):
        extra = [v for v in expect.get(key, ()) if v in getattr(part, attr)]
        if extra:
            problems.append(f"{attr} has {extra}")
    for access in _ACCESS_KEYS:
        have = {
            p.resolved if p.resolved is not None else "?" for p in part.paths if p.access == access
        }
        missing = [v for v in expect.get(access, ()) if v not in have]
        if missing:
            problems.append(f"no {access} of {missing} (has {sorted(have)})")
    return problems


def unmatched(facts: CommandFacts, expects: list[dict[str, Any]]) -> list[str]:
    """One message per expected part that no part of ``facts`` matches."""
    messages: list[str] = []
    for expect in expects:
        candidates = [part_problems(part, expect) for part in facts.commands]
        if any(not problems for problems in candidates):
            continue
        closest = min(candidates, key=len) if candidates else ["no commands at all"]
        messages.append(f"expected part {expect} not found; closest: {'; '.join(closest)}")
    return messages


def strict_reasons(part: SimpleCommandFacts) -> list[str]:
    """Why a strict policy would not let ``part`` run unasked (empty: nothing stops it)."""
    reasons = [f"class {c}" for c in sorted(part.classes & DANGEROUS_CLASSES)]
    reasons += [f"marker {m}" for m in sorted(part.markers & FAIL_CLOSED_MARKERS)]
    for path in part.paths:
        if path.access in ("write", "delete", "exec", "unknown") and not path.inside_workspace:
            shown = path.resolved if path.resolved is not None else f"{path.path} (unresolved)"
            reasons.append(f"{path.access} outside the workspace: {shown}")
        if path.access == "delete" and path.resolved == WORKSPACE:
            reasons.append("deletes the workspace itself")
    return reasons
