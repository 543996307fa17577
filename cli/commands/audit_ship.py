"""``clearance audit ship --to URL``: the CLI over ``clearance.service.ship``.

Exit status: 0 when every record is stored on the server; 1 when the server or its database is
down, the token is refused, or a record is refused (nothing is lost: ship again later); 2 on a
usage error (no ledger, unreadable token file).
"""

from __future__ import annotations

import json
import os
import sys

from clearance.vocab import ShipExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO


EXIT_OK, EXIT_FAILED, EXIT_USAGE = ShipExit.OK, ShipExit.FAILED, ShipExit.USAGE


def token_from(token_file: str | None, env: dict[str, str] | None = None) -> str | None:
    """The token: ``--token-file`` (stripped), else ``$CLEARANCE_TOKEN``; raises ValueError."""
    if token_file is not None:
        from clearance.service.tokens import read_token_file

        return read_token_file(token_file)
    value = (env if env is not None else os.environ).get("CLEARANCE_TOKEN", "").strip()
    return value or None


def run_ship(
    url: str,
    *,
    ledgers: list[str] | None,
    token_file: str | None = None,
    batch: int = 500,
    timeout: float = 30.0,
    as_json: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    from clearance.cli.commands.audit import ledger_path
    from clearance.service.ship import ShipError, ShipResult, ship

    out, err = out or sys.stdout, err or sys.stderr
    if not url.startswith(("http://", "https://")):
        err.write("clearance audit ship: --to must be an http:// or https:// URL\n")
        return EXIT_USAGE
    if not 1 <= batch <= 5000:
        err.write("clearance audit ship: --batch must be between 1 and 5000\n")
        return EXIT_USAGE
    try:
        token = token_from(token_file)
    except ValueError as exc:
        err.write(f"clearance audit ship: {exc}\n")
        return EXIT_USAGE
    paths = ledgers or [ledger_path(None)]
    code = EXIT_OK
    results: list[dict[str, object]] = []
    for path in paths:
        result = ShipResult(os.path.abspath(path))
        try:
            ship(url, path, token=token, batch=batch, timeout=timeout, result=result)
        except ShipError as exc:
            entry = {**result.to_dict(), "ok": False, "error": exc.kind, "message": str(exc)}
            results.append(entry)
            err.write(f"clearance audit ship: {path}: {exc}; the records stay here\n")
            code = max(code, EXIT_USAGE if exc.kind == "local" else EXIT_FAILED)
            continue
        results.append({**result.to_dict(), "ok": True})
        if not as_json:
            out.write(
                f"shipped {result.ledger}: {result.stored} stored, {result.duplicates} "
                f"already there, server head seq {result.head}\n"
            )
    if as_json:
        out.write(json.dumps({"ledgers": results}) + "\n")
    return code
