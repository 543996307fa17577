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
from workspace_support import decide_in, default_pack, make_world

from clearance.engine.api import decide
from clearance.engine.intents import ToolIntent

#: What every tree holds: a source to search and a key an ignore file may hide.
BASE = {"src/app.py": "# TODO\n", "deploy.pem": "-----BEGIN PRIVATE KEY-----\n"}


def _decision(root: Path, *, git: bool, files: dict[str, str], command: str) -> str:
    """The decision on ``command`` in a project (a git repository or not) holding ``BASE`` and
    ``files``; a name starting ``~/`` is in the home."""
    home_files = {k.removeprefix("~/"): v for k, v in files.items() if k.startswith("~/")}
    project = {k: v for k, v in files.items() if not k.startswith("~/")}
    world = make_world(
        root, {**BASE, **project}, home_files, marker=".git" if git else ".clearance"
    )
    return decide_in(default_pack(world), world, command).decision


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
    assert _decision(tmp_path, git=git, files=files, command=command) == expected


# --- the agents' search tools -------------------------------------------------------------------

#: (technique, git repository?, files, tool, input, decision): Claude Code's ``Grep`` is
#: ripgrep without ``--no-ignore``, so a key ``.gitignore`` names is not searched in a git
#: repository; only git's own ignore files count for it, a ``glob`` filter overrides them, and
#: every other search tool reads the whole tree.
TOOL_CASES = [
    ("Grep gitignore in git", True, {".gitignore": "*.pem\n"}, "Grep", {}, "allow"),
    ("Grep no ignore file", True, {}, "Grep", {}, "deny"),
    ("Grep gitignore outside git", False, {".gitignore": "*.pem\n"}, "Grep", {}, "deny"),
    ("Grep info/exclude", True, {".git/info/exclude": "*.pem\n"}, "Grep", {}, "allow"),
    ("Grep .ignore not counted", True, {".ignore": "*.pem\n"}, "Grep", {}, "deny"),
    ("Grep negated", True, {".gitignore": "*.pem\n!deploy.pem\n"}, "Grep", {}, "deny"),
    ("Grep glob overrides", True, {".gitignore": "*.pem\n"}, "Grep", {"glob": "*.pem"}, "deny"),
    ("Grep glob elsewhere", True, {".gitignore": "*.pem\n"}, "Grep", {"glob": "*.py"}, "allow"),
    (
        "Grep names the file",
        True,
        {".gitignore": "*.pem\n"},
        "Grep",
        {"path": "deploy.pem"},
        "deny",
    ),
    ("Gemini reads ignored", True, {".gitignore": "*.pem\n"}, "grep_search", {}, "deny"),
    ("runner reads ignored", True, {".gitignore": "*.pem\n"}, "grep", {}, "deny"),
]


@pytest.mark.parametrize(
    ("technique", "git", "files", "tool", "given", "expected"),
    TOOL_CASES,
    ids=[c[0] for c in TOOL_CASES],
)
def test_ignore_files_a_search_tool_honours(
    technique: str,
    git: bool,
    files: dict[str, str],
    tool: str,
    given: dict[str, str],
    expected: str,
    tmp_path: Path,
) -> None:
    world = make_world(tmp_path, {**BASE, **files}, {}, marker=".git" if git else ".clearance")
    workspace, home = world
    fields = {"pattern": "TODO", **given}
    if "path" in fields:
        fields["path"] = f"{workspace}/{fields['path']}"
    decision = decide(
        ToolIntent(tool, fields), default_pack(world), cwd=workspace, workspace=workspace, home=home
    )
    assert decision.decision == expected, decision.reason
