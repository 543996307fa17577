"""Failure classification: statuses, error bodies, error events and exceptions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest

from clearance.runner.providers.errors import (
    RETRYABLE,
    classify_error,
    parse_retry_after,
    provider_error,
    stream_interrupted,
)
from clearance.runner.providers.types import ErrorKind


@pytest.mark.parametrize(
    ("status", "body", "kind", "retryable"),
    [
        (
            401,
            {"error": {"message": "bad key", "type": "invalid_request_error"}},
            ErrorKind.AUTH,
            False,
        ),
        (403, "forbidden", ErrorKind.AUTH, False),
        (429, {"error": {"message": "slow down", "type": "requests"}}, ErrorKind.RATE_LIMIT, True),
        (429, {"error": {"message": "x", "code": "insufficient_quota"}}, ErrorKind.QUOTA, False),
        (429, {"error": {"message": "check your billing details"}}, ErrorKind.QUOTA, False),
        (402, "payment required", ErrorKind.QUOTA, False),
        (408, "", ErrorKind.TIMEOUT, True),
        (500, "", ErrorKind.OVERLOADED, True),
        (502, "<html>bad gateway</html>", ErrorKind.OVERLOADED, True),
        (503, None, ErrorKind.OVERLOADED, True),
        (504, b"gateway timeout", ErrorKind.OVERLOADED, True),
        (
            529,
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            ErrorKind.OVERLOADED,
            True,
        ),
        (
            400,
            {
                "error": {
                    "message": "This model's maximum context length is 8192 tokens",
                    "code": "context_length_exceeded",
                }
            },
            ErrorKind.CONTEXT_LENGTH,
            False,
        ),
        (
            400,
            {
                "type": "error",
                "error": {"type": "invalid_request_error", "message": "prompt is too long: 1 > 0"},
            },
            ErrorKind.CONTEXT_LENGTH,
            False,
        ),
        (
            400,
            {
                "object": "error",
                "message": "maximum context length is 4096",
                "type": "BadRequestError",
            },
            ErrorKind.CONTEXT_LENGTH,
            False,
        ),
        (
            400,
            {"error": {"code": 400, "message": "too big", "type": "exceed_context_size_error"}},
            ErrorKind.CONTEXT_LENGTH,
            False,
        ),
        (400, {"error": {"message": "messages: field required"}}, ErrorKind.BAD_REQUEST, False),
        (404, {"error": "model 'llama9' not found"}, ErrorKind.BAD_REQUEST, False),
        (422, {"detail": [{"msg": "field required"}]}, ErrorKind.BAD_REQUEST, False),
        (418, "teapot", ErrorKind.BAD_REQUEST, False),
        (501, "", ErrorKind.UNKNOWN, True),
        (302, "", ErrorKind.UNKNOWN, False),
    ],
)
def test_status_table(status: int, body: object, kind: ErrorKind, retryable: bool) -> None:
    error = classify_error(status=status, body=body)
    assert (error.kind, error.retryable, error.status) == (kind, retryable, status)


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            ErrorKind.OVERLOADED,
        ),
        (
            {"type": "error", "error": {"type": "api_error", "message": "Internal"}},
            ErrorKind.OVERLOADED,
        ),
        (
            {"type": "error", "error": {"type": "rate_limit_error", "message": "x"}},
            ErrorKind.RATE_LIMIT,
        ),
        ({"error": {"type": "insufficient_quota", "message": "x"}}, ErrorKind.QUOTA),
        (
            {"error": {"type": "invalid_request_error", "code": "context_length_exceeded"}},
            ErrorKind.CONTEXT_LENGTH,
        ),
        ({"error": {"type": "something_new", "message": "?"}}, ErrorKind.UNKNOWN),
        ({"error": "plain text"}, ErrorKind.UNKNOWN),
    ],
)
def test_error_events_without_status_use_the_type_table(body: object, kind: ErrorKind) -> None:
    error = classify_error(body=body)
    assert error.kind is kind
    assert error.retryable is RETRYABLE[kind]
    assert error.status is None


def test_message_names_status_type_and_text() -> None:
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    assert classify_error(status=529, body=body).message == "HTTP 529 overloaded_error: Overloaded"
    assert classify_error(body=body).message == "error event overloaded_error: Overloaded"


def test_long_bodies_are_clipped() -> None:
    message = classify_error(status=500, body="x" * 10_000).message
    assert len(message) <= 500
    assert message.endswith("…")


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (httpx.ConnectTimeout("t"), ErrorKind.TIMEOUT),
        (httpx.ReadTimeout("t"), ErrorKind.TIMEOUT),
        (httpx.ConnectError("refused"), ErrorKind.UNKNOWN),
        (httpx.RemoteProtocolError("peer closed connection"), ErrorKind.STREAM_INTERRUPTED),
        (httpx.ReadError("reset"), ErrorKind.STREAM_INTERRUPTED),
        (TimeoutError(), ErrorKind.TIMEOUT),
        (ConnectionResetError(), ErrorKind.STREAM_INTERRUPTED),
    ],
)
def test_transport_exceptions_are_retryable(exc: BaseException, kind: ErrorKind) -> None:
    error = classify_error(exc=exc)
    assert error.kind is kind
    assert error.retryable


def test_unexpected_exception_is_unknown_and_not_retryable() -> None:
    error = classify_error(exc=ValueError("boom"))
    assert (error.kind, error.retryable) == (ErrorKind.UNKNOWN, False)
    assert "ValueError: boom" in error.message


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after": "2"}, 2.0),
        ({"Retry-After": "0.5"}, 0.5),
        ({"retry-after-ms": "250"}, 0.25),
        ({"retry-after": "9", "retry-after-ms": "100"}, 0.1),
        ({"retry-after": "-3"}, None),
        ({"retry-after": "nan"}, None),
        ({"retry-after": "soon"}, None),
        ({}, None),
    ],
)
def test_retry_after(headers: dict[str, str], expected: float | None) -> None:
    assert parse_retry_after(headers) == expected


def test_retry_after_http_date() -> None:
    when = datetime.now(UTC) + timedelta(seconds=30)
    seconds = parse_retry_after({"retry-after": format_datetime(when, usegmt=True)})
    assert seconds is not None and 25 <= seconds <= 31
    past = format_datetime(datetime.now(UTC) - timedelta(hours=1), usegmt=True)
    assert parse_retry_after({"retry-after": past}) == 0.0


def test_retry_after_travels_with_the_error() -> None:
    error = classify_error(status=429, body="", headers={"retry-after": "7"})
    assert error.retry_after == 7.0


def test_helpers_default_retryable_from_the_kind() -> None:
    assert stream_interrupted("cut").retryable
    assert stream_interrupted("cut").kind is ErrorKind.STREAM_INTERRUPTED
    assert not provider_error(ErrorKind.AUTH, "no").retryable
    assert provider_error(ErrorKind.AUTH, "no", retryable=True).retryable


def test_every_kind_has_a_retry_default() -> None:
    assert set(RETRYABLE) == set(ErrorKind)
