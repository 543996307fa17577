"""Knowledge read from the machine at decision time: bare repositories named by ``--git-dir``.

Each technique has a malicious spelling and its benign twin, on real repositories made by the
real ``git`` in a temporary directory.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

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


# --- archives: the members an extraction writes, read at decision time ---------------------------


def _tar(path: Path, *members: tuple[str, str | None]) -> None:
    import io
    import tarfile

    with tarfile.open(path, "w:gz" if path.name.endswith("gz") else "w") as archive:
        for name, link in members:
            info = tarfile.TarInfo(name)
            if link is not None:
                info.type = tarfile.SYMTYPE
                info.linkname = link
                archive.addfile(info)
            else:
                info.size = 1
                archive.addfile(info, io.BytesIO(b"x"))


def _zip(path: Path, *names: str) -> None:
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        for name in names:
            archive.writestr(name, "x")


def _part(command: str, workspace: Path, program: str) -> Any:
    facts = classify(command, cwd=str(workspace), home="/home/u", workspace=str(workspace))
    (part,) = [p for p in facts.commands if p.program == program]
    return part


@pytest.mark.parametrize(
    ("technique", "member", "link"),
    [
        ("dot-dot", "../../home/u/.bashrc", None),
        ("absolute", "/etc/cron.d/job", None),
        ("inner-dot-dot", "src/../../x", None),
        ("link-absolute", "out", "/etc"),
        ("link-up", "src/up", "../../.."),
    ],
)
def test_tar_member_outside_the_destination(
    tmp_path: Path, technique: str, member: str, link: str | None
) -> None:
    _tar(tmp_path / "bad.tar", ("src/a.py", None), (member, link))
    _tar(tmp_path / "good.tar", ("src/a.py", None), ("src/b.py", None), ("src/l", "a.py"))
    assert "archive_escape" in _part("tar -xf bad.tar", tmp_path, "tar").markers, technique
    good = _part("tar -xf good.tar", tmp_path, "tar")
    assert "archive_escape" not in good.markers
    assert {p.resolved for p in good.paths if p.access == "write"} >= {
        f"{tmp_path}/src/a.py",
        f"{tmp_path}/src/b.py",
    }


def test_tar_listing_writes_nothing_and_extraction_writes_members(tmp_path: Path) -> None:
    _tar(tmp_path / "a.tgz", ("conftest.py", None), ("src/a.py", None))
    listing = _part("tar -tzf a.tgz", tmp_path, "tar")
    assert not [p for p in listing.paths if p.access == "write"]
    assert "archive_escape" not in listing.markers
    extract = _part("tar -xzf a.tgz -C out", tmp_path, "tar")
    written = {p.resolved for p in extract.paths if p.access == "write"}
    assert f"{tmp_path}/out/conftest.py" in written
    assert "sensitive_write" in extract.markers  # a test fixture pytest will import


@pytest.mark.parametrize("line", ["tar -xzf a.tgz -C out", "tar -C out -xzf a.tgz"])
def test_tar_opens_the_archive_before_moving_to_its_directory(tmp_path: Path, line: str) -> None:
    """-C moves where members land, not where the archive is read from: an escaping member is
    found either way, and its benign twin writes under the destination."""
    _tar(tmp_path / "a.tgz", ("../up.sh", None), ("ok.txt", None))
    assert "archive_escape" in _part(line, tmp_path, "tar").markers
    (tmp_path / "a.tgz").unlink()
    _tar(tmp_path / "a.tgz", ("ok.txt", None))
    twin = _part(line, tmp_path, "tar")
    assert "archive_escape" not in twin.markers
    assert f"{tmp_path}/out/ok.txt" in {p.resolved for p in twin.paths if p.access == "write"}


def test_unzip_members(tmp_path: Path) -> None:
    _zip(tmp_path / "bad.zip", "ok.txt", "../x.sh")
    _zip(tmp_path / "hook.zip", ".git/hooks/pre-commit")
    _zip(tmp_path / "good.zip", "docs/a.md")
    assert "archive_escape" in _part("unzip bad.zip", tmp_path, "unzip").markers
    assert "archive_escape" not in _part("unzip -l bad.zip", tmp_path, "unzip").markers
    assert "write" not in _part("unzip -l bad.zip", tmp_path, "unzip").classes
    assert "sensitive_write" in _part("unzip hook.zip", tmp_path, "unzip").markers
    good = _part("unzip good.zip -d site", tmp_path, "unzip")
    assert f"{tmp_path}/site/docs/a.md" in {p.resolved for p in good.paths}
    assert not good.markers & {"archive_escape", "sensitive_write"}


def test_archive_not_understood_is_the_destination_only(tmp_path: Path) -> None:
    (tmp_path / "junk.tgz").write_bytes(b"\x1f\x8b not really gzip")
    part = _part("tar -xzf junk.tgz", tmp_path, "tar")
    assert "archive_escape" not in part.markers
    assert {p.resolved for p in part.paths if p.access == "write"} == {str(tmp_path)}
