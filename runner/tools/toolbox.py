"""The set of tools a run offers, and schema validation of proposed calls.

Validation here is pure: it looks only at the call, never at the world. That is what
lets replay re-validate a recorded intent without any risk of acting on it; checks of
runtime state (was the file read?) and execution live in `runtime.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from clearance.runner.providers.types import ToolSpec

from .base import Tool, ToolInput
from .bash import Bash
from .edit_file import EditFile
from .glob import Glob
from .grep import Grep
from .read_file import ReadFile
from .status import Status
from .write_file import WriteFile


@dataclass(frozen=True)
class Validated:
    """A call whose arguments fit its tool's schema."""

    tool: Tool[Any]
    args: ToolInput


@dataclass(frozen=True)
class Invalid:
    """A call that cannot be run as proposed: the status and every problem found."""

    status: Status
    message: str
    errors: list[str] = field(default_factory=list)


def default_tools() -> list[Tool[Any]]:
    """The runner's tools, in the order they are offered to the model."""
    return [Bash(), ReadFile(), EditFile(), WriteFile(), Glob(), Grep()]


class Toolbox:
    """Tools by name; validates calls against their schemas."""

    def __init__(self, tools: Sequence[Tool[Any]] | None = None) -> None:
        chosen = list(default_tools() if tools is None else tools)
        self._tools: dict[str, Tool[Any]] = {tool.name: tool for tool in chosen}
        if len(self._tools) != len(chosen):
            raise ValueError("two tools share a name")

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def get(self, name: str) -> Tool[Any] | None:
        return self._tools.get(name)

    def specs(self) -> list[ToolSpec]:
        return [tool.spec() for tool in self._tools.values()]

    def validate(self, name: str, arguments: dict[str, object]) -> Validated | Invalid:
        """Check a call against its tool's schema; touches nothing."""
        tool = self._tools.get(name)
        if tool is None:
            known = ", ".join(self._tools)
            return Invalid(
                Status.UNKNOWN_TOOL,
                f"there is no tool named {name!r}; the tools are: {known}",
                [f"unknown tool {name!r}"],
            )
        try:
            args = tool.parse(arguments)
        except ValidationError as exc:
            errors = [_describe(error) for error in exc.errors()]
            return Invalid(
                Status.INVALID_INPUT,
                f"the input does not fit the schema of {name!r}:\n"
                + "\n".join(f"  - {error}" for error in errors),
                errors,
            )
        return Validated(tool, args)


def _describe(error: Any) -> str:
    where = ".".join(str(part) for part in error.get("loc", ())) or "input"
    return f"{where}: {error.get('msg', 'invalid')}"
