"""A provider that plays back a script: the embedded default for demos and tests.

It needs no network and no model, and it is deterministic: the N-th request gets the
N-th turn, and call ids are `call_<turn>_<index>`. A turn can simulate a failure, so the
core's retry logic can be exercised without a flaky server. The script is validated up
front and every error names the file and the path inside it (`turns[2].tool_calls[0]…`).

Script (YAML or JSON)::

    turns:
      - text: "Let me look."
        tool_calls:
          - tool: bash
            input: {command: "ls"}
      - error: {kind: rate_limit, retry_after: 0.01}
      - text: "Done."
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Self

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .errors import provider_error
from .types import (
    ErrorKind,
    Finished,
    FinishReason,
    ModelRequest,
    ProviderEvent,
    ProviderFailure,
    TextDelta,
    ToolCall,
    ToolCallProposed,
)


class ScriptError(ValueError):
    """The script cannot be read or does not validate; the message says where."""


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ScriptedToolCall(_Strict):
    """One tool call the scripted model proposes."""

    tool: str = Field(min_length=1)
    input: dict[str, object] = Field(default_factory=dict)


class ScriptedError(_Strict):
    """A simulated failure; `retryable` defaults to what the kind implies."""

    kind: ErrorKind
    message: str = "scripted failure"
    retry_after: float | None = Field(default=None, ge=0)
    status: int | None = None
    retryable: bool | None = None


class ScriptedTurn(_Strict):
    """The answer to one request: text, tool calls, or a failure (after optional text)."""

    text: str | None = None
    tool_calls: list[ScriptedToolCall] = Field(default_factory=list)
    error: ScriptedError | None = None

    @model_validator(mode="after")
    def _meaningful(self) -> Self:
        if self.error is not None and self.tool_calls:
            raise ValueError("a turn with `error` cannot also propose `tool_calls`")
        if self.text is None and not self.tool_calls and self.error is None:
            raise ValueError("a turn needs `text`, `tool_calls` or `error`")
        return self


class Script(_Strict):
    """A whole script: the turns, in the order requests will receive them."""

    turns: list[ScriptedTurn]


class ScriptedProvider:
    """Plays `script` back, one turn per `stream` call; thread-safe.

    After the last turn every further request gets a text saying the script is
    exhausted and `Finished(stop)`, so a runaway loop ends instead of spinning.
    """

    name: str = "scripted"

    def __init__(self, script: Script, *, source: str = "<script>") -> None:
        self.script = script
        self.source = source
        self._next = 0
        self._lock = threading.Lock()

    @classmethod
    def from_file(cls, path: Path) -> ScriptedProvider:
        """Load a `.json` file as JSON and anything else as YAML."""
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ScriptError(f"{path}: cannot read script: {exc.strerror or exc}") from exc
        return cls.from_text(text, source=str(path), json_format=path.suffix.lower() == ".json")

    @classmethod
    def from_text(
        cls, text: str, *, source: str = "<script>", json_format: bool = False
    ) -> ScriptedProvider:
        """Parse and validate a script given as text."""
        return cls(load_script(text, source=source, json_format=json_format), source=source)

    @property
    def turns_played(self) -> int:
        """How many requests have been answered (including exhausted ones)."""
        return self._next

    def stream(self, request: ModelRequest) -> Iterator[ProviderEvent]:
        with self._lock:
            number = self._next
            self._next += 1
        return iter(self._play(number))

    def _play(self, number: int) -> list[ProviderEvent]:
        turns = self.script.turns
        if number >= len(turns):
            note = f"[scripted provider] the script is exhausted: it has {len(turns)} turn(s)."
            return [TextDelta(text=note), Finished(reason=FinishReason.STOP)]
        turn = turns[number]
        events: list[ProviderEvent] = []
        if turn.text:
            events.append(TextDelta(text=turn.text))
        if turn.error is not None:
            failure = turn.error
            error = provider_error(
                failure.kind,
                failure.message,
                status=failure.status,
                retry_after=failure.retry_after,
                retryable=failure.retryable,
            )
            events.append(ProviderFailure(error=error))
            return events
        for index, call in enumerate(turn.tool_calls):
            tool_call = ToolCall(
                call_id=f"call_{number}_{index}", name=call.tool, arguments=call.input
            )
            events.append(ToolCallProposed(call=tool_call))
        reason = FinishReason.TOOL_CALLS if turn.tool_calls else FinishReason.STOP
        events.append(Finished(reason=reason))
        return events


def load_script(text: str, *, source: str = "<script>", json_format: bool = False) -> Script:
    """Parse (JSON or YAML) and validate; raise `ScriptError` naming `source` and the path."""
    try:
        data: object = json.loads(text) if json_format else yaml.safe_load(text)
    except json.JSONDecodeError as exc:
        raise ScriptError(f"{source}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark is not None else source
        problem = getattr(exc, "problem", None) or str(exc)
        raise ScriptError(f"{where}: invalid YAML: {problem}") from exc
    try:
        return Script.model_validate(data)
    except ValidationError as exc:
        problems = [f"{_path(error['loc'])}: {error['msg']}" for error in exc.errors()]
        raise ScriptError(f"{source}: invalid script:\n  " + "\n  ".join(problems)) from exc


def _path(loc: Sequence[int | str]) -> str:
    """`('turns', 2, 'tool_calls', 0)` → `turns[2].tool_calls[0]`; `<root>` when empty."""
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "<root>"
