"""The org-scale half of clearance: the HTTP decision service and the PostgreSQL audit store.

Modules (one concept each):

- ``errors``: the closed set of reason codes of the service's own error answers.
- ``policy``: the policy in force -- loaded at start, watched, hot-reloaded keeping the last good.
- ``metrics``: counters shared by every worker process, rendered as Prometheus text.
- ``app``: the ASGI application (``/v1/decide``, ``/v1/gate``, ``/v1/ledger``, ``/healthz``,
  ``/metrics``): authentication, bounded bodies, timeouts, JSON errors.
- ``server``: ``clearance serve`` -- binds the socket, runs N uvicorn worker processes, forwards
  SIGHUP, restarts a worker that dies.
- ``chain``: the plain sha256 chain of ledger records, checked on ingest and by verify.
- ``store``: the ``decisions`` table -- schema, migrations, ingest, verification (psycopg 3).
- ``ship``: ``clearance audit ship`` -- the client side of ``/v1/ledger``.
- ``dbreplay``: ``clearance replay --db`` -- the whole org's intents under a new policy.
- ``otlp``: decisions as OpenTelemetry log records over OTLP/HTTP (batched, never blocking).
- ``dbverify``: ``clearance audit verify --db`` -- every source's chain, first bad row named.
- ``logs``: structlog configuration of the service's structured logs.

May import: ``clearance`` (the version), ``clearance.vocab``, ``clearance.engine``, and
``clearance.hooks.gate`` (the gate's per-line code is what ``/v1/decide`` and ``/v1/gate``
answer with); plus the ``server`` extra's packages (uvicorn, psycopg,
opentelemetry-proto). Never the CLI.
Nothing on the hook path imports this package (the hook's own OTLP export is
``clearance.hooks.otlp``, stdlib only).
"""
