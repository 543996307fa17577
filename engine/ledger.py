"""The audit ledger: one JSON line per decision, hash-chained, safe with many writers at once.

Every surface (``check``, ``gate``, ``hook``, ``run``) can append the decisions it makes, so that
"why was this command allowed?" has an answer later, and so that ``clearance replay`` can
re-decide last month's intents under a new policy without executing anything.

Record (one line of JSON, keys sorted, ASCII only)::

    {"v": 1, "seq": N, "decision_id": …, "time": …, "surface": "hook", "agent": "claude-code",
     "session_id": …, "cwd": …, "workspace": …, "home": …, "intent": ToolIntent.to_dict(),
     "facts": [{"argv", "program", "classes", "markers"} per part], "decision": to_dict(),
     "policy_digest": …, "prev": "sha256:…", "hash": "sha256:…"}

(plus ``policy_files`` when the decision used exactly the ``--policy`` files, and ``repaired``
when a torn line was cut before this record).

Chain. ``prev`` is the sha256 of the previous record's line (without its newline; the first
record has :data:`GENESIS`), ``seq`` its position, and ``hash`` the sha256 of the record's own
canonical JSON without ``hash``. Editing a record breaks its ``hash`` (or, if the editor
recomputed it, the next record's ``prev``); deleting or reordering records breaks ``seq`` and
``prev``. Cutting records off the end leaves a valid chain, so every append also replaces a
small *head* file (``<ledger>.head``: the last ``seq`` and ``hash``); a head that names more
records than the file holds is a truncation. The chain makes tampering evident to anyone who
does not recompute every hash after the edit; it is not a signature. Anchor the head hash
elsewhere (a CI log, a commit) when that matters.

Concurrency. Hooks of several agents append at the same time. An append takes an exclusive
``flock`` on the ledger file, reads the last record under the lock, writes the new line with a
single ``write()`` on an ``O_APPEND`` descriptor, syncs it, replaces the head file, unlocks.

Durability (fsync policy). ``append`` returns only after the ledger file is synced
(``fdatasync``, else ``fsync``: the data and the new size, not the timestamps): a hook prints its
decision after the record is on disk, so an answered decision is never missing from the ledger
after a crash. This costs ~0.1-1 ms on a quiet local disk, more under heavy I/O. When the
ledger file is created, its directory is fsynced too. The head file is replaced atomically but
not fsynced; after a crash it may lag one record behind the ledger, which :func:`verify` accepts
(behind is a lost update, ahead is a truncation).

Torn lines. A writer killed mid-``write`` can leave a last line without its newline. The next
``append`` sees it under the lock, truncates the file back to the last newline and records that
it did (``"repaired": {"offset", "dropped_bytes", "dropped_sha256"}`` in the new record), so the
chain continues from the last intact record and :func:`verify` reports the repair. Until then
``verify`` reports the torn line itself.

Stdlib only on the append path: a hook appends once per tool call and must not import
pydantic or structlog. The rare repair logs a warning through structlog, to stderr -- never to
stdout, which is the hook protocol's channel.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os

from clearance.engine.digest import sha256_hex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.intents import ToolIntent

FORMAT_VERSION = 1
GENESIS = "sha256:" + "0" * 64
LEDGER_DIR = ".clearance"
LEDGER_NAME = "ledger.jsonl"
SURFACES = ("check", "gate", "hook", "run")
HEAD_SUFFIX = ".head"
_CHUNK = 65536

#: What :func:`verify` can find wrong, in the order a reader meets them.
BAD_KINDS = ("unparseable", "edited", "deleted", "reordered", "truncated", "torn")


class LedgerError(Exception):
    """The ledger could not be written (or read): the caller must fail closed."""


def default_ledger_path(cwd: str) -> str:
    """``.clearance/ledger.jsonl`` at the repository root of ``cwd``, else in ``cwd``."""
    from clearance.engine.scopes import repository_root

    root = repository_root(cwd) or os.path.abspath(cwd)
    return os.path.join(root, LEDGER_DIR, LEDGER_NAME)


def canonical(record: dict[str, object]) -> str:
    """The one JSON spelling hashes are computed over: sorted keys, no spaces, ASCII only
    (so a lone surrogate from a payload cannot make the line unencodable)."""
    return json.dumps(
        record, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    )


def sha256_text(data: bytes) -> str:
    return "sha256:" + sha256_hex(data)


def record_hash(record: dict[str, object]) -> str:
    """The hash of a record: sha256 of its canonical JSON without the ``hash`` key."""
    body = {k: v for k, v in record.items() if k != "hash"}
    return sha256_text(canonical(body).encode("ascii"))


def facts_summary(decision: ApprovalDecision) -> list[dict[str, object]]:
    """Per part: what ran and how it was classified (the full parts stay in the decision)."""
    return [
        {
            "argv": list(part.argv),
            "program": part.program,
            "classes": list(part.classes),
            "markers": list(part.markers),
        }
        for part in decision.parts
    ]


class Ledger:
    """Append-only access to one ledger file."""

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)

    @property
    def head_path(self) -> str:
        return self.path + HEAD_SUFFIX

    def append(
        self,
        decision: ApprovalDecision,
        intent: ToolIntent | None,
        *,
        surface: str,
        agent: str | None = None,
        session_id: str | None = None,
        facts: list[dict[str, object]] | None = None,
        workspace: str | None = None,
        home: str | None = None,
        policy_files: list[str] | None = None,
    ) -> dict[str, object]:
        """Append one record and return it (with ``seq``, ``prev`` and ``hash`` filled in).

        Raises :class:`LedgerError` when the record could not be made durable; a caller that
        answers an agent must then block, since an unrecorded decision is not auditable.
        """
        if surface not in SURFACES:
            raise LedgerError(f"unknown surface {surface!r}")
        record: dict[str, object] = {
            "v": FORMAT_VERSION,
            "decision_id": decision.decision_id,
            "time": decision.time,
            "surface": surface,
            "agent": agent,
            "session_id": session_id,
            "cwd": intent.cwd if intent is not None else None,
            "workspace": workspace,
            "home": home,
            "intent": intent.to_dict() if intent is not None else None,
            "facts": facts if facts is not None else facts_summary(decision),
            "decision": decision.to_dict(),
            "policy_digest": decision.policy_digest,
        }
        if policy_files is not None:
            # Decided with exactly these files (--policy), not the scopes found at cwd.
            record["policy_files"] = list(policy_files)
        try:
            return self._append(record)
        except LedgerError:
            raise
        except (OSError, ValueError, TypeError, RecursionError) as exc:
            raise LedgerError(f"cannot append to {self.path}: {exc}") from exc

    def _open(self) -> int:
        directory = os.path.dirname(self.path)
        created_dir = False
        if not os.path.isdir(directory):
            # Only the ledger's own folder (``.clearance``) is created: a missing project
            # directory means the intent names a place that does not exist, and a ledger
            # conjured there would hide that.
            if not os.path.isdir(os.path.dirname(directory)):
                raise LedgerError(
                    f"cannot create {self.path}: {os.path.dirname(directory)} does not exist"
                )
            try:  # noqa: SIM105 -- keep contextlib off the hook's import path
                os.mkdir(directory)
            except FileExistsError:
                pass
            created_dir = True
        flags = os.O_RDWR | os.O_APPEND | os.O_CLOEXEC
        try:
            return os.open(self.path, flags)
        except FileNotFoundError:
            pass
        fd = os.open(self.path, flags | os.O_CREAT, 0o644)
        _fsync_dir(directory)
        if created_dir:
            _fsync_dir(os.path.dirname(directory))
        return fd

    def _append(self, record: dict[str, object]) -> dict[str, object]:
        fd = self._open()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            size = os.fstat(fd).st_size
            end, last = _tail(fd, size)
            if end < size:
                record["repaired"] = _repair(fd, end, size, self.path)
            if last is None:
                record["seq"], record["prev"] = 0, GENESIS
            else:
                record["seq"] = _next_seq(fd, end, last)
                record["prev"] = sha256_text(last)
            record["hash"] = record_hash(record)
            line = (canonical(record) + "\n").encode("ascii")
            written = os.write(fd, line)
            if written != len(line):
                # A short write (disk full): take the partial line back out, then fail.
                os.ftruncate(fd, end)
                raise LedgerError(
                    f"cannot append to {self.path}: short write ({written} of {len(line)} bytes)"
                )
            _sync(fd)
            self._write_head(record)
        finally:
            os.close(fd)  # closing releases the lock
        return record

    def _write_head(self, record: dict[str, object]) -> None:
        body = json.dumps({"seq": record["seq"], "hash": record["hash"]}) + "\n"
        temporary = f"{self.head_path}.{os.getpid()}.tmp"
        try:
            with open(temporary, "w", encoding="ascii") as fh:
                fh.write(body)
            os.replace(temporary, self.head_path)
        except OSError:
            # The record itself is durable; a stale head only weakens truncation detection
            # until the next append, and verify says when the head is behind.
            try:  # noqa: SIM105 -- keep contextlib off the hook's import path
                os.unlink(temporary)
            except OSError:
                pass


def _sync(fd: int) -> None:
    """Data (and the file size) on disk: ``fdatasync`` where there is one -- what an append
    needs, without flushing timestamps too."""
    sync = getattr(os, "fdatasync", os.fsync)
    sync(fd)


def _fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory or ".", os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EBADF):
            raise
    finally:
        os.close(fd)


def _tail(fd: int, size: int) -> tuple[int, bytes | None]:
    """``(end, last)``: ``end`` is the offset just past the last newline (0 if none), ``last``
    the last complete line without its newline (``None`` when there is none)."""
    if size == 0:
        return 0, None
    buffer = b""
    position = size
    newline = -1
    while position > 0 and newline < 0:
        step = min(_CHUNK, position)
        position -= step
        buffer = os.pread(fd, step, position) + buffer
        newline = buffer.rfind(b"\n")
    if newline < 0:
        return 0, None
    end = position + newline + 1
    # Now the start of that line: the newline before it, or the file's start.
    line_end = newline
    start = buffer.rfind(b"\n", 0, line_end)
    while start < 0 and position > 0:
        step = min(_CHUNK, position)
        position -= step
        buffer = os.pread(fd, step, position) + buffer
        line_end += step
        start = buffer.rfind(b"\n", 0, line_end)
    return end, buffer[start + 1 : line_end]


def _repair(fd: int, end: int, size: int, path: str) -> dict[str, object]:
    """Cut a torn last line (a writer died mid-append) and describe what was cut."""
    dropped = os.pread(fd, size - end, end)
    os.ftruncate(fd, end)
    note: dict[str, object] = {
        "offset": end,
        "dropped_bytes": len(dropped),
        "dropped_sha256": sha256_text(dropped),
    }
    _log_warning("ledger_torn_line_repaired", path=path, **note)
    return note


def _next_seq(fd: int, end: int, last: bytes) -> int:
    try:
        parsed = json.loads(last)
        seq = parsed.get("seq") if isinstance(parsed, dict) else None
        if isinstance(seq, int) and not isinstance(seq, bool) and seq >= 0:
            return seq + 1
    except ValueError:
        pass
    # The last line is not a record of ours (verify will say so): count lines instead.
    count = 0
    position = 0
    while position < end:
        chunk = os.pread(fd, min(_CHUNK, end - position), position)
        if not chunk:
            break
        count += chunk.count(b"\n")
        position += len(chunk)
    return count


def _log_warning(event: str, **fields: object) -> None:
    """Rare events only: importing structlog costs more than a whole hook call may take."""
    try:
        import sys

        import structlog

        logger = structlog.wrap_logger(
            structlog.PrintLogger(file=sys.stderr),
            processors=[
                structlog.processors.add_log_level,
                structlog.processors.TimeStamper(fmt="iso"),
                structlog.processors.KeyValueRenderer(key_order=["event"]),
            ],
        )
        logger.warning(event, **fields)
    except Exception:
        return


# ---- reading ----------------------------------------------------------------------------------


class LedgerLine:
    """One raw line of a ledger: its position, bytes, and the record if it parses."""

    __slots__ = ("data", "index", "offset", "record", "terminated")

    def __init__(self, index: int, offset: int, data: bytes, terminated: bool) -> None:
        self.index = index
        self.offset = offset
        self.data = data
        self.terminated = terminated
        self.record: dict[str, object] | None = None
        try:
            parsed = json.loads(data)
        except (ValueError, RecursionError):
            return
        if isinstance(parsed, dict):
            self.record = {str(k): v for k, v in parsed.items()}


def read_lines(path: str) -> Iterator[LedgerLine]:
    """Every line of the ledger, the last one possibly torn (``terminated`` false)."""
    with open(path, "rb") as fh:
        offset = 0
        for index, raw in enumerate(fh):
            terminated = raw.endswith(b"\n")
            data = raw[:-1] if terminated else raw
            yield LedgerLine(index, offset, data, terminated)
            offset += len(raw)


def read_records(path: str, *, validate: bool = False) -> Iterator[dict[str, object]]:
    """The records of a ledger, in order; unparseable and torn lines are skipped (``verify``
    reports them). With ``validate``, each record's decision must pass the pydantic schema
    (``clearance.engine.schema.parse_decision``) or ``LedgerError`` is raised."""
    for line in read_lines(path):
        if line.record is None or not line.terminated:
            continue
        if validate:
            _validate(line)
        yield line.record


def _validate(line: LedgerLine) -> None:
    from pydantic import ValidationError

    from clearance.engine.schema import parse_decision

    assert line.record is not None
    try:
        parse_decision(line.record.get("decision"))
    except ValidationError as exc:
        raise LedgerError(
            f"record {line.index} holds a decision that does not match the schema: "
            f"{exc.error_count()} error(s), first: {exc.errors()[0]['msg']}"
        ) from None


def find_record(path: str, decision_id: str) -> dict[str, object] | None:
    """The record of ``decision_id``, or ``None``."""
    for record in read_records(path):
        if record.get("decision_id") == decision_id:
            return record
    return None


# ---- verification -----------------------------------------------------------------------------


class VerifyResult:
    """What :func:`verify` found: ``ok``, the first bad record and its kind, notes."""

    __slots__ = ("bad_index", "head", "kind", "message", "notes", "records", "repairs")

    def __init__(self) -> None:
        self.records = 0
        self.bad_index: int | None = None
        self.kind: str | None = None
        self.message = ""
        #: ``(index, text)`` of records that say a torn line was cut before them.
        self.repairs: list[tuple[int, str]] = []
        self.notes: list[str] = []
        self.head: dict[str, object] | None = None

    @property
    def ok(self) -> bool:
        return self.kind is None

    def fail(self, index: int, kind: str, message: str) -> VerifyResult:
        self.bad_index = index
        self.kind = kind
        self.message = message
        return self

    def to_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "records": self.records,
            "first_bad_record": self.bad_index,
            "kind": self.kind,
            "message": self.message,
            "repairs": [{"record": i, "note": text} for i, text in self.repairs],
            "notes": self.notes,
        }


def verify(path: str) -> VerifyResult:
    """Walk the chain from the first record; stop at the first bad one.

    Raises ``OSError`` when the file cannot be read at all (a missing ledger is not a
    verified empty one).
    """
    result = VerifyResult()
    previous: LedgerLine | None = None
    seen_hashes: dict[str, int] = {}
    hashes: list[str] = []
    for line in read_lines(path):
        index = line.index
        if not line.terminated:
            return result.fail(
                index,
                "torn",
                f"record {index} (byte {line.offset}) is a torn line of {len(line.data)} bytes "
                "without its newline: a writer was killed mid-append; the next append cuts it",
            )
        record = line.record
        if record is None:
            return result.fail(index, "unparseable", f"record {index} is not a JSON object")
        stored = record.get("hash")
        if not isinstance(stored, str) or stored != record_hash(record):
            return result.fail(
                index, "edited", f"record {index} was changed after it was written (hash mismatch)"
            )
        seq = record.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return result.fail(index, "edited", f"record {index} has no valid seq")
        if seq > index:
            what = "record 0" if seq - index == 1 else f"records {index}..{seq - 1}"
            return result.fail(
                index, "deleted", f"record {index} says it is record {seq}: {what} deleted"
            )
        if seq < index:
            again = seen_hashes.get(stored)
            extra = f" (a copy of record {again})" if again is not None else ""
            return result.fail(
                index,
                "reordered",
                f"record {index} says it is record {seq}{extra}: records moved or duplicated",
            )
        expected = GENESIS if previous is None else sha256_text(previous.data)
        if record.get("prev") != expected:
            if previous is None:
                return result.fail(
                    index, "deleted", "record 0 does not start the chain: records before it deleted"
                )
            return result.fail(
                index - 1,
                "edited",
                f"record {index - 1} is not the record that record {index} was chained to "
                "(edited and re-hashed, or replaced)",
            )
        repaired = record.get("repaired")
        if isinstance(repaired, dict):
            result.repairs.append(
                (
                    index,
                    f"before record {index}, a torn line of {repaired.get('dropped_bytes')} bytes "
                    f"at byte {repaired.get('offset')} was cut (a writer was killed mid-append)",
                )
            )
        seen_hashes[stored] = index
        hashes.append(stored)
        previous = line
        result.records = index + 1
    return _check_head(path, result, hashes)


def _check_head(path: str, result: VerifyResult, hashes: list[str]) -> VerifyResult:
    try:
        with open(path + HEAD_SUFFIX, encoding="ascii") as fh:
            head = json.loads(fh.read())
    except FileNotFoundError:
        if result.records:
            result.notes.append(
                "no head file: records cut off the end of the ledger cannot be detected"
            )
        return result
    except (OSError, ValueError) as exc:
        result.notes.append(f"head file unreadable ({exc}): truncation cannot be checked")
        return result
    if not isinstance(head, dict) or not isinstance(head.get("seq"), int):
        result.notes.append("head file malformed: truncation cannot be checked")
        return result
    result.head = head
    head_seq = int(head["seq"])
    if head_seq >= result.records:
        return result.fail(
            result.records,
            "truncated",
            f"the head says record {head_seq} was written but the ledger ends after "
            f"{result.records} record(s): records {result.records}..{head_seq} were cut off",
        )
    if head_seq >= 0:
        if head.get("hash") != hashes[head_seq]:
            return result.fail(
                head_seq,
                "edited",
                f"record {head_seq} is not the one the head file names (edited and re-hashed, "
                "or the ledger was rewritten)",
            )
        if head_seq < result.records - 1:
            result.notes.append(
                f"head names record {head_seq}, the ledger has {result.records}: the head "
                "lagged (a crash between append and head update, or an older clearance)"
            )
    return result
