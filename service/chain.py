"""The plain sha256 chain of ledger records, as anyone can check it (DECISIONS #7).

A ledger line is the canonical JSON of its record (``clearance.engine.ledger.canonical``);
``hash`` is the sha256 of that record without ``hash`` (``record_hash``); ``prev`` is the sha256
of the previous line (``GENESIS`` for ``seq`` 0). The store checks every ingested line here and
``audit verify --db`` walks stored rows with the same functions, so both agree with
``clearance audit verify`` on a local ledger.

Storage: ``record`` is ``jsonb``, which normalises what JSON allows to vary and cannot hold
NUL characters or lone surrogates. A row therefore also keeps the exact ``line`` when the
record's canonical JSON after a ``jsonb`` round trip might not be that line (floats, ``\\u0000``,
surrogate escapes, a non-canonical spelling); otherwise ``line`` is NULL and is rebuilt exactly
as ``canonical(record)``.
"""

from __future__ import annotations

import json
import re

from clearance.engine.ledger import GENESIS, canonical, sha256_text

#: Escapes jsonb cannot store as text (NUL, surrogates: lone ones are rejected).
_UNSTORABLE = re.compile(r"\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})")


class ChainError(Exception):
    """A line that cannot be stored: ``reason_code`` (a service error code) and text."""

    def __init__(self, reason_code: str, reason: str) -> None:
        super().__init__(reason)
        self.reason_code = reason_code
        self.reason = reason


class Parsed:
    """One ledger line read and checked on its own (not yet against its source's chain)."""

    __slots__ = ("exact_line", "line", "line_sha", "record", "stored_record")

    def __init__(self, line: str) -> None:
        self.line = line
        floats: list[str] = []

        def _float(text: str) -> float:
            floats.append(text)
            return float(text)

        try:
            line.encode("ascii")
            record = json.loads(line, parse_float=_float, parse_constant=_no_constant)
        except (UnicodeEncodeError, ValueError, RecursionError):
            raise ChainError("record_invalid", "the line is not an ASCII JSON record") from None
        if not isinstance(record, dict):
            raise ChainError("record_invalid", "the line is not a JSON object")
        self.record: dict[str, object] = record
        try:
            spelled, expected = line_and_hash(record)
        except (ValueError, TypeError):
            raise ChainError("record_invalid", "the record has no canonical JSON") from None
        if record.get("hash") != expected:
            raise ChainError(
                "record_invalid",
                f"record seq {record.get('seq')!r}: its hash does not match its content "
                "(edited after it was written)",
            )
        seq = record.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise ChainError("record_invalid", "the record has no valid seq")
        if not isinstance(record.get("prev"), str):
            raise ChainError("record_invalid", f"record seq {seq} has no prev")
        decision_id = record.get("decision_id")
        if not isinstance(decision_id, str) or not decision_id:
            raise ChainError("record_invalid", f"record seq {seq} has no decision_id")
        self.line_sha = sha256_text(line.encode("ascii"))
        unstorable = _UNSTORABLE.search(line) is not None
        #: The line itself when the jsonb copy might not rebuild it byte for byte.
        self.exact_line: str | None = line if (floats or unstorable or spelled != line) else None
        #: What goes into the jsonb column.
        self.stored_record: dict[str, object] = (
            storable(record) if unstorable else record  # type: ignore[assignment]
        )

    @property
    def seq(self) -> int:
        value = self.record["seq"]
        assert isinstance(value, int)
        return value

    @property
    def hash(self) -> str:
        return str(self.record["hash"])

    @property
    def prev(self) -> str:
        return str(self.record["prev"])

    @property
    def decision_id(self) -> str:
        return str(self.record["decision_id"])


def line_and_hash(record: dict[str, object]) -> tuple[str, str]:
    """``(canonical(record), record_hash(record))`` with each top-level value encoded once.

    ``json.dumps(sort_keys=True)`` of an object is ``{`` + the ``"key":value`` pairs in key order
    joined by ``,`` + ``}``, so both spellings are assembled from the same encoded pairs; a test
    holds them equal to ``clearance.engine.ledger``'s own functions.
    """
    pairs = [
        (key, json.dumps(key, ensure_ascii=True) + ":" + canonical(record[key]))
        for key in sorted(record)
    ]
    line = "{" + ",".join(pair for _, pair in pairs) + "}"
    body = "{" + ",".join(pair for key, pair in pairs if key != "hash") + "}"
    return line, sha256_text(body.encode("ascii"))


def links(previous_seq: int, previous_line_sha: str, parsed: Parsed) -> str | None:
    """``None`` when ``parsed`` is the record right after the given one, else why not."""
    expected_prev = GENESIS if previous_seq < 0 else previous_line_sha
    if parsed.seq != previous_seq + 1:
        if previous_seq < 0:
            return (
                f"the source has no stored record yet, so the first must be seq 0; got seq "
                f"{parsed.seq}"
            )
        return (
            f"record seq {parsed.seq} does not follow the last stored record (seq "
            f"{previous_seq}): expected seq {previous_seq + 1}"
        )
    if parsed.prev != expected_prev:
        return (
            f"record seq {parsed.seq} names prev {parsed.prev[:20]}…, but the last stored "
            f"record (seq {previous_seq}) hashes to {expected_prev[:20]}…: it was not chained "
            "to it (the ledger was rewritten, or records were edited and re-hashed)"
        )
    return None


def stored_line(record: dict[str, object], line: str | None) -> str:
    """The exact ledger line of a stored row."""
    return line if line is not None else canonical(record)


def storable(value: object) -> object:
    """``value`` with NUL and lone surrogates replaced (U+FFFD) so that jsonb accepts it."""
    if isinstance(value, str):
        if "\0" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
            return "".join(
                "\ufffd" if c == "\0" or 0xD800 <= ord(c) <= 0xDFFF else c for c in value
            )
        return value
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [storable(v) for v in value]
    return value


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")
