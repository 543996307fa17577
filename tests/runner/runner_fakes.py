"""Fake providers for core tests: record requests, emit malformed calls, get interrupted."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from clearance.runner.providers.base import Provider
from clearance.runner.providers.types import (
    Finished,
    FinishReason,
    ModelRequest,
    ProviderEvent,
)


class Recording:
    """Wraps a provider and keeps every request it was sent."""

    name = "recording"

    def __init__(self, inner: Provider) -> None:
        self.inner = inner
        self.requests: list[ModelRequest] = []

    def stream(self, request: ModelRequest) -> Iterator[ProviderEvent]:
        self.requests.append(request)
        return self.inner.stream(request)


class Turns:
    """Plays lists of events, one list per request; a callable entry is called instead
    (to raise an interrupt at that point)."""

    name = "turns"

    def __init__(self, *turns: list[ProviderEvent] | Callable[[], None]) -> None:
        self.turns = list(turns)

    def stream(self, request: ModelRequest) -> Iterator[ProviderEvent]:
        turn = self.turns.pop(0) if self.turns else [Finished(reason=FinishReason.STOP)]
        if callable(turn):
            turn()
            return iter([])
        return iter(turn)


def interrupt() -> None:
    raise KeyboardInterrupt
