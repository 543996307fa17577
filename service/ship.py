"""``clearance audit ship``: send a ledger's records to the server's ``/v1/ledger``.

The server is the one that knows what it stored: each run first asks for the source's head
(``lines: []``), then sends every later record in order, in batches, each acknowledged before
the next. Sending twice stores once (the server acknowledges records it holds as duplicates);
a run killed mid-batch loses nothing (the records are still in the local ledger, which is
never changed here) and duplicates nothing (the next run starts from the server's head). A
server or database that is down, or a record the server refuses, ends the run with a non-zero
exit and everything not acknowledged stays to be shipped later.

A source is (machine, ledger file): the machine is ``/etc/machine-id`` when readable, else the
host name; ``host`` and ``user`` travel with it for the store's columns.

Cursor. So that a run does not re-read a long ledger from its first line, the last
acknowledged line's byte offset, ``seq`` and sha256 are kept beside the ledger
(``LEDGER.shipped-<sha256(url)[:12]>``, one per server). It is only a hint: a run starts there
only when the line at that offset is still the one acknowledged and the server's head is at or
past it; anything else (a missing, stale or edited cursor) means reading from the start.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import socket

from clearance.engine.digest import sha256_hex
from clearance.engine.ledger import LedgerLine, sha256_text
from clearance.service.store import Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

#: Bytes of ledger lines per request at most (the server accepts 32 MiB).
MAX_REQUEST = 8 * 1024 * 1024


class ShipError(Exception):
    """Shipping stopped: ``kind`` is ``down``, ``store_down``, ``refused``, ``auth`` or
    ``local``; the records not acknowledged stay in the ledger."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def machine_id() -> str:
    for path in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            with open(path, encoding="ascii") as fh:
                text = fh.read().strip()
        except (OSError, UnicodeDecodeError):
            continue
        if text:
            return text
    return socket.gethostname()


def _user() -> str | None:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return None


class ShipResult:
    __slots__ = ("duplicates", "head", "ledger", "scanned", "sent", "stored")

    def __init__(self, ledger: str) -> None:
        self.ledger = ledger
        self.sent = 0
        self.stored = 0
        self.duplicates = 0
        self.head = -1
        #: Ledger lines read by this run (a good cursor skips what was acknowledged before).
        self.scanned = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "ledger": self.ledger,
            "sent": self.sent,
            "stored": self.stored,
            "duplicates": self.duplicates,
            "head": self.head,
            "scanned": self.scanned,
        }


def cursor_path(ledger: str, url: str) -> str:
    return f"{ledger}.shipped-{sha256_hex(url.rstrip('/').encode())[:12]}"


def _lines_from(path: str, offset: int) -> Iterator[tuple[int, LedgerLine]]:
    """``(byte offset, line)`` of every line from ``offset`` on."""
    with open(path, "rb") as fh:
        fh.seek(offset)
        for index, raw in enumerate(fh):
            terminated = raw.endswith(b"\n")
            yield offset, LedgerLine(index, offset, raw[:-1] if terminated else raw, terminated)
            offset += len(raw)


def _resume_offset(path: str, cursor: str, head: int) -> int:
    """Where to start reading: just past the cursor's line when it still holds, else 0."""
    try:
        with open(cursor, encoding="ascii") as fh:
            data = json.load(fh)
        seq, offset, digest = data["seq"], data["offset"], data["line_sha256"]
        if not (isinstance(seq, int) and isinstance(offset, int) and seq <= head):
            return 0
        with open(path, "rb") as fh:
            fh.seek(offset)
            raw = fh.readline()
    except (OSError, ValueError, KeyError, TypeError):
        return 0
    if not raw.endswith(b"\n") or sha256_text(raw[:-1]) != digest:
        return 0
    return offset + len(raw)


