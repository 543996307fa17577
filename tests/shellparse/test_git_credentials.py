"""Credentials in git's configuration are read from the machine (``gitcredentials``).

A CI checkout keeps its token in ``.git/config`` (``http.<url>.extraheader``), a clone from a
URL with a token keeps the URL, a user's ``~/.gitconfig`` may hold one: reading those files,
listing the configuration, printing the remotes or searching the repository whole prints the
secret. Each technique has its twin: the same command where the configuration holds none, or
a command that prints only what holds none (one key, the names alone, hidden files skipped).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from workspace_support import World, decide_in, default_pack, make_world

from clearance.engine.api import decide
from clearance.engine.intents import ToolIntent
from clearance.shellparse.gitcredentials import is_credential


def _git(workspace: str, *args: str) -> None:
    subprocess.run(["git", "-C", workspace, *args], check=True, capture_output=True)


def _world(root: Path, home_files: dict[str, str] | None = None) -> World:
    world = make_world(root, {"src/app.py": "print(1)\n"}, home_files, repository=True)
    _git(world[0], "config", "user.email", "me@example.com")
    _git(world[0], "config", "user.name", "me")
    return world


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> World:
    """A CI checkout: the job's token as an extra header."""
    world = _world(tmp_path_factory.mktemp("checkout"))
    _git(world[0], "remote", "add", "origin", "https://github.com/o/r")
    _git(world[0], "config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic eA==")
    return world


@pytest.fixture(scope="module")
def token_url(tmp_path_factory: pytest.TempPathFactory) -> World:
    """A clone from a URL with a token in it."""
    world = _world(tmp_path_factory.mktemp("tokenurl"))
    _git(world[0], "remote", "add", "origin", "https://x-access-token:ghs_abc@github.com/o/r")
    return world


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> World:
    world = _world(tmp_path_factory.mktemp("clean"))
    _git(world[0], "remote", "add", "origin", "git@github.com:o/r.git")
    return world


def _decided(world: World, command: str) -> str:
    return decide_in(default_pack(world), world, command).decision


#: (command, in the CI checkout, with a token URL, in the clean twin)
CASES = [
    ("cat .git/config", "deny", "deny", "allow"),
    ("git config --list", "deny", "deny", "allow"),
    ("git config --get-regexp 'remote\\..*'", "deny", "deny", "allow"),
    ("git config user.email", "allow", "allow", "allow"),
    ("git config --get remote.origin.url", "allow", "deny", "allow"),
    ("git config --name-only --list", "allow", "allow", "allow"),
    ("git remote -v", "allow", "deny", "allow"),
    ("git remote get-url origin", "allow", "deny", "allow"),
    ("git ls-remote --get-url origin", "allow", "deny", "allow"),
    ("grep -r token .", "deny", "deny", "allow"),
    ("grep -r token .git", "deny", "deny", "allow"),
    ("rg --hidden token", "deny", "deny", "allow"),
    ("rg token", "allow", "allow", "allow"),
    ("grep -r token src", "allow", "allow", "allow"),
]


@pytest.mark.parametrize(("command", "ci", "url", "twin"), CASES, ids=[c[0] for c in CASES])
def test_credentials_in_the_repository_configuration(
    command: str, ci: str, url: str, twin: str, checkout: World, token_url: World, clean: World
) -> None:
    assert _decided(checkout, command) == ci, ("checkout", command)
    assert _decided(token_url, command) == url, ("token url", command)
    assert _decided(clean, command) == twin, ("clean", command)


def test_a_url_rewrite_and_the_user_configuration(tmp_path: Path) -> None:
    """``url.<base with a token>.insteadOf`` rewrites what ``git remote -v`` prints; a token in
    ``~/.gitconfig`` is listed by ``git config --list`` and read by ``cat``; an included file
    is read by what reads the configuration, not by ``cat`` of the including file."""
    rewritten = _world(tmp_path / "a")
    _git(rewritten[0], "remote", "add", "origin", "https://github.com/o/r")
    _git(rewritten[0], "config", "url.https://me:tok@github.com/.insteadOf", "https://github.com/")
    assert _decided(rewritten, "git remote -v") == "deny"
    user = _world(tmp_path / "b", {".gitconfig": "[github]\n\ttoken = abc\n"})
    assert _decided(user, "git config --list") == "deny"
    assert _decided(user, "cat ~/.gitconfig") == "deny"
    assert _decided(user, "git config user.email") == "allow"
    included = _world(tmp_path / "c", {"creds.inc": "[sendemail]\n\tsmtpPass = x\n"})
    _git(included[0], "config", "include.path", str(Path(included[1]) / "creds.inc"))
    assert _decided(included, "git config --list") == "deny"
    assert _decided(included, "cat .git/config") == "allow"


