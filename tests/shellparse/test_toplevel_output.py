"""``git rev-parse --show-toplevel`` prints a fact of this machine: the repository's top.

``cd "$(git rev-parse --show-toplevel)" && make`` runs make at the top of the repository the
agent is in, and the analysis knows where that is (the directory above the cwd that holds
``.git``), so what follows is judged there instead of in an unknown directory. Anything that
could move git's answer leaves the output unknown: a ``GIT_`` variable in the line, one in the
environment that moves the repository or its configuration, a ``core.worktree`` in a
configuration file, another spelling of the command. Each case has its twin.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from workspace_support import default_pack, make_world

from clearance.engine.api import decide
from clearance.engine.intents import ToolIntent

TOP = 'cd "$(git rev-parse --show-toplevel)" && '


def _decide(
    tmp_path: Path,
    command: str,
    files: dict[str, str] | None = None,
    env: pytest.MonkeyPatch | None = None,
) -> str:
    """The decision on ``command`` run in ``src/`` of a git repository holding ``files``; with
    ``env``, its ``GIT_WORK_TREE`` is set to ``/`` once the repository is made."""
    root = tmp_path / f"world{len(list(tmp_path.iterdir()))}"
    world = make_world(root, {"src/app.py": "x = 1\n", **(files or {})}, {}, repository=True)
    if env is not None:
        env.setenv("GIT_WORK_TREE", "/")
    workspace, home = world
    sub = str(Path(workspace) / "src")
    intent = ToolIntent("Bash", {"command": command})
    return decide(intent, default_pack(world), cwd=sub, workspace=workspace, home=home).decision


@pytest.fixture(autouse=True)
def _no_git_places(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_PARAMETERS"):
        monkeypatch.delenv(name, raising=False)


def test_the_top_is_known(tmp_path: Path) -> None:
    assert _decide(tmp_path, TOP + "make") == "allow"
    assert _decide(tmp_path, TOP + "cat src/app.py") == "allow"
    # the twin: a secret at the top is read at the top
    assert _decide(tmp_path, TOP + "cat .env", {".env": "K=1\n"}) == "deny"


def test_an_unknown_place_stays_unknown(tmp_path: Path) -> None:
    # without the known top, make runs in a directory nobody knows
    assert _decide(tmp_path, 'cd "$(git rev-parse --show-superproject-working-tree)" && make') != (
        "allow"
    )


def test_a_git_variable_in_the_line(tmp_path: Path) -> None:
    # (``set -a``: the plain assignment is exported to git)
    assert _decide(tmp_path, "set -a; GIT_WORK_TREE=/; " + TOP + "make") != "allow"


def test_a_git_variable_in_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _decide(tmp_path, TOP + "make", env=monkeypatch) != "allow"


def test_an_unrelated_git_variable_in_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_SSL_CAINFO", "/etc/ssl/certs/ca.pem")
    assert _decide(tmp_path, TOP + "make") == "allow"


def test_a_configured_work_tree(tmp_path: Path) -> None:
    world_files = {".git/config": "[core]\n\tworktree = /\n"}
    assert _decide(tmp_path, TOP + "make", world_files) != "allow"


def test_a_known_output_with_quoted_text_after_it(tmp_path: Path) -> None:
    # "$(…)/src": the known output and the quoted text after it are one field
    top = "$(git rev-parse --show-toplevel)"
    assert _decide(tmp_path, f'cd "{top}/src" && cat app.py') == "allow"
    assert _decide(tmp_path, f'cat "{top}/.env"', {".env": "K=1\n"}) == "deny"
    assert _decide(tmp_path, 'cat "$(echo ../.e)nv"', {".env": "K=1\n"}) == "deny"


def test_a_work_tree_in_the_xdg_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    xdg = tmp_path / "xdg"
    (xdg / "git").mkdir(parents=True)
    (xdg / "git" / "config").write_text("[core]\n\tworktree = /\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    assert _decide(tmp_path, TOP + "make") != "allow"
    (xdg / "git" / "config").write_text("[user]\n\tname = x\n")
    assert _decide(tmp_path, TOP + "make") == "allow"
