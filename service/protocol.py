"""uvicorn's httptools protocol with the two bounds it lacks: request-head size and time.

uvicorn bounds idle keep-alive connections but not a request head that never completes: a
client could open connections and send header bytes slowly (or endlessly) and hold them all.
Here every request head must be complete within ``head_timeout`` seconds of its first byte
(or of the connection, for the first request) and within ``MAX_HEAD`` bytes; otherwise the
client gets a JSON 408 (``request_timeout``) or 431 (``headers_too_large``) and the connection
is closed. The body's own deadline and size are the application's (``clearance.service.app``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from clearance.service.errors import ServiceError

HEAD_TIMEOUT = 10.0
MAX_HEAD = 64 * 1024


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    #: Seconds a request head may take (``clearance serve`` lowers it to ``--body-timeout``).
    head_timeout = HEAD_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_bytes = 0

    def _arm(self) -> None:
        self._disarm()
        self._head_bytes = 0
        self._head_timer = self.loop.call_later(self.head_timeout, self._refuse, 408)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _refuse(self, status: int) -> None:
        self._head_timer = None
        if status == 408:
            error = ServiceError(
                408,
                "request_timeout",
                f"the request head did not arrive within {self.head_timeout:g} s",
            )
            phrase = b"Request Timeout"
        else:
            error = ServiceError(
                431, "headers_too_large", f"the request head is larger than {MAX_HEAD} bytes"
            )
            phrase = b"Request Header Fields Too Large"
        body = error.body()
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        transport.write(
            b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
            b"connection: close\r\n\r\n" % (status, phrase, len(body)) + body
        )
        transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._head_timer is not None:
            self._head_bytes += len(data)
        super().data_received(data)
        if self._head_timer is not None and self._head_bytes > MAX_HEAD:
            self._disarm()
            self._refuse(431)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._head_timer is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()
