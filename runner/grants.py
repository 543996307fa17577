"""Session grants: "allow this for the rest of the session", as a policy pack.

A human who answers an `ask` with "allow for this session" creates a rule, not a
side-channel exception: the grant is a session-scope pack the engine evaluates with every
other scope, so deny-first still holds (a grant can turn an ask into an allow, never a
deny into anything) and every later decision names the grant rule that allowed it.

A grant covers the parts that asked, by their program and subcommand word as an argv
prefix pattern (`npm install **`), and file tools by their exact path; the prompt shows
the pattern before the human agrees to it.
"""

from __future__ import annotations

import hashlib
import json
import re

from clearance.engine.decision import ApprovalDecision

#: A leading argument that reads as a subcommand (`install`, `compose`), not a value.
_SUBCOMMAND = re.compile(r"^[a-z][a-z0-9-]*$")

#: Programs the engine uses for the one part of a file tool; granted by exact path.
_FILE_PROGRAMS = frozenset({"read_file", "write_file", "edit_file", "list"})


def literal(word: str) -> str:
    """`word` as an argv-pattern token that matches only itself (as far as the syntax can
    say it: a `|`, which always separates alternatives, becomes a one-character `?`)."""
    escaped = "".join(f"[{c}]" if c in "*?[" else ("?" if c == "|" else c) for c in word)
    if escaped in ("**", "$"):
        escaped = "".join(f"[{c}]" for c in escaped)
    if any(c in escaped for c in " \t'\""):
        if "'" not in escaped:
            return f"'{escaped}'"
        if '"' not in escaped:
            return f'"{escaped}"'
        escaped = escaped.replace("'", "?")
        return f"'{escaped}'"
    return escaped or "''"


def grant_patterns(decision: ApprovalDecision) -> list[str]:
    """The argv prefix patterns that would allow the parts of `decision` that asked."""
    patterns: list[str] = []
    for part in decision.parts:
        if part.decision != "ask":
            continue
        program = part.program or (part.argv[0] if part.argv else "")
        if not program:
            continue
        args = part.argv[1:]
        if program in _FILE_PROGRAMS:
            pattern = " ".join([literal(program), *(literal(a) for a in args), "$"])
        elif args and _SUBCOMMAND.match(args[0]):
            pattern = f"{literal(program)} {literal(args[0])} **"
        else:
            pattern = f"{literal(program)} **"
        if pattern not in patterns:
            patterns.append(pattern)
    return patterns


class SessionGrants:
    """The grants made during one run, and the session pack they form."""

    def __init__(self) -> None:
        self.rules: list[dict[str, object]] = []

    def add(self, patterns: list[str], *, who: str) -> dict[str, object]:
        """Record a grant of `patterns`; returns the rule (as it appears in the pack)."""
        if not patterns:
            raise ValueError("a grant needs at least one argv pattern")
        rule: dict[str, object] = {
            "id": f"grant-{len(self.rules) + 1}",
            "decision": "allow",
            "reason": f"granted by {who} for this session",
            "when": {"argv": list(patterns)},
        }
        self.rules.append(rule)
        return rule

    def packs(self) -> list[dict[str, object]]:
        """The session pack (none before the first grant), ready for `load_policy`."""
        if not self.rules:
            return []
        canonical = json.dumps(self.rules, sort_keys=True, separators=(",", ":"))
        return [
            {
                "id": "session",
                "scope": "session",
                "path": "<session>",
                "digest": hashlib.sha256(canonical.encode()).hexdigest(),
                "defaults": {"decision": "ask"},
                "rules": [dict(rule) for rule in self.rules],
            }
        ]
