"""`read_file`: show lines of a text file, and remember what the model has now seen.

Every successful read records a baseline (content hash, modification time) that
`edit_file` and `write_file` check, so the model can only change a file it has read, and
only while it is still as read. Lines are numbered for reference; the numbers are not
part of the file.
"""

from __future__ import annotations

from pydantic import Field

from .base import Tool, ToolContext, ToolInput, ToolResult
from .paths import protected
from .status import Status

_LINE_CAP = 2000


class ReadFileInput(ToolInput):
    path: str = Field(min_length=1, description="File to read; relative to the workspace.")
    offset: int = Field(default=1, ge=1, description="First line to show (1-based).")
    limit: int = Field(default=2000, ge=1, le=20_000, description="How many lines to show.")


class ReadFile(Tool[ReadFileInput]):
    name = "read_file"
    description = (
        "Read a text file (or a range of its lines, with offset/limit). Lines come numbered "
        "as `N<TAB>text`; the numbers are not part of the file. A file must be read before "
        "edit_file or write_file may change it."
    )
    read_only = True
    input_model = ReadFileInput

    def run(self, args: ReadFileInput, ctx: ToolContext, invocation_id: str) -> ToolResult:
        path, shown = ctx.locate(args.path)
        if protected(path):
            text = f"{shown}: a protected file (credentials); read_file never returns it"
            return ToolResult(Status.DENIED, text, {"path": shown, "protected": True})
        if not path.exists():
            return ToolResult.about(Status.PATH_NOT_FOUND, shown, "no such file")
        if not path.is_file():
            return ToolResult.about(Status.NOT_A_FILE, shown, "not a regular file")
        try:
            data = path.read_bytes()
        except OSError as exc:
            return ToolResult.io_error(shown, exc)
        if b"\0" in data[:8192]:
            return ToolResult.about(Status.NOT_TEXT, shown, f"binary file ({len(data)} bytes)")
        baseline = ctx.baselines.record(path, data)
        lines = data.decode("utf-8", errors="replace").splitlines()
        total = len(lines)
        details: dict[str, object] = {"path": shown, "lines": total, **baseline.to_dict()}
        if total == 0:
            return ToolResult(Status.OK, f"{shown}: empty file (0 lines)", details)
        first = args.offset
        if first > total:
            text = f"{shown}: has {total} lines; offset {first} is past the end"
            return ToolResult(Status.OK, text, details)
        body: list[str] = []
        used = 0
        last = first - 1
        for number in range(first, min(first + args.limit, total + 1)):
            line = lines[number - 1]
            if len(line) > _LINE_CAP:
                line = line[:_LINE_CAP] + f" [... line cut: {len(line)} characters]"
            rendered = f"{number}\t{line}"
            if body and used + len(rendered) + 1 > ctx.output_cap:
                break
            body.append(rendered)
            used += len(rendered) + 1
            last = number
        details.update(first=first, last=last)
        status = Status.OK
        note = ""
        if last < min(first + args.limit - 1, total):
            status = Status.OUTPUT_TRUNCATED
            note = f"\n[cut to fit the output cap; continue with offset={last + 1}]"
        elif last < total:
            note = f"\n[more lines follow; continue with offset={last + 1}]"
        header = f"{shown}: lines {first}-{last} of {total}"
        return ToolResult(status, header + "\n" + "\n".join(body) + note, details)
