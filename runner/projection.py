"""Project the event log into the next model request.

The conversation is never kept anywhere else: the system prompt and the task come from
`run.started`, the model's turns from `model.text` / `tool_intent.proposed` /
`model.finished`, and the tool results from `tool.observation`. What the model is sent is
therefore exactly what the log says happened, and replay can rebuild it from the file.
Events of a turn the provider aborted are never recorded as proposals, so they never
reach the conversation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from clearance.runner.providers.types import (
    AssistantMessage,
    Message,
    ModelRequest,
    ToolCall,
    ToolResultMessage,
    ToolSpec,
    UserMessage,
)

from .events import Event

#: Told to the model for a call the log has no observation for (a run cut short).
MISSING_OBSERVATION = (
    "status: interrupted\nNot run: the recorded run ended before this call was handled."
)


def run_header(events: Sequence[Event]) -> Mapping[str, object]:
    """The `run.started` event; every log begins with one."""
    for event in events:
        if event.get("type") == "run.started":
            return event
    raise ValueError("the event log has no run.started event")


def conversation(events: Sequence[Event]) -> list[Message]:
    """The messages so far: the task, each completed turn, and each observation.

    A call left without an observation (the run was cut short) gets a result saying so,
    so the conversation is always one a model API accepts.
    """
    header = run_header(events)
    messages: list[Message] = [UserMessage(text=str(header.get("task", "")))]
    text = ""
    calls: list[ToolCall] = []
    open_calls: dict[str, str] = {}
    for event in events:
        kind = event.get("type")
        if kind == "model.text":
            text += str(event.get("text", ""))
        elif kind == "tool_intent.proposed":
            arguments = event.get("input")
            calls.append(
                ToolCall(
                    call_id=str(event["call_id"]),
                    name=str(event["tool"]),
                    arguments=dict(arguments) if isinstance(arguments, dict) else {},
                )
            )
        elif kind == "model.finished" or (kind == "tool.observation" and calls):
            # (an observation before its turn's finish: the run was cut short mid-turn)
            if text or calls:
                _answer_missing(messages, open_calls)
                messages.append(AssistantMessage(text=text, tool_calls=calls))
            open_calls.update((call.call_id, call.name) for call in calls)
            text, calls = "", []
        if kind == "tool.observation":
            call_id = str(event["call_id"])
            open_calls.pop(call_id, None)
            messages.append(
                ToolResultMessage(
                    call_id=call_id,
                    tool=str(event["tool"]),
                    content=str(event.get("content", "")),
                    is_error=bool(event.get("is_error", False)),
                )
            )
    _answer_missing(messages, open_calls)
    return messages


def _answer_missing(messages: list[Message], open_calls: dict[str, str]) -> None:
    """Close the calls left without an observation, so no call goes unanswered."""
    for call_id, tool in open_calls.items():
        messages.append(
            ToolResultMessage(
                call_id=call_id, tool=tool, content=MISSING_OBSERVATION, is_error=True
            )
        )
    open_calls.clear()


def next_request(
    events: Sequence[Event], *, model: str, tools: list[ToolSpec], max_tokens: int
) -> ModelRequest:
    """The request for the next turn, from the log alone (plus what to offer the model)."""
    header = run_header(events)
    return ModelRequest(
        model=model,
        system=str(header.get("system", "")),
        messages=conversation(events),
        tools=tools,
        max_tokens=max_tokens,
    )
