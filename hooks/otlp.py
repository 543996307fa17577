"""OTLP export from the hook: ``CLEARANCE_OTLP_ENDPOINT=URL`` on the agent's environment.

The hook is one process per tool call, stdlib-only and cold-start bound, so it cannot carry
the server's batching exporter. Instead, after the answer is written, :func:`export_detached`
forks: the parent goes on to exit at once (the agent reads its answer as before, no slower),
and the child -- stdin/stdout/stderr pointed at ``/dev/null`` first, so the agent's pipes see
EOF, in a session of its own -- POSTs the one log record as OTLP/HTTP with the JSON encoding
of the protobuf messages (``application/json``, which every collector accepts; no protobuf
import), with a 2-second timeout, and exits. Nothing the child does can change the hook's exit
status or output; a collector that is down costs the child, never the decision.

The record carries the same attributes as the server's exporter (``clearance.service.otlp``),
with ``user.name`` and ``host.name`` of this machine.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.engine.decision import ApprovalDecision

ENV: Final = "CLEARANCE_OTLP_ENDPOINT"
_SEVERITY: Final = {"allow": (9, "INFO"), "ask": (13, "WARN"), "deny": (13, "WARN")}


def request_body(
    decision: ApprovalDecision, agent: str, user: str | None, host: str | None, now_ns: int
) -> bytes:
    from clearance import __version__
    from clearance.engine.telemetry import decision_attributes

    attributes = decision_attributes(decision, agent=agent, user=user, host=host)

    def kv(values: dict[str, str]) -> list[dict[str, object]]:
        return [{"key": k, "value": {"stringValue": v}} for k, v in values.items()]

    number, text = _SEVERITY.get(decision.decision, (13, "WARN"))
    subject = " ".join(decision.subject.split())[:200]
    rule = decision.policy_id or decision.reason_code
    record = {
        "timeUnixNano": str(now_ns),
        "observedTimeUnixNano": str(now_ns),
        "severityNumber": number,
        "severityText": text,
        "body": {"stringValue": f"{decision.decision} {rule}: {subject}"},
        "attributes": kv(attributes),
        "eventName": "clearance.decision",
    }
    resource = {"service.name": "clearance", "service.version": __version__}
    if host:
        resource["host.name"] = host
    body = {
        "resourceLogs": [
            {
                "resource": {"attributes": kv(resource)},
                "scopeLogs": [
                    {"scope": {"name": "clearance", "version": __version__}, "logRecords": [record]}
                ],
            }
        ]
    }
    return json.dumps(body).encode()


def export_detached(decision: ApprovalDecision, agent: str, endpoint: str) -> None:
    """Fork a child that sends the record; returns at once in the caller (never raises)."""
    try:
        pid = os.fork()
    except OSError:
        return
    if pid != 0:
        return
    code = 0
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        os.setsid()
        import socket
        import time
        import urllib.request

        user = os.environ.get("USER") or os.environ.get("LOGNAME")
        body = request_body(decision, agent, user, socket.gethostname(), time.time_ns())
        url = endpoint.rstrip("/")
        url = url if url.endswith("/v1/logs") else url + "/v1/logs"
        request = urllib.request.Request(
            url, data=body, method="POST", headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=2) as response:
            response.read()
    except BaseException:
        code = 1
    finally:
        os._exit(code)
