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
"""

from __future__ import annotations

import getpass
import json
import os
import socket

from clearance.engine.ledger import read_lines

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
    __slots__ = ("duplicates", "head", "ledger", "sent", "stored")

    def __init__(self, ledger: str) -> None:
        self.ledger = ledger
        self.sent = 0
        self.stored = 0
        self.duplicates = 0
        self.head = -1

    def to_dict(self) -> dict[str, object]:
        return {
            "ledger": self.ledger,
            "sent": self.sent,
            "stored": self.stored,
            "duplicates": self.duplicates,
            "head": self.head,
        }


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
    source: dict[str, object] = {
        "machine": machine or machine_id(),
        "ledger": path,
        "host": socket.gethostname(),
        "user": _user(),
    }
    endpoint = url.rstrip("/") + "/v1/ledger"
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if not os.path.isfile(path):
        raise ShipError("local", f"no ledger at {path}")
    with httpx.Client(timeout=timeout, headers=headers, trust_env=False) as client:
        head = _post(client, endpoint, source, [], result)
        pending: list[str] = []
        size = 0
        for line in read_lines(path):
            if not line.terminated:
                break  # a torn last line: not a record (yet); the next append cuts it
            record = line.record
            seq = record.get("seq") if record is not None else None
            if isinstance(seq, int) and not isinstance(seq, bool) and seq <= head:
                continue
            try:
                text = line.data.decode("ascii")
            except UnicodeDecodeError:
                text = line.data.decode("utf-8", "replace")  # the server will refuse it
            if pending and (len(pending) >= batch or size + len(text) > MAX_REQUEST):
                head = _post(client, endpoint, source, pending, result)
                pending, size = [], 0
            pending.append(text)
            size += len(text) + 4
        if pending:
            _post(client, endpoint, source, pending, result)
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
