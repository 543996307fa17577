"""Replay: re-decide recorded intents under another policy -- and execute nothing.

A policy pull request is reviewed by what it would have changed: every intent in the ledger is
decided again (the intent, its directory, workspace and home as recorded) and the new decision
compared with the recorded one. Deciding reads policy files and classifies text; nothing a
record describes is ever run, so replaying a month of ``rm -rf`` proposals is harmless.

A change is *looser* when the new decision is less strict (deny > ask > allow): that is what a
reviewer must look at, and what makes ``clearance replay`` exit 4.
"""

from __future__ import annotations

import os
from typing import cast

from clearance.engine.decision import ApprovalDecision, PartDecision, is_looser
from clearance.vocab import DECISIONS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from clearance.engine.intents import ToolIntent
    from clearance.engine.types import TraceEntry, TraceRule, Trigger
    from clearance.vocab import EffectClass, Marker, ReasonCode, Risk, ToolKind


class Change:
    """One record whose decision (or deciding rule) differs under the new policy."""

    __slots__ = ("index", "new", "old", "record")

    def __init__(
        self, index: int, record: dict[str, object], old: dict[str, object], new: ApprovalDecision
    ) -> None:
        self.index = index
        self.record = record
        self.old = old
        self.new = new

    @property
    def old_decision(self) -> str:
        return str(self.old.get("decision"))

    @property
    def kind(self) -> str:
        """``allow->deny``, ``deny->allow``, … (``allow->allow`` when only the rule changed)."""
        return f"{self.old_decision}->{self.new.decision}"

    @property
    def looser(self) -> bool:
        return is_looser(self.old_decision, self.new.decision)

    def to_dict(self) -> dict[str, object]:
        intent = self.record.get("intent")
        return {
            "record": self.index,
            "decision_id": self.record.get("decision_id"),
            "time": self.record.get("time"),
            "agent": self.record.get("agent"),
            "surface": self.record.get("surface"),
            "subject": self.old.get("subject") or self.new.subject,
            "tool": intent.get("tool") if isinstance(intent, dict) else None,
            "kind": self.kind,
            "looser": self.looser,
            "old": _summary(self.old),
            "new": _summary(self.new.to_dict()),
        }


def _summary(decision: Mapping[str, object]) -> dict[str, object]:
    return {
        "decision": decision.get("decision"),
        "policy_id": decision.get("policy_id"),
        "reason_code": decision.get("reason_code"),
        "reason": decision.get("reason"),
    }


class ReplayResult:
    __slots__ = ("changes", "errors", "records", "replayed", "rule_changes", "skipped")

    def __init__(self) -> None:
        self.records = 0
        self.replayed = 0
        #: ``(record index, why)`` of records that hold no intent to re-decide.
        self.skipped: list[tuple[int, str]] = []
        #: Decision changed.
        self.changes: list[Change] = []
        #: Same decision, another rule decided.
        self.rule_changes: list[Change] = []
        #: Policy errors met while loading the scopes of some record's directory.
        self.errors: list[str] = []

    @property
    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for change in self.changes:
            out[change.kind] = out.get(change.kind, 0) + 1
        return dict(sorted(out.items()))

    @property
    def loosened(self) -> list[Change]:
        return [c for c in self.changes if c.looser]

    def to_dict(self) -> dict[str, object]:
        return {
            "records": self.records,
            "replayed": self.replayed,
            "skipped": [{"record": i, "why": why} for i, why in self.skipped],
            "counts": self.counts,
            "loosened": len(self.loosened),
            "changes": [c.to_dict() for c in self.changes],
            "rule_changes": [c.to_dict() for c in self.rule_changes],
            "errors": self.errors,
        }


def intent_from_record(record: Mapping[str, object]) -> ToolIntent | None:
    """The recorded intent, or ``None`` when the record holds none (a malformed payload)."""
    from clearance.engine.intents import ToolIntent

    data = record.get("intent")
    if not isinstance(data, dict):
        return None
    tool = data.get("tool")
    tool_input = data.get("input")
    if not isinstance(tool, str) or not tool or not isinstance(tool_input, dict):
        return None
    cwd = data.get("cwd")
    call_id = data.get("id")
    session = data.get("session_id")
    return ToolIntent(
        tool,
        tool_input,
        source=str(data.get("source") or "replay"),
        cwd=cwd if isinstance(cwd, str) and cwd else None,
        id=call_id if isinstance(call_id, str) else None,
        session_id=session if isinstance(session, str) else None,
    )


