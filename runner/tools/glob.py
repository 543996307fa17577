"""`glob`: list the paths that match a pattern, in pure Python.

No shell is involved, so the pattern is only ever a pattern. An empty result is
`no_match`, a missing directory `path_not_found` and a malformed pattern
`invalid_pattern`: three different answers the model can act on.
"""

from __future__ import annotations

from pydantic import Field

from .base import Tool, ToolContext, ToolInput, ToolResult
from .paths import SKIPPED_DIRS, display, protected, skipped
from .status import Status

_MAX_RESULTS = 500


class GlobInput(ToolInput):
    pattern: str = Field(
        min_length=1, description="Glob relative to `path`, e.g. `**/*.py` or `src/*.ts`."
    )
    path: str = Field(default=".", description="Directory to search; relative to the workspace.")


class Glob(Tool[GlobInput]):
    name = "glob"
    description = (
        "List files and directories matching a glob pattern (`**` spans directories), "
        f"sorted, at most {_MAX_RESULTS}. Skips {', '.join(sorted(SKIPPED_DIRS))}."
    )
    read_only = True
    input_model = GlobInput

    def run(self, args: GlobInput, ctx: ToolContext, invocation_id: str) -> ToolResult:
        root, shown = ctx.locate(args.path)
        details: dict[str, object] = {"path": shown, "pattern": args.pattern}
        if not root.exists():
            return ToolResult(Status.PATH_NOT_FOUND, f"{shown}: no such directory", details)
        if not root.is_dir():
            return ToolResult(Status.NOT_A_DIRECTORY, f"{shown}: not a directory", details)
        try:
            matched = [
                path for path in root.glob(args.pattern) if not skipped(path.relative_to(root))
            ]
            found = sorted(path for path in matched if not protected(path))
        except (ValueError, NotImplementedError) as exc:
            return ToolResult(
                Status.INVALID_PATTERN, f"invalid glob pattern {args.pattern!r}: {exc}", details
            )
        details["matches"] = len(found)
        if len(matched) > len(found):
            details["protected_skipped"] = len(matched) - len(found)
        if not found:
            text = f"no path under {shown} matches {args.pattern!r}"
            return ToolResult(Status.NO_MATCH, text, details)
        listed = [
            display(ctx.workspace, path) + ("/" if path.is_dir() else "")
            for path in found[:_MAX_RESULTS]
        ]
        header = f"{len(found)} path(s) under {shown} match {args.pattern!r}"
        if len(found) > _MAX_RESULTS:
            note = f"\n[showing the first {_MAX_RESULTS}; narrow the pattern to see the rest]"
            return ToolResult(
                Status.OUTPUT_TRUNCATED, header + ":\n" + "\n".join(listed) + note, details
            )
        return ToolResult(Status.OK, header + ":\n" + "\n".join(listed), details)
