"""The typer commands of the org-scale surfaces: ``serve`` and ``audit ship``.

Registered on ``clearance.cli.app``'s application when it is built (imported at its end);
``audit verify --db`` and ``replay --db`` are options of the existing commands there.
"""

from __future__ import annotations

from typing import Annotated

import typer

from clearance.cli.app import PolicyOption, app, audit_app


@app.command("serve")
def serve_command(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (loopback unless told).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port (0: any free one).")] = 8181,
    workers: Annotated[int, typer.Option("--workers", help="Worker processes.")] = 1,
    policy: PolicyOption = None,
    db: Annotated[
        str | None,
        typer.Option("--db", help="PostgreSQL DSN of the audit store (enables /v1/ledger)."),
    ] = None,
    token_file: Annotated[
        str | None,
        typer.Option("--token-file", help="File holding the bearer token clients must send."),
    ] = None,
    otlp_endpoint: Annotated[
        str | None,
        typer.Option("--otlp-endpoint", help="Export decisions as OTLP/HTTP logs to this URL."),
    ] = None,
    reload_interval: Annotated[
        float, typer.Option("--reload-interval", help="Seconds between policy file checks.")
    ] = 1.0,
    body_timeout: Annotated[
        float, typer.Option("--body-timeout", help="Seconds a request body may take to arrive.")
    ] = 30.0,
    decision_timeout: Annotated[
        float, typer.Option("--decision-timeout", help="Seconds one decision may take (deny).")
    ] = 10.0,
) -> None:
    """The HTTP decision service: /v1/decide, /v1/gate, /v1/ledger, /healthz, /metrics.

    Exit: 0 after SIGTERM/SIGINT, 2 on a usage or policy error, 1 if it cannot listen."""
    from clearance.cli.commands.serve import run_serve

    raise typer.Exit(
        run_serve(
            host=host,
            port=port,
            workers=workers,
            policies=policy,
            dsn=db,
            token_file=token_file,
            otlp_endpoint=otlp_endpoint,
            reload_interval=reload_interval,
            body_timeout=body_timeout,
            decision_timeout=decision_timeout,
        )
    )


@audit_app.command("ship")
def audit_ship_command(
    to: Annotated[str, typer.Option("--to", help="The clearance server's URL.")],
    ledger: Annotated[
        list[str] | None,
        typer.Option("--ledger", help="Ledger file to ship (repeatable; default: this project's)."),
    ] = None,
    token_file: Annotated[
        str | None,
        typer.Option("--token-file", help="Bearer token file (else $CLEARANCE_TOKEN)."),
    ] = None,
    batch: Annotated[int, typer.Option("--batch", help="Records per request.")] = 500,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds per request.")] = 30.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Send the ledger's records the server has not stored yet (idempotent, resumable).

    Exit: 0 all shipped; 1 the server or its database is down, or refused a record (the
    records stay here, ship again later); 2 usage error."""
    from clearance.cli.commands.audit_ship import run_ship

    raise typer.Exit(
        run_ship(
            to,
            ledgers=ledger,
            token_file=token_file,
            batch=batch,
            timeout=timeout,
            as_json=as_json,
        )
    )
