"""The org's PostgreSQL store, opened for a command's ``--db DSN`` (``audit verify``,
``replay``): one place says what a store that cannot be used looks like to the user."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TextIO, TypeVar

    T = TypeVar("T")


def on_store(command: str, dsn: str, work: Callable[[Any], T], err: TextIO) -> T | None:
    """``work(connection)`` on the store at ``dsn``; ``None`` after saying on ``err`` why it
    could not run: the server extra is not installed, or the store cannot be reached or read.
    Other exceptions of ``work`` pass through."""
    try:
        import psycopg
    except ImportError as exc:
        err.write(f"clearance {command}: --db needs the server extra ({exc.name})\n")
        return None
    try:
        with psycopg.connect(dsn, connect_timeout=10) as conn:
            return work(conn)
    except psycopg.errors.UndefinedTable:
        err.write(
            f"clearance {command}: the database holds no clearance store (no table sources)\n"
        )
    except psycopg.Error as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        err.write(f"clearance {command}: cannot read the store: {first}\n")
    return None
