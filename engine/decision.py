"""Decisions: the ApprovalDecision the engine answers with (its words: ``clearance.vocab``).

``ApprovalDecision`` here is the value the evaluator builds on the hot path (a plain class, so
that a hook never imports pydantic); ``clearance.engine.decision_schema.ApprovalDecisionModel``
is its pydantic schema. Both serialise through ``to_dict`` -- one shape everywhere: check, gate,
hooks, the ledger and the runner's event log -- and a test holds them equal.
"""

from __future__ import annotations

import os
import time as _time

from clearance.vocab import (
    DECISIONS,
    DEFAULT_RISK,
    FAIL_CLOSED,
    REASON_CODES,
    RISKS,
    STRICTNESS,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final, Literal

    from clearance.engine.types import TraceEntry, Trigger
    from clearance.shellparse.facts import PathFact
    from clearance.vocab import Decision, EffectClass, Marker, ReasonCode, Risk, ToolKind

__all__ = [
    "DECISIONS",
    "DEFAULT_RISK",
    "FAIL_CLOSED_MARKERS",
    "REASON_CODES",
    "RISKS",
    "STRICTNESS",
    "ApprovalDecision",
    "PartDecision",
    "failure",
    "is_looser",
    "new_decision_id",
    "stricter",
    "utc_now",
]

#: The vocabularies live in ``clearance.vocab``; these names stay importable from here.
FAIL_CLOSED_MARKERS: Final[dict[str, str]] = {
    marker: code for marker, (code, _) in FAIL_CLOSED.items()
}

_CROCKFORD: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


class _Clock:
    """What one process caches to make ids and times cheap: the ULID's time part (per
    millisecond), the ISO time's seconds part (per second), and a buffer of ``os.urandom``
    bytes with its Crockford characters (dropped in a forked child, so workers never share
    it)."""

    __slots__ = ("chars", "entropy", "high", "millis", "prefix", "second", "stamp", "used")

    def __init__(self) -> None:
        self.millis = -1
        self.high = ""
        self.prefix = ""
        self.second = -1
        self.stamp = ""
        self.entropy = b""
        #: ``entropy``, each byte as the Crockford character of its low five bits
        self.chars = ""
        self.used = 0

    def forget(self) -> None:
        self.entropy = b""
        self.chars = ""
        self.used = 0


_CLOCK: Final = _Clock()
#: Random bytes drawn from the OS at a time (one ULID takes 16).
_ENTROPY_BYTES: Final = 4096
#: Every byte to the Crockford character of its low five bits (``bytes.translate``): the 32
#: characters eight times over. 256 is a multiple of 32, so a uniform byte gives a uniform
#: character, five random bits.
_TO_CROCKFORD: Final = _CROCKFORD.encode("ascii") * 8

if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_CLOCK.forget)


def new_decision_id(now: float | None = None) -> str:
    """A ULID: 48 bits of milliseconds then 80 random bits, so ids sort by time. The random
    part is 16 characters of five random bits, each the low bits of one drawn byte: a slice
    of the buffer, translated once when it is drawn."""
    clock = _CLOCK
    millis = int((_time.time() if now is None else now) * 1000)
    if clock.millis != millis:
        high = millis >> 5  # the first nine characters, the same for 32 ms
        if clock.millis >> 5 != high or clock.millis < 0:
            chars = []
            for _ in range(9):
                chars.append(_CROCKFORD[high & 31])
                high >>= 5
            clock.high = "".join(reversed(chars))
        clock.millis = millis
        clock.prefix = clock.high + _CROCKFORD[millis & 31]
    start = clock.used
    if start + 16 > len(clock.chars):
        clock.entropy = os.urandom(_ENTROPY_BYTES)
        clock.chars = clock.entropy.translate(_TO_CROCKFORD).decode("ascii")
        start = 0
    clock.used = start + 16
    return clock.prefix + clock.chars[start : start + 16]


#: ``.000Z`` to ``.999Z``: the milliseconds part of a time, made once.
_MILLIS: Final = [f".{n:03d}Z" for n in range(1000)]


def utc_now(now: float | None = None) -> str:
    """``YYYY-MM-DDTHH:MM:SS.mmmZ`` (UTC) of ``now`` (default: the current time)."""
    if now is None:
        now = _time.time()
    clock = _CLOCK
    second = int(now)
    if clock.second != second:
        clock.second = second
        clock.stamp = _time.strftime("%Y-%m-%dT%H:%M:%S", _time.gmtime(now))
    return clock.stamp + _MILLIS[int(now % 1 * 1000)]


