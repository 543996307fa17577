"""The contract every model provider fulfils.

A provider is stateless and request-scoped: it turns one `ModelRequest` into a stream
of events. It never executes a tool and never decides whether the loop continues; retry
and fallback belong to the core. API and transport problems are reported as a final
`ProviderFailure` event rather than raised, so the core handles every outcome in one
place; only programming errors raise.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol, runtime_checkable

from .types import ModelRequest, ProviderEvent


@runtime_checkable
class Provider(Protocol):
    """Streams the model's answer to one request.

    The stream ends with exactly one `Finished` or one `ProviderFailure`, and nothing
    follows it.
    """

    name: str

    def stream(self, request: ModelRequest) -> Iterator[ProviderEvent]:
        """Yield the events of one model turn."""
        ...
