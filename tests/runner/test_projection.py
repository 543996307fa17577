"""The next model request is projected from the event log, and only from it."""

from __future__ import annotations

from clearance.runner.events import Event
from clearance.runner.projection import MISSING_OBSERVATION, conversation, next_request
from clearance.runner.providers.types import AssistantMessage, ToolResultMessage, UserMessage


def _events(*specs: tuple[str, dict[str, object]]) -> list[Event]:
    header: Event = {"type": "run.started", "task": "fix it", "system": "be careful"}
    return [header, *({"type": kind, **fields} for kind, fields in specs)]


def _call(call_id: str, tool: str = "bash") -> tuple[str, dict[str, object]]:
    return (
        "tool_intent.proposed",
        {
            "intent_id": f"int_{call_id}",
            "call_id": call_id,
            "tool": tool,
            "input": {"command": "ls"},
        },
    )


def _observation(call_id: str, content: str = "status: ok") -> tuple[str, dict[str, object]]:
    return (
        "tool.observation",
        {"intent_id": f"int_{call_id}", "call_id": call_id, "tool": "bash", "content": content},
    )


def test_the_request_carries_system_task_turns_and_observations() -> None:
    events = _events(
        ("model.request", {"turn": 1}),
        ("model.text", {"turn": 1, "text": "Looking."}),
        _call("c1"),
        ("model.finished", {"turn": 1}),
        ("tool.validation", {"intent_id": "int_c1", "ok": True}),
        _observation("c1", "status: ok\nfiles"),
    )
    request = next_request(events, model="m", tools=[], max_tokens=100)
    assert request.system == "be careful"
    first, second, third = request.messages
    assert first == UserMessage(text="fix it")
    assert isinstance(second, AssistantMessage) and second.text == "Looking."
    assert [call.call_id for call in second.tool_calls] == ["c1"]
    assert third == ToolResultMessage(call_id="c1", tool="bash", content="status: ok\nfiles")


def test_an_aborted_turn_leaves_nothing_in_the_conversation() -> None:
    events = _events(
        ("model.request", {"turn": 1, "attempt": 1}),
        ("provider.error", {"turn": 1, "discarded": {"text": "half", "tool_calls": 1}}),
        ("provider.retry", {"turn": 1, "attempt": 2}),
    )
    assert conversation(events) == [UserMessage(text="fix it")]


def test_calls_left_without_observation_are_answered_before_the_next_turn() -> None:
    events = _events(
        _call("c1"),
        _call("c2"),
        ("model.finished", {"turn": 1}),
        _observation("c1"),
        ("model.text", {"turn": 2, "text": "next"}),
        ("model.finished", {"turn": 2}),
    )
    messages = conversation(events)
    results = [m for m in messages if isinstance(m, ToolResultMessage)]
    assert [(r.call_id, r.is_error) for r in results] == [("c1", False), ("c2", True)]
    assert results[1].content == MISSING_OBSERVATION
    assert messages.index(results[1]) < len(messages) - 1  # before turn 2's message


def test_an_observation_before_its_turn_finished_still_follows_its_call() -> None:
    events = _events(_call("c1"), _observation("c1", "status: interrupted"))
    messages = conversation(events)
    assert isinstance(messages[1], AssistantMessage)
    assert isinstance(messages[2], ToolResultMessage)
