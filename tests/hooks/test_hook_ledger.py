"""The hook's ledger: the project's, in the state directory, from any subdirectory; never
through a link a repository planted; a ledger that cannot be written safely blocks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hookcases import payload_for

from clearance.engine.ledger import default_ledger_path, read_records, verify
from clearance.engine.state import state_dir

Hook = object


def shell(project: Path, command: str, cwd: Path | None = None) -> dict[str, object]:
    payload = payload_for("claude-code", project, "Bash", {"command": command})
    if cwd is not None:
        payload["cwd"] = str(cwd)
    return payload


def test_one_ledger_for_the_project_from_any_subdirectory(hook, project: Path) -> None:  # type: ignore[no-untyped-def]
    assert hook("claude-code", shell(project, "touch a")).code == 0
    assert hook("claude-code", shell(project, "touch b", cwd=project / "src")).code == 0
    path = default_ledger_path(str(project))
    assert path.startswith(state_dir())
    records = list(read_records(path))
    assert len(records) == 2 and verify(path).ok
    assert {r["user"] for r in records} and all(r["host"] for r in records)
    assert not (project / ".clearance").exists() and not (project / "src" / ".clearance").exists()


def test_a_committed_ledger_link_is_never_written_through(hook, project: Path) -> None:  # type: ignore[no-untyped-def]
    rc = project / "bashrc"
    rc.write_text("# rc\n")
    (project / ".clearance").mkdir()
    (project / ".clearance" / "ledger.jsonl").symlink_to(rc)
    (project / ".clearance" / "ledger.jsonl.head.tmp").symlink_to(rc)
    result = hook("claude-code", shell(project, "echo $(touch /tmp/pwned) ok"))
    assert result.code in (0, 2)
    assert rc.read_text() == "# rc\n"


def test_a_link_as_ledger_blocks_with_the_reason(hook, project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rc = tmp_path / "profile"
    rc.write_text("# profile\n")
    link = tmp_path / "ledger.jsonl"
    link.symlink_to(rc)
    result = hook("claude-code", shell(project, "touch notes.txt"), "--ledger", str(link))
    assert result.code == 2 and "symbolic link" in result.stderr
    assert rc.read_text() == "# profile\n"


def test_a_fifo_as_ledger_blocks_quickly(hook_process, project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    fifo = tmp_path / "ledger.jsonl"
    os.mkfifo(fifo)
    result = hook_process("claude-code", shell(project, "touch notes.txt"), "--ledger", str(fifo))
    assert result.code == 2 and "FIFO" in result.stderr


def test_a_state_directory_planted_as_a_link_blocks(
    hook, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path / "xdg"
    base.mkdir()
    (base / "clearance").symlink_to(project)  # the state "directory" points into the workspace
    monkeypatch.setenv("XDG_STATE_HOME", str(base))
    result = hook("claude-code", shell(project, "touch notes.txt"))
    assert result.code == 2 and "symbolic link" in result.stderr
    assert not (project / "ledgers").exists()


def test_a_decision_that_cannot_be_synced_blocks_and_the_ledger_agrees(
    hook, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    assert hook("claude-code", shell(project, "touch a")).code == 0
    calls: list[int] = []

    def failing(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 1:
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fdatasync", failing)
    result = hook("claude-code", shell(project, "touch b"))
    assert result.code == 2 and "durable" in result.stderr
    last = list(read_records(default_ledger_path(str(project))))[-1]
    assert last["decision"]["decision"] == "deny"  # type: ignore[index]
    assert last["not_durable"]["decision"] == "allow"  # type: ignore[index]
