"""The audit ledger: one JSON line per decision, hash-chained and keyed, safe with many writers.

Every surface (``check``, ``gate``, ``hook``, ``run``) can append the decisions it makes, so that
"why was this command allowed?" has an answer later, and so that ``clearance replay`` can
re-decide last month's intents under a new policy without executing anything.

Where. One ledger per project root, under the user's state directory, out of the workspace the
agent works in (:mod:`clearance.engine.state` says where and why); outside any project, the
user-level ledger there. ``--ledger FILE`` names another file.

Record (one line of JSON, keys sorted, ASCII only)::

    {"v": 2, "seq": N, "decision_id": …, "time": …, "surface": "hook", "agent": "claude-code",
     "session_id": …, "user": …, "host": …, "cwd": …, "workspace": …, "home": …,
     "intent": ToolIntent.to_dict(), "facts": [{"argv", "program", "classes", "markers"} per
     part], "decision": to_dict(), "policy_digest": …, "key_id": …, "mac": "hmac-sha256:…",
     "prev": "sha256:…", "hash": "sha256:…"}

(plus ``policy_files`` when the decision used exactly the ``--policy`` files, ``bounded`` when
something was too large to keep whole, ``repaired`` when a torn line was cut before this record,
``findings`` when the append found the ledger tampered with, ``not_durable`` when the decision
could not be synced).

Bounded. A record is at most :data:`MAX_RECORD_BYTES`: a string longer than
:data:`MAX_TEXT` keeps an excerpt and ``bounded`` names its path, length and sha256; lists keep
their first :data:`MAX_ITEMS` (parts, argv), with the count in ``bounded``. Reading the tail
costs the last record, never the file.

Plain chain. ``prev`` is the sha256 of the previous record's line (without its newline; the
first record has :data:`GENESIS`), ``seq`` its position, and ``hash`` the sha256 of the record's
own canonical JSON without ``hash``. Anyone can check it (the central store does, on ingest).

Keyed chain. ``mac`` is an HMAC-SHA256 of the canonical JSON without ``hash`` and ``mac`` (so it
covers ``seq`` and ``prev``: the chain), under the user's ledger key (``key`` in the state
directory, 0600, never under a workspace; ``key_id`` names it). An attacker who edits, deletes,
reorders or appends records and recomputes every plain hash still cannot produce the MACs, and
:func:`verify` names the first record whose MAC is wrong. The head file (``<ledger>.head``: the
last ``seq``, ``hash``, the sha256 of its line, and a MAC) makes cutting records off the end
evident. Limit: a process of the same user with unrestricted code execution can read the key
(the default pack denies every route to it, but a sandbox-less interpreter could still open
it); the remedy is to ship records off the machine as they are written (``audit ship``).

Concurrency. An append takes an exclusive ``flock`` on the ledger file, reads the last record
and the head under the lock, writes the new line with a single ``write()`` on an ``O_APPEND``
descriptor, syncs it, replaces the head file, unlocks.

No self-healing. Before appending, the head is compared with the ledger's tail. A head that
names a later record than the tail (records cut off, or the whole file replaced), a head that
lags more than the one record a crash can explain, a missing or forged head, a last record whose
newline was removed: each is written into the new record as a *finding*, which :func:`verify`
reports for as long as that record exists (and removing the record breaks the chain). Only a
genuinely partial last line -- bytes that are not a whole record, a writer killed mid-``write``
-- is cut, and the next record says so in ``repaired``.

Durability. ``append`` returns only after the ledger file is synced (``fdatasync``): a hook
prints its decision after the record is on disk. When the sync fails, the line is taken back
out and a record of the failure takes its place (decision ``deny``, reason ``internal_error``,
the decision that was not made durable under ``not_durable``), then :class:`LedgerError` tells
the caller to block: the ledger never says "allow" for a call that was blocked. The head is
replaced atomically but not synced; after a crash it may lag one record. A new ledger's head
(``seq`` -1) is written, synced, before its first record, so a missing head is always a
finding: no crash leaves records without one.

Files. The ledger, head and key are opened without following links, must be regular files
owned by this user (a planted link or FIFO is refused: the caller blocks), and are created
0600 in directories of mode 0700 (:mod:`clearance.engine.safefiles`).

Stdlib only on the append path: a hook appends once per tool call and must not import
pydantic or structlog. The rare repair logs a ``key=value`` warning line to stderr (stdlib
only) -- never to stdout, which is the hook protocol's channel.
"""

from __future__ import annotations

import fcntl
import json
import os

