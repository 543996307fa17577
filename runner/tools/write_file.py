"""`write_file`: create a file, or replace one the model has read.

Overwriting a file the model never looked at would destroy content it knows nothing
about, so an existing file must have been read (and be unchanged since) first; new files
need nothing.
"""

from __future__ import annotations

from pydantic import Field

from .atomic import write_atomically
from .base import Tool, ToolContext, ToolInput, ToolResult
from .status import Status


class WriteFileInput(ToolInput):
    path: str = Field(min_length=1, description="File to write; relative to the workspace.")
    content: str = Field(description="The whole new content of the file.")


class WriteFile(Tool[WriteFileInput]):
    name = "write_file"
    description = (
        "Write a whole file: create it (with parent directories), or replace an existing "
        "file that was read with read_file and has not changed since."
    )
    read_only = False
    input_model = WriteFileInput

    def precondition(self, args: WriteFileInput, ctx: ToolContext) -> ToolResult | None:
        path, shown = ctx.locate(args.path)
        if not path.exists():
            return None
        return ctx.refuse_change(
            path, shown, "the file exists and was not read: read it before overwriting it"
        )

    def run(self, args: WriteFileInput, ctx: ToolContext, invocation_id: str) -> ToolResult:
        path, shown = ctx.locate(args.path)
        existed = path.exists()
        data = args.content.encode("utf-8")
        try:
            write_atomically(path, data)
        except OSError as exc:
            return ToolResult.io_error(shown, exc)
        baseline = ctx.baselines.record(path, data)
        verb = "replaced" if existed else "created"
        lines = args.content.count("\n") + (0 if args.content.endswith("\n") else 1)
        lines = lines if args.content else 0
        return ToolResult(
            Status.OK,
            f"{shown}: {verb} ({lines} lines, {len(data)} bytes)",
            {"path": shown, "created": not existed, **baseline.to_dict()},
        )
