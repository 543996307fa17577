"""OpenTelemetry export: every decision reaches an OTLP/HTTP receiver as a log record, decoded
here from the real protobuf messages (``ExportLogsServiceRequest``), with the attributes the
issue names; a collector that is down never slows or fails a decision."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from service_support import Server, free_port


class Receiver:
    def __init__(self) -> None:
        self.requests: list[ExportLogsServiceRequest] = []
        self.content_types: list[str] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                message = ExportLogsServiceRequest()
                if self.headers["Content-Type"] == "application/json":
                    json_format.Parse(body, message)  # OTLP/HTTP's JSON encoding
                else:
                    message.ParseFromString(body)
                receiver.requests.append(message)
                receiver.content_types.append(self.headers["Content-Type"])
                receiver.paths.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                return

        self.paths: list[str] = []
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def records(self) -> list[tuple[dict[str, str], dict[str, str], object]]:
        out = []
        for request in self.requests:
            for resource_logs in request.resource_logs:
                resource = {
                    kv.key: kv.value.string_value for kv in resource_logs.resource.attributes
                }
                for scope_logs in resource_logs.scope_logs:
                    for record in scope_logs.log_records:
                        attributes = {kv.key: kv.value.string_value for kv in record.attributes}
                        out.append((resource, attributes, record))
        return out

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver()
    yield made
    made.close()


def test_decisions_are_exported_as_otlp_log_records(
    serve: Callable[..., Server], policy: str, receiver: Receiver, tmp_path: Path
) -> None:
    server = serve("--policy", policy, "--otlp-endpoint", receiver.url)
    sent = []
    for command in ("ls -la", "rm -rf build", "curl x | sh"):
        _, got = server.post_json(
            "/v1/decide",
            {
                "tool": "Bash",
                "input": {"command": command},
                "cwd": str(tmp_path),
                "session_id": "sess-1",
                "user": "alice",
                "host": "laptop-7",
            },
        )
        sent.append(got)
    deadline = time.monotonic() + 15
    while len(receiver.records()) < 3:
        assert time.monotonic() < deadline, server.output()
        time.sleep(0.1)
    assert receiver.paths[0] == "/v1/logs"
    assert receiver.content_types[0] == "application/x-protobuf"
    records = receiver.records()
    by_id = {attrs["clearance.decision_id"]: (res, attrs, rec) for res, attrs, rec in records}
    for decision in sent:
        resource, attrs, record = by_id[decision["decision_id"]]
        assert resource["service.name"] == "clearance"
        assert attrs["clearance.decision"] == decision["decision"]
        assert attrs["clearance.rule_id"] == (decision["policy_id"] or "")
        assert attrs["clearance.reason_code"] == decision["reason_code"]
        assert attrs["process.command_line"] == decision["subject"]
        assert attrs["user.name"] == "alice" and attrs["host.name"] == "laptop-7"
        assert attrs["session.id"] == "sess-1"
        assert attrs["clearance.policy_digest"] == decision["policy_digest"]
        assert record.event_name == "clearance.decision"  # type: ignore[attr-defined]
        assert record.time_unix_nano > 0  # type: ignore[attr-defined]
    severities = {attrs["clearance.decision"]: rec.severity_text for _, attrs, rec in records}  # type: ignore[attr-defined]
    assert severities == {"allow": "INFO", "deny": "WARN", "ask": "WARN"}
    # Batched: three decisions in fewer requests than records is allowed, never more.
    assert len(receiver.requests) <= 3


def test_a_collector_that_is_down_does_not_fail_decisions(
    serve: Callable[..., Server], policy: str
) -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    server = serve("--policy", policy, "--otlp-endpoint", dead)
    for i in range(50):
        status, got = server.post_json(
            "/v1/decide", {"tool": "Bash", "input": {"command": f"ls {i}"}}
        )
        assert status == 200 and got["decision"] == "allow"
    deadline = time.monotonic() + 10
    while True:
        _, raw, _ = server.request("GET", "/metrics")
        if 'clearance_otlp_log_records_total{result="failed"} 50' in raw.decode():
            break
        assert time.monotonic() < deadline, raw.decode()
        time.sleep(0.2)


def _hook(
    policy: str, payload: Mapping[str, object], env: Mapping[str, str]
) -> subprocess.CompletedProcess[str]:
    """``clearance hook claude-code`` run in a process of its own on ``payload``, with
    ``policy`` and no ledger."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "clearance",
            "hook",
            "claude-code",
            "--policy",
            policy,
            "--no-ledger",
        ],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_the_hook_exports_after_its_answer_when_told(
    receiver: Receiver, policy: str, tmp_path: Path
) -> None:
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "cwd": str(tmp_path),
        "session_id": "s-9",
        "tool_use_id": "toolu_9",
        "tool_input": {"command": "rm -rf build"},
    }
    env = {
        **os.environ,
        "CLEARANCE_OTLP_ENDPOINT": receiver.url,
        "USER": "bob",
        "HOME": str(tmp_path),
    }
    result = _hook(policy, payload, env)
    answer = json.loads(result.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    deadline = time.monotonic() + 15
    while not receiver.records():
        assert time.monotonic() < deadline
        time.sleep(0.1)
    time.sleep(1.0)  # a second export (the worker's and the body's) would have arrived by now
    assert len(receiver.records()) == 1, "the decision is exported once"
    assert receiver.content_types == ["application/json"]
    resource, attrs, record = receiver.records()[0]
    assert resource["service.name"] == "clearance"
    assert attrs["clearance.decision"] == "deny"
    assert attrs["clearance.rule_id"] == "org/no-rm"
    assert attrs["clearance.reason_code"] == "rule_matched"
    assert attrs["process.command_line"] == "rm -rf build"
    assert attrs["user.name"] == "bob" and attrs["clearance.agent"] == "claude-code"
    assert record.event_name == "clearance.decision"  # type: ignore[attr-defined]


def test_the_hook_answers_the_same_when_the_collector_is_down(policy: str, tmp_path: Path) -> None:
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "cwd": str(tmp_path),
        "tool_use_id": "toolu_1",
        "tool_input": {"command": "ls"},
    }
    answers = []
    for endpoint in ("", f"http://127.0.0.1:{free_port()}"):
        env = {**os.environ, "CLEARANCE_OTLP_ENDPOINT": endpoint, "HOME": str(tmp_path)}
        result = _hook(policy, payload, env)
        decision_id = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")
        answers.append((result.returncode, decision_id.sub("ID", result.stdout), result.stderr))
    assert answers[0] == answers[1]
    assert answers[0][0] == 0 and '"allow"' in answers[0][1]
