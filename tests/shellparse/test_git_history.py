"""``git log -p`` prints every commit's changes: in a repository whose index tracks a secret,
that secret is read (from the real index of a real repository), and nowhere else."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from clearance.shellparse import classify


def _repo(root: Path, files: dict[str, str]) -> Path:
    root.mkdir()
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    return root


@pytest.fixture
def tracked(tmp_path: Path) -> Path:
    return _repo(tmp_path / "tracks", {".env": "API_KEY=x\n", "src/app.py": "print(1)\n"})


@pytest.fixture
def clean(tmp_path: Path) -> Path:
    return _repo(tmp_path / "clean", {"src/app.py": "print(1)\n", "README.md": "# r\n"})


def _reads(command: str, repo: Path) -> list[tuple[str | None, str]]:
    facts = classify(command, cwd=str(repo), home=str(repo.parent / "home"))
    return [(p.resolved, p.source) for c in facts.commands for p in c.paths if p.access == "read"]


@pytest.mark.parametrize("command", ["git log -p", "git log --patch -5", "git whatchanged -p"])
def test_the_whole_history_reads_the_tracked_secret(command: str, tracked: Path) -> None:
    assert (str(tracked / ".env"), "revision") in _reads(command, tracked)


@pytest.mark.parametrize("command", ["git log -p", "git log --patch -5"])
def test_no_tracked_secret_nothing_read(command: str, clean: Path) -> None:
    assert _reads(command, clean) == []


@pytest.mark.parametrize(
    "command", ["git log --oneline", "git log --stat", "git log -p -- src", "git log -p src"]
)
def test_no_patch_or_a_pathspec_reads_no_secret(command: str, tracked: Path) -> None:
    assert all(path != str(tracked / ".env") for path, _ in _reads(command, tracked))


def test_the_text_alone_reads_no_index(tracked: Path) -> None:
    facts = classify("git log -p", cwd=str(tracked), home="/home/u", resolve=False)
    assert [p for c in facts.commands for p in c.paths] == []


@pytest.mark.parametrize("command", ["git -C src log -p", "cd src && git log -p"])
def test_from_a_subdirectory_the_whole_history_still(command: str, tracked: Path) -> None:
    """``git -C src log -p`` walks the same repository's whole history: ``src`` is no
    pathspec."""
    assert (str(tracked / ".env"), "revision") in _reads(command, tracked)


@pytest.mark.parametrize(
    "command", ["git -C src log --oneline", "git -C src log -p app.py", "git -C src log -p -- ."]
)
def test_from_a_subdirectory_a_pathspec_narrows(command: str, tracked: Path) -> None:
    assert all(path != str(tracked / ".env") for path, _ in _reads(command, tracked))


def test_a_nested_repository_is_another_history(tracked: Path) -> None:
    """A repository inside the workspace (its own ``.git``) has its own history: the
    workspace's tracked secret is not in it."""
    nested = tracked / "vendor" / "lib"
    nested.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(nested)], check=True)
    assert all(
        path != str(tracked / ".env") for path, _ in _reads("git -C vendor/lib log -p", tracked)
    )
    assert (str(tracked / ".env"), "revision") in _reads("git -C vendor log -p", tracked)
