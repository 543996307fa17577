"""What the HTTP providers' tests share: a model request with defaults, and the check that a
recorded stream parses the same however its bytes are split into chunks."""

from __future__ import annotations

from collections.abc import Callable

from clearance.runner.providers.types import ModelRequest, ProviderEvent, UserMessage


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
