"""Write-then-run (``knowledge/autorun.py``), patches read from disk, and git repositories
found on disk (embedded repositories, ``gitdir:`` files) -- facts from the world, so these
tests build real directories."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clearance.shellparse import classify
from clearance.shellparse.facts import CommandFacts
from clearance.shellparse.knowledge.autorun import ECOSYSTEMS, ecosystem_of, runs_later


def _facts(command: str, root: Path, cwd: Path | None = None) -> CommandFacts:
    return classify(command, cwd=str(cwd or root), home="/home/u", workspace=str(root))


@pytest.mark.parametrize(
    ("path", "ecosystem"),
    [
        ("conftest.py", "python"),
        ("tests/unit/conftest.py", "python"),
        (".venv/lib/python3.12/site-packages/x.pth", "python"),
        (".venv/bin/pytest", "python"),
        ("package.json", "node"),
        ("web/package.json", "node"),
        ("node_modules/.bin/jest", "node"),
        (".github/workflows/ci.yml", "ci"),
        (".vscode/tasks.json", "editors"),
        (".devcontainer/devcontainer.json", "dev_containers"),
        (".git/hooks/pre-push", "git"),
        ("vendor/lib/.git", "git"),
        ("sub/Makefile", "native"),
        ("build.rs", "rust"),
    ],
)
def test_files_tools_run(path: str, ecosystem: str) -> None:
    assert runs_later(path)
    assert ecosystem_of(path) == ecosystem


@pytest.mark.parametrize(
    "path",
    [
        "src/app.py",
        "tasks.json",  # only .vscode/tasks.json is an editor's task list
        "workflows/ci.yml",  # only under .github/
        "docs/package-json.md",
        "bin/pytest",  # only a virtual environment's bin
        "src/settings.json",
    ],
)
def test_ordinary_files(path: str) -> None:
    assert not runs_later(path)


def test_every_ecosystem_has_patterns() -> None:
    assert all(ECOSYSTEMS.values())


def test_writes_by_every_route(tmp_path: Path) -> None:
    for command in (
        "echo x > tests/conftest.py",
        "cp /tmp/x tests/conftest.py",
        "mv /tmp/x tests/conftest.py",
        "ln -sf /tmp/x tests/conftest.py",
        "tee tests/conftest.py < /tmp/x",
        "sed -i s/a/b/ tests/conftest.py",
    ):
        facts = _facts(command, tmp_path)
        assert any("sensitive_write" in c.markers for c in facts.commands), command
    assert not any(
        "sensitive_write" in c.markers for c in _facts("cat tests/conftest.py", tmp_path).commands
    )


def test_file_tools(tmp_path: Path) -> None:
    from clearance.engine.api import decide, default_pack_path, load_policy
    from clearance.engine.intents import ToolIntent

    policy = load_policy(str(tmp_path), files=[default_pack_path()], use_cache=False)

    def decision(tool: str, path: str) -> str:
        intent = ToolIntent(tool, {"file_path": str(tmp_path / path), "content": "x"})
        return decide(
            intent, policy, cwd=str(tmp_path), workspace=str(tmp_path), home="/home/u"
        ).decision

    assert decision("Write", "tests/conftest.py") == "ask"
    assert decision("Edit", ".github/workflows/ci.yml") == "ask"
    assert decision("Write", "src/app.py") == "allow"


def test_patch_targets_are_read_from_the_patch(tmp_path: Path) -> None:
    (tmp_path / "hook.diff").write_text(
        "diff --git a/.git/hooks/pre-commit b/.git/hooks/pre-commit\n"
        "--- /dev/null\n+++ b/.git/hooks/pre-commit\n@@ -0,0 +1 @@\n+id\n"
    )
    (tmp_path / "src.diff").write_text("--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-a\n+b\n")
    (tmp_path / "huge.diff").write_text("--- a/src/app.py\n+++ b/src/app.py\n" + "+x\n" * 400_000)
    hook = _facts("git apply hook.diff", tmp_path).commands[0]
    assert "sensitive_write" in hook.markers
    assert str(tmp_path / ".git/hooks/pre-commit") in [p.resolved for p in hook.paths]
    src = _facts("patch -p1 < src.diff", tmp_path).commands[0]
    assert "sensitive_write" not in src.markers
    assert str(tmp_path / "src/app.py") in [p.resolved for p in src.paths if p.access == "write"]
    # a patch read whole names every file: a test run after it loads nothing new
    after = _facts("git apply src.diff && pytest", tmp_path).commands
    assert "code_exec" not in after[-1].classes
    # too large (or missing) to read: what it writes is unknown, and a run after it is code
    for patch in ("huge.diff", "missing.diff"):
        after = _facts(f"git apply {patch} && pytest", tmp_path).commands
        assert "code_exec" in after[-1].classes, patch
    assert (
        "code_exec"
        not in _facts("git apply --check hook.diff && pytest", tmp_path).commands[-1].classes
    )


class TestRepositoriesOnDisk:
    def _tree(self, root: Path) -> None:
        (root / ".git" / "modules" / "sm").mkdir(parents=True)
        (root / "sm").mkdir()
        (root / "sm" / ".git").write_text("gitdir: ../.git/modules/sm\n")
        (root / "vendor" / "lib" / ".git").mkdir(parents=True)
        (root / "linked").mkdir()
        (root / "linked" / ".git").write_text("gitdir: /tmp/elsewhere\n")
        (root / "src").mkdir()

    def _git_markers(self, command: str, root: Path, cwd: Path) -> set[str]:
        parts = [c for c in _facts(command, root, cwd).commands if c.program == "git"]
        return set().union(*(p.markers for p in parts))

    def test_the_workspace_repository_and_its_submodules(self, tmp_path: Path) -> None:
        self._tree(tmp_path)
        assert "env_code" not in self._git_markers("git status", tmp_path, tmp_path)
        assert "env_code" not in self._git_markers("git status", tmp_path, tmp_path / "src")
        assert "env_code" not in self._git_markers("git status", tmp_path, tmp_path / "sm")

    def test_embedded_repository(self, tmp_path: Path) -> None:
        self._tree(tmp_path)
        assert "env_code" in self._git_markers("git status", tmp_path, tmp_path / "vendor/lib")
        assert "env_code" in self._git_markers("git -C vendor/lib log", tmp_path, tmp_path)
        assert "env_code" in self._git_markers("cd vendor/lib && git log", tmp_path, tmp_path)

    def test_gitdir_file_pointing_elsewhere(self, tmp_path: Path) -> None:
        self._tree(tmp_path)
        assert "env_code" in self._git_markers("git status", tmp_path, tmp_path / "linked")


@pytest.mark.parametrize(
    ("command", "written"),
    [
        # patch works in the directory -d names; git apply puts --directory before each name
        ("patch -d home -p1 < rc.diff", "home/.bashrc"),
        ("patch -p 1 -d home < rc.diff", "home/.bashrc"),
        ("patch --directory=home --strip=1 < rc.diff", "home/.bashrc"),
        ("patch -dhome -p1 -i ../rc.diff", "home/.bashrc"),
        ("git apply --directory=home rc.diff", "home/.bashrc"),
        ("git apply --unsafe-paths --directory ../elsewhere rc.diff", "../elsewhere/.bashrc"),
        # without -p, patch takes the base name
        ("patch -d home < rc.diff", "home/.bashrc"),
        # the twins: in place
        ("patch -p1 < rc.diff", ".bashrc"),
        ("git apply rc.diff", ".bashrc"),
    ],
)
def test_where_a_patch_writes(tmp_path: Path, command: str, written: str) -> None:
    (tmp_path / "home").mkdir()
    (tmp_path / "rc.diff").write_text("--- a/.bashrc\n+++ b/.bashrc\n@@ -0,0 +1 @@\n+id\n")
    fact = _facts(command, tmp_path).commands[0]
    writes = [p.resolved for p in fact.paths if p.access == "write" and p.source == "patch"]
    assert os.path.normpath(tmp_path / written) in writes, writes


def test_a_patch_directory_not_known(tmp_path: Path) -> None:
    (tmp_path / "rc.diff").write_text("--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+id\n")
    fact = _facts('patch -d "$D" -p1 < rc.diff', tmp_path).commands[0]
    assert [p.resolved for p in fact.paths if p.source == "patch"] == [None]


def test_list_files_are_read_from_disk(tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_text("src\n.env\n")
    (tmp_path / "ok.txt").write_text("src\nREADME.md\n")

    def classes(command: str) -> set[str]:
        return set().union(*(c.classes for c in _facts(command, tmp_path).commands))

    for command in (
        "tar -cf out.tar -T bad.txt",
        "tar -czf out.tgz --files-from=bad.txt",
        "rsync -a --files-from=bad.txt . x.io:/tmp",
        "zip out.zip -@ < bad.txt",
        # GNU --files0-from (NUL- or line-separated names), and a list on the input
        "wc --files0-from=bad.txt",
        "sort --files0-from bad.txt",
        "wc --files0-from=- < bad.txt",
        "tar -cf out.tar -T - < bad.txt",
        "cpio -o < bad.txt > out.cpio",
    ):
        assert "secret_read" in classes(command), command
        assert "secret_read" not in classes(command.replace("bad.txt", "ok.txt")), command
    missing = _facts("tar -cf out.tar -T missing.txt", tmp_path).commands[0]
    assert None in [p.resolved for p in missing.paths if p.source == "list"]
    # names written on the line are the list; names from a command's output are not known
    assert "secret_read" in classes("tar -cf out.tar -T - <<< .env")
    assert "secret_read" not in classes("tar -cf out.tar -T - <<< README.md")
    piped = _facts("cat bad.txt | tar -cf out.tar -T -", tmp_path).commands[1]
    assert None in [p.resolved for p in piped.paths if p.source == "list"]
    # a list piped from find is what find selects
    (tmp_path / "src").mkdir(exist_ok=True)
    (tmp_path / ".env").write_text("K=1\n")
    assert "secret_read" in classes("find . -print0 | wc -l --files0-from=-")
    assert "secret_read" not in classes("find src -print0 | wc -l --files0-from=-")
    # du reads the sizes of what the list names, not their contents
    assert "secret_read" not in classes("du --files0-from=bad.txt")


def test_tables_use_only_the_star_wildcard() -> None:
    """``star_match`` implements ``*`` alone; a ``?`` or ``[`` in a table would be taken
    literally."""
    from fnmatch import fnmatchcase

    from clearance.shellparse.knowledge.autorun import star_match
    from clearance.shellparse.knowledge.environment import FAMILIES

    patterns = [p for ps in ECOSYSTEMS.values() for p in ps] + [p for p, _ in FAMILIES]
    assert not [p for p in patterns if "?" in p or "[" in p]
    for name in ("jest.config.ts", "x.pth", "JAVA_OPTS", "rust-toolchain.toml", "a", ""):
        for pattern in ("jest.config.*", "*.pth", "*_OPTS", "rust-toolchain*", "*", "a*b*c"):
            assert star_match(name, pattern) == fnmatchcase(name, pattern), (name, pattern)
