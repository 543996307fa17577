"""Knowledge read from the machine at decision time: bare repositories named by ``--git-dir``.

Each technique has a malicious spelling and its benign twin, on real repositories made by the
real ``git`` in a temporary directory.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from clearance.shellparse import classify

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _bare(root: Path, name: str, *config: tuple[str, str]) -> Path:
    repo = root / name
    subprocess.run(["git", "init", "-q", "--bare", str(repo)], check=True)
    for key, value in config:
        subprocess.run(["git", "-C", str(repo), "config", key, value], check=True)
    return repo


def _code(command: str, workspace: Path) -> bool:
    facts = classify(command, cwd=str(workspace), home="/home/u", workspace=str(workspace))
    (part,) = [p for p in facts.commands if p.program == "git"]
    return "code_exec" in part.classes or "env_code" in part.markers


def test_plain_bare_repository_is_read_like_any(tmp_path: Path) -> None:
    _bare(tmp_path, "plain.git")
    assert not _code("git --git-dir=plain.git log --oneline", tmp_path)
    assert not _code("git --git-dir=plain.git --work-tree=. status", tmp_path)
    assert not _code(f"git --git-dir={tmp_path}/plain.git show HEAD", tmp_path)


@pytest.mark.parametrize(
    ("technique", "config"),
    [
        ("pager", ("core.pager", "sh -c id")),
        ("fsmonitor", ("core.fsmonitor", "/tmp/x")),
        ("hooks-path", ("core.hooksPath", "/tmp/hooks")),
        ("include", ("include.path", "/tmp/other.cfg")),
        ("include-if", ("includeIf.gitdir:/.path", "/tmp/other.cfg")),
        ("alias", ("alias.lg", "!sh -c id")),
        ("textconv", ("diff.x.textconv", "sh -c id")),
    ],
)
def test_bare_repository_whose_config_names_a_program(
    tmp_path: Path, technique: str, config: tuple[str, str]
) -> None:
    _bare(tmp_path, "evil.git", config)
    _bare(tmp_path, "twin.git", ("user.name", "x"))
    assert _code("git --git-dir=evil.git log", tmp_path), technique
    assert not _code("git --git-dir=twin.git log", tmp_path), technique


def test_bare_repository_with_a_hook(tmp_path: Path) -> None:
    repo = _bare(tmp_path, "hooked.git")
    hook = repo / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\nid\n")
    hook.chmod(0o755)
    assert _code("git --git-dir=hooked.git log", tmp_path)
    hook.rename(repo / "hooks" / "pre-commit.sample")
    assert not _code("git --git-dir=hooked.git log", tmp_path)


def test_repository_not_seen_is_not_plain(tmp_path: Path) -> None:
    _bare(tmp_path, "plain.git")
    assert _code("git --git-dir=missing.git log", tmp_path)
    assert _code("git --git-dir=$D log", tmp_path)
    (tmp_path / "plain.git" / "commondir").write_text("../elsewhere\n")
    assert _code("git --git-dir=plain.git log", tmp_path)
    config = tmp_path / "plain.git" / "config"
    os.remove(tmp_path / "plain.git" / "commondir")
    config.write_text(config.read_text() + "[core\n")  # not understood: fail closed
    assert _code("git --git-dir=plain.git log", tmp_path)
