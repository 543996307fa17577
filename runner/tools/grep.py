"""`grep`: search file contents with a Python regular expression, without a shell.

Pure Python (`re` over the files), so the search runs the same everywhere and a pattern
can never become a command. An empty result says `no_match` and how many files were
searched, which is different from a bad pattern (`invalid_pattern`) or a wrong path
(`path_not_found`).
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterator
from pathlib import Path

from pydantic import Field

from .base import Tool, ToolContext, ToolInput, ToolResult
from .paths import SKIPPED_DIRS, display, protected
from .status import Status

_MAX_FILE_BYTES = 4 * 1024 * 1024
_LINE_CAP = 300


class GrepInput(ToolInput):
    pattern: str = Field(min_length=1, description="Python regular expression, per line.")
    path: str = Field(default=".", description="File or directory; relative to the workspace.")
    glob: str | None = Field(
        default=None, description="Only files whose name matches this glob, e.g. `*.py`."
    )
    ignore_case: bool = Field(default=False, description="Match case-insensitively.")
    max_matches: int = Field(default=200, ge=1, le=2000, description="Stop after this many.")


class Grep(Tool[GrepInput]):
    name = "grep"
    description = (
        "Search file contents for a Python regular expression; prints `path:line: text` "
        f"for each matching line. Skips binary files and {', '.join(sorted(SKIPPED_DIRS))}."
    )
    read_only = True
    input_model = GrepInput

    def run(self, args: GrepInput, ctx: ToolContext, invocation_id: str) -> ToolResult:
        root, shown = ctx.locate(args.path)
        details: dict[str, object] = {"path": shown, "pattern": args.pattern}
        try:
            regex = re.compile(args.pattern, re.IGNORECASE if args.ignore_case else 0)
        except re.error as exc:
            return ToolResult(
                Status.INVALID_PATTERN,
                f"invalid regular expression {args.pattern!r}: {exc}",
                details,
            )
        if not root.exists():
            return ToolResult(Status.PATH_NOT_FOUND, f"{shown}: no such file or directory", details)
        if protected(root):
            text = f"{shown}: a protected file (credentials); grep never searches it"
            return ToolResult(Status.DENIED, text, {**details, "protected": True})
        lines: list[str] = []
        searched = 0
        left_out = 0
        more = False
        for path in _files(root, args.glob):
            if protected(path):
                left_out += 1
                continue
            content = _text_of(path)
            if content is None:
                continue
            searched += 1
            for number, line in enumerate(content.splitlines(), start=1):
                if regex.search(line) is None:
                    continue
                if len(lines) == args.max_matches:
                    more = True
                    break
                cut = line if len(line) <= _LINE_CAP else line[:_LINE_CAP] + " [...]"
                lines.append(f"{display(ctx.workspace, path)}:{number}: {cut}")
            if more:
                break
        details.update(files_searched=searched, matches=len(lines), more=more)
        note = f" ({left_out} protected file(s) not searched)" if left_out else ""
        if left_out:
            details["protected_skipped"] = left_out
        if not lines:
            text = f"no line matches {args.pattern!r} in {searched} file(s) under {shown}{note}"
            return ToolResult(Status.NO_MATCH, text, details)
        files = len({line.split(":", 1)[0] for line in lines})
        header = f"{len(lines)} matching line(s) in {files} file(s) under {shown}{note}:\n"
        body = header + "\n".join(lines)
        if more:
            note = f"\n[stopped after {args.max_matches} matches; narrow the search for the rest]"
            return ToolResult(Status.OUTPUT_TRUNCATED, body + note, details)
        return ToolResult(Status.OK, body, details)


def _files(root: Path, name_glob: str | None) -> Iterator[Path]:
    """Files under `root` (or `root` itself), in a stable order, skipping tool directories."""
    if root.is_file():
        yield root
        return
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            if name_glob is None or fnmatch.fnmatch(name, name_glob):
                yield Path(directory, name)


def _text_of(path: Path) -> str | None:
    """The file as text, or `None` for binary, huge or unreadable files."""
    try:
        if path.stat().st_size > _MAX_FILE_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace")
