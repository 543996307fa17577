"""The run's event log: one JSON object per line, the single record of what happened.

Every stage of the run (model call, proposal, validation, approval, execution,
observation) is its own event, so a run can be re-read, re-decided or re-sent to a model
later without touching the world again. The core also projects its next model request
from these events, which keeps the log and the conversation from ever disagreeing.

Each event is written with one ``write`` on an ``O_APPEND`` descriptor while SIGINT and
SIGTERM are blocked, so Ctrl-C (or a kill) lands between events and never inside one; the
file is fsynced at the end of the run (and on interrupt) by whoever owns the run.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, get_args

from clearance.engine.decision import utc_now

EventType = Literal[
    "run.started",
    "model.request",
    "model.text",
    "model.finished",
    "tool_intent.proposed",
    "tool.validation",
    "tool.approval",
    "session.grant",
    "tool.execution.started",
    "tool.execution.completed",
    "tool.observation",
    "provider.error",
    "provider.retry",
    "run.finished",
]
EVENT_TYPES: tuple[str, ...] = get_args(EventType)

#: Why a run ended; `run.finished` always carries one.
RunEndReason = Literal[
    "final_answer",
    "turn_limit",
    "budget_limit",
    "interrupted",
    "provider_error",
    "policy_error",
    "internal_error",
]

#: Events about one intent; each must carry the `intent_id` it belongs to.
TOOL_STAGE_TYPES = frozenset(
    EVENT_TYPES[
        EVENT_TYPES.index("tool_intent.proposed") : EVENT_TYPES.index("tool.observation") + 1
    ]
)

#: Fields every event has; a stage cannot overwrite them.
HEADER = ("type", "run_id", "seq", "time")

Event = dict[str, object]
Listener = Callable[[Event], None]


class LogError(Exception):
    """An event log cannot be read, or is not an event log; the message says where."""


class LogWriteError(OSError):
    """An event could not be written (a full disk): the line was taken back whole, and the
    run cannot go on unrecorded."""


#: The signals that end a run; all are held back while an event is written.
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT})


@contextlib.contextmanager
def sigint_deferred() -> Iterator[None]:
    """Hold SIGINT, SIGTERM, SIGHUP and SIGQUIT back for the block; they are delivered
    right after. Used around each write so an interrupt can only fall between events.
    """
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:  # pragma: no cover - not POSIX
        yield
        return
    previous = mask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, previous)


class EventLog:
    """Append-only writer of one run's events, keeping them in memory as well.

    `seq` starts at 1 and grows by one per event; `listeners` see each event after it is
    on disk (the progress display is one), so nothing is shown that is not recorded. The
    file must not exist yet.
    """

    def __init__(
        self,
        path: Path,
        run_id: str,
        *,
        listeners: Sequence[Listener] = (),
        clock: Callable[[], str] = utc_now,
    ) -> None:
        self.path = path
        self.run_id = run_id
        self._listeners = list(listeners)
        self._clock = clock
        self._events: list[Event] = []
        path.parent.mkdir(parents=True, exist_ok=True)
        # O_EXCL: one file, one run. Appending a second run to an old log would make both
        # unreadable as runs; `FileExistsError` tells the caller to pick another name.
        self._fd: int | None = os.open(
            path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644
        )

    @property
    def events(self) -> Sequence[Event]:
        """Every event emitted so far, in order."""
        return self._events

    @property
    def closed(self) -> bool:
        return self._fd is None

    def emit(self, type: EventType, **fields: object) -> Event:
        """Record one event and return it; the header fields are filled in here."""
        if type not in EVENT_TYPES:
            raise ValueError(f"unknown event type {type!r}")
        clash = [name for name in HEADER if name in fields]
        if clash:
            raise ValueError(f"{type}: fields {clash} are set by the log itself")
        if type in TOOL_STAGE_TYPES and not fields.get("intent_id"):
            raise ValueError(f"{type}: a tool-stage event needs its intent_id")
        if self._fd is None:
            raise ValueError(f"{type}: the event log {self.path} is closed")
        event: Event = {
            "type": type,
            "run_id": self.run_id,
            "seq": len(self._events) + 1,
            "time": self._clock(),
            **fields,
        }
        data = (json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        with sigint_deferred():
            _append(self._fd, data, self.path)
            self._events.append(event)
        for listener in self._listeners:
            listener(event)
        return event

    def sync(self) -> None:
        """Force what was written onto the disk."""
        if self._fd is not None:
            os.fsync(self._fd)

    def close(self) -> None:
        """fsync and close; emitting afterwards is an error."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    """One `write` in practice; loops only if the kernel accepts part of it."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _append(fd: int, data: bytes, path: Path) -> None:
    """Write one whole event line or none: a write that fails part-way (no space left) is
    cut back to where the line began, so the log never ends in a torn line."""
    start = os.fstat(fd).st_size
    try:
        _write_all(fd, data)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, start)
        raise LogWriteError(
            exc.errno, f"cannot write the event log {path}: {exc.strerror or exc}"
        ) from None


@dataclass
class LogContents:
    """What a log file holds; `torn_tail` is set when the last line was cut off."""

    events: list[Event] = field(default_factory=list)
    torn_tail: bool = False

    @property
    def run_id(self) -> str:
        return str(self.events[0].get("run_id", "")) if self.events else ""

    def of_type(self, type: EventType) -> list[Event]:
        return [event for event in self.events if event.get("type") == type]

    def first(self, type: EventType) -> Event | None:
        found = self.of_type(type)
        return found[0] if found else None


def read_events(path: Path) -> LogContents:
    """Read an event log back; a last line without its newline (a killed writer) is skipped
    and reported, anything else malformed raises `LogError` naming the line."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LogError(f"{path}: cannot read the event log: {exc.strerror or exc}") from exc
    contents = LogContents()
    lines = raw.split(b"\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        last = number == len(lines)
        try:
            event = json.loads(line)
        except ValueError as exc:
            if last:
                contents.torn_tail = True
                break
            raise LogError(f"{path}:{number}: not a JSON object: {exc}") from exc
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise LogError(f"{path}:{number}: not an event (no `type`)")
        contents.events.append(event)
    if not contents.events:
        raise LogError(f"{path}: no events: is this a clearance run log?")
    return contents
