"""The runner's diagnostics: structlog, one JSON object a line, on stderr.

What the event log cannot say about itself goes here: the log could not be written (a full
disk), a bug ended the run (with its traceback), the policy failed to load, the provider failed
or is retried, how the run ended. The event log stays the record of the run; these lines are
for whoever operates it. ``CLEARANCE_LOG_LEVEL`` (``debug``, ``info``, ``warning`` -- the
default --, ``error``) filters them; a plain run that ends well prints none.

Small composable processors (level filter, level, ISO timestamp in UTC, the run id bound by the
core, tracebacks) ahead of the JSON renderer. Never imported on the hook path: only the runner
(``clearance run``) uses it.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import structlog

ENV = "CLEARANCE_LOG_LEVEL"
_LEVELS = {"debug": 10, "info": 20, "warning": 30, "error": 40}


def _threshold(env: os._Environ[str] | dict[str, str] | None = None) -> int:
    text = (env if env is not None else os.environ).get(ENV, "warning").strip().lower()
    return _LEVELS.get(text, _LEVELS["warning"])


def logger(run_id: str | None = None, *, file: Any = None) -> Any:
    """A logger for one run (``run_id`` bound to every line), writing to ``file`` (default:
    stderr) what passes the level set by ``CLEARANCE_LOG_LEVEL``."""
    wrapped = structlog.wrap_logger(
        structlog.PrintLogger(file=file if file is not None else sys.stderr),
        wrapper_class=structlog.make_filtering_bound_logger(_threshold()),
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
    )
    return wrapped.bind(component="runner", **({"run_id": run_id} if run_id else {}))
