"""A tiny threaded HTTP server on 127.0.0.1 that replays canned model-API responses.

Each POST takes the next `Reply` from the queue and records what the client sent, so a
test can assert both what the provider did with a response and what it put on the wire.
Replies can be cut short (the socket closed mid-body) or stalled, to exercise transport
failures the way a real network produces them.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> bytes:
    """The raw bytes of a recorded stream under `fixtures/`."""
    return (FIXTURES / name).read_bytes()


@dataclass
class Reply:
    """One canned response.

    `chunked` sends the body with chunked transfer encoding (as streaming servers do),
    otherwise with a Content-Length. `cut_after` closes the socket abruptly after that
    many body bytes; `stall_after` = (bytes, seconds) pauses mid-body.
    """

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "text/event-stream"})
    chunked: bool = True
    piece: int = 97
    cut_after: int | None = None
    stall_after: tuple[int, float] | None = None


@dataclass
class Recorded:
    """What the client sent."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> dict[str, object]:
        value = json.loads(self.body)
        assert isinstance(value, dict)
        return value


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        self.server.owner.requests.append(
            Recorded("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        )
        reply = self.server.owner.next_reply()
        self.close_connection = True
        self.send_response(reply.status)
        for key, value in reply.headers.items():
            self.send_header(key, value)
        if reply.chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(reply.body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self._send_body(reply)

    def _send_body(self, reply: Reply) -> None:
        data = reply.body if reply.cut_after is None else reply.body[: reply.cut_after]
        sent = 0
        for start in range(0, len(data), reply.piece):
            piece = data[start : start + reply.piece]
            if reply.stall_after is not None and sent <= reply.stall_after[0] < sent + len(piece):
                self._write(reply, piece)
                self.wfile.flush()
                time.sleep(reply.stall_after[1])
            else:
                self._write(reply, piece)
            sent += len(piece)
        self.wfile.flush()
        if reply.cut_after is not None:
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)
            return
        if reply.chunked:
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

    def _write(self, reply: Reply, piece: bytes) -> None:
        if reply.chunked:
            self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
        else:
            self.wfile.write(piece)

    def finish(self) -> None:
        with contextlib.suppress(OSError):
            super().finish()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # a stalled reply must not hold up the test
    owner: FakeServer

    def handle_error(self, request: object, client_address: object) -> None:
        return  # a client that hung up is part of the scenario, not a failure


class FakeServer:
    """Context manager: `with FakeServer([Reply(...)]) as server: server.url`."""

    def __init__(self, replies: list[Reply]) -> None:
        self._replies = deque(replies)
        self._lock = threading.Lock()
        self.requests: list[Recorded] = []
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def next_reply(self) -> Reply:
        with self._lock:
            if not self._replies:
                return Reply(status=500, body=b"no reply queued", headers={})
            return self._replies.popleft()

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def closed_port() -> int:
    """A local port with nothing listening on it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def json_reply(status: int, payload: object, headers: dict[str, str] | None = None) -> Reply:
    """An error-style JSON reply."""
    merged = {"Content-Type": "application/json", **(headers or {})}
    return Reply(status=status, body=json.dumps(payload).encode(), headers=merged, chunked=False)
