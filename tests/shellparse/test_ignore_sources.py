"""Which ignore files a searching program honours, decided on real trees.

A recursive search skips what its program's defaults skip, and only that: ripgrep reads
``.gitignore`` (and ``.git/info/exclude``, and the user's global excludes) only inside a git
repository, ``.ignore``/``.rgignore`` everywhere; ``git grep --untracked`` reads git's
standard excludes but never ``.ignore``. A secret an ignore file would hide from a program
that does not read that file is a secret read (each case has its twin where the program does
honour the file and the search is allowed).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clearance.engine.api import decide, default_pack_path, load_policy
from clearance.engine.intents import ToolIntent


def _tree(root: Path, *, git: bool, files: dict[str, str]) -> tuple[str, str]:
    workspace, home = root / "proj", root / "home"
    (workspace / "src").mkdir(parents=True)
    home.mkdir()
    (workspace / (".git" if git else ".clearance")).mkdir()
    (workspace / "src" / "app.py").write_text("# TODO\n")
    (workspace / "deploy.pem").write_text("-----BEGIN PRIVATE KEY-----\n")
    for name, text in files.items():
        target = (home if name.startswith("~/") else workspace) / name.removeprefix("~/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return str(workspace), str(home)


def _decision(world: tuple[str, str], command: str) -> str:
    workspace, home = world
    policy = load_policy(workspace, files=[default_pack_path()], use_cache=False)
    return decide(
        ToolIntent("bash", {"command": command}),
        policy,
        cwd=workspace,
        workspace=workspace,
        home=home,
    ).decision


@pytest.fixture(autouse=True)
def _plain_git_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_DIR"):
        monkeypatch.delenv(name, raising=False)


#: (technique, git repository?, files, command, decision)
CASES = [
    # ripgrep honours .gitignore only in a git repository
    ("gitignore outside git", False, {".gitignore": "*.pem\n"}, "rg TODO", "deny"),
    ("gitignore in git", True, {".gitignore": "*.pem\n"}, "rg TODO", "allow"),
    ("--no-require-git", False, {".gitignore": "*.pem\n"}, "rg --no-require-git TODO", "allow"),
    # .ignore counts everywhere for ripgrep, unless --no-ignore-dot
    ("rg .ignore", False, {".ignore": "*.pem\n"}, "rg TODO", "allow"),
    ("--no-ignore-dot", False, {".ignore": "*.pem\n"}, "rg --no-ignore-dot TODO", "deny"),
    # the user's global excludes, by default or through core.excludesFile
    ("global default", True, {"~/.config/git/ignore": "*.pem\n"}, "rg TODO", "allow"),
    (
        "--no-ignore-global",
        True,
        {"~/.config/git/ignore": "*.pem\n"},
        "rg --no-ignore-global TODO",
        "deny",
    ),
    (
        "core.excludesFile",
        True,
        {"~/.gitconfig": "[core]\n\texcludesFile = ~/.gi\n", "~/.gi": "*.pem\n"},
        "rg TODO",
        "allow",
    ),
    ("global outside git", False, {"~/.config/git/ignore": "*.pem\n"}, "rg TODO", "deny"),
    # git grep --untracked: git's excludes, never .ignore
    ("git grep .ignore", True, {".ignore": "*.pem\n"}, "git grep --untracked TODO", "deny"),
    ("git grep .gitignore", True, {".gitignore": "*.pem\n"}, "git grep --untracked TODO", "allow"),
    (
        "git grep info/exclude",
        True,
        {".git/info/exclude": "*.pem\n"},
        "git grep --untracked TODO",
        "allow",
    ),
    # a later line re-includes
    ("negated", True, {".gitignore": "*.pem\n!deploy.pem\n"}, "rg TODO", "deny"),
]


@pytest.mark.parametrize(
    ("technique", "git", "files", "command", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_ignore_files_a_program_reads(
    technique: str,
    git: bool,
    files: dict[str, str],
    command: str,
    expected: str,
    tmp_path: Path,
) -> None:
    world = _tree(tmp_path, git=git, files=files)
    assert _decision(world, command) == expected
