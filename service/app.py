"""The ASGI application of ``clearance serve``.

Endpoints:

- ``POST /v1/decide`` -- body: one intent ``{"tool", "input", "cwd"?, "id"?, "session_id"?}`` or
  a pre-tool hook payload of any supported agent. Answer: exactly the JSON object ``clearance
  gate`` writes for that line (``{"id", "line": 1, …ApprovalDecision}``); status 200, or 400
  when the body is not an intent (the decision is then ``deny``/``bad_input``).
- ``POST /v1/gate`` -- JSON Lines in, JSON Lines out, one decision per non-blank line, in order
  (``gate``'s own per-line code); the ``clearance-worst`` header says the strictest decision.
- ``POST /v1/ledger`` -- ``{"source": {"machine", "ledger", "host"?, "project"?, "user"?},
  "lines": [ledger line, …]}``: stored in PostgreSQL after the chain check
  (``clearance.service.store``); 409 names the first refused line, 503 when the database is
  down (nothing stored: ship again later). ``lines: []`` only asks for the source's head.
- ``GET /healthz`` -- liveness, and readiness of the policy and the ledger store: 200 when
  decisions can be answered (a down database does not stop decisions), 503 when not; with
  ``?ledger=required``, 503 also when the store is not ready.
- ``GET /metrics`` -- Prometheus text (``clearance.service.metrics``).

Every endpoint but ``/healthz`` needs ``Authorization: Bearer TOKEN`` when the server has a
token (compared in constant time): else 401. Bodies are bounded per endpoint and must arrive
within the body deadline; each decision has its own deadline (a late one is ``deny``). Every
error is ``{"error": {"status", "reason_code", "reason"}}`` -- a traceback only goes to the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from clearance.engine.digest import compare_digest, sha256_hex
from clearance.hooks.gate import MAX_LINE, decide_line, output_line
from clearance.service import logs
from clearance.service.errors import ServiceError
from clearance.service.metrics import WorkerMetrics
from clearance.service.policy import PolicyState

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.intents import ToolIntent
    from clearance.service.otlp import LogExporter
    from clearance.service.store import Store

    Receive = Callable[[], Awaitable[dict[str, Any]]]
    Send = Callable[[dict[str, Any]], Awaitable[None]]

#: Largest body per endpoint (bytes).
MAX_DECIDE = MAX_LINE
MAX_GATE = 64 * 1024 * 1024
MAX_LEDGER = 32 * 1024 * 1024
_MAX = {"decide": MAX_DECIDE, "gate": MAX_GATE, "ledger": MAX_LEDGER}
_ROUTES = {
    "/v1/decide": ("decide", "POST"),
    "/v1/gate": ("gate", "POST"),
    "/v1/ledger": ("ledger", "POST"),
    "/healthz": ("healthz", "GET"),
    "/metrics": ("metrics", "GET"),
}
_JSON = b"application/json"


class Options:
    """What ``clearance serve`` was told (the same in every worker)."""

    def __init__(
        self,
        *,
        policies: list[str] | None = None,
        cwd: str | None = None,
        token: str | None = None,
        dsn: str | None = None,
        otlp_endpoint: str | None = None,
        body_timeout: float = 30.0,
        decision_timeout: float = 10.0,
        reload_interval: float = 1.0,
    ) -> None:
        self.policies = policies
        self.cwd = os.path.abspath(cwd or os.getcwd())
        self.token = token
        self.dsn = dsn
        self.otlp_endpoint = otlp_endpoint
        self.body_timeout = body_timeout
        self.decision_timeout = decision_timeout
        self.reload_interval = reload_interval


class ServiceApp:
    def __init__(
        self,
        options: Options,
        metrics: WorkerMetrics,
        *,
        parent_pid: int | None = None,
        stop: Callable[[], None] | None = None,
    ) -> None:
        self.options = options
        self.metrics = metrics
        self.parent_pid = parent_pid
        self.stop = stop
        self.policy = PolicyState(options.policies, options.cwd)
        self._token_digest = (
            sha256_hex(options.token.encode()) if options.token is not None else None
        )
        self.store: Store | None = None
        self.exporter: LogExporter | None = None
        self._executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="decide")
        self._tasks: list[asyncio.Task[None]] = []
        self.log = logs.get()

    # ---- lifespan -----------------------------------------------------------------------

    async def startup(self) -> None:
        self._load("start")
        self.metrics.set_alive(True)
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signal.SIGHUP, self._load, "sighup")
        if self.options.dsn:
            from clearance.service.store import Store

            self.store = Store(self.options.dsn)
            await self.store.open()
            await self.store.ready()
            if self.store.last_error:
                self.log.warning("ledger_store_unavailable", error=self.store.last_error)
        if self.options.otlp_endpoint:
            from clearance import __version__
            from clearance.service.otlp import LogExporter

            self.exporter = LogExporter(
                self.options.otlp_endpoint,
                resource={
                    "service.name": "clearance",
                    "service.version": __version__,
                    "host.name": socket.gethostname(),
                },
                on_result=self.metrics.otlp,
            )
            self.exporter.start()
        self._tasks.append(asyncio.create_task(self._watch()))

    async def shutdown(self) -> None:
        self.metrics.set_alive(False)
        for task in self._tasks:
            task.cancel()
        if self.store is not None:
            await self.store.close()
        if self.exporter is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.exporter.shutdown)
        self._executor.shutdown(wait=False, cancel_futures=True)

    def _load(self, why: str) -> None:
        before = self.policy.digest
        ok = self.policy.load()
        self.metrics.reload(ok)
        if ok:
            self.metrics.set_digest(self.policy.digest)
            if self.policy.digest != before:
                self.log.info("policy_loaded", why=why, digest=self.policy.digest)
        else:
            self.log.error(
                "policy_reload_failed",
                why=why,
                error=self.policy.last_error,
                kept=self.policy.digest or None,
            )

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.options.reload_interval)
            if self.parent_pid is not None and os.getppid() != self.parent_pid:
                self.log.warning("supervisor_gone", parent=self.parent_pid)
                if self.stop is not None:
                    self.stop()
                return
            try:
                if self.policy.changed():
                    self._load("file_changed")
            except Exception:
                self.log.exception("policy_watch_failed")

    # ---- HTTP ---------------------------------------------------------------------------

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await self._lifespan(receive, send)
            return
        if kind != "http":
            return
        endpoint = "other"
        status = 500
        try:
            route = _ROUTES.get(scope["path"])
            if route is None:
                self._authorize(scope)
                raise ServiceError(404, "not_found", f"no endpoint {scope['path']!r}")
            endpoint, method = route
            if endpoint != "healthz":
                self._authorize(scope)
            if scope["method"] != method:
                raise ServiceError(
                    405, "method_not_allowed", f"{scope['path']} takes {method} only"
                )
            if endpoint == "healthz":
                status, body, ctype, headers = await self._healthz(scope)
            elif endpoint == "metrics":
                status, body = 200, self.metrics.shared.render().encode()
                ctype, headers = b"text/plain; version=0.0.4; charset=utf-8", []
            else:
                data = await self._body(scope, receive, _MAX[endpoint])
                if endpoint == "decide":
                    status, body, ctype, headers = await self._decide(data)
                elif endpoint == "gate":
                    status, body, ctype, headers = await self._gate(data)
                else:
                    status, body, ctype, headers = await self._ledger(data)
        except ServiceError as exc:
            status, body, ctype = exc.status, exc.body(), _JSON
            headers = [(b"www-authenticate", b"Bearer")] if exc.status == 401 else []
        except Exception:
            self.log.exception("request_failed", path=scope.get("path"))
            error = ServiceError(500, "internal_error", "internal error (logged by the server)")
            status, body, ctype, headers = 500, error.body(), _JSON, []
        self.metrics.request(endpoint, status)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", ctype),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", b"no-store"),
                    *headers,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    await self.startup()
                except Exception as exc:
                    self.log.exception("startup_failed")
                    await send({"type": "lifespan.startup.failed", "message": repr(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                try:
                    await self.shutdown()
                finally:
                    await send({"type": "lifespan.shutdown.complete"})
                return

    def _authorize(self, scope: dict[str, Any]) -> None:
        if self._token_digest is None:
            return
        given = b""
        for name, value in scope.get("headers", ()):
            if name == b"authorization":
                given = value
                break
        scheme, _, token = given.partition(b" ")
        if scheme.lower() != b"bearer" or not token.strip():
            raise ServiceError(401, "unauthorized", "a bearer token is required")
        # Compare digests: constant time, and the length of the secret is not revealed.
        digest = sha256_hex(token.strip())
        if not compare_digest(digest.encode(), self._token_digest.encode()):
            raise ServiceError(401, "unauthorized", "the bearer token is not valid")

    async def _body(self, scope: dict[str, Any], receive: Receive, limit: int) -> bytes:
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    raise ServiceError(400, "bad_request", "invalid Content-Length") from None
                if declared > limit:
                    raise ServiceError(
                        413, "body_too_large", f"the body is larger than {limit} bytes"
                    )
        chunks: list[bytes] = []
        size = 0
        deadline = time.monotonic() + self.options.body_timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                message = await asyncio.wait_for(receive(), timeout=max(remaining, 0.001))
            except TimeoutError:
                raise ServiceError(
                    408,
                    "request_timeout",
                    f"the body did not arrive within {self.options.body_timeout:g} s",
                ) from None
            if message["type"] == "http.disconnect":
                raise ServiceError(400, "bad_request", "the client went away mid-body")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise ServiceError(413, "body_too_large", f"the body is larger than {limit} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    # ---- decisions ----------------------------------------------------------------------

    def _decide_sync(
        self, raw: bytes | None, number: int
    ) -> tuple[ApprovalDecision, object, ToolIntent | None, str | None, float]:
        started = time.perf_counter()
        decision, ident, intent, agent, _ = decide_line(
            raw, number, self.options.cwd, self.policy.get
        )
        return decision, ident, intent, agent, time.perf_counter() - started

    async def _one(self, raw: bytes | None, number: int) -> tuple[ApprovalDecision, object]:
        from clearance.engine.decision import failure

        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor, self._decide_sync, raw, number)
        try:
            decision, ident, intent, agent, elapsed = await asyncio.wait_for(
                future, timeout=self.options.decision_timeout
            )
        except TimeoutError:
            decision = failure(
                "internal_error",
                f"line {number}: deciding took longer than the server's deadline "
                f"({self.options.decision_timeout:g} s)",
                digest=self.policy.digest,
            )
            ident, intent, agent, elapsed = None, None, None, self.options.decision_timeout
        self.metrics.decision(decision.decision, decision.reason_code, elapsed)
        if self.exporter is not None:
            user, host = _who(raw)
            self.exporter.emit_decision(decision, intent, agent=agent, user=user, host=host)
        return decision, ident

    async def _decide(self, data: bytes) -> tuple[int, bytes, bytes, list[tuple[bytes, bytes]]]:
        decision, ident = await self._one(data, 1)
        status = 200
        if decision.reason_code == "bad_input":
            status = 400
        elif decision.reason_code == "internal_error":
            status = 500
        body = output_line(decision, ident, 1)[:-1]  # (without its newline)
        return status, body, _JSON, [(b"clearance-decision", decision.decision.encode())]

    async def _gate(self, data: bytes) -> tuple[int, bytes, bytes, list[tuple[bytes, bytes]]]:
        out: list[bytes] = []
        worst = "allow"
        order = {"allow": 0, "ask": 1, "deny": 2}
        for number, line in enumerate(data.split(b"\n"), start=1):
            if not line.strip():
                continue
            raw = line if len(line) <= MAX_LINE else None
            decision, ident = await self._one(raw, number)
            if order[decision.decision] > order[worst]:
                worst = decision.decision
            out.append(output_line(decision, ident, number))
        return (
            200,
            b"".join(out),
            b"application/x-ndjson",
            [(b"clearance-worst", worst.encode())],
        )

    # ---- ledger -------------------------------------------------------------------------

    async def _ledger(self, data: bytes) -> tuple[int, bytes, bytes, list[tuple[bytes, bytes]]]:
        from clearance.service.store import MAX_BATCH, Source, StoreDown

        if self.store is None:
            raise ServiceError(
                503, "ledger_not_configured", "this server runs without --db: nothing is stored"
            )
        try:
            payload = json.loads(data)
        except (ValueError, RecursionError):
            raise ServiceError(400, "bad_request", "the body is not JSON") from None
        if not isinstance(payload, dict):
            raise ServiceError(400, "bad_request", "the body must be a JSON object")
        try:
            source = Source.from_dict(payload.get("source"))
        except ValueError as exc:
            raise ServiceError(400, "bad_request", str(exc)) from None
        lines = payload.get("lines")
        if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
            raise ServiceError(400, "bad_request", "'lines' must be a list of strings")
        if len(lines) > MAX_BATCH:
            raise ServiceError(413, "body_too_large", f"at most {MAX_BATCH} lines per request")
        try:
            result = await self.store.ingest(source, lines)
        except StoreDown as exc:
            self.log.warning("ledger_store_unavailable", error=str(exc))
            raise ServiceError(
                503, "ledger_unavailable", f"the ledger store is not available: {exc}"
            ) from None
        self.metrics.ledger("stored", result.stored)
        self.metrics.ledger("duplicate", result.duplicates)
        body = result.to_dict(source.source_id)
        if result.refusal is not None:
            _, _, error = result.refusal
            self.metrics.ledger("refused", result.received - result.stored - result.duplicates)
            raise ServiceError(409, error.reason_code, error.reason, extra=body)
        return 200, json.dumps(body).encode(), _JSON, []

    # ---- health -------------------------------------------------------------------------

    async def _healthz(
        self, scope: dict[str, Any]
    ) -> tuple[int, bytes, bytes, list[tuple[bytes, bytes]]]:
        policy = self.policy.status()
        ledger: dict[str, object] = {"configured": self.store is not None}
        ledger_ready = True
        if self.store is not None:
            ledger_ready = await self.store.ready()
            ledger["ready"] = ledger_ready
            ledger["error"] = self.store.last_error
        ready = bool(policy["ready"])
        strict = b"ledger=required" in scope.get("query_string", b"")
        status = 200 if ready and (ledger_ready or not strict) else 503
        body = {
            "live": True,
            "ready": ready and ledger_ready,
            "decisions_ready": ready,
            "policy": policy,
            "ledger": ledger,
            "pid": os.getpid(),
        }
        return status, json.dumps(body).encode(), _JSON, []


def _who(raw: bytes | None) -> tuple[str | None, str | None]:
    """The ``user`` and ``host`` a client named in its line (for the OTLP attributes)."""
    if raw is None:
        return None, None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    user, host = data.get("user"), data.get("host")
    return (
        user if isinstance(user, str) else None,
        host if isinstance(host, str) else None,
    )