def replay(
    records: Iterable[dict[str, object]],
    *,
    files: list[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> ReplayResult:
    """Re-decide every record's intent; never executes anything.

    With ``files`` the policy is exactly those files (loaded once; a ``PolicyError`` is
    raised); without, the scopes in force at each record's directory, and a directory whose
    policy does not load is reported in ``errors`` with its records skipped.
    """
    from clearance.engine.entry import Unreplayable, cut_short, redecide
    from clearance.engine.policycache import PolicyCache

    policies = PolicyCache(files, env)
    if files is not None:
        policies.get(os.getcwd(), strict=True)  # a broken --policy is an error up front
    result = ReplayResult()
    for index, record in enumerate(records):
        result.records += 1
        cut = cut_short(record)
        if cut is not None:
            result.skipped.append((index, cut.why))
            continue
        old = record.get("decision")
        if not isinstance(old, dict) or old.get("decision") not in ("allow", "ask", "deny"):
            result.skipped.append(
                (index, "the record holds no valid decision (a malformed record)")
            )
            continue
        new = redecide(record, policies.get)
        if isinstance(new, Unreplayable):
            if new.code == "policy" and new.why not in result.errors:
                result.errors.append(new.why)
            result.skipped.append((index, new.why))
            continue
        result.replayed += 1
        if new.decision != old.get("decision"):
            result.changes.append(Change(index, record, old, new))
        elif (new.policy_id, new.reason_code) != (old.get("policy_id"), old.get("reason_code")):
            result.rule_changes.append(Change(index, record, old, new))
    return result


def decision_from_dict(data: Mapping[str, object]) -> ApprovalDecision:
    """An ``ApprovalDecision`` rebuilt from its ``to_dict`` form (a recorded decision), so the
    renderers of ``check`` and ``explain`` can show it.

    Its words are taken as recorded: a ledger written by another version may hold a reason
    code, risk or tool kind this one does not know, and shows it as it is."""
    verdict = data.get("decision")
    trace = data.get("trace")
    sandbox = data.get("sandbox")
    risk = _text(data, "risk")
    return ApprovalDecision(
        verdict if verdict in DECISIONS else "deny",
        cast("ReasonCode", str(data.get("reason_code") or "internal_error")),
        str(data.get("reason") or ""),
        policy_id=_text(data, "policy_id"),
        scope=_text(data, "scope"),
        source=_text(data, "source"),
        risk=cast("Risk", risk) if risk is not None else None,
        tool=_text(data, "tool") or "",
        tool_kind=cast("ToolKind", _text(data, "tool_kind") or ""),
        subject=_text(data, "subject") or "",
        parts=[
            _part_from_dict(index, raw)
            for index, raw in enumerate(_list(data.get("parts")))
            if isinstance(raw, dict)
        ],
        trigger=_trigger_from(data.get("trigger")),
        matched=[str(m) for m in _list(data.get("matched"))],
        errors=[str(e) for e in _list(data.get("errors"))],
        policy_digest=_text(data, "policy_digest") or "",
        trace=(
            [_trace_entry_from(t) for t in trace if isinstance(t, dict)]
            if isinstance(trace, list)
            else None
        ),
        sandbox=dict(sandbox) if isinstance(sandbox, dict) else None,
        decision_id=_text(data, "decision_id") or "",
        time=_text(data, "time") or "",
    )


def _text(data: Mapping[str, object], name: str) -> str | None:
    value = data.get(name)
    return value if isinstance(value, str) else None


def _trigger_from(value: object) -> Trigger | None:
    if not isinstance(value, dict):
        return None
    part, span = value.get("part"), value.get("span")
    return {
        "part": part if isinstance(part, int) else None,
        "text": str(value.get("text") or ""),
        "span": [x for x in span if isinstance(x, int)] if isinstance(span, list) else None,
    }


def _trace_entry_from(value: Mapping[str, object]) -> TraceEntry:
    part = value.get("part")
    rules: list[TraceRule] = [
        {"rule": str(r.get("rule")), "matched": bool(r.get("matched")), "why": str(r.get("why"))}
        for r in _list(value.get("rules"))
        if isinstance(r, dict)
    ]
    return {
        "part": part if isinstance(part, int) else None,
        "text": str(value.get("text") or ""),
        "rules": rules,
    }


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _part_from_dict(index: int, data: Mapping[str, object]) -> PartDecision:
    recorded_index = data.get("index")
    verdict = data.get("decision")
    return PartDecision(
        recorded_index if isinstance(recorded_index, int) else index,
        text=str(data.get("text") or ""),
        span=[int(x) for x in _list(data.get("span")) if isinstance(x, int)],
        argv=[str(x) for x in _list(data.get("argv"))],
        program=_text(data, "program"),
        classes=cast("list[EffectClass]", [str(x) for x in _list(data.get("classes"))]),
        markers=cast("list[Marker]", [str(x) for x in _list(data.get("markers"))]),
        via=[str(x) for x in _list(data.get("via"))],
        paths=[dict(p) for p in _list(data.get("paths")) if isinstance(p, dict)],
        hosts=[str(x) for x in _list(data.get("hosts"))],
        decision=verdict if verdict in DECISIONS else "deny",
        reason_code=cast("ReasonCode", str(data.get("reason_code") or "default")),
        reason=str(data.get("reason") or ""),
        policy_id=_text(data, "policy_id"),
        matched=[str(x) for x in _list(data.get("matched"))],
    )
