"""One model turn, assembled from the provider's event stream.

The core acts on a turn only once it is complete: a stream that ends in a failure is an
aborted turn whose text and tool calls are discarded (and only counted in the error
event), so a half-streamed tool call can never be executed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from clearance.runner.providers.errors import provider_error
from clearance.runner.providers.types import (
    ErrorKind,
    Finished,
    FinishReason,
    MalformedToolCall,
    ProviderError,
    ProviderEvent,
    ProviderFailure,
    TextDelta,
    ToolCall,
    ToolCallProposed,
    Usage,
)


@dataclass
class Turn:
    """What the model said and proposed in one turn, and how the stream ended."""

    text: str = ""
    calls: list[ToolCall | MalformedToolCall] = field(default_factory=list)
    reason: FinishReason | None = None
    usage: Usage = field(default_factory=Usage)
    failure: ProviderError | None = None


def collect(stream: Iterable[ProviderEvent]) -> Turn:
    """Drain one stream into a `Turn`; a stream that just stops is an interrupted one."""
    turn = Turn()
    pieces: list[str] = []
    for event in stream:
        if isinstance(event, TextDelta):
            pieces.append(event.text)
        elif isinstance(event, ToolCallProposed):
            turn.calls.append(event.call)
        elif isinstance(event, MalformedToolCall):
            turn.calls.append(event)
        elif isinstance(event, Finished):
            turn.reason = event.reason
            turn.usage = event.usage
            break
        elif isinstance(event, ProviderFailure):
            turn.failure = event.error
            break
    turn.text = "".join(pieces)
    if turn.reason is None and turn.failure is None:
        turn.failure = provider_error(
            ErrorKind.STREAM_INTERRUPTED, "the stream ended without a finish event"
        )
    return turn
