"""Paths of the running process (``/proc/self``, ``/dev/fd``) are the command's, not
clearance's: ``/proc/self/cwd`` is the command's working directory, ``/proc/self/root`` is
``/``, and the rest is judged as written -- never resolved through clearance's own process
(whose pid, descriptors and directory are other ones)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clearance.shellparse import classify
from clearance.shellparse.paths import resolve


@pytest.mark.parametrize(
    ("written", "cwd", "resolved"),
    [
        ("/proc/self/cwd/.env", "/work/proj", "/work/proj/.env"),
        ("/proc/thread-self/cwd", "/work/proj", "/work/proj"),
        # the kernel takes cwd first, then ``..`` from there
        ("/proc/self/cwd/../../home/u/.ssh/id_rsa", "/work/proj", "/home/u/.ssh/id_rsa"),
        ("../../proc/self/cwd/.env", "/work/proj", "/work/proj/.env"),
        ("//proc//self/./root/etc/shadow", "/work/proj", "/etc/shadow"),
        ("/proc/self/cwd/.env", None, None),
        ("/proc/self/environ", "/work/proj", "/proc/self/environ"),
        ("/proc/self/fd/3", "/work/proj", "/proc/self/fd/3"),
        ("/proc/selfish/x", "/work/proj", "/proc/selfish/x"),
    ],
)
def test_the_commands_own_process(written: str, cwd: str | None, resolved: str | None) -> None:
    assert resolve(written, cwd, "/home/u") == resolved


def test_not_resolved_through_this_process(tmp_path: Path) -> None:
    """What this process's descriptors and directory are says nothing of the command's: the
    answer is the same from any process (a batch decided twice gives one answer)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / ".env").write_text("A=1\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("notes\n")
    before = os.getcwd()
    os.chdir(elsewhere)  # this process stands where the command does not
    try:
        facts = classify(
            "cat /proc/self/cwd/notes.txt /dev/fd/7",
            cwd=str(project),
            home=str(tmp_path / "home"),
            workspace=str(project),
        )
    finally:
        os.chdir(before)
    (part,) = facts.commands
    found = {p.resolved for p in part.paths}
    assert str(project / "notes.txt") in found
    assert "/dev/fd/7" in found
    assert "secret_read" not in part.classes
    assert not any(str(elsewhere) in (p or "") for p in found)
