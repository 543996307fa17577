"""``clearance audit verify --db``: every source's chain in the store, first bad row named.

For each source, rows in ``seq`` order must be: ``seq`` 0, 1, 2, … without a gap; each row's
line (``line``, else the canonical JSON of ``record``) hashing to its ``hash`` (the record's own
and the column); ``prev`` the sha256 of the previous row's line (``GENESIS`` first); the queried
columns (``decision_id``, ``decision``, ``rule_id``, ``reason_code``) equal to the record's; and
the last row the source's stored head (rows cut off the end are a truncation).
"""

from __future__ import annotations

import json
from typing import Any

from clearance.engine.ledger import GENESIS, record_hash, sha256_text
from clearance.service.chain import line_and_hash, storable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from psycopg import Connection


class SourceCheck:
    __slots__ = ("bad", "ledger", "machine", "rows", "source_id")

    def __init__(self, source_id: str, machine: str, ledger: str) -> None:
        self.source_id = source_id
        self.machine = machine
        self.ledger = ledger
        self.rows = 0
        #: ``{"id", "seq", "decision_id", "kind", "message"}`` of the first bad row.
        self.bad: dict[str, object] | None = None

    @property
    def ok(self) -> bool:
        return self.bad is None

    def fail(
        self, row_id: object, seq: object, decision_id: object, kind: str, message: str
    ) -> None:
        if self.bad is None:
            self.bad = {
                "id": row_id,
                "seq": seq,
                "decision_id": decision_id,
                "kind": kind,
                "message": message,
            }

    def to_dict(self) -> dict[str, object]:
        return {
            "source_id": self.source_id,
            "machine": self.machine,
            "ledger": self.ledger,
            "rows": self.rows,
            "ok": self.ok,
            "first_bad_row": self.bad,
        }


def _check_row(check: SourceCheck, row: tuple[object, ...], prev_sha: str) -> str | None:
    """The sha256 of this row's line when it is good (else records the failure, ``None``)."""
    _, row_id, seq, decision_id, hash_col, prev_col, line_col, record, decision, rule, code = row
    expected_seq = check.rows
    if seq != expected_seq:
        what = f"seq {expected_seq}" if seq == expected_seq + 1 else f"seqs {expected_seq}..{seq}"
        check.fail(
            row_id, seq, decision_id, "deleted", f"row seq {seq} follows a gap: {what} missing"
        )
        return None
    if not isinstance(record, dict):
        check.fail(row_id, seq, decision_id, "unparseable", "the record is not a JSON object")
        return None
    try:
        if isinstance(line_col, str):
            line = line_col
            parsed = json.loads(line)
            if not isinstance(parsed, dict):
                raise ValueError("not an object")
            computed = record_hash(parsed)
        else:
            # Without a stored line, the line is the record's canonical JSON.
            parsed = record
            line, computed = line_and_hash(record)
    except (ValueError, TypeError, RecursionError):
        check.fail(
            row_id, seq, decision_id, "unparseable", "the stored record has no canonical line"
        )
        return None
    if isinstance(line_col, str) and storable(parsed) != record:
        check.fail(
            row_id, seq, decision_id, "edited", "the jsonb record differs from the stored line"
        )
        return None
    if parsed.get("hash") != computed or hash_col != computed:
        check.fail(
            row_id,
            seq,
            decision_id,
            "edited",
            f"row seq {seq} was changed after it was stored (hash mismatch)",
        )
        return None
    if (
        parsed.get("seq") != seq
        or parsed.get("decision_id") != decision_id
        or parsed.get("prev") != prev_col
    ):
        check.fail(
            row_id,
            seq,
            decision_id,
            "edited",
            f"row seq {seq}: its seq/decision_id/prev columns differ from its record",
        )
        return None
    verdict = parsed.get("decision")
    verdict = verdict if isinstance(verdict, dict) else {}
    if (verdict.get("decision"), verdict.get("policy_id"), verdict.get("reason_code")) != (
        decision,
        rule,
        code,
    ):
        check.fail(
            row_id,
            seq,
            decision_id,
            "edited",
            f"row seq {seq}: its decision/rule_id/reason_code columns differ from its record",
        )
        return None
    if parsed.get("prev") != prev_sha:
        check.fail(
            row_id,
            seq,
            decision_id,
            "edited",
            f"row seq {seq} is not chained to row seq {seq - 1 if isinstance(seq, int) else '?'} "
            "(that row was edited and re-hashed, or replaced)",
        )
        return None
    return sha256_text(line.encode("ascii"))


def verify_store(conn: Connection[Any]) -> list[SourceCheck]:
    sources: dict[str, tuple[SourceCheck, int, object]] = {}
    for source_id, machine, ledger, last_seq, last_hash in conn.execute(
        "SELECT source_id, machine, ledger, last_seq, last_hash FROM sources ORDER BY source_id"
    ).fetchall():
        check = SourceCheck(str(source_id), str(machine), str(ledger))
        sources[str(source_id)] = (check, int(last_seq), last_hash)
    current: SourceCheck | None = None
    prev_sha = GENESIS
    last_row_hash: dict[str, object] = {}
    with conn.transaction(), conn.cursor(name="clearance_verify") as cur:
        cur.itersize = 5000
        cur.execute(
            "SELECT source_id, id, seq, decision_id, hash, prev, line, record, decision, "
            "rule_id, reason_code FROM decisions ORDER BY source_id, seq"
        )
        for row in cur:
            source_id = str(row[0])
            entry = sources.get(source_id)
            if entry is None:
                check = SourceCheck(source_id, "?", "?")
                check.fail(row[1], row[2], row[3], "unparseable", "the row names no known source")
                sources[source_id] = (check, -1, None)
                continue
            check = entry[0]
            if check is not current:
                current, prev_sha = check, GENESIS
            if check.bad is not None:
                continue
            sha = _check_row(check, tuple(row), prev_sha)
            if sha is None:
                continue
            prev_sha = sha
            check.rows += 1
            last_row_hash[source_id] = row[4]
    for source_id, (check, last_seq, last_hash) in sources.items():
        if check.bad is not None:
            continue
        if check.rows != last_seq + 1:
            check.fail(
                None,
                check.rows,
                None,
                "truncated",
                f"the source's head is seq {last_seq} but its rows end after {check.rows}: "
                f"rows {check.rows}..{last_seq} were deleted",
            )
        elif check.rows and last_row_hash.get(source_id) != last_hash:
            check.fail(
                None,
                last_seq,
                None,
                "edited",
                f"row seq {last_seq} is not the record the source's head names",
            )
    return [entry[0] for entry in sources.values()]
