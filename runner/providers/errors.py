"""Classify API and transport failures into `ProviderError`.

The core decides retry and fallback from `kind` and `retryable` alone, so every way a
model call can fail (an HTTP status, a provider's error body, an error event inside the
stream, a transport exception) goes through the tables here and nowhere else.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx

from .types import ErrorKind, ProviderError

#: Whether a failure of each kind is worth retrying as-is.
RETRYABLE: Mapping[ErrorKind, bool] = {
    ErrorKind.AUTH: False,
    ErrorKind.RATE_LIMIT: True,
    ErrorKind.QUOTA: False,
    ErrorKind.TIMEOUT: True,
    ErrorKind.OVERLOADED: True,
    ErrorKind.BAD_REQUEST: False,
    ErrorKind.CONTEXT_LENGTH: False,
    ErrorKind.STREAM_INTERRUPTED: True,
    ErrorKind.MALFORMED_TOOL_CALL: True,
    ErrorKind.UNKNOWN: False,
}

#: HTTP status → kind, before the body refines it.
STATUS_KINDS: Mapping[int, ErrorKind] = {
    400: ErrorKind.BAD_REQUEST,
    401: ErrorKind.AUTH,
    402: ErrorKind.QUOTA,
    403: ErrorKind.AUTH,
    404: ErrorKind.BAD_REQUEST,
    408: ErrorKind.TIMEOUT,
    413: ErrorKind.BAD_REQUEST,
    422: ErrorKind.BAD_REQUEST,
    429: ErrorKind.RATE_LIMIT,
    500: ErrorKind.OVERLOADED,
    502: ErrorKind.OVERLOADED,
    503: ErrorKind.OVERLOADED,
    504: ErrorKind.OVERLOADED,
    529: ErrorKind.OVERLOADED,
}

#: Provider error `type` / `code` → kind, for bodies without a status (errors mid-stream).
TYPE_KINDS: Mapping[str, ErrorKind] = {
    "authentication_error": ErrorKind.AUTH,
    "permission_error": ErrorKind.AUTH,
    "invalid_api_key": ErrorKind.AUTH,
    "rate_limit_error": ErrorKind.RATE_LIMIT,
    "rate_limit_exceeded": ErrorKind.RATE_LIMIT,
    "insufficient_quota": ErrorKind.QUOTA,
    "billing_error": ErrorKind.QUOTA,
    "overloaded_error": ErrorKind.OVERLOADED,
    "api_error": ErrorKind.OVERLOADED,
    "server_error": ErrorKind.OVERLOADED,
    "internal_server_error": ErrorKind.OVERLOADED,
    "timeout_error": ErrorKind.TIMEOUT,
    "invalid_request_error": ErrorKind.BAD_REQUEST,
    "not_found_error": ErrorKind.BAD_REQUEST,
    "request_too_large": ErrorKind.BAD_REQUEST,
    "context_length_exceeded": ErrorKind.CONTEXT_LENGTH,
    "exceed_context_size_error": ErrorKind.CONTEXT_LENGTH,
}

#: Wording that turns a rate limit or a rejected request into an exhausted quota.
QUOTA_WORDING: tuple[str, ...] = (
    "insufficient_quota",
    "quota",
    "billing",
    "credit balance",
)

#: Wording that turns a rejected request into a context overflow.
CONTEXT_WORDING: tuple[str, ...] = (
    "context_length_exceeded",
    "prompt is too long",
    "maximum context length",
    "context length",
    "context window",
    "exceed_context_size",
    "exceeds the available context size",
)

#: Transport exceptions → (kind, retryable, what happened); the first matching class wins.
EXCEPTION_KINDS: tuple[tuple[type[BaseException], ErrorKind, bool, str], ...] = (
    (httpx.TimeoutException, ErrorKind.TIMEOUT, True, "timed out"),
    (httpx.ConnectError, ErrorKind.UNKNOWN, True, "could not connect"),
    (
        httpx.RemoteProtocolError,
        ErrorKind.STREAM_INTERRUPTED,
        True,
        "connection dropped mid-stream",
    ),
    (httpx.ReadError, ErrorKind.STREAM_INTERRUPTED, True, "connection dropped mid-stream"),
    (httpx.WriteError, ErrorKind.UNKNOWN, True, "could not send the request"),
    (httpx.TransportError, ErrorKind.UNKNOWN, True, "transport error"),
    (TimeoutError, ErrorKind.TIMEOUT, True, "timed out"),
    (ConnectionRefusedError, ErrorKind.UNKNOWN, True, "could not connect"),
    (ConnectionError, ErrorKind.STREAM_INTERRUPTED, True, "connection dropped mid-stream"),
)

_MAX_MESSAGE = 500


def provider_error(
    kind: ErrorKind,
    message: str,
    *,
    status: int | None = None,
    retry_after: float | None = None,
    retryable: bool | None = None,
) -> ProviderError:
    """Build a `ProviderError` whose `retryable` defaults to the kind's."""
    return ProviderError(
        kind=kind,
        retryable=RETRYABLE[kind] if retryable is None else retryable,
        message=_clip(message),
        status=status,
        retry_after=retry_after,
    )


