"""``clearance audit verify --db DSN``: every source's chain in the PostgreSQL store.

Exit status: 0 every chain verifies; 1 some source is broken (its first bad row is named);
2 the database cannot be reached or holds no clearance store.
"""

from __future__ import annotations

import json
import sys

from clearance.vocab import AuditExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO


EXIT_OK, EXIT_BROKEN, EXIT_USAGE = AuditExit.OK, AuditExit.BROKEN, AuditExit.USAGE


def run_verify_db(
    dsn: str, *, as_json: bool = False, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    from clearance.cli.commands.store_db import on_store
    from clearance.service.dbverify import verify_store

    out, err = out or sys.stdout, err or sys.stderr
    checks = on_store("audit", dsn, verify_store, err)
    if checks is None:
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
