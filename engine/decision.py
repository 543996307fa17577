"""Decisions: the closed vocabularies and the ApprovalDecision the engine answers with.

``ApprovalDecision`` here is the value the evaluator builds on the hot path (a plain class, so
that a hook never imports pydantic); ``clearance.engine.decision_schema.ApprovalDecisionModel``
is its pydantic schema. Both serialise through ``to_dict`` -- one shape everywhere: check, gate,
hooks, the ledger and the runner's event log -- and a test holds them equal.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.facts import PathFact

DECISIONS = ("allow", "ask", "deny")
STRICTNESS = {"allow": 0, "ask": 1, "deny": 2}

#: Why a decision is what it is (closed set).
REASON_CODES = (
    "rule_matched",  # a rule decided
    "default",  # no rule matched; the policy's default decision
    "parse_error",  # the command does not parse
    "dynamic_command",  # the program to run is computed at run time
    "unknown_program",  # a program nothing knows about and no rule names
    "unknown_option",  # an option of a known program that its table does not know
    "inline_code",  # an interpreter runs code given inline or on stdin
    "depth_limit",  # unwrapping stopped at its bound
    "unknown_tool",  # a tool the mapping does not know
    "managed_lock",  # an allow from a lower scope, discarded by the managed lock
    "no_op",  # nothing would run (an empty script, comments only)
    "policy_error",  # the policy could not be loaded: fail closed
    "bad_input",  # the intent or hook payload is malformed
    "internal_error",  # a bug in clearance: fail closed
    "sandbox_unavailable",  # allowed, but nothing can confine it here (sandbox.unavailable)
    "input_too_large",  # the input is over a size limit, or its analysis over a step budget
    "timeout",  # no decision within the hook's deadline: the hook blocked
    "interrupted",  # the hook was sent a signal before it could answer: it blocked
    "unknown_environment",  # an environment variable nothing knows about rides along
    "workspace_wide",  # the whole workspace (every file in it, or .git) would be destroyed
    "unresolved_path",  # a path could not be resolved on this machine (permission, loop, bound)
)

#: Markers that can never be allowed by a default or by a rule that does not name them,
#: mapped to the reason code a decision they escalate carries.
FAIL_CLOSED_MARKERS = {
    "too_large": "input_too_large",  # first: it says why the other markers are there
    "parse_error": "parse_error",
    "dynamic_program": "dynamic_command",
    "unknown_program": "unknown_program",
    "unknown_option": "unknown_option",
    "depth_limit": "depth_limit",
    "inline_code": "inline_code",
    "stdin_code": "inline_code",
    "invalid_substitution": "parse_error",
    "truncated": "depth_limit",
    "path_modified": "dynamic_command",
    "env_code": "inline_code",
    "unknown_env": "unknown_environment",
    "dynamic_arithmetic": "dynamic_command",
    "workspace_wide": "workspace_wide",
    "unresolved_path": "unresolved_path",
}

RISKS = ("low", "medium", "high", "critical")
DEFAULT_RISK = {"allow": "low", "ask": "medium", "deny": "high"}

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


_ID_PREFIX: list[object] = [-1, ""]


def new_decision_id() -> str:
    """A ULID: 48 bits of milliseconds then 80 random bits, so ids sort by time."""
    millis = int(time.time() * 1000)
    if _ID_PREFIX[0] != millis:
        chars = []
        value = millis
        for _ in range(10):
            chars.append(_CROCKFORD[value & 31])
            value >>= 5
        _ID_PREFIX[0] = millis
        _ID_PREFIX[1] = "".join(reversed(chars))
    value = int.from_bytes(os.urandom(10), "big")
    tail = []
    for _ in range(16):
        tail.append(_CROCKFORD[value & 31])
        value >>= 5
    return f"{_ID_PREFIX[1]}{''.join(reversed(tail))}"


def utc_now() -> str:
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z"


def stricter(a: str, b: str) -> str:
    return a if STRICTNESS[a] >= STRICTNESS[b] else b


class PartDecision:
    """The decision for one simple command (or the one pseudo-command of a file or web tool)."""

    __slots__ = (
        "argv",
        "classes",
        "decision",
        "hosts",
        "index",
        "markers",
        "matched",
        "overridden_by",
        "paths",
        "policy_id",
        "program",
        "reason",
        "reason_code",
        "span",
        "text",
        "via",
    )

    def __init__(self, index: int) -> None:
        self.index = index
        self.text = ""
        self.span: list[int] = []
        self.argv: list[str] = []
        self.program: str | None = None
        self.classes: list[str] = []
        self.markers: list[str] = []
        self.via: list[str] = []
        #: The part's paths: facts (serialised by ``to_dict``), or dicts read back from a log.
        self.paths: list[PathFact | dict[str, object]] = []
        self.hosts: list[str] = []
        self.decision = "ask"
        self.reason_code = "default"
        self.reason = ""
        self.policy_id: str | None = None
        self.matched: list[str] = []
        #: Matched rules set aside by an override: ``{overridden id: overriding id}``.
        self.overridden_by: dict[str, str] = {}

    def to_dict(self) -> dict[str, object]:
        return {
            "index": self.index,
            "text": self.text,
            "span": self.span,
            "argv": self.argv,
            "program": self.program,
            "classes": self.classes,
            "markers": self.markers,
            "via": self.via,
            "paths": [p if isinstance(p, dict) else p.to_dict() for p in self.paths],
            "hosts": self.hosts,
            "decision": self.decision,
            "reason_code": self.reason_code,
            "reason": self.reason,
            "policy_id": self.policy_id,
            "matched": self.matched,
            "overridden_by": self.overridden_by,
        }


class ApprovalDecision:
    """allow / ask / deny, the rule that decided, why, and the evidence (Cedar-style: the
    decision plus diagnostics -- every matched policy id and every error)."""

    __slots__ = (
        "decision",
        "decision_id",
        "errors",
        "matched",
        "overridden_by",
        "parts",
        "policy_digest",
        "policy_id",
        "reason",
        "reason_code",
        "risk",
        "sandbox",
        "scope",
        "source",
        "subject",
        "time",
        "tool",
        "tool_kind",
        "trace",
        "trigger",
    )

    def __init__(self, decision: str, reason_code: str, reason: str) -> None:
        self.decision_id = new_decision_id()
        self.time = utc_now()
        self.decision = decision
        self.reason_code = reason_code
        self.reason = reason
        self.policy_id: str | None = None
        self.scope: str | None = None
        self.source: str | None = None
        self.risk = DEFAULT_RISK[decision]
        self.tool = ""
        self.tool_kind = ""
        #: What was judged: the command line, the path, the URL.
        self.subject = ""
        self.parts: list[PartDecision] = []
        #: The part that decided: {"part": index, "text": …, "span": [start, end]}.
        self.trigger: dict[str, object] | None = None
        self.matched: list[str] = []
        #: Rules an override set aside, in any part: ``{overridden id: overriding id}``.
        self.overridden_by: dict[str, str] = {}
        self.errors: list[str] = []
        self.policy_digest = ""
        self.trace: list[dict[str, object]] | None = None
        #: The confinement an allowed command runs under (``clearance.sandbox.plan``), when a
        #: sandbox was asked for: its profile, network, every widening; or why there is none.
        self.sandbox: dict[str, object] | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "decision_id": self.decision_id,
            "time": self.time,
            "decision": self.decision,
            "reason_code": self.reason_code,
            "reason": self.reason,
            "policy_id": self.policy_id,
            "scope": self.scope,
            "source": self.source,
            "risk": self.risk,
            "tool": self.tool,
            "tool_kind": self.tool_kind,
            "subject": self.subject,
            "trigger": self.trigger,
            "parts": [p.to_dict() for p in self.parts],
            "matched": self.matched,
            "overridden_by": self.overridden_by,
            "errors": self.errors,
            "policy_digest": self.policy_digest,
            "trace": self.trace,
            "sandbox": self.sandbox,
        }


def failure(
    reason_code: str, reason: str, *, tool: str = "", subject: str = "", digest: str = ""
) -> ApprovalDecision:
    """A deny for input or policy that cannot be judged: fail closed, and say why."""
    decision = ApprovalDecision("deny", reason_code, reason)
    decision.tool = tool
    decision.subject = subject
    decision.policy_digest = digest
    decision.errors.append(reason)
    return decision