def test_a_git_told_to_read_other_configuration_is_not_known(
    clean: World, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "elsewhere"))
    assert _decided(clean, "git config --list") == "deny"
    monkeypatch.delenv("GIT_CONFIG_GLOBAL")
    assert _decided(clean, "git config --list") == "allow"


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("http.https://github.com/.extraheader", "AUTHORIZATION: basic eA==", True),
        ("remote.origin.url", "https://ghp_abc@github.com/o/r", True),
        ("remote.origin.url", "https://u:p@example.com/r", True),
        ("remote.origin.url", "ssh://u:p@example.com/r", True),
        ("sendemail.smtppass", "x", True),
        ("url.https://u:t@github.com/.insteadof", "https://github.com/", True),
        # the twins: a user alone where it is a login name, no user, no URL
        ("remote.origin.url", "ssh://git@github.com/o/r", False),
        ("remote.origin.url", "git@github.com:o/r.git", False),
        ("remote.origin.url", "https://github.com/o/r", False),
        ("user.email", "me@example.com", False),
        ("credential.helper", "store", False),
    ],
)
def test_what_a_credential_is(key: str, value: str, expected: bool) -> None:
    assert is_credential(key, value) is expected


def test_a_worktree_reads_its_repository_configuration(tmp_path: Path) -> None:
    """A linked worktree's ``.git`` is a ``gitdir:`` file, and its configuration is its main
    repository's (``commondir``): the token there is printed from the worktree too."""
    workspace, home = _world(tmp_path / "main")
    _git(workspace, "remote", "add", "origin", "https://ghp_abc@github.com/o/r")
    _git(workspace, "commit", "-q", "--allow-empty", "-m", "x")
    linked = str(Path(workspace) / "linked")
    _git(workspace, "worktree", "add", "-q", linked)
    assert Path(linked, ".git").is_file()
    assert (
        decide_in(default_pack((workspace, home)), (linked, home), "git remote -v").decision
        == "deny"
    )
    _git(workspace, "remote", "set-url", "origin", "https://github.com/o/r")
    assert (
        decide_in(default_pack((workspace, home)), (linked, home), "git remote -v").decision
        == "allow"
    )


def test_the_agents_read_tool(checkout: World, clean: World) -> None:
    """Claude Code's ``Read`` of ``.git/config`` is judged by what the file holds, as ``cat``
    is."""

    def read(world: World) -> str:
        workspace, home = world
        intent = ToolIntent("Read", {"file_path": str(Path(workspace) / ".git" / "config")})
        return decide(
            intent, default_pack(world), cwd=workspace, workspace=workspace, home=home
        ).decision

    assert read(checkout) == "deny"
    assert read(clean) == "allow"


def _projects(root: Path, token: bool) -> World:
    """A folder of projects (the workspace) holding two clones, one with a submodule: with
    ``token`` the inner clone was made from a URL with a token and its submodule's git
    directory (``.git/modules/lib/config``) keeps a CI header; the twin's remotes hold none."""
    world = make_world(root, {"README.md": "projects\n"}, repository=True)
    workspace = Path(world[0])
    for name in ("api", "web"):
        subprocess.run(["git", "init", "-q", str(workspace / name)], check=True)
    url = "https://x-access-token:ghs_abc@github.com/o/web" if token else "https://github.com/o/web"
    _git(str(workspace / "web"), "remote", "add", "origin", url)
    modules = workspace / "api" / ".git" / "modules" / "lib"
    modules.mkdir(parents=True)
    entry = (
        'http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic eA=='
        if token
        else ("core]\n\tbare = false")
    )
    (modules / "config").write_text(f"[{entry}\n")
    # a submodule called ``config``: a directory, never taken for a configuration file
    (workspace / "web" / ".git" / "modules" / "config").mkdir(parents=True)
    return world


@pytest.mark.parametrize(
    "command",
    ["grep -r ghs_ .", "grep -r extraheader .", "rg --hidden token", "grep -rl x api", "ag -u x"],
)
def test_a_search_of_a_folder_of_repositories_reads_every_git_configuration(
    command: str, tmp_path: Path
) -> None:
    """The configuration of each repository *below* the one searched (clones in a folder of
    projects, a submodule's git directory) is read by a search that enters ``.git``: denied
    when one holds a credential, allowed in the twin whose configurations hold none."""
    with_token = _projects(tmp_path / "token", token=True)
    twin = _projects(tmp_path / "twin", token=False)
    found = decide_in(default_pack(with_token), with_token, command)
    assert found.decision == "deny", (command, found.reason_code, found.reason)
    assert _decided(twin, command) == "allow", command


def test_a_search_that_skips_hidden_files_reads_no_nested_configuration(tmp_path: Path) -> None:
    """``rg`` without ``--hidden`` never enters ``.git``: the nested tokens are not read."""
    with_token = _projects(tmp_path / "token", token=True)
    assert _decided(with_token, "rg ghs_") == "allow"