def _save_cursor(cursor: str, seq: int, offset: int, data: bytes) -> None:
    body = json.dumps({"seq": seq, "offset": offset, "line_sha256": sha256_text(data)})
    temporary = f"{cursor}.{os.getpid()}.tmp"
    try:
        with open(temporary, "w", encoding="ascii") as fh:
            fh.write(body + "\n")
        os.replace(temporary, cursor)
    except OSError:
        # A cursor is only a hint: without one the next run reads from the start.
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def ship(
    url: str,
    ledger: str,
    *,
    token: str | None,
    batch: int = 500,
    timeout: float = 30.0,
    machine: str | None = None,
    result: ShipResult | None = None,
) -> ShipResult:
    """Ship one ledger; raises :class:`ShipError` (``result`` holds what got through)."""
    import httpx

    path = os.path.abspath(ledger)
    result = result or ShipResult(path)
    source = Source(
        machine or machine_id(), path, host=socket.gethostname(), user=_user()
    ).to_dict()
    endpoint = url.rstrip("/") + "/v1/ledger"
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if not os.path.isfile(path):
        raise ShipError("local", f"no ledger at {path}")
    cursor = cursor_path(path, url)
    with httpx.Client(timeout=timeout, headers=headers, trust_env=False) as client:
        head = _post(client, endpoint, source, [], result)
        pending: list[str] = []
        last: tuple[int, int, bytes] | None = None  # (seq, offset, line) of pending's end
        size = 0

        def flush() -> None:
            _post(client, endpoint, source, pending, result)
            if last is not None and last[0] <= result.head:
                _save_cursor(cursor, *last)

        for offset, line in _lines_from(path, _resume_offset(path, cursor, head)):
            if not line.terminated:
                break  # a torn last line: not a record (yet); the next append cuts it
            result.scanned += 1
            record = line.record
            seq = record.get("seq") if record is not None else None
            good = isinstance(seq, int) and not isinstance(seq, bool)
            if good and seq <= head:  # type: ignore[operator]
                continue
            try:
                text = line.data.decode("ascii")
            except UnicodeDecodeError:
                text = line.data.decode("utf-8", "replace")  # the server will refuse it
            if pending and (len(pending) >= batch or size + len(text) > MAX_REQUEST):
                flush()
                pending, size = [], 0
            pending.append(text)
            size += len(text) + 4
            last = (seq, offset, line.data) if good else None  # type: ignore[assignment]
        if pending:
            flush()
    return result


def _post(
    client: object, endpoint: str, source: dict[str, object], lines: list[str], result: ShipResult
) -> int:
    import httpx

    assert isinstance(client, httpx.Client)
    body = json.dumps({"source": source, "lines": lines}, ensure_ascii=True)
    try:
        response = client.post(endpoint, content=body.encode("ascii"))
    except httpx.HTTPError as exc:
        raise ShipError("down", f"cannot reach {endpoint}: {exc}") from None
    try:
        data = response.json()
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    error = data.get("error") if isinstance(data.get("error"), dict) else None
    if response.status_code == 200 or (response.status_code == 409 and error is not None):
        result.sent += len(lines)
        result.stored += int(data.get("stored") or 0)
        result.duplicates += int(data.get("duplicates") or 0)
        head_info = data.get("head")
        head = head_info.get("seq") if isinstance(head_info, dict) else None
        if isinstance(head, int):
            result.head = head
    if response.status_code == 200:
        return result.head
    reason = error.get("reason") if error else response.text[:200]
    code = error.get("reason_code") if error else None
    if response.status_code == 409:
        refused = data.get("refused")
        where = f" at seq {refused.get('seq')}" if isinstance(refused, dict) else ""
        raise ShipError("refused", f"the server refused a record{where} ({code}): {reason}")
    if response.status_code == 401:
        raise ShipError("auth", f"the server wants a valid token ({code}): {reason}")
    if response.status_code == 503:
        raise ShipError("store_down", f"the server cannot store now ({code}): {reason}")
    raise ShipError("down", f"the server answered {response.status_code} ({code}): {reason}")
