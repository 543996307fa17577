"""The provider vocabulary: immutable, closed, and round-trippable through the event log."""

from __future__ import annotations

import pydantic
import pytest

from clearance.runner.providers.types import (
    MESSAGE_ADAPTER,
    PROVIDER_EVENT_ADAPTER,
    AssistantMessage,
    ErrorKind,
    Finished,
    FinishReason,
    MalformedToolCall,
    ModelRequest,
    ProviderError,
    ProviderFailure,
    TextDelta,
    ToolCall,
    ToolCallProposed,
    ToolResultMessage,
    Usage,
    UserMessage,
)

EVENTS = [
    TextDelta(text="hé"),
    ToolCallProposed(
        call=ToolCall(call_id="c", name="bash", arguments={"command": "ls", "n": [1]})
    ),
    MalformedToolCall(call_id="c", name="bash", raw_arguments="{", error="bad"),
    Finished(reason=FinishReason.LENGTH, usage=Usage(input_tokens=3, output_tokens=4)),
    ProviderFailure(
        error=ProviderError(
            kind=ErrorKind.RATE_LIMIT, retryable=True, message="m", status=429, retry_after=1.5
        )
    ),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_events_round_trip_through_json(event: object) -> None:
    raw = PROVIDER_EVENT_ADAPTER.dump_json(event)  # type: ignore[arg-type]
    assert PROVIDER_EVENT_ADAPTER.validate_json(raw) == event


def test_messages_are_discriminated_by_role() -> None:
    assert isinstance(MESSAGE_ADAPTER.validate_python({"role": "user", "text": "x"}), UserMessage)
    assert isinstance(
        MESSAGE_ADAPTER.validate_python(
            {"role": "tool", "call_id": "c", "tool": "t", "content": ""}
        ),
        ToolResultMessage,
    )
    request = ModelRequest.model_validate(
        {
            "model": "m",
            "max_tokens": 5,
            "messages": [{"role": "assistant", "text": "", "tool_calls": []}],
        }
    )
    assert isinstance(request.messages[0], AssistantMessage)
    with pytest.raises(pydantic.ValidationError):
        MESSAGE_ADAPTER.validate_python({"role": "system", "text": "x"})


def test_models_are_frozen_and_closed() -> None:
    delta = TextDelta(text="x")
    with pytest.raises(pydantic.ValidationError):
        delta.text = "y"
    with pytest.raises(pydantic.ValidationError):
        TextDelta.model_validate({"text": "x", "extra": 1})


def test_enums_are_closed() -> None:
    assert {r.value for r in FinishReason} == {
        "stop",
        "tool_calls",
        "length",
        "content_filter",
        "error",
        "unknown",
    }
    with pytest.raises(pydantic.ValidationError):
        Finished.model_validate({"reason": "done"})
    assert len(ErrorKind) == 10


def test_request_rejects_nonsense_limits() -> None:
    with pytest.raises(pydantic.ValidationError):
        ModelRequest(model="m", messages=[], max_tokens=0)
    with pytest.raises(pydantic.ValidationError):
        ModelRequest(model="m", messages=[], max_tokens=1, temperature=-0.1)


def test_usage_defaults_to_zero_when_unknown() -> None:
    assert Finished(reason=FinishReason.STOP).usage == Usage(input_tokens=0, output_tokens=0)