def stream_interrupted(message: str) -> ProviderError:
    """The stream ended (or broke) before its terminal event: the turn is incomplete."""
    return provider_error(ErrorKind.STREAM_INTERRUPTED, message)


def classify_error(
    *,
    status: int | None = None,
    body: object = None,
    headers: Mapping[str, str] | None = None,
    exc: BaseException | None = None,
) -> ProviderError:
    """Map a failed call to a `ProviderError`.

    `status` is the HTTP status (None for an error event inside a stream), `body` the
    error payload (parsed JSON, or raw text/bytes), `headers` the response headers (for
    `retry-after-ms` / `retry-after`), `exc` a transport exception.
    """
    retry_after = parse_retry_after(headers) if headers is not None else None
    if exc is not None:
        return _from_exception(exc, status=status, retry_after=retry_after)

    error_type, detail = _error_details(body)
    text = " ".join((error_type, detail)).lower()

    retryable: bool | None = None
    if status is not None and status in STATUS_KINDS:
        kind = STATUS_KINDS[status]
    elif error_type in TYPE_KINDS:
        kind = TYPE_KINDS[error_type]
    elif status is not None and status >= 500:
        kind, retryable = ErrorKind.UNKNOWN, True
    elif status is not None and 400 <= status < 500:
        kind = ErrorKind.BAD_REQUEST
    else:
        kind = ErrorKind.UNKNOWN

    refinable = (ErrorKind.RATE_LIMIT, ErrorKind.BAD_REQUEST, ErrorKind.UNKNOWN)
    if kind in refinable and _says(text, QUOTA_WORDING):
        kind, retryable = ErrorKind.QUOTA, None
    elif kind in (ErrorKind.BAD_REQUEST, ErrorKind.UNKNOWN) and _says(text, CONTEXT_WORDING):
        kind = ErrorKind.CONTEXT_LENGTH

    parts = [f"HTTP {status}" if status is not None else "error event"]
    if error_type:
        parts.append(error_type)
    message = " ".join(parts) + (f": {detail}" if detail else "")
    return provider_error(
        kind, message, status=status, retry_after=retry_after, retryable=retryable
    )


def parse_retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait, from `retry-after-ms` (preferred, finer) or `retry-after`.

    `retry-after` may be a number of seconds or an HTTP date; anything unparsable,
    negative or non-finite is ignored rather than guessed at.
    """
    lowered = {key.lower(): value for key, value in headers.items()}
    millis = _non_negative(lowered.get("retry-after-ms"))
    if millis is not None:
        return millis / 1000.0
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    seconds = _non_negative(raw)
    if seconds is not None:
        return seconds
    try:
        when = parsedate_to_datetime(raw.strip())
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _from_exception(
    exc: BaseException, *, status: int | None, retry_after: float | None
) -> ProviderError:
    description = str(exc) or type(exc).__name__
    for cls, kind, retryable, what in EXCEPTION_KINDS:
        if isinstance(exc, cls):
            return provider_error(
                kind,
                f"{what}: {description}",
                status=status,
                retry_after=retry_after,
                retryable=retryable,
            )
    return provider_error(ErrorKind.UNKNOWN, f"{type(exc).__name__}: {description}", status=status)


def _error_details(body: object) -> tuple[str, str]:
    """(error type or code, human message) from the error shapes servers actually send.

    OpenAI and llama.cpp: {"error": {"type", "code", "message"}}; Anthropic:
    {"type": "error", "error": {"type", "message"}}; Ollama: {"error": "text"};
    vLLM: {"object": "error", "type", "message"}; anything else: its text.
    """
    if isinstance(body, bytes):
        body = body.decode("utf-8", errors="replace")
    if isinstance(body, str):
        text = body
        try:
            body = json.loads(text)
        except ValueError:
            return "", text.strip()
    if not isinstance(body, dict):
        return "", "" if body is None else str(body)

    inner = body.get("error")
    if isinstance(inner, str):
        return "", inner
    source = inner if isinstance(inner, dict) else body
    error_type = ""
    code = source.get("code")
    for value in (source.get("type"), code):
        if isinstance(value, str) and value and value != "error":
            error_type = value
            break
    detail = source.get("message", source.get("detail", ""))
    if not isinstance(detail, str):
        detail = json.dumps(detail)
    if isinstance(code, str) and code and code != error_type:
        detail = f"{detail} ({code})" if detail else code
    return error_type, detail


def _says(text: str, wording: tuple[str, ...]) -> bool:
    return any(phrase in text for phrase in wording)


def _non_negative(raw: str | None) -> float | None:
    if raw is None:
        return None
    try:
        value = float(raw.strip())
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def _clip(message: str) -> str:
    message = " ".join(message.split())
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 1] + "…"
