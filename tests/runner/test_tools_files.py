"""`read_file`, `edit_file`, `write_file`: read baselines guard every change."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from clearance.runner.tools import Status, ToolContext, ToolResult
from clearance.runner.tools.edit_file import EditFile, EditFileInput
from clearance.runner.tools.read_file import ReadFile, ReadFileInput
from clearance.runner.tools.runtime import ToolRuntime
from clearance.runner.tools.toolbox import Toolbox, Validated
from clearance.runner.tools.write_file import WriteFile, WriteFileInput


@pytest.fixture
def ctx(workspace: Path) -> ToolContext:
    return ToolContext(workspace=workspace, artifacts=workspace / "artifacts", output_cap=2000)


def read(ctx: ToolContext, path: str, **options: int) -> ToolResult:
    return ReadFile().run(ReadFileInput(path=path, **options), ctx, "inv")


def edit(ctx: ToolContext, path: str, old: str, new: str) -> ToolResult:
    args = EditFileInput(path=path, old_text=old, new_text=new)
    return EditFile().precondition(args, ctx) or EditFile().run(args, ctx, "inv")


def write(ctx: ToolContext, path: str, content: str) -> ToolResult:
    args = WriteFileInput(path=path, content=content)
    return WriteFile().precondition(args, ctx) or WriteFile().run(args, ctx, "inv")


# --- read_file ---------------------------------------------------------------------


def test_every_path_failure_names_the_path_in_its_text_and_details(
    ctx: ToolContext, workspace: Path
) -> None:
    (workspace / "dir").mkdir()
    (workspace / "blob.bin").write_bytes(b"\x00\x01\x02")
    failures = {
        "missing.txt: no such file": read(ctx, "missing.txt"),
        "dir: not a regular file": read(ctx, "dir"),
        "blob.bin: binary file (3 bytes)": read(ctx, "blob.bin"),
        "gone.txt: no such file": edit(ctx, "gone.txt", "a", "b"),
    }
    for text, result in failures.items():
        assert result.is_error and (result.text, result.data) == (
            text,
            {"path": text.split(":")[0]},
        )
    io_error = write(ctx, "notes.txt/x", "y")  # a file where a directory must be
    assert io_error.status is Status.IO_ERROR and io_error.data == {"path": "notes.txt/x"}
    assert io_error.text.startswith("notes.txt/x: ") and len(io_error.text) > len("notes.txt/x: ")


def test_read_numbers_lines_and_honours_offset_and_limit(ctx: ToolContext) -> None:
    result = read(ctx, "notes.txt", offset=2, limit=1)
    assert result.status is Status.OK
    assert result.text.splitlines() == [
        "notes.txt: lines 2-2 of 3",
        "2\tbeta",
        "[more lines follow; continue with offset=3]",
    ]
    assert result.data["sha256"] and result.data["lines"] == 3


def test_read_failures_have_their_own_status(ctx: ToolContext, workspace: Path) -> None:
    assert read(ctx, "missing.txt").status is Status.PATH_NOT_FOUND
    (workspace / "dir").mkdir()
    assert read(ctx, "dir").status is Status.NOT_A_FILE
    (workspace / "blob.bin").write_bytes(b"\x00\x01\x02")
    assert read(ctx, "blob.bin").status is Status.NOT_TEXT
    past = read(ctx, "notes.txt", offset=10)
    assert past.status is Status.OK and "offset 10 is past the end" in past.text
    (workspace / "empty.txt").write_text("")
    assert "empty file" in read(ctx, "empty.txt").text


def test_read_cut_by_the_output_cap_says_where_to_continue(ctx: ToolContext) -> None:
    (ctx.workspace / "long.txt").write_text(
        "".join(f"line {n:04d} {'x' * 80}\n" for n in range(100))
    )
    result = read(ctx, "long.txt")
    assert result.status is Status.OUTPUT_TRUNCATED
    last = result.data["last"]
    assert isinstance(last, int) and 1 < last < 100
    assert f"continue with offset={last + 1}" in result.text


# --- edit_file ---------------------------------------------------------------------


def test_edit_needs_a_read_first(ctx: ToolContext) -> None:
    result = edit(ctx, "notes.txt", "beta", "BETA")
    assert result.status is Status.NOT_READ_FIRST
    assert (ctx.workspace / "notes.txt").read_text() == "alpha\nbeta\ngamma\n"


def test_edit_is_refused_when_the_file_changed_since_it_was_read(ctx: ToolContext) -> None:
    read(ctx, "notes.txt")
    (ctx.workspace / "notes.txt").write_text("alpha\nbeta\ndelta\n")
    assert edit(ctx, "notes.txt", "beta", "BETA").status is Status.CHANGED_SINCE_READ
    (ctx.workspace / "notes.txt").unlink()
    assert edit(ctx, "notes.txt", "beta", "BETA").status is Status.PATH_NOT_FOUND


def test_old_text_must_exist_and_be_unique(ctx: ToolContext) -> None:
    (ctx.workspace / "dup.txt").write_text("x = 1\ny = 2\nx = 1\n")
    read(ctx, "dup.txt")
    missing = edit(ctx, "dup.txt", "z = 3", "z = 4")
    assert missing.status is Status.OLD_TEXT_NOT_FOUND
    twice = edit(ctx, "dup.txt", "x = 1", "x = 9")
    assert twice.status is Status.OLD_TEXT_NOT_UNIQUE
    assert twice.data["lines"] == [1, 3]
    assert (ctx.workspace / "dup.txt").read_text() == "x = 1\ny = 2\nx = 1\n"


def test_an_edit_replaces_once_and_becomes_the_new_baseline(ctx: ToolContext) -> None:
    read(ctx, "notes.txt")
    first = edit(ctx, "notes.txt", "beta", "BETA")
    assert first.status is Status.OK and first.data["line"] == 2
    second = edit(ctx, "notes.txt", "gamma", "GAMMA")  # no re-read needed after our own edit
    assert second.status is Status.OK
    assert (ctx.workspace / "notes.txt").read_text() == "alpha\nBETA\nGAMMA\n"


def test_an_edit_keeps_the_file_mode(ctx: ToolContext) -> None:
    script = ctx.workspace / "run.sh"
    script.write_text("echo one\n")
    script.chmod(0o755)
    read(ctx, "run.sh")
    assert edit(ctx, "run.sh", "one", "two").status is Status.OK
    assert script.stat().st_mode & 0o777 == 0o755


def test_an_edit_that_changes_nothing_fails_validation() -> None:
    with pytest.raises(ValidationError, match="identical"):
        EditFileInput(path="a", old_text="x", new_text="x")


# --- write_file --------------------------------------------------------------------


def test_write_creates_new_files_and_their_directories(ctx: ToolContext) -> None:
    result = write(ctx, "src/pkg/new.py", "print('hi')\n")
    assert result.status is Status.OK and result.data["created"] is True
    assert (ctx.workspace / "src/pkg/new.py").read_text() == "print('hi')\n"


def test_write_refuses_to_overwrite_a_file_it_did_not_read(ctx: ToolContext) -> None:
    result = write(ctx, "notes.txt", "gone\n")
    assert result.status is Status.NOT_READ_FIRST
    assert "was not read" in result.text
    assert (ctx.workspace / "notes.txt").read_text() == "alpha\nbeta\ngamma\n"


def test_write_overwrites_a_read_file_unless_it_changed(ctx: ToolContext) -> None:
    read(ctx, "notes.txt")
    assert write(ctx, "notes.txt", "one\n").status is Status.OK
    assert (ctx.workspace / "notes.txt").read_text() == "one\n"
    (ctx.workspace / "notes.txt").write_text("someone else\n")
    assert write(ctx, "notes.txt", "two\n").status is Status.CHANGED_SINCE_READ
    (ctx.workspace / "adir").mkdir()
    assert write(ctx, "adir", "x").status is Status.NOT_A_FILE


# --- the runtime checks the precondition again before it runs a change ---------------------


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("edit_file", {"path": "notes.txt", "old_text": "beta", "new_text": "BETA"}),
        ("write_file", {"path": "notes.txt", "content": "new\n"}),
    ],
)
def test_a_file_changed_after_validation_is_not_changed(
    ctx: ToolContext, workspace: Path, tool: str, arguments: dict[str, object]
) -> None:
    runtime = ToolRuntime(Toolbox(), ctx)
    assert read(ctx, "notes.txt").status is Status.OK
    call = runtime.toolbox.validate(tool, arguments)
    assert isinstance(call, Validated) and runtime.precondition(call) is None
    (workspace / "notes.txt").write_text("changed while a human was asked\n")
    result = runtime.execute(call, "inv")
    assert result.status is Status.CHANGED_SINCE_READ
    assert (workspace / "notes.txt").read_text() == "changed while a human was asked\n"
