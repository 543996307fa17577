"""What the HTTP providers' tests share: a model request with defaults, the check that a
recorded stream parses the same however its bytes are split into chunks, the events of the
scenarios every API's fixtures record (the same text, the same tool calls), the check that a
cut stream proposes nothing, and the failure one HTTP answer becomes."""

from __future__ import annotations

from collections.abc import Callable

from fake_model_server import FakeServer, Reply

from clearance.runner.providers.base import Provider
from clearance.runner.providers.types import (
    ErrorKind,
    Finished,
    FinishReason,
    MalformedToolCall,
    ModelRequest,
    ProviderError,
    ProviderEvent,
    ProviderFailure,
    TextDelta,
    ToolCall,
    ToolCallProposed,
    Usage,
    UserMessage,
)


def request(max_tokens: int, **overrides: object) -> ModelRequest:
    base: dict[str, object] = {
        "model": "",
        "system": "You are terse.",
        "messages": [UserMessage(text="hi")],
        "max_tokens": max_tokens,
    }
    return ModelRequest.model_validate({**base, **overrides})


def assert_parses_however_split(
    parse: Callable[[list[bytes]], list[ProviderEvent]],
    data: bytes,
    expected: list[ProviderEvent],
) -> None:
    """``data`` in one chunk, split in two at every byte, and one byte a chunk: the same
    events every time."""
    assert parse([data]) == expected
    for i in range(1, len(data)):
        assert parse([data[:i], data[i:]]) == expected, f"split at byte {i}"
    assert parse([data[i : i + 1] for i in range(len(data))]) == expected


#: The text every ``*_text.sse`` fixture streams, in the pieces it streams it.
TEXT_PIECES = ("The ", "café", " serves ", "☕ and ", "日本", " tea — ", "déjà vu.")


def text_events(usage: Usage) -> list[ProviderEvent]:
    """The events of a ``*_text.sse`` fixture: its pieces, then a stop with ``usage``."""
    pieces: list[ProviderEvent] = [TextDelta(text=piece) for piece in TEXT_PIECES]
    return [*pieces, Finished(reason=FinishReason.STOP, usage=usage)]


def bash_call(call_id: str) -> ToolCallProposed:
    """The call of every ``*_tool_call.sse`` fixture."""
    return ToolCallProposed(
        call=ToolCall(call_id=call_id, name="bash", arguments={"command": "ls -la src/naïve"})
    )


def read_calls(first: str, second: str) -> list[ProviderEvent]:
    """The two calls of every ``*_parallel_tool_calls.sse`` fixture, with their ids."""
    return [
        ToolCallProposed(
            call=ToolCall(call_id=first, name="read_file", arguments={"path": "README.md"})
        ),
        ToolCallProposed(
            call=ToolCall(
                call_id=second,
                name="read_file",
                arguments={"path": "src/main.py", "limit": 40},
            )
        ),
    ]


def assert_interrupted(events: list[ProviderEvent]) -> None:
    """A stream cut before its end: no call proposed (nor a malformed one: a partial call never
    reaches the core), and a retryable interruption last."""
    assert not any(isinstance(e, ToolCallProposed | MalformedToolCall) for e in events)
    failure = events[-1]
    assert isinstance(failure, ProviderFailure)
    assert failure.error.kind is ErrorKind.STREAM_INTERRUPTED
    assert failure.error.retryable


def failure_of(
    provider: Callable[[FakeServer], Provider], sent: ModelRequest, reply: Reply
) -> ProviderError:
    """What the provider makes of ``reply`` to ``sent``: one failure event; its error."""
    with FakeServer([reply]) as server:
        [event] = list(provider(server).stream(sent))
    assert isinstance(event, ProviderFailure)
    return event.error
