"""``clearance serve``: the HTTP decision service (``clearance.service``; the ``server`` extra).

Exit status: 0 after a clean stop (SIGTERM, SIGINT); 2 on a usage error (a policy that does not
load, a non-loopback address without a token, an unreadable token file); 1 when it cannot
listen or its workers keep dying.
"""

from __future__ import annotations

import sys

from clearance.vocab import ServeExit


def run_serve(
    *,
    host: str,
    port: int,
    workers: int,
    policies: list[str] | None,
    dsn: str | None,
    token_file: str | None,
    otlp_endpoint: str | None,
    reload_interval: float = 1.0,
    body_timeout: float = 30.0,
    decision_timeout: float = 10.0,
) -> int:
    try:
        from clearance.service.app import Options
        from clearance.service.server import read_token, serve
    except ImportError as exc:
        sys.stderr.write(
            f"clearance serve: the server extra is not installed ({exc.name}); "
            "pip install 'clearance[server]'\n"
        )
        return ServeExit.USAGE
    for name, value in (("--body-timeout", body_timeout), ("--decision-timeout", decision_timeout)):
        if not 0 < value <= 3600:
            sys.stderr.write(f"clearance serve: {name} must be in (0, 3600] seconds\n")
            return ServeExit.USAGE
    if not 0.05 <= reload_interval <= 86400:
        sys.stderr.write("clearance serve: --reload-interval must be in [0.05, 86400] seconds\n")
        return ServeExit.USAGE
    token = None
    if token_file is not None:
        try:
            token = read_token(token_file)
        except ValueError as exc:
            sys.stderr.write(f"clearance serve: {exc}\n")
            return ServeExit.USAGE
    options = Options(
        policies=policies,
        token=token,
        dsn=dsn,
        otlp_endpoint=otlp_endpoint,
        reload_interval=reload_interval,
        body_timeout=body_timeout,
        decision_timeout=decision_timeout,
    )
    return serve(options, host=host, port=port, workers=workers)
