"""The service's structured logs: structlog, one JSON object a line, on stderr.

Small composable processors (level, ISO timestamp, the worker's index and pid) ahead of the
JSON renderer. Exceptions are logged here with their traceback -- never sent to a client.
"""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping
from typing import Any

import structlog


def configure(worker: int | None = None) -> None:
    def _worker(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
        event.setdefault("pid", os.getpid())
        if worker is not None:
            event.setdefault("worker", worker)
        return event

    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            _worker,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )


def get() -> Any:
    return structlog.get_logger("clearance.service")
