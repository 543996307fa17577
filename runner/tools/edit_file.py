"""`edit_file`: replace one exact, unique piece of text in a file the model has read.

Edits by exact text rather than by line number, so an edit cannot land on the wrong line
of a file that moved. The file must have been read, must not have changed since, and
`old_text` must occur exactly once: each failure has its own status so the model knows
whether to read again, quote more context, or fix its quote.
"""

from __future__ import annotations

from typing import Self

from pydantic import Field, model_validator

from .atomic import write_atomically
from .base import Tool, ToolContext, ToolInput, ToolResult
from .status import Status


class EditFileInput(ToolInput):
    path: str = Field(min_length=1, description="File to edit; relative to the workspace.")
    old_text: str = Field(
        min_length=1, description="Exact text to replace (whitespace included); must be unique."
    )
    new_text: str = Field(description="The replacement text.")

    @model_validator(mode="after")
    def _changes_something(self) -> Self:
        if self.old_text == self.new_text:
            raise ValueError("new_text is identical to old_text: the edit would change nothing")
        return self


class EditFile(Tool[EditFileInput]):
    name = "edit_file"
    description = (
        "Replace one occurrence of old_text with new_text in a file. The file must have been "
        "read with read_file and not changed since; old_text must match exactly once "
        "(quote more surrounding lines to make it unique)."
    )
    read_only = False
    input_model = EditFileInput

    def precondition(self, args: EditFileInput, ctx: ToolContext) -> ToolResult | None:
        path, shown = ctx.locate(args.path)
        if not path.exists():
            return ToolResult.about(Status.PATH_NOT_FOUND, shown, "no such file")
        return ctx.refuse_change(path, shown)

    def run(self, args: EditFileInput, ctx: ToolContext, invocation_id: str) -> ToolResult:
        path, shown = ctx.locate(args.path)
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            return ToolResult.about(Status.NOT_TEXT, shown, "not UTF-8 text")
        except OSError as exc:
            return ToolResult.io_error(shown, exc)
        count = text.count(args.old_text)
        if count == 0:
            return ToolResult(
                Status.OLD_TEXT_NOT_FOUND,
                f"{shown}: old_text does not occur in the file (it must match exactly, "
                "including indentation and line breaks)",
                {"path": shown, "occurrences": 0},
            )
        if count > 1:
            lines = _lines_of(text, args.old_text)
            return ToolResult(
                Status.OLD_TEXT_NOT_UNIQUE,
                f"{shown}: old_text occurs {count} times (at lines "
                f"{', '.join(map(str, lines))}); include more surrounding text to pick one",
                {"path": shown, "occurrences": count, "lines": lines},
            )
        at = text.index(args.old_text)
        line = text.count("\n", 0, at) + 1
        updated = text[:at] + args.new_text + text[at + len(args.old_text) :]
        data = updated.encode("utf-8")
        try:
            write_atomically(path, data)
        except OSError as exc:
            return ToolResult.io_error(shown, exc)
        baseline = ctx.baselines.record(path, data)
        removed = args.old_text.count("\n") + 1
        added = args.new_text.count("\n") + 1
        return ToolResult(
            Status.OK,
            f"{shown}: replaced 1 occurrence at line {line} ({removed} line(s) -> {added})",
            {"path": shown, "line": line, **baseline.to_dict()},
        )


def _lines_of(text: str, needle: str) -> list[int]:
    lines: list[int] = []
    start = text.find(needle)
    while start >= 0:
        lines.append(text.count("\n", 0, start) + 1)
        start = text.find(needle, start + 1)
    return lines
