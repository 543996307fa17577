"""Decisions as OpenTelemetry log records, exported over OTLP/HTTP (protobuf), batched.

``emit`` only puts the record on a bounded queue and returns: a decision never waits for the
collector. A background thread sends batches (up to ``batch_size`` records, or whatever
arrived within ``interval`` seconds) as one ``ExportLogsServiceRequest`` POSTed to
``ENDPOINT/v1/logs`` (``Content-Type: application/x-protobuf``). A full queue drops the record
and a failed export drops its batch; both are counted (``clearance_otlp_log_records_total``),
never retried into the decision path.

Attributes follow OpenTelemetry's conventions where they exist: ``user.name``, ``host.name``,
``process.command_line`` (the command, for shell tools), ``session.id``; clearance's own are
``clearance.decision``, ``clearance.rule_id``, ``clearance.reason_code``,
``clearance.decision_id``, ``clearance.tool``, ``clearance.agent``,
``clearance.policy_digest``, ``clearance.risk``. The record's event name is
``clearance.decision``; the resource carries ``service.name`` = ``clearance``,
``service.version`` and the server's ``host.name``.
"""

from __future__ import annotations

import queue
import threading
import time
import urllib.error
import urllib.request

from clearance.engine.telemetry import decision_attributes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.intents import ToolIntent

EVENT_NAME = "clearance.decision"
_SEVERITY = {"allow": (9, "INFO"), "ask": (13, "WARN"), "deny": (13, "WARN")}

Item = tuple[int, str, str, dict[str, str]]


def logs_url(endpoint: str) -> str:
    """The OTLP/HTTP logs URL of a collector endpoint (``…/v1/logs`` added unless given)."""
    endpoint = endpoint.rstrip("/")
    return endpoint if endpoint.endswith("/v1/logs") else endpoint + "/v1/logs"


class LogExporter:
    def __init__(
        self,
        endpoint: str,
        *,
        resource: dict[str, str],
        batch_size: int = 512,
        interval: float = 1.0,
        queue_size: int = 8192,
        timeout: float = 5.0,
        on_result: Callable[[str, int], None] | None = None,
    ) -> None:
        self.url = logs_url(endpoint)
        self.resource = resource
        self.batch_size = batch_size
        self.interval = interval
        self.timeout = timeout
        self.on_result = on_result
        self._queue: queue.Queue[Item | None] = queue.Queue(queue_size)
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        # Import the protobuf messages here, once, not on the first decision.
        from opentelemetry.proto.collector.logs.v1 import logs_service_pb2  # noqa: F401

        self._thread = threading.Thread(target=self._run, name="otlp-export", daemon=True)
        self._thread.start()

    def emit_decision(
        self,
        decision: ApprovalDecision,
        intent: ToolIntent | None,
        *,
        agent: str | None = None,
        user: str | None = None,
        host: str | None = None,
    ) -> None:
        attributes = decision_attributes(
            decision,
            agent=agent,
            user=user,
            host=host,
            session_id=intent.session_id if intent is not None else None,
        )
        subject = " ".join(decision.subject.split())[:200]
        body = f"{decision.decision} {decision.policy_id or decision.reason_code}: {subject}"
        self.emit(time.time_ns(), decision.decision, body, attributes)

    def emit(self, time_ns: int, decision: str, body: str, attributes: dict[str, str]) -> None:
        """Queue one record; never blocks (a full queue drops it, counted)."""
        try:
            self._queue.put_nowait((time_ns, decision, body, attributes))
        except queue.Full:
            self._count("dropped", 1)

    def shutdown(self, timeout: float = 3.0) -> None:
        if self._thread is None:
            return
        try:
            self._queue.put(None, timeout=timeout)
        except queue.Full:
            return
        self._thread.join(timeout)

    def _count(self, result: str, n: int) -> None:
        if self.on_result is not None and n:
            try:
                self.on_result(result, n)
            except Exception:
                return

    def _run(self) -> None:
        batch: list[Item] = []
        deadline = time.monotonic() + self.interval
        stopping = False
        while not stopping:
            try:
                item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pass
            else:
                if item is None:
                    stopping = True
                else:
                    batch.append(item)
            if batch and (
                stopping or len(batch) >= self.batch_size or time.monotonic() >= deadline
            ):
                self._export(batch)
                batch = []
            if time.monotonic() >= deadline:
                deadline = time.monotonic() + self.interval

    def _export(self, batch: list[Item]) -> None:
        try:
            payload = self.encode(batch)
            request = urllib.request.Request(
                self.url,
                data=payload,
                method="POST",
                headers={"Content-Type": "application/x-protobuf"},
            )
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                response.read()
        except (OSError, urllib.error.URLError, ValueError):
            self._count("failed", len(batch))
            return
        self._count("exported", len(batch))

    def encode(self, batch: list[Item]) -> bytes:
        from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import (
            ExportLogsServiceRequest,
        )
        from opentelemetry.proto.common.v1.common_pb2 import (
            AnyValue,
            InstrumentationScope,
            KeyValue,
        )
        from opentelemetry.proto.logs.v1.logs_pb2 import LogRecord, ResourceLogs, ScopeLogs
        from opentelemetry.proto.resource.v1.resource_pb2 import Resource

        from clearance import __version__

        def kv(attributes: dict[str, str]) -> list[KeyValue]:
            return [KeyValue(key=k, value=AnyValue(string_value=v)) for k, v in attributes.items()]

        records = []
        for time_ns, decision, body, attributes in batch:
            number, text = _SEVERITY.get(decision, (13, "WARN"))
            records.append(
                LogRecord(
                    time_unix_nano=time_ns,
                    observed_time_unix_nano=time_ns,
                    severity_number=number,  # type: ignore[arg-type]
                    severity_text=text,
                    body=AnyValue(string_value=body),
                    attributes=kv(attributes),
                    event_name=EVENT_NAME,
                )
            )
        request = ExportLogsServiceRequest(
            resource_logs=[
                ResourceLogs(
                    resource=Resource(attributes=kv(self.resource)),
                    scope_logs=[
                        ScopeLogs(
                            scope=InstrumentationScope(name="clearance", version=__version__),
                            log_records=records,
                        )
                    ],
                )
            ]
        )
        return bytes(request.SerializeToString())