def stricter(a: Decision, b: Decision) -> Decision:
    return a if STRICTNESS[a] >= STRICTNESS[b] else b


def is_looser(old: str, new: str) -> bool:
    """Whether decision ``new`` is less strict than ``old`` (a replayed change that loosens);
    a word outside the vocabulary (a record of another version) counts as deny."""
    return STRICTNESS.get(new, 2) < STRICTNESS.get(old, 2)


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

    def __init__(
        self,
        index: int,
        *,
        text: str = "",
        span: list[int] | None = None,
        argv: list[str] | None = None,
        program: str | None = None,
        classes: list[EffectClass] | None = None,
        markers: list[Marker] | None = None,
        via: list[str] | None = None,
        paths: list[PathFact | dict[str, object]] | None = None,
        hosts: list[str] | None = None,
        decision: Decision = "ask",
        reason_code: ReasonCode = "default",
        reason: str = "",
        policy_id: str | None = None,
        matched: list[str] | None = None,
        overridden_by: dict[str, str] | None = None,
    ) -> None:
        """Built once, like the decision it is part of (the fields are ``Final``)."""
        self.index: Final = index
        self.text: Final = text
        self.span: Final[list[int]] = [] if span is None else span
        self.argv: Final[list[str]] = [] if argv is None else argv
        self.program: Final = program
        self.classes: Final[list[EffectClass]] = [] if classes is None else classes
        self.markers: Final[list[Marker]] = [] if markers is None else markers
        self.via: Final[list[str]] = [] if via is None else via
        #: The part's paths: facts (serialised by ``to_dict``), or dicts read back from a log.
        self.paths: Final[list[PathFact | dict[str, object]]] = [] if paths is None else paths
        self.hosts: Final[list[str]] = [] if hosts is None else hosts
        self.decision: Final[Decision] = decision
        self.reason_code: Final[ReasonCode] = reason_code
        self.reason: Final = reason
        self.policy_id: Final = policy_id
        self.matched: Final[list[str]] = [] if matched is None else matched
        #: Matched rules set aside by an override: ``{overridden id: overriding id}``.
        self.overridden_by: Final[dict[str, str]] = {} if overridden_by is None else overridden_by

    def fields(self) -> dict[str, Any]:
        """Every field, by its constructor parameter's name, as held (the one list of them:
        :meth:`to_dict` and pickling are built from it)."""
        return {
            "index": self.index,
            "text": self.text,
            "span": self.span,
            "argv": self.argv,
            "program": self.program,
            "classes": self.classes,
            "markers": self.markers,
            "via": self.via,
            "paths": self.paths,
            "hosts": self.hosts,
            "decision": self.decision,
            "reason_code": self.reason_code,
            "reason": self.reason,
            "policy_id": self.policy_id,
            "matched": self.matched,
            "overridden_by": self.overridden_by,
        }

    def __reduce__(self) -> tuple[Callable[[dict[str, Any]], PartDecision], tuple[object]]:
        """Picklable (``gate --jobs`` sends decisions between processes) in both builds: a
        compiled class cannot be made without its ``__init__``, so pickle calls the
        constructor again with :meth:`to_dict` (every field; paths in their ``to_dict`` form)."""
        return (_restore_part, (self.to_dict(),))

    def to_dict(self) -> dict[str, object]:
        fields = self.fields()
        fields["paths"] = [p if isinstance(p, dict) else p.to_dict() for p in self.paths]
        return fields


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

    def __init__(
        self,
        decision: Decision,
        reason_code: ReasonCode,
        reason: str,
        *,
        policy_id: str | None = None,
        scope: str | None = None,
        source: str | None = None,
        risk: Risk | None = None,
        tool: str = "",
        tool_kind: ToolKind | Literal[""] = "",
        subject: str = "",
        parts: list[PartDecision] | None = None,
        trigger: Trigger | None = None,
        matched: list[str] | None = None,
        overridden_by: dict[str, str] | None = None,
        errors: list[str] | None = None,
        policy_digest: str = "",
        trace: list[TraceEntry] | None = None,
        sandbox: dict[str, object] | None = None,
        decision_id: str = "",
        time: str = "",
    ) -> None:
        """Built once, with everything it says: the evaluator, the failure paths, the sandbox
        plan (:meth:`replaced`) and a recorded decision read back (``decision_id`` and
        ``time`` given) pass every field here; nothing sets one afterwards (the fields are
        ``Final``: mypy refuses an assignment, and compiled code has no setter)."""
        if not decision_id or not time:
            now = _time.time()
            decision_id = decision_id or new_decision_id(now)
            time = time or utc_now(now)
        self.decision_id: Final = decision_id
        self.time: Final = time
        self.decision: Final[Decision] = decision
        self.reason_code: Final[ReasonCode] = reason_code
        self.reason: Final = reason
        self.policy_id: Final = policy_id
        self.scope: Final = scope
        self.source: Final = source
        self.risk: Final[Risk] = risk or DEFAULT_RISK[decision]
        self.tool: Final = tool
        self.tool_kind: Final[ToolKind | Literal[""]] = tool_kind
        #: What was judged: the command line, the path, the URL.
        self.subject: Final = subject
        self.parts: Final[list[PartDecision]] = [] if parts is None else parts
        #: The part that decided: {"part": index, "text": …, "span": [start, end]}.
        self.trigger: Final = trigger
        self.matched: Final[list[str]] = [] if matched is None else matched
        #: Rules an override set aside, in any part: ``{overridden id: overriding id}``.
        self.overridden_by: Final[dict[str, str]] = {} if overridden_by is None else overridden_by
        self.errors: Final[list[str]] = [] if errors is None else errors
        self.policy_digest: Final = policy_digest
        #: ``explain``'s trace (``evaluate(..., trace=True)``): every rule considered, and why.
        self.trace: Final = trace
        #: The confinement an allowed command runs under (``clearance.sandbox.plan``), when a
        #: sandbox was asked for: its profile, network, every widening; or why there is none.
        self.sandbox: Final = sandbox

    def replaced(
        self,
        *,
        decision: Decision | None = None,
        reason_code: ReasonCode | None = None,
        reason: str | None = None,
        trace: list[TraceEntry] | None = None,
        sandbox: dict[str, object] | None = None,
    ) -> ApprovalDecision:
        """The same decision (its id and time kept) with the given fields in place of its
        own; a new ``decision`` takes that decision's default risk."""
        fields = self.fields()
        if decision is not None:
            fields.update(decision=decision, risk=None)
        if reason_code is not None:
            fields["reason_code"] = reason_code
        if reason is not None:
            fields["reason"] = reason
        if trace is not None:
            fields["trace"] = trace
        if sandbox is not None:
            fields["sandbox"] = sandbox
        return ApprovalDecision(**fields)

    def __reduce__(self) -> tuple[Callable[[dict[str, Any]], ApprovalDecision], tuple[object]]:
        """Picklable in both builds (see :meth:`PartDecision.__reduce__`): every field, the id
        and the time included; the parts pickle themselves."""
        return (_restore_decision, (self.fields(),))

    def fields(self) -> dict[str, Any]:
        """Every field, by its constructor parameter's name, as held, in the order of the JSON
        form (the one list of them: :meth:`to_dict`, :meth:`replaced` and pickling are built
        from it)."""
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
            "parts": self.parts,
            "matched": self.matched,
            "overridden_by": self.overridden_by,
            "errors": self.errors,
            "policy_digest": self.policy_digest,
            "trace": self.trace,
            "sandbox": self.sandbox,
        }

    def to_dict(self, max_parts: int | None = None) -> dict[str, object]:
        """The decision's JSON form; ``max_parts``: only the first parts that many (a
        megabyte command has tens of thousands, more than a ledger record may hold)."""
        parts = self.parts if max_parts is None else self.parts[:max_parts]
        fields = self.fields()
        fields["parts"] = [p.to_dict() for p in parts]
        return fields


def _restore_part(fields: dict[str, Any]) -> PartDecision:
    return PartDecision(**fields)


def _restore_decision(fields: dict[str, Any]) -> ApprovalDecision:
    return ApprovalDecision(**fields)


def failure(
    reason_code: ReasonCode,
    reason: str,
    *,
    tool: str = "",
    tool_kind: ToolKind | Literal[""] = "",
    subject: str = "",
    digest: str = "",
    errors: list[str] | None = None,
    decision_id: str = "",
    time: str = "",
) -> ApprovalDecision:
    """A deny for input or policy that cannot be judged: fail closed, and say why (``errors``:
    every problem found, default: the reason; ``decision_id`` and ``time``: the decision it
    stands in for, when it replaces one)."""
    return ApprovalDecision(
        "deny",
        reason_code,
        reason,
        tool=tool,
        tool_kind=tool_kind,
        subject=subject,
        policy_digest=digest,
        errors=[reason] if errors is None else errors,
        decision_id=decision_id,
        time=time,
    )
