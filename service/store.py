"""The audit store: one PostgreSQL table ``decisions``, one row a decision, every source's chain.

Schema (created and migrated by :func:`migrate`, under an advisory lock, so any number of
workers and replicas may start at once; the applied versions are in
``clearance_schema_migrations``):

``sources`` -- one row per source, a (machine, ledger file) pair: ``source_id`` (sha256 of the
two), ``machine``, ``host``, ``ledger``, ``project``, ``user_name``, and the chain head
(``last_seq``, ``last_hash``, ``last_line_sha256``), ``records``, ``first_seen``, ``last_seen``.

``decisions`` -- ``id`` (bigserial), ``decision_id`` (unique), ``source_id``, ``seq`` (unique
per source), ``time`` (the decision's), ``received_at``, ``machine``, ``host``, ``project``,
``user_name``, ``agent``, ``session_id``, ``surface``, ``tool``, ``subject``, ``decision``,
``rule_id``, ``reason_code``, ``policy_digest``, ``hash``, ``prev``, ``record`` (``jsonb``, the
record as the client's ledger holds it) and ``line`` (the exact line, kept only when ``record``
could not rebuild it byte for byte; see ``clearance.service.chain``).

Ingest verifies each batch against the last stored record of its source, in one transaction
that locks the source's row: records already stored (same seq, same hash) are duplicates and
are acknowledged, the rest must link; the first that does not is refused with a reason and
nothing after it is stored. Inserts are server-side prepared statements (``prepare_threshold``
0) sent in a pipeline (``executemany``).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import time
from dataclasses import KW_ONLY, asdict, dataclass
from typing import Any

from clearance.engine.digest import sha256_hex
from clearance.engine.ledger import GENESIS
from clearance.service.chain import ChainError, Parsed, links, storable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from psycopg import AsyncConnection, Connection
    from psycopg_pool import AsyncConnectionPool

#: Most lines one ``/v1/ledger`` request may carry.
MAX_BATCH = 5000
_SUBJECT_MAX = 4096
PROBE_INTERVAL = 1.0
BUSY_WAIT = 30.0
_LOCK_KEY = 0x636C6561  # "clea": the advisory lock migrations run under

MIGRATIONS: list[tuple[int, str]] = [
    (
        1,
        f"""
