"""Reason codes of the service's own answers that are not decisions (closed set).

A decision's reason codes live in ``clearance.engine.decision``; a malformed intent sent to
``/v1/decide`` is still a decision (``deny``, ``bad_input``), exactly as ``gate`` writes it. The
codes here are for what never reaches the engine: authentication, sizes, routing, the store.
Every error answer is ``{"error": {"status", "reason_code", "reason"}}`` -- never a trace.
"""

from __future__ import annotations

import json

SERVICE_ERROR_CODES = {
    "unauthorized": "no bearer token, or not the server's token",
    "not_found": "no such endpoint",
    "method_not_allowed": "the endpoint does not take this HTTP method",
    "body_too_large": "the request body is larger than the endpoint accepts",
    "request_timeout": "the request head or body did not arrive within the deadline",
    "headers_too_large": "the request head (line and headers) is larger than the server reads",
    "bad_request": "the body is not what the endpoint reads (not JSON, wrong fields)",
    "unsupported_media_type": "the body's content type is not one the endpoint reads",
    "ledger_not_configured": "the server runs without --db: there is no store to ship to",
    "ledger_unavailable": "the database cannot be reached or failed; nothing was stored",
    "chain_broken": "a record does not link to the last stored record of its source",
    "chain_conflict": "a record has the seq of a stored one but is not that record",
    "record_invalid": "a ledger line is not a record (not JSON, bad hash, missing fields)",
    "duplicate_decision_id": "another source already stored a record with this decision_id",
    "internal_error": "a bug in the service (logged); nothing was decided or stored",
}


class ServiceError(Exception):
    """An error answer: HTTP status, reason code (from :data:`SERVICE_ERROR_CODES`), text."""

    def __init__(
        self, status: int, reason_code: str, reason: str, extra: dict[str, object] | None = None
    ) -> None:
        assert reason_code in SERVICE_ERROR_CODES, reason_code
        super().__init__(reason)
        self.status = status
        self.reason_code = reason_code
        self.reason = reason
        self.extra = extra or {}

    def body(self) -> bytes:
        error: dict[str, object] = {
            "status": self.status,
            "reason_code": self.reason_code,
            "reason": self.reason,
        }
        return json.dumps({"error": error, **self.extra}).encode()
