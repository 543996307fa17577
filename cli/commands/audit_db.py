"""``clearance audit verify --db DSN``: every source's chain in the PostgreSQL store.

Exit status: 0 every chain verifies; 1 some source is broken (its first bad row is named);
2 the database cannot be reached or holds no clearance store.
"""

from __future__ import annotations

import json
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

EXIT_OK, EXIT_BROKEN, EXIT_USAGE = 0, 1, 2


def run_verify_db(
    dsn: str, *, as_json: bool = False, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    try:
        import psycopg

        from clearance.service.dbverify import verify_store
    except ImportError as exc:
        err.write(f"clearance audit: --db needs the server extra ({exc.name})\n")
        return EXIT_USAGE
    try:
        with psycopg.connect(dsn, connect_timeout=10) as conn:
            checks = verify_store(conn)
    except psycopg.errors.UndefinedTable:
        err.write("clearance audit: the database holds no clearance store (no table sources)\n")
        return EXIT_USAGE
    except psycopg.Error as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        err.write(f"clearance audit: cannot read the store: {first}\n")
        return EXIT_USAGE
    broken = [c for c in checks if not c.ok]
    if as_json:
        body = {"ok": not broken, "sources": [c.to_dict() for c in checks]}
        out.write(json.dumps(body) + "\n")
    else:
        for check in checks:
            where = f"{check.machine} {check.ledger}"
            if check.ok:
                out.write(f"OK  {where}: {check.rows} row(s), hash chain intact\n")
                continue
            bad = check.bad or {}
            out.write(
                f"BROKEN  {where}: first bad row seq {bad.get('seq')} (id {bad.get('id')}, "
                f"decision_id {bad.get('decision_id')}, {bad.get('kind')})\n"
                f"  {bad.get('message')}\n"
            )
        total = sum(c.rows for c in checks)
        out.write(f"{len(checks)} source(s), {total} row(s) verified, {len(broken)} broken\n")
    return EXIT_BROKEN if broken else EXIT_OK
