"""The pydantic schema of ``ApprovalDecision``: how every surface's JSON is validated.

The evaluator builds decisions as plain objects (a hook must not pay pydantic's import);
``ApprovalDecision.to_dict`` is the one serialisation, and this model is its contract --
``parse_decision(d)`` accepts exactly what ``to_dict`` produces, and tests hold the two equal.
Readers of decisions (the ledger, replay, ``gate`` consumers) validate with it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from clearance.vocab import ACCESSES, CLASSES, DECISIONS, MARKERS, REASON_CODES, RISKS, TOOL_KINDS

TYPE_CHECKING = False

if TYPE_CHECKING:
    from clearance.vocab import Access, Decision, EffectClass, Marker, ReasonCode, Risk, ToolKind
else:  # the same Literals, built from the vocabulary's runtime twins (pydantic reads them)
    Decision = Literal[DECISIONS]
    ReasonCode = Literal[tuple(REASON_CODES)]
    Risk = Literal[RISKS]
    Access = Literal[ACCESSES]
    EffectClass = Literal[tuple(CLASSES)]
    Marker = Literal[tuple(MARKERS)]
    ToolKind = Literal[TOOL_KINDS]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PathModel(_Model):
    path: str
    resolved: str | None
    access: Access
    inside_workspace: bool | None
    source: str
    pattern: bool = False
    tree: bool = False
    case_insensitive: bool = False
    metadata_only: bool = False
    why: str | None = None


class PartDecisionModel(_Model):
    index: int
    text: str
    span: list[int]
    argv: list[str]
    program: str | None
    classes: list[EffectClass]
    markers: list[Marker]
    via: list[str]
    paths: list[PathModel]
    hosts: list[str]
    decision: Decision
    reason_code: ReasonCode
    reason: str
    policy_id: str | None
    matched: list[str]
    #: Absent in records written before overrides existed.
    overridden_by: dict[str, str] = {}


class TraceRule(_Model):
    rule: str
    matched: bool
    why: str


class TraceEntry(_Model):
    part: int | None
    text: str
    rules: list[TraceRule]


class ApprovalDecisionModel(_Model):
    decision_id: str
    time: str
    decision: Decision
    reason_code: ReasonCode
    reason: str
    policy_id: str | None
    scope: str | None
    source: str | None
    risk: Risk
    tool: str
    #: Empty in a failure that came before the tool was known.
    tool_kind: ToolKind | Literal[""]
    subject: str
    trigger: dict[str, Any] | None
    parts: list[PartDecisionModel]
    matched: list[str]
    overridden_by: dict[str, str] = {}
    errors: list[str]
    policy_digest: str
    trace: list[TraceEntry] | None
    sandbox: dict[str, Any] | None = None


def parse_decision(data: object) -> ApprovalDecisionModel:
    """Validate a serialised decision (raises pydantic's ValidationError)."""
    return ApprovalDecisionModel.model_validate(data)


__all__ = [
    "Access",
    "ApprovalDecisionModel",
    "Decision",
    "EffectClass",
    "Marker",
    "PartDecisionModel",
    "PathModel",
    "ReasonCode",
    "Risk",
    "ToolKind",
    "TraceEntry",
    "TraceRule",
    "parse_decision",
]
