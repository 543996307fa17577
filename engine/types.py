"""The shapes of the engine's plain data: ``TypedDict``s for what travels as dicts.

Packs and rules as the loader validates them and the policy cache stores them (the
normalised dump of ``policy_model``, JSON-safe so that a hook never imports pydantic),
session grants (rules too), and the parts of a decision that are dicts in its JSON: the
trigger and the explain trace. Only annotations use these names, so the modules on the hook
path import this one under ``TYPE_CHECKING`` and pay nothing for it.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.vocab import Decision, Risk


class RuleExamples(TypedDict, total=False):
    match: list[str]
    no_match: list[str]
    #: ``[line, column]`` of each example (the loader adds them).
    match_at: list[list[int]]
    no_match_at: list[list[int]]


class RuleData(TypedDict):
    """One rule, normalised: the policy file's fields (``policy_schema.Rule``), plus where it
    stands in its file."""

    id: str
    decision: Decision
    reason: str
    when: dict[str, object]
    risk: NotRequired[Risk]
    target: NotRequired[str]
    tools: NotRequired[list[str]]
    overrides: NotRequired[list[str]]
    final: NotRequired[bool]
    examples: NotRequired[RuleExamples]
    line: NotRequired[int]
    column: NotRequired[int]


class PackDefaults(TypedDict, total=False):
    """A policy file's ``defaults`` (``policy_schema.Defaults``)."""

    decision: Decision
    unknown_tool: Decision


class PackData(TypedDict):
    """One policy file, validated: what ``PolicySet`` is built from."""

    id: str
    scope: str
    path: str
    display: NotRequired[str]
    digest: str
    description: NotRequired[str | None]
    defaults: NotRequired[PackDefaults]
    lock: NotRequired[bool]
    rules: list[RuleData]
    sandbox: NotRequired[dict[str, object] | None]


class Trigger(TypedDict):
    """The part that decided a decision (``part`` ``None``: a whole-command rule)."""

    part: int | None
    text: str
    span: list[int] | None


class TraceRule(TypedDict):
    """One rule considered for a part, whether it matched, and why."""

    rule: str
    matched: bool
    why: str


class TraceEntry(TypedDict):
    """The rules considered for one part (``part`` ``None``: the whole-command rules)."""

    part: int | None
    text: str
    rules: list[TraceRule]
