"""POST a JSON request, stream the SSE answer through a parser, and never raise for I/O.

Both HTTP providers share this loop so that every transport failure (connect error,
timeout, connection dropped mid-body, non-2xx status, a body that is not an event stream)
turns into a final `ProviderFailure` in exactly one way. API-specific knowledge lives in
the `StreamParser` each provider supplies.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Protocol

import httpx

from .errors import classify_error, provider_error, stream_interrupted
from .sse import SSEDecoder, SSEEvent
from .types import ErrorKind, ModelRequest, ProviderError, ProviderEvent, ProviderFailure

_MAX_ERROR_BODY = 64 * 1024
_REDACTED = "[redacted]"


class StreamParser(Protocol):
    """Turns one API's SSE events into provider events; one instance per response."""

    @property
    def done(self) -> bool:
        """True once a terminal event (finish or failure) has been produced."""
        ...

    def feed(self, event: SSEEvent) -> list[ProviderEvent]:
        """Consume one SSE event."""
        ...

    def finish(self) -> list[ProviderEvent]:
        """End of body: report an interrupted stream if no terminal event was seen."""
        ...


class EventParser:
    """What the HTTP providers' stream parsers share: ``done`` once a terminal event is out,
    nothing read after it, a failure as the stream's last event, and a body that ends before
    the API's :attr:`terminal` event as an interrupted stream. Subclasses read one event in
    ``_read``."""

    #: The event that ends a complete stream (named when the body ends before it).
    terminal = ""

    def __init__(self) -> None:
        self._done = False

    @property
    def done(self) -> bool:
        return self._done

    def feed(self, event: SSEEvent) -> list[ProviderEvent]:
        if self._done:
            return []
        return self._read(event)

    def finish(self) -> list[ProviderEvent]:
        if self._done:
            return []
        return self._fail(stream_interrupted(f"the stream ended before {self.terminal}"))

    def _read(self, event: SSEEvent) -> list[ProviderEvent]:
        raise NotImplementedError

    def _fail(self, error: ProviderError) -> list[ProviderEvent]:
        self._done = True
        return [ProviderFailure(error=error)]

    def _object(self, text: str) -> dict[str, object] | list[ProviderEvent]:
        """The JSON object an event's ``text`` holds; anything else fails the stream (the
        failure events are returned)."""
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict):
            return data
        return self._fail(
            provider_error(ErrorKind.UNKNOWN, f"stream event is not a JSON object: {text!r}")
        )


class HTTPProvider:
    """What the HTTP providers share: the API's base URL, the model, the timeout, a key that
    travels in the request's headers only (never in ``repr`` or a failure), and one streamed
    POST per request through :func:`post_stream`. Subclasses name the :attr:`endpoint` and
    write the request (``_payload``), its key headers (``_auth``) and the stream's parser."""

    name: str = ""
    #: The path below ``base_url`` every request is posted to.
    endpoint = ""

    def __init__(
        self, base_url: str, api_key: str | None, model: str, timeout: float = 120.0
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout = timeout
        self._api_key = api_key or ""

    def stream(self, request: ModelRequest) -> Iterator[ProviderEvent]:
        headers = {"content-type": "application/json", "accept": "text/event-stream"}
        return post_stream(
            url=f"{self.base_url}{self.endpoint}",
            headers={**headers, **self._auth()},
            payload=self._payload(request),
            timeout=self.timeout,
            parser=self._parser(),
            secrets=(self._api_key,),
        )

    def _auth(self) -> dict[str, str]:
        raise NotImplementedError

    def _payload(self, request: ModelRequest) -> dict[str, object]:
        raise NotImplementedError

    def _parser(self) -> StreamParser:
        raise NotImplementedError


def count(value: object) -> int:
    """A token count as an API reports it: a positive integer, anything else 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def parse_chunks(chunks: Iterable[bytes], parser: StreamParser) -> Iterator[ProviderEvent]:
    """Drive `parser` over a raw byte stream; stops reading at the terminal event."""
    decoder = SSEDecoder()
    for chunk in chunks:
        for event in decoder.feed(chunk):
            yield from parser.feed(event)
            if parser.done:
                return
    for event in decoder.close():
        yield from parser.feed(event)
        if parser.done:
            return
    yield from parser.finish()


def post_stream(
    *,
    url: str,
    headers: Mapping[str, str],
    payload: Mapping[str, object],
    timeout: float,
    parser: StreamParser,
    secrets: Sequence[str] = (),
) -> Iterator[ProviderEvent]:
    """Send `payload` and yield the parsed stream; failures become a last `ProviderFailure`.

    `secrets` (the API key) are scrubbed from every failure message, in case a server
    echoes them back.
    """
    try:
        with (
            httpx.Client(timeout=httpx.Timeout(timeout)) as client,
            client.stream("POST", url, headers=dict(headers), json=payload) as response,
        ):
            if not response.is_success:
                body = _read_error_body(response)
                error = classify_error(
                    status=response.status_code, body=body, headers=response.headers
                )
                yield ProviderFailure(error=_scrub(error, secrets))
                return
            content_type = response.headers.get("content-type", "")
            if content_type and "text/event-stream" not in content_type.lower():
                yield ProviderFailure(error=_scrub(_not_a_stream(response), secrets))
                return
            for event in parse_chunks(response.iter_bytes(), parser):
                if isinstance(event, ProviderFailure):
                    yield ProviderFailure(error=_scrub(event.error, secrets))
                else:
                    yield event
    except httpx.HTTPError as exc:
        yield ProviderFailure(error=_scrub(classify_error(exc=exc), secrets))


def _read_error_body(response: httpx.Response) -> object:
    """The error body, parsed as JSON when it is JSON; bounded so a huge page cannot stall us."""
    raw = bytearray()
    for chunk in response.iter_bytes():
        raw.extend(chunk)
        if len(raw) >= _MAX_ERROR_BODY:
            break
    text = bytes(raw[:_MAX_ERROR_BODY]).decode("utf-8", errors="replace")
    try:
        parsed: object = json.loads(text)
    except ValueError:
        return text
    return parsed


def _not_a_stream(response: httpx.Response) -> ProviderError:
    """A 2xx answer that is not an event stream: an error object, or a server ignoring `stream`."""
    body = _read_error_body(response)
    if isinstance(body, dict) and "error" in body:
        return classify_error(body=body, headers=response.headers)
    content_type = response.headers.get("content-type", "")
    return provider_error(
        ErrorKind.UNKNOWN,
        f"HTTP {response.status_code}: expected text/event-stream, got {content_type}",
        status=response.status_code,
    )


def _scrub(error: ProviderError, secrets: Sequence[str]) -> ProviderError:
    message = error.message
    for secret in secrets:
        if not secret:
            continue
        message = message.replace(secret, _REDACTED)
        # A message clipped to length may end in the first part of the secret.
        body = message.removesuffix("…")
        for size in range(len(secret) - 1, 3, -1):
            if body.endswith(secret[:size]):
                message = body[:-size] + _REDACTED + "…"
                break
    if message == error.message:
        return error
    return error.model_copy(update={"message": message})
