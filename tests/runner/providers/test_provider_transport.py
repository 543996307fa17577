"""Every HTTP failure becomes one final `ProviderFailure`, for both HTTP providers."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from fake_model_server import FakeServer, Reply, closed_port, fixture, json_reply

from clearance.runner.providers.anthropic import AnthropicProvider
from clearance.runner.providers.base import Provider
from clearance.runner.providers.openai import OpenAIChatProvider
from clearance.runner.providers.types import (
    ErrorKind,
    ModelRequest,
    ProviderError,
    ProviderEvent,
    ProviderFailure,
    TextDelta,
    UserMessage,
)

Factory = Callable[[str, float], Provider]

FACTORIES: dict[str, Factory] = {
    "openai": lambda url, timeout: OpenAIChatProvider(url, "sk-x", "m", timeout),
    "anthropic": lambda url, timeout: AnthropicProvider(url, "sk-x", "m", timeout),
}
STREAMS = {"openai": "openai_text.sse", "anthropic": "anthropic_text.sse"}

REQUEST = ModelRequest(model="m", messages=[UserMessage(text="hi")], max_tokens=64)


def run(name: str, reply: Reply, timeout: float = 5.0) -> list[ProviderEvent]:
    with FakeServer([reply]) as server:
        return list(FACTORIES[name](server.url, timeout).stream(REQUEST))


def only_failure(events: list[ProviderEvent]) -> ProviderError:
    assert len(events) == 1, events
    assert isinstance(events[0], ProviderFailure)
    return events[0].error


def last_failure(events: list[ProviderEvent]) -> ProviderError:
    assert isinstance(events[-1], ProviderFailure), events
    assert sum(isinstance(e, ProviderFailure) for e in events) == 1
    return events[-1].error


both = pytest.mark.parametrize("name", sorted(FACTORIES))


@both
def test_providers_satisfy_the_protocol(name: str) -> None:
    assert isinstance(FACTORIES[name]("http://127.0.0.1:1", 1.0), Provider)


@both
def test_rate_limit_with_retry_after(name: str) -> None:
    body = {
        "error": {
            "message": "Rate limit reached",
            "type": "requests",
            "code": "rate_limit_exceeded",
        }
    }
    error = only_failure(run(name, json_reply(429, body, {"retry-after": "2"})))
    assert (error.kind, error.retryable, error.retry_after, error.status) == (
        ErrorKind.RATE_LIMIT,
        True,
        2.0,
        429,
    )


@both
def test_insufficient_quota_is_not_retryable(name: str) -> None:
    body = {
        "error": {
            "message": "You exceeded your current quota, please check your plan.",
            "type": "insufficient_quota",
            "code": "insufficient_quota",
        }
    }
    error = only_failure(run(name, json_reply(429, body)))
    assert (error.kind, error.retryable) == (ErrorKind.QUOTA, False)


@both
def test_unauthorized(name: str) -> None:
    body = {
        "type": "error",
        "error": {"type": "authentication_error", "message": "invalid x-api-key"},
    }
    error = only_failure(run(name, json_reply(401, body)))
    assert (error.kind, error.retryable, error.status) == (ErrorKind.AUTH, False, 401)
    assert "invalid x-api-key" in error.message


@both
def test_non_json_error_page(name: str) -> None:
    page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
    reply = Reply(status=502, body=page, headers={"Content-Type": "text/html"}, chunked=False)
    error = only_failure(run(name, reply))
    assert (error.kind, error.retryable, error.status) == (ErrorKind.OVERLOADED, True, 502)
    assert "502 Bad Gateway" in error.message


@both
def test_not_found_is_a_bad_request(name: str) -> None:
    reply = Reply(status=404, body=b"404 page not found", headers={"Content-Type": "text/plain"})
    error = only_failure(run(name, reply))
    assert (error.kind, error.retryable) == (ErrorKind.BAD_REQUEST, False)


@both
def test_connect_to_a_closed_port_is_an_event_not_an_exception(name: str) -> None:
    provider = FACTORIES[name](f"http://127.0.0.1:{closed_port()}", 2.0)
    error = only_failure(list(provider.stream(REQUEST)))
    assert error.retryable
    assert error.kind is ErrorKind.UNKNOWN
    assert error.status is None
    assert "could not connect" in error.message


@both
def test_read_timeout_mid_stream(name: str) -> None:
    data = fixture(STREAMS[name])
    reply = Reply(body=data, stall_after=(len(data) // 2, 3.0))
    started = time.monotonic()
    events = run(name, reply, timeout=0.3)
    assert time.monotonic() - started < 2.5
    error = last_failure(events)
    assert (error.kind, error.retryable) == (ErrorKind.TIMEOUT, True)
    assert any(isinstance(e, TextDelta) for e in events)  # what arrived before the stall


@both
@pytest.mark.parametrize("chunked", [True, False])
def test_connection_dropped_mid_body(name: str, chunked: bool) -> None:
    data = fixture(STREAMS[name])
    error = last_failure(run(name, Reply(body=data, cut_after=len(data) // 2, chunked=chunked)))
    assert (error.kind, error.retryable) == (ErrorKind.STREAM_INTERRUPTED, True)
    assert "connection dropped" in error.message


@both
def test_body_that_ends_cleanly_before_the_terminal_event(name: str) -> None:
    data = fixture(STREAMS[name])
    cut = data.rindex(b"\n\n", 0, len(data) - 2) + 2  # drop the last event only
    error = last_failure(run(name, Reply(body=data[:cut])))
    assert (error.kind, error.retryable) == (ErrorKind.STREAM_INTERRUPTED, True)
    assert "ended before" in error.message


@both
def test_json_answer_instead_of_a_stream(name: str) -> None:
    body = {"id": "x", "choices": [{"message": {"content": "hi"}}]}
    error = only_failure(run(name, json_reply(200, body)))
    assert error.kind is ErrorKind.UNKNOWN
    assert "text/event-stream" in error.message


@both
def test_json_error_with_status_200(name: str) -> None:
    body = {"error": {"message": "model is overloaded", "type": "overloaded_error"}}
    error = only_failure(run(name, json_reply(200, body)))
    assert error.kind is ErrorKind.OVERLOADED


@both
def test_consumer_may_stop_early(name: str) -> None:
    with FakeServer([Reply(body=fixture(STREAMS[name]))]) as server:
        stream = FACTORIES[name](server.url, 5.0).stream(REQUEST)
        first = next(iter(stream))
        close = getattr(stream, "close", None)
        assert close is not None
        close()
    assert isinstance(first, TextDelta)


@both
def test_nothing_is_sent_until_the_stream_is_consumed(name: str) -> None:
    with FakeServer([Reply(body=fixture(STREAMS[name]))]) as server:
        stream = FACTORIES[name](server.url, 5.0).stream(REQUEST)
        assert server.requests == []
        list(stream)
        assert len(server.requests) == 1
