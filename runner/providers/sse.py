"""Incremental Server-Sent Events decoding (the WHATWG `text/event-stream` format).

The network hands us byte chunks whose boundaries mean nothing: a chunk may end inside a
UTF-8 sequence, inside a field name, or between the `\\r` and `\\n` of one line ending.
The decoder therefore keeps every partial piece until it is complete, so the events it
yields are the same however the bytes were split.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

_LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class SSEEvent:
    """One dispatched event: `data` is its `data:` lines joined with newlines."""

    event: str
    data: str
    id: str | None = None
    retry: int | None = None


class SSEDecoder:
    """Feed bytes with `feed`, then call `close` once at end of stream.

    Follows the spec's dispatch rules: a blank line dispatches the pending event if it
    has data, the event name defaults to `message`, the last event id carries over to
    later events, comments (lines starting with `:`) are ignored, and an event still
    pending when the stream ends is discarded (it was never terminated).
    """

    def __init__(self) -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._text = ""
        self._first = True
        self._data: list[str] = []
        self._event = ""
        self._last_id: str | None = None
        self._retry: int | None = None
        self._closed = False

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        """Consume one chunk; return the events it completed, in order."""
        if self._closed:
            raise RuntimeError("SSEDecoder.feed() after close()")
        return self._consume(self._utf8.decode(chunk), final=False)

    def close(self) -> list[SSEEvent]:
        """End of stream: a trailing lone `\\r` still ends its line; partial events are dropped."""
        if self._closed:
            return []
        events = self._consume(self._utf8.decode(b"", final=True), final=True)
        self._closed = True
        self._text = ""
        self._data = []
        self._event = ""
        return events

    def _consume(self, text: str, *, final: bool) -> list[SSEEvent]:
        if self._first and text:
            self._first = False
            text = text.removeprefix("\ufeff")
        buffer = self._text + text
        events: list[SSEEvent] = []
        start = 0
        for match in _LINE_END.finditer(buffer):
            if match.group() == "\r" and match.end() == len(buffer) and not final:
                break  # the matching "\n" may be in the next chunk
            event = self._line(buffer[start : match.start()])
            if event is not None:
                events.append(event)
            start = match.end()
        self._text = buffer[start:]
        return events

    def _line(self, line: str) -> SSEEvent | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id":
            if "\0" not in value:
                self._last_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self._retry = int(value)
        return None

    def _dispatch(self) -> SSEEvent | None:
        data, name = self._data, self._event
        self._data, self._event = [], ""
        if not data:
            return None
        return SSEEvent(
            event=name or "message",
            data="\n".join(data),
            id=self._last_id,
            retry=self._retry,
        )


def iter_sse(chunks: Iterable[bytes]) -> Iterator[SSEEvent]:
    """Decode a whole chunked byte stream, lazily."""
    decoder = SSEDecoder()
    for chunk in chunks:
        yield from decoder.feed(chunk)
    yield from decoder.close()