CREATE TABLE sources (
    source_id text PRIMARY KEY,
    machine text NOT NULL,
    host text,
    ledger text NOT NULL,
    project text,
    user_name text,
    last_seq bigint NOT NULL DEFAULT -1,
    last_hash text,
    last_line_sha256 text NOT NULL DEFAULT '{GENESIS}',
    records bigint NOT NULL DEFAULT 0,
    first_seen timestamptz NOT NULL DEFAULT now(),
    last_seen timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE decisions (
    id bigserial PRIMARY KEY,
    decision_id text NOT NULL UNIQUE,
    source_id text NOT NULL REFERENCES sources (source_id),
    seq bigint NOT NULL,
    time timestamptz,
    received_at timestamptz NOT NULL DEFAULT now(),
    machine text NOT NULL,
    host text,
    project text,
    user_name text,
    agent text,
    session_id text,
    surface text,
    tool text,
    subject text,
    decision text,
    rule_id text,
    reason_code text,
    policy_digest text,
    hash text NOT NULL,
    prev text NOT NULL,
    line text,
    record jsonb NOT NULL,
    UNIQUE (source_id, seq)
);
CREATE INDEX decisions_time ON decisions (time);
CREATE INDEX decisions_decision_rule ON decisions (decision, rule_id);
CREATE INDEX decisions_user_time ON decisions (user_name, time);
CREATE INDEX decisions_machine_project ON decisions (machine, project);
""",
    ),
]

_INSERT = (
    "INSERT INTO decisions (decision_id, source_id, seq, time, machine, host, project, "
    "user_name, agent, session_id, surface, tool, subject, decision, rule_id, reason_code, "
    "policy_digest, hash, prev, line, record) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, "
    "%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::text::jsonb)"
)


@dataclass(frozen=True, slots=True)
class Source:
    """Where a batch comes from: one ledger file on one machine; ``audit ship`` sends it as
    the ``source`` object of every ``POST /v1/ledger`` (``to_dict``), the server reads it
    back (``from_dict``)."""

    machine: str
    ledger: str
    _: KW_ONLY
    host: str | None = None
    project: str | None = None
    user: str | None = None

    @property
    def source_id(self) -> str:
        return sha256_hex(f"{self.machine}\0{self.ledger}".encode())[:32]

    def to_dict(self) -> dict[str, object]:
        """The ``source`` object of a request (a field that is not known left out)."""
        return {name: value for name, value in asdict(self).items() if value is not None}

    @classmethod
    def from_dict(cls, data: object) -> Source:
        if not isinstance(data, dict):
            raise ValueError("'source' must be an object")
        machine, ledger = data.get("machine"), data.get("ledger")
        if not isinstance(machine, str) or not machine or len(machine) > 512:
            raise ValueError("'source.machine' must be a non-empty string (at most 512)")
        if not isinstance(ledger, str) or not ledger or len(ledger) > 4096:
            raise ValueError("'source.ledger' must be a non-empty string (at most 4096)")
        extra: dict[str, str | None] = {}
        for name in ("host", "project", "user"):
            value = data.get(name)
            if value is not None and (not isinstance(value, str) or len(value) > 4096):
                raise ValueError(f"'source.{name}' must be a string")
            extra[name] = value
        return cls(machine, ledger, **extra)


class IngestResult:
    __slots__ = ("duplicates", "head_hash", "head_seq", "received", "refusal", "stored")

    def __init__(self, received: int) -> None:
        self.received = received
        self.stored = 0
        self.duplicates = 0
        self.head_seq = -1
        self.head_hash: str | None = None
        #: ``(index in the batch, seq or None, ChainError)`` of the first refused line.
        self.refusal: tuple[int, int | None, ChainError] | None = None

    def to_dict(self, source_id: str) -> dict[str, object]:
        out: dict[str, object] = {
            "source_id": source_id,
            "received": self.received,
            "stored": self.stored,
            "duplicates": self.duplicates,
            "head": {"seq": self.head_seq, "hash": self.head_hash},
        }
        if self.refusal is not None:
            index, seq, error = self.refusal
            out["refused"] = {
                "index": index,
                "seq": seq,
                "reason_code": error.reason_code,
                "reason": error.reason,
            }
        return out


def _text(value: object, limit: int = 4096) -> str | None:
    """A column's text: bounded, NUL and lone surrogates replaced (PostgreSQL text holds
    neither; the record keeps the original in ``line``)."""
    if not isinstance(value, str):
        return None
    return str(storable(value[:limit]))


def _time(value: object) -> datetime.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=datetime.UTC)
    return parsed


def row_of(parsed: Parsed, source: Source, source_id: str) -> tuple[object, ...]:
    record = parsed.record
    decision = record.get("decision")
    decision = decision if isinstance(decision, dict) else {}
    intent = record.get("intent")
    intent = intent if isinstance(intent, dict) else {}
    return (
        parsed.decision_id,
        source_id,
        parsed.seq,
        _time(record.get("time")),
        source.machine,
        _text(record.get("host")) or source.host,
        _text(record.get("workspace")) or source.project,
        _text(record.get("user")) or source.user,
        _text(record.get("agent")),
        _text(record.get("session_id")),
        _text(record.get("surface")),
        _text(intent.get("tool")) or _text(decision.get("tool")),
        _text(decision.get("subject"), _SUBJECT_MAX),
        _text(decision.get("decision")),
        _text(decision.get("policy_id")),
        _text(decision.get("reason_code")),
        _text(record.get("policy_digest")),
        parsed.hash,
        parsed.prev,
        parsed.exact_line,
        # The line is the record's JSON already: PostgreSQL parses it, no second encoding.
        parsed.line if parsed.stored_record is record else json.dumps(parsed.stored_record),
    )


async def migrate_async(conn: AsyncConnection[Any]) -> None:
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS clearance_schema_migrations ("
            "version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        cur = await conn.execute("SELECT version FROM clearance_schema_migrations")
        done = {int(row[0]) for row in await cur.fetchall()}
        for version, sql in MIGRATIONS:
            if version in done:
                continue
            await conn.execute(sql.encode(), prepare=False)
            await conn.execute(
                "INSERT INTO clearance_schema_migrations (version) VALUES (%s)", (version,)
            )


def migrate(conn: Connection[Any]) -> None:
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS clearance_schema_migrations ("
            "version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {
            int(row[0])
            for row in conn.execute("SELECT version FROM clearance_schema_migrations").fetchall()
        }
        for version, sql in MIGRATIONS:
            if version in done:
                continue
            conn.execute(sql.encode(), prepare=False)
            conn.execute(
                "INSERT INTO clearance_schema_migrations (version) VALUES (%s)", (version,)
            )


class Store:
    """The server's side of the store: a connection pool that may be down."""

    def __init__(self, dsn: str, *, max_size: int = 8) -> None:
        from psycopg_pool import AsyncConnectionPool

        self.dsn = dsn
        self.pool: AsyncConnectionPool = AsyncConnectionPool(
            dsn,
            min_size=2,
            max_size=max_size,
            open=False,
            kwargs={"prepare_threshold": 0, "connect_timeout": 3},
            reconnect_timeout=0,  # never give up reconnecting: the database comes back
            # A connection the database dropped (a restart) is found and replaced before use.
            check=AsyncConnectionPool.check_connection,
        )
        self.migrated = False
        self.last_error: str | None = None
        self._ready = False
        self._probe_conn: AsyncConnection[Any] | None = None
        self._probe_task: asyncio.Task[None] | None = None
        self._checking: asyncio.Future[None] | None = None

    async def open(self) -> None:
        await self.pool.open(wait=False)
        await self._probe()
        self._probe_task = asyncio.create_task(self._probe_loop())

    async def close(self) -> None:
        if self._probe_task is not None:
            self._probe_task.cancel()
        if self._probe_conn is not None:
            await self._probe_conn.close()
        await self.pool.close(timeout=2)

    async def _connection_ready(self, conn: AsyncConnection[Any]) -> None:
        if not self.migrated:
            await migrate_async(conn)
            self.migrated = True

    async def _probe(self) -> None:
        """One health check on a connection of its own (a busy pool is not a down database)."""
        import psycopg

        try:
            if self._probe_conn is None or self._probe_conn.closed:
                self._probe_conn = await psycopg.AsyncConnection.connect(
                    self.dsn, connect_timeout=3, autocommit=True
                )
            await asyncio.wait_for(self._probe_conn.execute("SELECT 1"), 3)
        except Exception as exc:
            self._ready = False
            self.last_error = _describe(exc)
            if self._probe_conn is not None:
                with contextlib.suppress(Exception):
                    await self._probe_conn.close()
            self._probe_conn = None
        else:
            self._ready = True
            self.last_error = None

    async def _probe_loop(self) -> None:
        while True:
            await asyncio.sleep(PROBE_INTERVAL)
            await self._check()

    async def _check(self) -> None:
        """A probe, shared by everyone who asks while it runs (one ``SELECT 1`` at a time)."""
        if self._checking is None or self._checking.done():
            self._checking = asyncio.ensure_future(self._probe())
        await asyncio.shield(self._checking)

    async def ready(self) -> bool:
        """Whether the database answers now: a probe for this question (shared with any
        already running), not the flag of the last one. The server has several workers, each
        with its own store; a flag one of them set when an ingest lost the database, or a
        probe up to a second old, would let another tell a load balancer "ready" for a
        database that is gone."""
        await self._check()
        return self._ready

    async def ingest(self, source: Source, lines: list[str]) -> IngestResult:
        """Store what links; raise ``StoreDown`` when the database cannot be used."""
        from psycopg_pool import PoolTimeout

        result = IngestResult(len(lines))
        parsed: list[Parsed] = []
        for index, line in enumerate(lines):
            try:
                parsed.append(Parsed(line))
            except ChainError as exc:
                result.refusal = (index, None, exc)
                break
        source_id = source.source_id
        # A busy pool is waited for (up to BUSY_WAIT); a database a probe finds down (a probe
        # now, when the last one found it down) is answered at once, so a client never waits
        # long to learn it must ship later.
        deadline = time.monotonic() + BUSY_WAIT
        while True:
            if not self._ready:
                await self._check()  # the flag may be older than the database's return
            if not self._ready:
                raise StoreDown(self.last_error or "the database does not answer")
            try:
                conn = await self.pool.getconn(timeout=1.0)
            except PoolTimeout:
                if time.monotonic() > deadline:
                    raise StoreDown("no database connection became free in time") from None
                continue
            break
        try:
            await self._connection_ready(conn)
            async with conn.transaction():
                await self._ingest(conn, source, source_id, parsed, result)
        except Exception as exc:
            import psycopg

            self.last_error = _describe(exc)
            if isinstance(exc, psycopg.OperationalError):
                # the database went away under this ingest: not ready until the next probe
                # answers (else /healthz says ready for up to PROBE_INTERVAL after a failure)
                self._ready = False
            raise StoreDown(self.last_error) from exc
        finally:
            await self.pool.putconn(conn)
        return result

    async def _ingest(
        self,
        conn: AsyncConnection[Any],
        source: Source,
        source_id: str,
        parsed: list[Parsed],
        result: IngestResult,
    ) -> None:
        await conn.execute(
            "INSERT INTO sources (source_id, machine, host, ledger, project, user_name) "
            "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (source_id) DO NOTHING",
            (source_id, source.machine, source.host, source.ledger, source.project, source.user),
        )
        cur = await conn.execute(
            "SELECT last_seq, last_line_sha256, last_hash FROM sources "
            "WHERE source_id = %s FOR UPDATE",
            (source_id,),
        )
        head = await cur.fetchone()
        assert head is not None
        last_seq, last_sha, last_hash = int(head[0]), str(head[1]), head[2]
        result.head_seq, result.head_hash = last_seq, last_hash
        overlap = [p.seq for p in parsed if p.seq <= last_seq]
        stored: dict[int, str] = {}
        if overlap:
            cur = await conn.execute(
                "SELECT seq, hash FROM decisions WHERE source_id = %s AND seq = ANY(%s)",
                (source_id, overlap),
            )
            stored = {int(r[0]): str(r[1]) for r in await cur.fetchall()}
        accepted: list[tuple[int, Parsed]] = []
        prev_seq, prev_sha = last_seq, last_sha
        for index, p in enumerate(parsed):
            if p.seq <= last_seq:
                if stored.get(p.seq) == p.hash:
                    result.duplicates += 1
                    continue
                result.refusal = (
                    index,
                    p.seq,
                    ChainError(
                        "chain_conflict",
                        f"record seq {p.seq} differs from the record stored at that seq for "
                        "this source (the ledger was rewritten, or another file is shipped "
                        "under the same name)",
                    ),
                )
                break
            why = links(prev_seq, prev_sha, p)
            if why is not None:
                result.refusal = (index, p.seq, ChainError("chain_broken", why))
                break
            accepted.append((index, p))
            prev_seq, prev_sha = p.seq, p.line_sha
        if accepted:
            cur = await conn.execute(
                "SELECT decision_id FROM decisions WHERE decision_id = ANY(%s)",
                ([p.decision_id for _, p in accepted],),
            )
            taken = {str(r[0]) for r in await cur.fetchall()}
            if taken:
                for position, (index, p) in enumerate(accepted):
                    if p.decision_id in taken:
                        result.refusal = (
                            index,
                            p.seq,
                            ChainError(
                                "duplicate_decision_id",
                                f"record seq {p.seq}: decision_id {p.decision_id} is already "
                                "stored for another source",
                            ),
                        )
                        accepted = accepted[:position]
                        break
        if accepted:
            rows = [row_of(p, source, source_id) for _, p in accepted]
            async with conn.cursor() as insert:
                await insert.executemany(_INSERT, rows)
            last = accepted[-1][1]
            await conn.execute(
                "UPDATE sources SET last_seq = %s, last_hash = %s, last_line_sha256 = %s, "
                "records = records + %s, last_seen = now(), "
                "project = COALESCE(%s, project), user_name = COALESCE(%s, user_name), "
                "host = COALESCE(%s, host) WHERE source_id = %s",
                (
                    last.seq,
                    last.hash,
                    last.line_sha,
                    len(accepted),
                    source.project,
                    source.user,
                    source.host,
                    source_id,
                ),
            )
            result.stored = len(accepted)
            result.head_seq, result.head_hash = last.seq, last.hash


class StoreDown(Exception):
    """The database could not be used; nothing of the batch was stored."""


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(exc).__name__}: {first}"[:300]
