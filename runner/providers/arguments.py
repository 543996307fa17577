"""Turn a finished tool call's raw argument text into a proposal, or say why it is malformed.

Only a JSON object is a valid set of arguments. Anything else (broken JSON, a bare
string, a list, NaN) becomes a `MalformedToolCall` the core can show the model, so a
sloppy model costs one observation instead of crashing the loop or reaching a tool.
"""

from __future__ import annotations

import json

from .types import MalformedToolCall, ToolCall, ToolCallProposed


def _reject_constant(token: str) -> object:
    raise ValueError(f"{token} is not valid JSON")


def complete_tool_call(call_id: str, name: str, raw: str) -> ToolCallProposed | MalformedToolCall:
    """Judge a tool call whose argument stream has ended.

    Empty (or all-whitespace) arguments mean "no arguments": that is how both APIs stream a
    call to a tool without parameters.
    """
    if not name:
        return MalformedToolCall(
            call_id=call_id, name=name, raw_arguments=raw, error="the tool call has no tool name"
        )
    if not raw.strip():
        return ToolCallProposed(call=ToolCall(call_id=call_id, name=name, arguments={}))
    try:
        value = json.loads(raw, parse_constant=_reject_constant)
    except ValueError as exc:
        return MalformedToolCall(
            call_id=call_id,
            name=name,
            raw_arguments=raw,
            error=f"arguments are not valid JSON: {exc}",
        )
    if not isinstance(value, dict):
        return MalformedToolCall(
            call_id=call_id,
            name=name,
            raw_arguments=raw,
            error=f"arguments must be a JSON object, got {_json_kind(value)}",
        )
    return ToolCallProposed(call=ToolCall(call_id=call_id, name=name, arguments=value))


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__