from clearance.engine.digest import compare_digest, hmac_sha256_hex, sha256_hex
from clearance.engine.safefiles import (
    create_exclusive,
    fsync_dir,
    open_file,
    private_dir,
    read_file,
    write_atomic,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Final

    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.intents import ToolIntent

FORMAT_VERSION: Final = 2
GENESIS: Final = "sha256:" + "0" * 64
SURFACES: Final = ("check", "gate", "hook", "run")
HEAD_SUFFIX: Final = ".head"
MAC_PREFIX: Final = "hmac-sha256:"
KEY_BYTES: Final = 32
_CHUNK: Final = 65536

#: Longest string kept whole in a record (a command, a file's new content): longer ones keep
#: this many characters and their length and sha256 in ``bounded``.
MAX_TEXT: Final = 4096
#: Text one record keeps in full; past it, strings keep :data:`MIN_TEXT` characters.
MAX_RECORD_TEXT: Final = 64 * 1024
MIN_TEXT: Final = 256
#: Most items kept of a list in a record (parts, argv, paths).
MAX_ITEMS: Final = 64
#: Deepest nesting kept in a record (a payload's own JSON nesting is the agent's to choose).
MAX_DEPTH: Final = 24
#: A record's line is never longer than this; bounding keeps it far below.
MAX_RECORD_BYTES: Final = 512 * 1024
#: Reading: a line longer than this is not one clearance wrote (``verify`` says so).
MAX_LINE_BYTES: Final = 4 * 1024 * 1024

#: What an append can find wrong before it writes (recorded in ``findings``).
FINDING_KINDS: Final = (
    "truncated",
    "head_missing",
    "head_lag",
    "head_forged",
    "head_mismatch",
    "newline_removed",
    "key_replaced",
)
#: What :func:`verify` can find wrong, in the order a reader meets them.
BAD_KINDS: Final = (
    "unparseable",
    "oversized",
    "edited",
    "deleted",
    "reordered",
    "unauthenticated",
    "forged",
    "key_missing",
    *FINDING_KINDS,
    "torn",
)


class LedgerError(Exception):
    """The ledger could not be written (or read): the caller must fail closed."""


def default_ledger_path(cwd: str, env: Mapping[str, str] | None = None) -> str:
    """The ledger of the project ``cwd`` is in (any subdirectory: the same one), in the user's
    state directory; the user-level ledger there outside any project."""
    from clearance.engine.state import ledger_path_for

    return ledger_path_for(cwd, env)


def canonical(record: object) -> str:
    """The one JSON spelling hashes are computed over: sorted keys, no spaces, ASCII only
    (so a lone surrogate from a payload cannot make the line unencodable). Any JSON value: the
    service spells a record's top-level values one by one with it."""
    return json.dumps(
        record, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    )


def sha256_text(data: bytes) -> str:
    return "sha256:" + sha256_hex(data)


def record_hash(record: dict[str, object]) -> str:
    """The hash of a record: sha256 of its canonical JSON without the ``hash`` key."""
    body = {k: v for k, v in record.items() if k != "hash"}
    return sha256_text(canonical(body).encode("ascii"))


def record_mac(key: bytes, record: dict[str, object]) -> str:
    """The keyed MAC of a record: over its canonical JSON without ``hash`` and ``mac``."""
    body = {k: v for k, v in record.items() if k not in ("hash", "mac")}
    return MAC_PREFIX + hmac_sha256_hex(key, canonical(body).encode("ascii"))


def key_id(key: bytes) -> str:
    return sha256_hex(b"clearance ledger key\0" + key)[:16]


def head_mac(key: bytes, seq: object, hash_: object, line: object) -> str:
    message = f"clearance head\0{seq}\0{hash_}\0{line}".encode("ascii", "replace")
    return MAC_PREFIX + hmac_sha256_hex(key, message)


# ---- the key -----------------------------------------------------------------------------------


def load_key(env: Mapping[str, str] | None = None) -> bytes | None:
    """The user's ledger key, or ``None`` when there is none yet; :class:`LedgerError` when
    the file there is not a private 32-byte file of this user (never silently replaced: the
    records signed with it could no longer be verified)."""
    from clearance.engine.state import ledger_key_path

    path = ledger_key_path(env)
    try:
        data = read_file(path, limit=4096, owned=True, private=True)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LedgerError(f"the ledger key {path} cannot be used: {exc}") from None
    if len(data) != KEY_BYTES:
        raise LedgerError(
            f"the ledger key {path} holds {len(data)} bytes, not {KEY_BYTES}: move it aside "
            "to start a new key (records signed with it then no longer verify)"
        )
    return data


def _key_for_writing(env: Mapping[str, str] | None = None) -> bytes:
    """The user's ledger key, made on first use."""
    from clearance.engine.state import ledger_key_path, state_dir

    key = load_key(env)
    if key is not None:
        return key
    try:
        private_dir(state_dir(env))
        create_exclusive(ledger_key_path(env), os.urandom(KEY_BYTES), mode=0o600)
    except OSError as exc:
        raise LedgerError(f"cannot create the ledger key: {exc}") from None
    key = load_key(env)
    if key is None:
        raise LedgerError("the ledger key vanished as it was created")
    return key


# ---- who ---------------------------------------------------------------------------------------

_IDENTITY: Final[list[tuple[str, str]]] = []


def identity() -> tuple[str, str]:
    """``(user, host)`` of this process: the effective user's login name and the node name."""
    if not _IDENTITY:
        uid = os.geteuid()
        try:
            import pwd

            user = pwd.getpwuid(uid).pw_name
        except (ImportError, KeyError):
            user = os.environ.get("USER") or f"uid:{uid}"
        _IDENTITY.append((user, os.uname().nodename))
    return _IDENTITY[0]


# ---- bounding ----------------------------------------------------------------------------------


class _Budget:
    """What one record may still hold: text characters, and digests already computed (the
    same megabyte string appears in the intent and in every part of a fallback split)."""

    __slots__ = ("digests", "text")

    def __init__(self) -> None:
        self.text = MAX_RECORD_TEXT
        self.digests: dict[int, str] = {}

    def digest(self, value: str) -> str:
        found = self.digests.get(id(value))
        if found is None:
            found = sha256_text(value.encode("utf-8", "surrogatepass"))
            self.digests[id(value)] = found
        return found


def bound(
    value: object,
    path: str,
    notes: dict[str, object],
    depth: int = 0,
    budget: _Budget | None = None,
) -> object:
    """``value`` with every string cut to :data:`MAX_TEXT` (to :data:`MIN_TEXT` once the
    record holds :data:`MAX_RECORD_TEXT` characters), every list to :data:`MAX_ITEMS`,
    nesting to :data:`MAX_DEPTH`; each cut is described in ``notes`` under its path."""
    budget = _Budget() if budget is None else budget
    if isinstance(value, str):
        limit = MAX_TEXT if budget.text > 0 else MIN_TEXT
        if len(value) <= limit:
            budget.text -= len(value)
            return value
        notes[path] = {"length": len(value), "sha256": budget.digest(value)}
        budget.text -= limit
        return value[:limit]
    if isinstance(value, (bool, int, type(None))):
        return value
    if isinstance(value, float):
        return value if abs(value) < float("inf") else None  # NaN and infinities are not JSON
    if depth >= MAX_DEPTH:
        notes[path] = {"depth": depth}
        return None
    if isinstance(value, dict):
        out: dict[str, object] = {}
        for i, (k, v) in enumerate(value.items()):
            if i >= MAX_ITEMS * 4:
                notes[path] = {"keys": len(value)}
                break
            key = str(k)[:256]
            out[key] = bound(v, f"{path}.{key}", notes, depth + 1, budget)
        return out
    if isinstance(value, (list, tuple)):
        if len(value) > MAX_ITEMS:
            notes[path] = {"items": len(value)}
        return [
            bound(v, f"{path}.{i}", notes, depth + 1, budget)
            for i, v in enumerate(value[:MAX_ITEMS])
        ]
    return bound(str(value), path, notes, depth, budget)


def facts_summary(decision: ApprovalDecision) -> list[dict[str, object]]:
    """Per part (the first :data:`MAX_ITEMS`): what ran and how it was classified."""
    return [
        {
            "argv": list(part.argv[: MAX_ITEMS + 1]),
            "program": part.program,
            "classes": list(part.classes),
            "markers": list(part.markers),
        }
        for part in decision.parts[: MAX_ITEMS + 1]
    ]


def _decision_dict(decision: ApprovalDecision) -> dict[str, object]:
    """``decision.to_dict()`` of its first parts only: a megabyte command has tens of
    thousands of parts, and serialising them all costs more than the record may hold."""
    if len(decision.parts) <= MAX_ITEMS:
        return decision.to_dict()
    out = decision.to_dict(max_parts=MAX_ITEMS + 1)
    out["parts_total"] = len(decision.parts)
    return out


def _text_of(data: dict[str, object], name: str) -> str:
    value = data.get(name)
    return value if isinstance(value, str) else ""


def _bounded_record(record: dict[str, object]) -> dict[str, object]:
    notes: dict[str, object] = {}
    budget = _Budget()
    for name in ("intent", "cwd", "workspace", "home", "policy_files", "decision", "facts"):
        if name in record:
            record[name] = bound(record[name], name, notes, 0, budget)
    for name in ("agent", "session_id"):
        value = record.get(name)
        if isinstance(value, str) and len(value) > 256:
            record[name] = bound(value[:256], name, notes)
            notes[name] = {"length": len(value)}
    if notes:
        record["bounded"] = notes
    return record


# ---- appending ---------------------------------------------------------------------------------


class Ledger:
    """Append-only access to one ledger file."""

    def __init__(self, path: str, env: Mapping[str, str] | None = None) -> None:
        self.path = os.path.abspath(path)
        self.env = env

    @classmethod
    def for_cwd(cls, cwd: str, env: Mapping[str, str] | None = None) -> Ledger:
        return cls(default_ledger_path(cwd, env), env)

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
        """Append one record and return it (with ``seq``, ``prev``, ``mac`` and ``hash``).

        Raises :class:`LedgerError` when the record could not be made durable; a caller that
        answers an agent must then block, since an unrecorded decision is not auditable.
        """
        if surface not in SURFACES:
            raise LedgerError(f"unknown surface {surface!r}")
        try:
            user, host = identity()
            record: dict[str, object] = {
                "v": FORMAT_VERSION,
                "decision_id": decision.decision_id,
                "time": decision.time,
                "surface": surface,
                "agent": agent,
                "session_id": session_id,
                "user": user,
                "host": host,
                "cwd": intent.cwd if intent is not None else None,
                "workspace": workspace,
                "home": home,
                "intent": intent.to_dict() if intent is not None else None,
                "facts": facts if facts is not None else facts_summary(decision),
                "decision": _decision_dict(decision),
                "policy_digest": decision.policy_digest,
            }
            if policy_files is not None:
                # Decided with exactly these files (--policy), not the scopes found at cwd.
                record["policy_files"] = list(policy_files)
            _bounded_record(record)
            return self._append(record)
        except LedgerError:
            raise
        except (OSError, ValueError, TypeError, RecursionError) as exc:
            raise LedgerError(f"cannot append to {self.path}: {exc}") from exc

    def _prepare_directory(self) -> bool:
        """Make the ledger's folder; ``True`` if it was created. The state directory's
        folders are private (0700, ours, not links); elsewhere (``--ledger``) only the
        ledger's own folder is created -- a missing project directory means the intent names
        a place that does not exist, and a ledger conjured there would hide that."""
        from clearance.engine.state import ledgers_dir, state_dir

        directory = os.path.dirname(self.path)
        if directory == ledgers_dir(self.env):
            existed = os.path.isdir(directory)
            private_dir(state_dir(self.env))
            private_dir(directory)
            return not existed
        if os.path.isdir(directory):
            return False
        if not os.path.isdir(os.path.dirname(directory)):
            raise LedgerError(
                f"cannot create {self.path}: {os.path.dirname(directory)} does not exist"
            )
        try:  # noqa: SIM105 -- keep contextlib off the hook's import path
            os.mkdir(directory, 0o700)
        except FileExistsError:
            pass
        return True

    def _open(self) -> int:
        created_dir = self._prepare_directory()
        directory = os.path.dirname(self.path)
        flags = os.O_RDWR | os.O_APPEND
        existed = os.path.lexists(self.path)
        fd = open_file(self.path, flags, create=True, mode=0o600, owned=True)
        if not existed:
            fsync_dir(directory)
            if created_dir:
                fsync_dir(os.path.dirname(directory))
        return fd

    def _append(self, record: dict[str, object]) -> dict[str, object]:
        key = _key_for_writing(self.env)
        fd = self._open()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            size = os.fstat(fd).st_size
            end, last = _tail(fd, size)
            findings: list[dict[str, object]] = []
            if end < size:
                end, last = self._fix_unterminated(fd, end, size, last, key, record, findings)
            previous = _parse(last) if last is not None else None
            findings.extend(self._check_head(key, last, previous))
            signed = previous.get("key_id") if previous is not None else None
            if isinstance(signed, str) and signed != key_id(key):
                findings.append(
                    {
                        "kind": "key_replaced",
                        "message": f"the last record was signed with key {signed}, the ledger "
                        f"key is now {key_id(key)}: the key was removed or replaced, and "
                        "earlier records no longer verify",
                    }
                )
            if findings:
                record["findings"] = findings
                _log_warning("ledger_findings", path=self.path, findings=findings)
            if last is None:
                record["seq"], record["prev"] = 0, GENESIS
            else:
                record["seq"] = _next_seq(fd, end, previous)
                record["prev"] = sha256_text(last)
            line = self._seal(record, key)
            try:
                self._write(fd, line, end)
                _sync(fd)
            except OSError as exc:
                self._not_durable(fd, end, record, key, exc)
            self._write_head(record, line, key)
        finally:
            os.close(fd)  # closing releases the lock
        return record

    def _seal(self, record: dict[str, object], key: bytes) -> bytes:
        record["key_id"] = key_id(key)
        record.pop("mac", None)
        record.pop("hash", None)
        record["mac"] = record_mac(key, record)
        record["hash"] = record_hash(record)
        line = (canonical(record) + "\n").encode("ascii")
        if len(line) > MAX_RECORD_BYTES:
            # Bounding keeps records far below this; a record still over it keeps only what
            # says what happened, never more than the bound.
            for name in ("intent", "facts"):
                if name in record and record[name] is not None:
                    record[name] = None
            decision = record.get("decision")
            if isinstance(decision, dict):
                decision["parts"] = []
                decision["trace"] = None
            notes = record.get("bounded")
            record["bounded"] = {**(notes if isinstance(notes, dict) else {}), "record": {}}
            record.pop("mac", None)
            record.pop("hash", None)
            record["mac"] = record_mac(key, record)
            record["hash"] = record_hash(record)
            line = (canonical(record) + "\n").encode("ascii")
        return line

    def _write(self, fd: int, line: bytes, end: int) -> None:
        written = os.write(fd, line)
        if written != len(line):
            # A short write (disk full): take the partial line back out, then fail.
            os.ftruncate(fd, end)
            raise LedgerError(
                f"cannot append to {self.path}: short write ({written} of {len(line)} bytes)"
            )

    def _not_durable(
        self, fd: int, end: int, record: dict[str, object], key: bytes, exc: OSError
    ) -> None:
        """The line could not be synced: take it out, record the failure instead (best
        effort), and make the caller block -- the ledger must not say the call was allowed."""
        from clearance.engine.decision import failure
        from clearance.vocab import TOOL_KINDS

        os.ftruncate(fd, end)
        original = record.get("decision")
        recorded: dict[str, object] = original if isinstance(original, dict) else {}
        verdict = recorded.get("decision")
        reason = (
            f"the decision ({verdict}) could not be made durable in the audit ledger "
            f"({exc.strerror or exc}): the call was blocked"
        )
        kind = recorded.get("tool_kind")
        failed = failure(  # in place of the recorded decision: its id, time and subject kept
            "internal_error",
            reason,
            tool=_text_of(recorded, "tool"),
            tool_kind=kind if kind in TOOL_KINDS else "",
            subject=_text_of(recorded, "subject"),
            digest=_text_of(recorded, "policy_digest"),
            decision_id=_text_of(recorded, "decision_id"),
            time=_text_of(recorded, "time"),
        )
        record["decision"] = failed.to_dict()
        record["not_durable"] = {"decision": verdict, "error": str(exc.strerror or exc)}
        line = self._seal(record, key)
        try:
            self._write(fd, line, end)
            _sync(fd)
            self._write_head(record, line, key)
        except (OSError, LedgerError):
            try:  # noqa: SIM105
                os.ftruncate(fd, end)
            except OSError:
                pass
        raise LedgerError(f"cannot append to {self.path}: {reason}")

    def _fix_unterminated(
        self,
        fd: int,
        end: int,
        size: int,
        last: bytes | None,
        key: bytes,
        record: dict[str, object],
        findings: list[dict[str, object]],
    ) -> tuple[int, bytes | None]:
        """The file does not end with a newline. A whole, valid record there lost its newline
        (it is kept, and a finding recorded if the head had named it); anything else is a torn
        line, cut."""
        if size - end <= MAX_RECORD_BYTES:
            fragment = os.pread(fd, size - end, end)
            parsed = _parse(fragment)
            if parsed is not None and _hash_ok(parsed) and _mac_ok(key, parsed):
                os.write(fd, b"\n")
                head = self._read_head(key)
                if isinstance(head, dict) and head.get("line") == sha256_text(fragment):
                    findings.append(
                        {
                            "kind": "newline_removed",
                            "message": f"record {parsed.get('seq')} had been written whole "
                            "and its newline was removed afterwards",
                            "offset": size,
                        }
                    )
                else:
                    record["repaired"] = {"offset": size, "newline": True, "dropped_bytes": 0}
                return size + 1, fragment
        record["repaired"] = _repair(fd, end, size, self.path)
        return end, last

    def _read_head(self, key: bytes) -> dict[str, object] | str | None:
        """The head, ``None`` when there is none, or why it cannot be trusted."""
        try:
            raw = read_file(self.head_path, limit=4096, owned=True)
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"the head file cannot be read ({exc})"
        head = _parse(raw.strip())
        if head is None:
            return "the head file is not a JSON object"
        mac = head.get("mac")
        expected = head_mac(key, head.get("seq"), head.get("hash"), head.get("line"))
        if not isinstance(mac, str) or not compare_digest(mac, expected):
            return "the head file's MAC does not verify (written without the key)"
        if not _is_head_seq(head.get("seq")):
            return "the head file names no valid seq"
        return head

    def _check_head(
        self, key: bytes, last: bytes | None, previous: dict[str, object] | None
    ) -> list[dict[str, object]]:
        head = self._read_head(key)
        if head is None:
            if last is None:
                # A new ledger: its head exists before its first record does, so that a
                # missing head is always evidence (a crash cannot explain it).
                self._write_genesis_head(key)
                return []
            return [
                {
                    "kind": "head_missing",
                    "message": "the head file was missing although the ledger holds records: "
                    "records cut off the end could not be checked",
                }
            ]
        if isinstance(head, str):
            return [{"kind": "head_forged", "message": head}]
        head_seq = head["seq"]
        assert isinstance(head_seq, int)
        if last is None:
            if head_seq < 0:
                return []  # the genesis head: nothing was written yet
            return [
                {
                    "kind": "truncated",
                    "message": f"the head named record {head_seq} but the ledger was empty: "
                    f"records 0..{head_seq} were removed",
                    "head_seq": head_seq,
                }
            ]
        tail_seq = previous.get("seq") if previous is not None else None
        line = sha256_text(last)
        if not _is_seq(tail_seq):
            return [
                {
                    "kind": "head_mismatch",
                    "message": "the ledger's last line is not a record clearance wrote",
                    "head_seq": head_seq,
                }
            ]
        assert isinstance(tail_seq, int) and previous is not None
        if head_seq == tail_seq and head.get("line") == line:
            return []
        if head_seq == tail_seq - 1 and head.get("line") == previous.get("prev"):
            return []  # a crash between an append and its head update
        if head_seq > tail_seq:
            kind, what = "truncated", f"records {tail_seq + 1}..{head_seq} were cut off the end"
        elif head_seq < tail_seq:
            kind, what = "head_lag", f"the head lagged {tail_seq - head_seq} records behind"
        else:
            kind, what = "head_mismatch", f"record {tail_seq} was replaced"
        return [
            {
                "kind": kind,
                "message": f"the head named record {head_seq}, the ledger ended with record "
                f"{tail_seq}: {what}",
                "head_seq": head_seq,
                "tail_seq": tail_seq,
            }
        ]

    def _write_genesis_head(self, key: bytes) -> None:
        body = {
            "seq": -1,
            "hash": GENESIS,
            "line": GENESIS,
            "mac": head_mac(key, -1, GENESIS, GENESIS),
        }
        try:
            write_atomic(
                self.head_path,
                (json.dumps(body, sort_keys=True) + "\n").encode("ascii"),
                durable=True,
            )
        except OSError as exc:
            raise LedgerError(f"cannot create the head file {self.head_path}: {exc}") from None

    def _write_head(self, record: dict[str, object], line: bytes, key: bytes) -> None:
        seq, hash_ = record["seq"], record["hash"]
        line_sha = sha256_text(line.rstrip(b"\n"))
        body = {
            "seq": seq,
            "hash": hash_,
            "line": line_sha,
            "mac": head_mac(key, seq, hash_, line_sha),
        }
        try:
            write_atomic(self.head_path, (json.dumps(body, sort_keys=True) + "\n").encode("ascii"))
        except OSError:
            # The record itself is durable; the next append finds the stale head and records
            # the lag, and verify says when the head is behind.
            return


def _sync(fd: int) -> None:
    """Data (and the file size) on disk: ``fdatasync`` where there is one -- what an append
    needs, without flushing timestamps too."""
    sync = getattr(os, "fdatasync", os.fsync)
    sync(fd)


def _tail(fd: int, size: int) -> tuple[int, bytes | None]:
    """``(end, last)``: ``end`` is the offset just past the last newline (0 if none), ``last``
    the last complete line without its newline (``None`` when there is none).

    Linear in the bytes read: chunks are collected and joined once. A last line longer than
    :data:`MAX_RECORD_BYTES` (plus a torn tail of as much) is not one clearance wrote: the
    append is refused rather than reading an unbounded line.
    """
    if size == 0:
        return 0, None
    limit = 2 * MAX_RECORD_BYTES + _CHUNK
    chunks: list[bytes] = []
    position = size
    end = -1
    while position > 0:
        step = min(_CHUNK, position)
        position -= step
        chunk = os.pread(fd, step, position)
        chunks.append(chunk)
        at = chunk.rfind(b"\n")
        if end < 0:
            if at >= 0:
                end = position + at + 1
                # look for the newline before that one in the same chunk
                before = chunk.rfind(b"\n", 0, at)
                if before >= 0:
                    break
        elif at >= 0:
            break
        if size - position > limit:
            raise LedgerError(
                f"the last line of the ledger is over {limit} bytes: not a record clearance "
                "wrote (move the ledger aside to start a new one)"
            )
    if end < 0:
        if size > MAX_RECORD_BYTES:
            raise LedgerError(
                f"the ledger holds {size} bytes without a newline: not a ledger clearance wrote"
            )
        return 0, None
    buffer = b"".join(reversed(chunks))
    line_end = end - 1 - position
    start = buffer.rfind(b"\n", 0, line_end)
    return end, buffer[start + 1 : line_end]


def _repair(fd: int, end: int, size: int, path: str) -> dict[str, object]:
    """Cut a torn last line (a writer died mid-append) and describe what was cut."""
    dropped = os.pread(fd, min(size - end, MAX_LINE_BYTES), end)
    os.ftruncate(fd, end)
    note: dict[str, object] = {
        "offset": end,
        "dropped_bytes": size - end,
        "dropped_sha256": sha256_text(dropped),
    }
    _log_warning("ledger_torn_line_repaired", path=path, **note)
    return note


def _is_seq(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_head_seq(value: object) -> bool:
    """A head names a record, or -1: the genesis head of a ledger with no record yet."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= -1


def _next_seq(fd: int, end: int, previous: dict[str, object] | None) -> int:
    seq = previous.get("seq") if previous is not None else None
    if _is_seq(seq):
        assert isinstance(seq, int)
        return seq + 1
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


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _parse(data: bytes) -> dict[str, object] | None:
    """A record: a JSON object (NaN and Infinity are not JSON), else ``None``."""
    try:
        parsed = json.loads(data, parse_constant=_reject_constant)
    except (ValueError, RecursionError, UnicodeDecodeError):
        return None
    if not isinstance(parsed, dict):
        return None
    return {str(k): v for k, v in parsed.items()}


def parse_record(data: bytes) -> dict[str, object] | None:
    """One ledger line as a record, or ``None`` (not a JSON object, NaN, too deep…)."""
    return _parse(data)


def _hash_ok(record: dict[str, object]) -> bool:
    stored = record.get("hash")
    try:
        return isinstance(stored, str) and stored == record_hash(record)
    except (ValueError, TypeError, RecursionError):
        return False


def _mac_ok(key: bytes | None, record: dict[str, object]) -> bool:
    mac = record.get("mac")
    if key is None or not isinstance(mac, str):
        return False
    try:
        return bool(compare_digest(mac, record_mac(key, record)))
    except (ValueError, TypeError, RecursionError):
        return False


def _log_warning(event: str, **fields: object) -> None:
    """Rare events (a repair, findings) on stderr, one ``key=value`` line in the shape of the
    structured logs elsewhere (``event`` first, then the fields, ``level``, ``timestamp``) --
    written with the standard library: this is the hook's path, where structlog's import would
    cost more than the whole call may take."""
    try:
        import sys
        from datetime import UTC, datetime

        now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
        pairs = {"event": event, **fields, "level": "warning", "timestamp": now}
        sys.stderr.write(" ".join(f"{key}={value!r}" for key, value in pairs.items()) + "\n")
        sys.stderr.flush()
    except Exception:
        return


# ---- reading ----------------------------------------------------------------------------------


class LedgerLine:
    """One raw line of a ledger: its position, bytes, and the record if it parses."""

    __slots__ = ("data", "index", "offset", "oversized", "record", "terminated")

    def __init__(
        self, index: int, offset: int, data: bytes, terminated: bool, oversized: bool = False
    ) -> None:
        self.index = index
        self.offset = offset
        self.data = data
        self.terminated = terminated
        self.oversized = oversized
        self.record: dict[str, object] | None = None if oversized else _parse(data)


def open_for_reading(path: str) -> int:
    """A descriptor on the ledger at ``path`` for reading: a regular file (a link to one is
    followed: reading is harmless), never a FIFO or device, which could block forever."""
    return open_file(path, os.O_RDONLY, owned=False, follow=True)


def read_lines(path: str) -> Iterator[LedgerLine]:
    """Every line of the ledger, the last one possibly torn (``terminated`` false). A line
    over :data:`MAX_LINE_BYTES` is skipped over and flagged ``oversized``, never held whole."""
    fd = open_for_reading(path)
    with os.fdopen(fd, "rb") as fh:
        offset = 0
        index = 0
        while True:
            raw = fh.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            start = offset
            offset += len(raw)
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                terminated = False
                while True:  # skip the rest of the line
                    more = fh.readline(_CHUNK)
                    offset += len(more)
                    if not more:
                        break
                    if more.endswith(b"\n"):
                        terminated = True
                        break
                yield LedgerLine(index, start, b"", terminated, oversized=True)
            else:
                terminated = raw.endswith(b"\n")
                yield LedgerLine(index, start, raw[:-1] if terminated else raw, terminated)
            index += 1


def read_records(path: str, *, validate: bool = False) -> Iterator[dict[str, object]]:
    """The records of a ledger, in order; unparseable and torn lines are skipped (``verify``
    reports them). With ``validate``, each record's decision must pass the pydantic schema
    (``clearance.engine.decision_schema.parse_decision``) or ``LedgerError`` is raised."""
    for line in read_lines(path):
        if line.record is None or not line.terminated:
            continue
        if validate:
            _validate(line)
        yield line.record


def _validate(line: LedgerLine) -> None:
    from pydantic import ValidationError

    from clearance.engine.decision_schema import parse_decision

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
    """What :func:`verify` found: ``ok``, the first bad record and its kind, findings, notes."""

    __slots__ = (
        "bad_index",
        "findings",
        "head",
        "kind",
        "message",
        "notes",
        "records",
        "repairs",
    )

    def __init__(self) -> None:
        self.records = 0
        self.bad_index: int | None = None
        self.kind: str | None = None
        self.message = ""
        #: ``(index, text)`` of records that say a torn line was cut before them.
        self.repairs: list[tuple[int, str]] = []
        #: ``(index, kind, text)``: tampering an append found and wrote into record ``index``.
        self.findings: list[tuple[int, str, str]] = []
        self.notes: list[str] = []
        self.head: dict[str, object] | None = None

    @property
    def ok(self) -> bool:
        return self.kind is None and not self.findings

    def fail(self, index: int, kind: str, message: str) -> VerifyResult:
        self.bad_index = index
        self.kind = kind
        self.message = message
        return self

    def to_dict(self) -> dict[str, object]:
        first = self.findings[0] if self.findings and self.kind is None else None
        return {
            "ok": self.ok,
            "records": self.records,
            "first_bad_record": first[0] if first else self.bad_index,
            "kind": first[1] if first else self.kind,
            "message": first[2] if first else self.message,
            "findings": [{"record": i, "kind": k, "message": m} for i, k, m in self.findings],
            "repairs": [{"record": i, "note": text} for i, text in self.repairs],
            "notes": self.notes,
        }


_NO_KEY: Final = b""


def verify(
    path: str,
    *,
    key: bytes | None = _NO_KEY,
    keyed: bool = True,
    env: Mapping[str, str] | None = None,
) -> VerifyResult:
    """Walk the chain from the first record; stop at the first bad one. Findings that appends
    wrote into records are collected along the way and keep the ledger from verifying.

    ``keyed`` (the default) checks every record's MAC with ``key`` (default: this user's
    ledger key); ``keyed=False`` checks the plain chain only, as anyone without the key can.
    Raises ``OSError`` when the file cannot be read at all (a missing ledger is not a
    verified empty one; a FIFO or device is refused).
    """
    result = VerifyResult()
    if keyed and key is _NO_KEY:
        try:
            key = load_key(env)
        except LedgerError as exc:
            result.notes.append(str(exc))
            key = None
    if not keyed:
        key = None
        result.notes.append("MACs not checked (plain chain only)")
    previous: LedgerLine | None = None
    seen_hashes: dict[str, int] = {}
    hashes: list[str] = []
    for line in read_lines(path):
        bad = _check_line(line, previous, seen_hashes, key, keyed, result)
        if bad is not None:
            return bad
        record = line.record
        assert record is not None
        stored = str(record["hash"])
        seen_hashes[stored] = line.index
        hashes.append(stored)
        previous = line
        result.records = line.index + 1
    return _check_head(path, result, hashes, previous, key, keyed)


def _check_line(
    line: LedgerLine,
    previous: LedgerLine | None,
    seen_hashes: dict[str, int],
    key: bytes | None,
    keyed: bool,
    result: VerifyResult,
) -> VerifyResult | None:
    index = line.index
    if line.oversized:
        return result.fail(
            index,
            "oversized",
            f"record {index} (byte {line.offset}) is over {MAX_LINE_BYTES} bytes: not a "
            "record clearance wrote",
        )
    if not line.terminated:
        return result.fail(
            index,
            "torn",
            f"record {index} (byte {line.offset}) is a torn line of {len(line.data)} bytes "
            "without its newline: a writer was killed mid-append (the next append cuts it), "
            "or its newline was removed (the next append records that)",
        )
    record = line.record
    if record is None:
        return result.fail(
            index, "unparseable", f"record {index} is not a JSON object (or holds NaN/Infinity)"
        )
    stored = record.get("hash")
    if not isinstance(stored, str) or not _hash_ok(record):
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
    if keyed:
        bad = _check_mac(index, record, key, result)
        if bad is not None:
            return bad
    repaired = record.get("repaired")
    if isinstance(repaired, dict):
        if repaired.get("newline"):
            text = (
                f"before record {index}, the previous record's missing newline was restored "
                "(a writer was killed just before it)"
            )
        else:
            text = (
                f"before record {index}, a torn line of {repaired.get('dropped_bytes')} bytes "
                f"at byte {repaired.get('offset')} was cut (a writer was killed mid-append)"
            )
        result.repairs.append((index, text))
    findings = record.get("findings")
    if isinstance(findings, list):
        for finding in findings:
            if isinstance(finding, dict):
                kind = str(finding.get("kind") or "finding")
                message = str(finding.get("message") or "")
                result.findings.append(
                    (index, kind, f"found before record {index} was written: {message}")
                )
    return None


def _check_mac(
    index: int, record: dict[str, object], key: bytes | None, result: VerifyResult
) -> VerifyResult | None:
    if not isinstance(record.get("mac"), str):
        return result.fail(
            index,
            "unauthenticated",
            f"record {index} carries no MAC: written without the ledger key (an older "
            "clearance, or forged with plain hashes)",
        )
    if key is None:
        return result.fail(
            index,
            "key_missing",
            f"record {index} is keyed but this user's ledger key is missing or unusable: the "
            "MACs cannot be checked (verify the plain chain with --plain)",
        )
    if not _mac_ok(key, record):
        named = record.get("key_id")
        other = (
            f" (it names key {named}, this user's is {key_id(key)})"
            if isinstance(named, str) and named != key_id(key)
            else ""
        )
        return result.fail(
            index,
            "forged",
            f"record {index}'s MAC does not verify{other}: edited or appended by someone "
            "without the ledger key, even though its plain hashes were recomputed",
        )
    return None


def _check_head(
    path: str,
    result: VerifyResult,
    hashes: list[str],
    last: LedgerLine | None,
    key: bytes | None,
    keyed: bool,
) -> VerifyResult:
    try:
        raw = read_file(path + HEAD_SUFFIX, limit=4096, owned=False, follow=True)
    except FileNotFoundError:
        if result.records and keyed:
            return result.fail(
                result.records,
                "head_missing",
                "no head file: records cut off the end of the ledger cannot be excluded",
            )
        if result.records:
            result.notes.append(
                "no head file: records cut off the end of the ledger cannot be detected"
            )
        return result
    except OSError as exc:
        if keyed:
            return result.fail(result.records, "head_forged", f"head file unusable ({exc})")
        result.notes.append(f"head file unreadable ({exc}): truncation cannot be checked")
        return result
    head = _parse(raw.strip())
    if head is None or not _is_head_seq(head.get("seq")):
        if keyed:
            return result.fail(result.records, "head_forged", "head file malformed")
        result.notes.append("head file malformed: truncation cannot be checked")
        return result
    if keyed and key is not None:
        mac = head.get("mac")
        expected = head_mac(key, head.get("seq"), head.get("hash"), head.get("line"))
        if not isinstance(mac, str) or not compare_digest(mac, expected):
            return result.fail(
                result.records,
                "head_forged",
                "the head file's MAC does not verify: it was written without the ledger key",
            )
    result.head = head
    head_seq = head["seq"]
    assert isinstance(head_seq, int)
    if head_seq >= result.records:
        return result.fail(
            result.records,
            "truncated",
            f"the head says record {head_seq} was written but the ledger ends after "
            f"{result.records} record(s): records {result.records}..{head_seq} were cut off",
        )
    if head_seq >= 0 and head.get("hash") != hashes[head_seq]:
        return result.fail(
            head_seq,
            "edited",
            f"record {head_seq} is not the one the head file names (edited and re-hashed, "
            "or the ledger was rewritten)",
        )
    lag = result.records - 1 - head_seq
    if lag == 1:
        result.notes.append(
            f"head names record {head_seq}, the ledger has {result.records}: the head "
            "lagged one record (a crash between append and head update)"
        )
    elif lag > 1:
        return result.fail(
            head_seq + 1,
            "head_lag",
            f"the head names record {head_seq} but the ledger has {result.records}: more "
            "records than a crash can explain were written without their head (appended "
            "by something else)",
        )
    return result
