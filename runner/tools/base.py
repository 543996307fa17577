"""What a tool is: an input schema, a read-only flag, a precondition, a run, an observation.

A tool is the only code in the runner that touches the world, and only after the core has
validated and approved the call. Splitting a tool into these pieces keeps each stage of the
pipeline honest: the schema is checked before anyone decides, the runtime-state
precondition (was the file read? has it changed?) is checked before anyone is asked, and
the way a result is shown to the model is declared next to the code that produced it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from clearance.runner.providers.types import ToolSpec

from .baselines import ReadBaselines
from .paths import display, resolve
from .status import NOT_ERRORS, Status

#: Default limits; the command line can change the first two.
DEFAULT_BASH_TIMEOUT = 120.0
DEFAULT_OUTPUT_CAP = 20_000


class ToolInput(BaseModel):
    """Base of every tool's input schema: closed, so a misspelt argument is an error the
    model is told about rather than a silently ignored field."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class ToolResult:
    """The outcome of one execution: a status code, the text for the model, and the
    machine-readable details (exit code, counts, artifact paths) for the event log."""

    status: Status
    text: str
    data: dict[str, object] = field(default_factory=dict)

    @property
    def is_error(self) -> bool:
        return self.status not in NOT_ERRORS

    def to_dict(self) -> dict[str, object]:
        return {"status": str(self.status), "text": self.text, **self.data}

    @classmethod
    def about(cls, status: Status, shown: str, why: str) -> ToolResult:
        """A failure to do with the file ``shown``: the text ``shown: why``, the path in the
        details. The one form every file tool's path failures take."""
        return cls(status, f"{shown}: {why}", {"path": shown})

    @classmethod
    def io_error(cls, shown: str, exc: OSError) -> ToolResult:
        """Reading or writing ``shown`` failed with ``exc``."""
        return cls.about(Status.IO_ERROR, shown, str(exc.strerror or exc))


@dataclass
class ToolContext:
    """What a run's tools share: where they act, where they keep artifacts, what the model
    has read, and the limits they run under."""

    workspace: Path
    artifacts: Path
    baselines: ReadBaselines = field(default_factory=ReadBaselines)
    bash_timeout: float = DEFAULT_BASH_TIMEOUT
    output_cap: int = DEFAULT_OUTPUT_CAP
    #: Run bash commands in the sandbox (``--no-sandbox`` turns it off).
    sandbox: bool = True
    #: The confinement of the call being executed (``clearance.sandbox.plan.Confinement``),
    #: set by the runtime from the call's decision; ``None``: the call runs unconfined.
    confinement: Any = None

    def locate(self, path: str) -> tuple[Path, str]:
        """The path a tool's argument names (relative to the workspace) and how its results
        show it (relative when inside the workspace)."""
        where = resolve(self.workspace, path)
        return where, display(self.workspace, where)

    def refuse_change(self, path: Path, shown: str, unread: str = "") -> ToolResult | None:
        """Why an existing ``path`` may not be changed: it is not a regular file, or was not
        read with read_file, or changed since (``unread``: the reason given when it was
        never read); ``None`` when it may."""
        if not path.is_file():
            return ToolResult.about(Status.NOT_A_FILE, shown, "not a regular file")
        refused = self.baselines.check(path)
        if refused is None:
            return None
        status, why = refused
        if unread and status is Status.NOT_READ_FIRST:
            why = unread
        return ToolResult.about(status, shown, why)


InputT = TypeVar("InputT", bound=ToolInput)


class Tool(ABC, Generic[InputT]):
    """One tool. Subclasses set `name`, `description`, `read_only` and `input_model`."""

    name: str
    description: str
    read_only: bool
    input_model: type[InputT]

    def spec(self) -> ToolSpec:
        """How the tool is offered to the model."""
        schema = self.input_model.model_json_schema()
        schema.pop("title", None)
        return ToolSpec(name=self.name, description=self.description, input_schema=schema)

    def parse(self, arguments: dict[str, object]) -> InputT:
        """Validate the model's arguments; raises `pydantic.ValidationError`."""
        return self.input_model.model_validate(arguments)

    def precondition(self, args: InputT, ctx: ToolContext) -> ToolResult | None:
        """Check the runtime state the call depends on; `None` when it may go ahead. The
        runtime checks it when the call is validated and again just before `run`."""
        return None

    @abstractmethod
    def run(self, args: InputT, ctx: ToolContext, invocation_id: str) -> ToolResult:
        """Do it. Only ever called on a validated, approved call whose precondition held
        just now."""

    def observe(self, result: ToolResult) -> str:
        """The observation text the model reads: the status first, then the result."""
        return f"status: {result.status}\n{result.text}".rstrip("\n")
