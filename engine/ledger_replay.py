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

from clearance.engine.decision import STRICTNESS, ApprovalDecision, PartDecision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from clearance.engine.intents import ToolIntent
    from clearance.engine.rules import PolicySet


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
        return STRICTNESS.get(self.new.decision, 2) < STRICTNESS.get(self.old_decision, 2)

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


class PolicyCache:
    """Loads each policy set once: exactly ``files`` for every record, or the scopes in force
    at each record's directory (one load per distinct directory)."""

    def __init__(self, files: list[str] | None, env: Mapping[str, str] | None = None) -> None:
        self.files = files
        self.env = env
        self._loaded: dict[str, PolicySet | str] = {}

    def get(self, cwd: str, *, strict: bool = False) -> PolicySet | str:
        """The policy set, or the policy error as text (raised instead when ``strict``)."""
        from clearance.engine.api import load_policy, policy_sources
        from clearance.engine.cache import key_for
        from clearance.engine.errors import PolicyError

        try:
            key = key_for(policy_sources(cwd, self.files, self.env))
            found = self._loaded.get(key)
            if found is None:
                found = load_policy(cwd, files=self.files, env=self.env)
        except PolicyError as exc:
            if strict:
                raise
            found = exc.summary()
            key = f"error:{cwd}"
        self._loaded[key] = found
        return found


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
    from clearance.engine.api import decide

    policies = PolicyCache(files, env)
    if files is not None:
        policies.get(os.getcwd(), strict=True)  # a broken --policy is an error up front
    result = ReplayResult()
    for index, record in enumerate(records):
        result.records += 1
        why = _unreplayable(record)
        if why is not None:
            result.skipped.append((index, why))
            continue
        intent = intent_from_record(record)
        old = record.get("decision")
        if intent is None or not isinstance(old, dict):
            result.skipped.append((index, "the record holds no intent (a malformed payload)"))
            continue
        cwd = intent.cwd or _text(record.get("cwd")) or os.getcwd()
        policy = policies.get(cwd)
        if isinstance(policy, str):
            message = f"policy at {cwd}: {policy}"
            if message not in result.errors:
                result.errors.append(message)
            result.skipped.append((index, message))
            continue
        try:
            new = decide(
                intent,
                policy,
                cwd=cwd,
                workspace=_text(record.get("workspace")),
                home=_text(record.get("home")),
            )
        except Exception as exc:  # a malformed record is a finding, never a traceback
            result.skipped.append((index, f"the record cannot be re-decided: {exc!r}"[:300]))
            continue
        result.replayed += 1
        if new.decision != old.get("decision"):
            result.changes.append(Change(index, record, old, new))
        elif (new.policy_id, new.reason_code) != (old.get("policy_id"), old.get("reason_code")):
            result.rule_changes.append(Change(index, record, old, new))
    return result


def _unreplayable(record: Mapping[str, object]) -> str | None:
    """Why a record cannot be re-decided as recorded, or ``None``."""
    bounded = record.get("bounded")
    if isinstance(bounded, dict) and any(str(k).startswith("intent") for k in bounded):
        return (
            "the intent was too large to record whole (the ledger keeps a digest and an "
            "excerpt): it cannot be re-decided"
        )
    decision = record.get("decision")
    if not isinstance(decision, dict) or decision.get("decision") not in ("allow", "ask", "deny"):
        return "the record holds no valid decision (a malformed record)"
    return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def decision_from_dict(data: Mapping[str, object]) -> ApprovalDecision:
    """An ``ApprovalDecision`` rebuilt from its ``to_dict`` form (a recorded decision), so the
    renderers of ``check`` and ``explain`` can show it."""
    verdict = data.get("decision")
    decision = ApprovalDecision(
        verdict if verdict in ("allow", "ask", "deny") else "deny",
        str(data.get("reason_code") or "internal_error"),
        str(data.get("reason") or ""),
    )
    for name in ("decision_id", "time", "risk", "tool", "tool_kind", "subject", "policy_digest"):
        value = data.get(name)
        if isinstance(value, str):
            setattr(decision, name, value)
    for name in ("policy_id", "scope", "source"):
        value = data.get(name)
        setattr(decision, name, value if isinstance(value, str) else None)
    trigger = data.get("trigger")
    decision.trigger = dict(trigger) if isinstance(trigger, dict) else None
    decision.matched = [str(m) for m in _list(data.get("matched"))]
    decision.errors = [str(e) for e in _list(data.get("errors"))]
    trace = data.get("trace")
    decision.trace = (
        [dict(t) for t in trace if isinstance(t, dict)] if isinstance(trace, list) else None
    )
    for index, raw in enumerate(_list(data.get("parts"))):
        if isinstance(raw, dict):
            decision.parts.append(_part_from_dict(index, raw))
    return decision


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _part_from_dict(index: int, data: Mapping[str, object]) -> PartDecision:
    recorded_index = data.get("index")
    part = PartDecision(recorded_index if isinstance(recorded_index, int) else index)
    part.text = str(data.get("text") or "")
    part.span = [int(x) for x in _list(data.get("span")) if isinstance(x, int)]
    part.argv = [str(x) for x in _list(data.get("argv"))]
    program = data.get("program")
    part.program = program if isinstance(program, str) else None
    part.classes = [str(x) for x in _list(data.get("classes"))]
    part.markers = [str(x) for x in _list(data.get("markers"))]
    part.via = [str(x) for x in _list(data.get("via"))]
    part.paths = [dict(p) for p in _list(data.get("paths")) if isinstance(p, dict)]
    part.hosts = [str(x) for x in _list(data.get("hosts"))]
    verdict = data.get("decision")
    part.decision = verdict if verdict in ("allow", "ask", "deny") else "deny"
    part.reason_code = str(data.get("reason_code") or "default")
    part.reason = str(data.get("reason") or "")
    policy_id = data.get("policy_id")
    part.policy_id = policy_id if isinstance(policy_id, str) else None
    part.matched = [str(x) for x in _list(data.get("matched"))]
    return part
