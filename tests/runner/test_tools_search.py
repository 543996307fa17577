"""`glob` and `grep`: pure Python searches whose empty, broken and missing answers differ."""

from __future__ import annotations

from pathlib import Path

import pytest

from clearance.runner.tools import Status, ToolContext, ToolResult
from clearance.runner.tools.glob import Glob, GlobInput
from clearance.runner.tools.grep import Grep, GrepInput


@pytest.fixture
def ctx(workspace: Path) -> ToolContext:
    (workspace / "src").mkdir()
    (workspace / "src" / "app.py").write_text("def main():\n    return 'TODO'\n")
    (workspace / "src" / "util.py").write_text("# todo: more\nVALUE = 1\n")
    (workspace / "src" / "data.bin").write_bytes(b"TODO\x00binary")
    (workspace / ".git").mkdir()
    (workspace / ".git" / "config.py").write_text("TODO = 'not ours'\n")
    (workspace / ".clearance").mkdir()
    (workspace / ".clearance" / "log.py").write_text("TODO\n")
    return ToolContext(workspace=workspace, artifacts=workspace / "artifacts")


def glob(ctx: ToolContext, pattern: str, path: str = ".") -> ToolResult:
    return Glob().run(GlobInput(pattern=pattern, path=path), ctx, "inv")


def grep(ctx: ToolContext, pattern: str, **options: object) -> ToolResult:
    return Grep().run(GrepInput(pattern=pattern, **options), ctx, "inv")  # type: ignore[arg-type]


def test_glob_lists_sorted_matches_and_skips_tool_directories(ctx: ToolContext) -> None:
    result = glob(ctx, "**/*.py")
    assert result.status is Status.OK
    assert result.text.splitlines()[1:] == ["src/app.py", "src/util.py"]
    assert result.data["matches"] == 2


def test_glob_answers_differ_for_nothing_found_missing_dir_and_bad_pattern(
    ctx: ToolContext,
) -> None:
    assert glob(ctx, "*.rs").status is Status.NO_MATCH
    assert "no path under . matches" in glob(ctx, "*.rs").text
    assert glob(ctx, "*.py", "nowhere").status is Status.PATH_NOT_FOUND
    assert glob(ctx, "*.py", "notes.txt").status is Status.NOT_A_DIRECTORY
    assert glob(ctx, "/etc/*").status is Status.INVALID_PATTERN
    assert glob(ctx, "src/**x").status is Status.INVALID_PATTERN


def test_grep_finds_lines_with_paths_and_numbers(ctx: ToolContext) -> None:
    result = grep(ctx, r"TODO")
    assert result.status is Status.OK
    assert result.text.splitlines() == [
        "1 matching line(s) in 1 file(s) under .:",
        "src/app.py:2:     return 'TODO'",
    ]


def test_grep_options_filter_and_fold_case(ctx: ToolContext) -> None:
    both = grep(ctx, "todo", ignore_case=True, glob="*.py")
    assert [line.split(":")[0] for line in both.text.splitlines()[1:]] == [
        "src/app.py",
        "src/util.py",
    ]
    one_file = grep(ctx, "VALUE", path="src/util.py")
    assert one_file.status is Status.OK and "src/util.py:2:" in one_file.text


def test_grep_answers_differ_for_nothing_found_missing_path_and_bad_pattern(
    ctx: ToolContext,
) -> None:
    nothing = grep(ctx, "no such words")
    assert nothing.status is Status.NO_MATCH
    assert "in 3 file(s)" in nothing.text  # notes.txt and two sources; binary skipped
    assert grep(ctx, "x", path="nowhere").status is Status.PATH_NOT_FOUND
    broken = grep(ctx, "(unclosed")
    assert broken.status is Status.INVALID_PATTERN
    assert "missing )" in broken.text


def test_grep_stops_at_max_matches_and_says_so(ctx: ToolContext) -> None:
    (ctx.workspace / "many.txt").write_text("hit\n" * 50)
    result = grep(ctx, "hit", max_matches=5)
    assert result.status is Status.OUTPUT_TRUNCATED
    assert result.text.count("many.txt:") == 5
    assert "stopped after 5 matches" in result.text
