"""The default pack protects clearance's own state from every route (DECISIONS #3): delete, move,
truncate, overwrite, re-link, stash away, clean or read the ledgers and keys, the cache, the
policies, the agents' hook settings and the installed clearance -- by bash, by the file tools,
through ``cd`` and relative paths, archive tools, ``find``, git porcelain and links. Each route
has a benign twin that stays allowed.

The workspace and home are real directories holding the state, so that what the facts layer
resolves on the machine (links, the current directory) is exercised as an agent would meet it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from clearance.engine.api import decide, default_pack_path, load_policy
from clearance.engine.intents import ToolIntent
from clearance.engine.rules import PolicySet
from clearance.engine.selfprotect import sets


@pytest.fixture(scope="module")
def pack() -> PolicySet:
    return load_policy("/", files=[default_pack_path()], use_cache=False)


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    """``(workspace, home)`` laid out as a project that uses clearance."""
    home, work = tmp_path / "home", tmp_path / "home" / "proj"
    for directory in (
        work / ".git", work / ".clearance", work / ".claude", work / ".gemini", work / ".codex",
        work / "src", work / "build", home / ".cache" / "clearance",
        home / ".local" / "state" / "clearance" / "ledgers", home / ".config" / "clearance",
        home / ".codex",
    ):  # fmt: skip
        directory.mkdir(parents=True, exist_ok=True)
    for file in (
        work / ".clearance" / "policy.yaml", work / ".claude" / "settings.json",
        work / ".claude" / "settings.local.json", work / ".gemini" / "settings.json",
        work / ".codex" / "config.toml", work / "README.md", work / "src" / "app.py",
        home / ".cache" / "clearance" / "key", home / ".local" / "state" / "clearance" / "key",
        home / ".local" / "state" / "clearance" / "ledgers" / "proj-0123.jsonl",
        home / ".config" / "clearance" / "policy.yaml", home / ".codex" / "config.toml",
    ):  # fmt: skip
        file.write_text("x\n")
    return work, home


def decision(
    pack: PolicySet, world: tuple[Path, Path], tool: str, data: dict[str, object], cwd: str = ""
) -> str:
    work, home = world
    intent = ToolIntent(tool, data, cwd=str(work / cwd) if cwd else str(work))
    return decide(intent, pack, cwd=intent.cwd, workspace=str(work), home=str(home)).decision


def bash(pack: PolicySet, world: tuple[Path, Path], command: str, cwd: str = "") -> str:
    return decision(pack, world, "Bash", {"command": command}, cwd)


LEDGER = "~/.local/state/clearance/ledgers/proj-0123.jsonl"

#: (route, command, cwd inside the workspace)
DENIED = [
    # the ledger, its head and the user-level state
    ("delete-state-dir", "rm -rf ~/.local/state/clearance", ""),
    ("delete-state-parent", "rm -rf ~/.local/state", ""),
    ("move-state", "mv ~/.local/state/clearance /tmp/elsewhere", ""),
    ("truncate-ledger", f"truncate -s 0 {LEDGER}", ""),
    ("overwrite-ledger", f": > {LEDGER}", ""),
    ("edit-ledger", f"sed -i 1d {LEDGER}", ""),
    ("relink-state", "ln -sfn /tmp/fake ~/.local/state/clearance", ""),
    ("read-ledger", f"cat {LEDGER}", ""),
    ("find-delete-ledgers", "find ~ -name '*.jsonl' -delete", ""),
    ("read-ledger-key", "cat ~/.local/state/clearance/key", ""),
    # the cache and its key
    ("read-cache-key", "cat ~/.cache/clearance/key", ""),
    ("copy-cache-key", "cp ~/.cache/clearance/key /tmp/k", ""),
    ("archive-cache-key", "tar czf /tmp/k.tgz ~/.cache/clearance", ""),
    ("link-to-cache-key", "ln -s ~/.cache/clearance/key k", ""),
    ("delete-cache", "rm -rf ~/.cache", ""),
    ("shred-cache-key", "shred -u ~/.cache/clearance/key", ""),
    # project and user policies
    ("delete-project-policy", "rm .clearance/policy.yaml", ""),
    ("delete-policy-via-cd", "cd .clearance && rm policy.yaml", ""),
    ("delete-policy-relative", "rm ../.clearance/policy.yaml", "src"),
    ("edit-project-policy", "sed -i s/deny/allow/ .clearance/policy.yaml", ""),
    ("archive-remove-policy", "tar --remove-files -cf /tmp/p.tar .clearance", ""),
    ("rsync-remove-policy", "rsync -a --remove-source-files .clearance/ /tmp/p", ""),
    ("find-delete-policy", "find . -name policy.yaml -delete", ""),
    ("find-exec-rm-policy", "find . -name '*.yaml' -exec rm {} +", ""),
    ("delete-workspace", "rm -rf .", ""),
    ("delete-user-policy", "rm ~/.config/clearance/policy.yaml", ""),
    ("overwrite-user-policy", "echo 'rules: []' > ~/.config/clearance/policy.yaml", ""),
    # git porcelain that drops untracked files
    ("stash-untracked", "git stash -u", ""),
    ("stash-all", "git stash --all", ""),
    ("stash-push-untracked", "git stash push --include-untracked -m wip", ""),
    ("clean-force", "git clean -f", ""),
    ("clean-everything", "git clean -fdx", ""),
    # the agents' hook settings
    ("overwrite-claude-local", "echo '{}' > .claude/settings.local.json", ""),
    ("delete-claude-dir", "rm -rf .claude", ""),
    ("move-gemini-settings", "mv .gemini/settings.json /tmp/g", ""),
    ("append-codex-user", "echo 'x=1' >> ~/.codex/config.toml", ""),
    ("delete-codex-project", "rm -rf .codex", ""),
]

ALLOWED = [
    ("stash-tracked", "git stash", ""),
    ("stash-pathspec", "git stash push -- src", ""),
    ("clean-dry-run", "git clean -n", ""),
    ("delete-build", "rm -rf build", ""),
    ("find-delete-build", "find build -name '*.o' -delete", ""),
    ("find-delete-pyc", "find . -name '*.pyc' -delete", ""),
    ("read-readme", "cat README.md", ""),
    ("read-project-policy", "cat .clearance/policy.yaml", ""),
    ("read-claude-settings", "cat .claude/settings.json", ""),
    ("write-source", "echo x > src/new.py", ""),
    ("move-source", "mv src/app.py src/main.py", ""),
]


@pytest.mark.parametrize(("route", "command", "cwd"), DENIED, ids=[r for r, _, _ in DENIED])
def test_route_to_clearance_state_is_denied(
    pack: PolicySet, world: tuple[Path, Path], route: str, command: str, cwd: str
) -> None:
    assert bash(pack, world, command, cwd) == "deny"


@pytest.mark.parametrize(("route", "command", "cwd"), ALLOWED, ids=[r for r, _, _ in ALLOWED])
def test_benign_twin_stays_allowed(
    pack: PolicySet, world: tuple[Path, Path], route: str, command: str, cwd: str
) -> None:
    assert bash(pack, world, command, cwd) == "allow"


def test_file_tools(pack: PolicySet, world: tuple[Path, Path]) -> None:
    work, home = world
    denied = [
        ("Write", {"file_path": str(work / ".clearance" / "policy.yaml"), "content": "x"}),
        ("Edit", {"file_path": str(work / ".claude" / "settings.local.json")}),
        ("Write", {"file_path": str(home / ".gemini" / "settings.json"), "content": "{}"}),
        ("Read", {"file_path": str(home / ".cache" / "clearance" / "key")}),
        ("Read", {"file_path": str(home / ".local/state/clearance/ledgers/proj-0123.jsonl")}),
    ]
    for tool, data in denied:
        assert decision(pack, world, tool, data) == "deny", (tool, data)
    allowed = [
        ("Read", {"file_path": str(work / "README.md")}),
        ("Write", {"file_path": str(work / "src" / "new.py"), "content": "x"}),
    ]
    for tool, data in allowed:
        assert decision(pack, world, tool, data) == "allow", (tool, data)


def test_the_installed_clearance_is_protected_also_inside_a_project_venv(
    pack: PolicySet, tmp_path: Path
) -> None:
    """This interpreter's environment holds the running clearance; seen from the directory
    around it (a project whose ``.venv`` it is), every route to it is denied."""
    prefix = Path(sys.prefix)
    work, venv = prefix.parent, prefix.name
    home = tmp_path / "home"
    home.mkdir()
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"

    def check(command: str) -> str:
        intent = ToolIntent("Bash", {"command": command}, cwd=str(work))
        return decide(intent, pack, cwd=str(work), workspace=str(work), home=str(home)).decision

    for command in (
        f"rm -rf {venv}",
        f"mv {venv} /tmp/old-venv",
        f"rm {venv}/bin/clearance",
        f"ln -sf /bin/true {venv}/bin/clearance",
        f"echo 'import os' > {venv}/lib/{version}/site-packages/zz.pth",
        f"cp /bin/true {venv}/bin/python3",
        f"rm -rf {venv}/lib/{version}/site-packages",
    ):
        assert check(command) == "deny", command
    assert check(f"ls {venv}/bin") == "allow"


def test_a_clearance_placed_on_path_is_protected(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    state = sets({"PATH": f"{bin_dir}:relative/bin", "HOME": str(tmp_path)})["clearance_state"]
    assert str(bin_dir / "clearance") in state
    assert not any(p.startswith("relative") for p in state)


def test_configured_locations_are_protected(tmp_path: Path) -> None:
    env = {
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "CLEARANCE_CACHE_DIR": str(tmp_path / "cc"),
        "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
        "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"),
        "CODEX_HOME": str(tmp_path / "codex"),
        "CLEARANCE_MANAGED_POLICY": str(tmp_path / "managed.yaml"),
    }
    named = sets(env)
    for path in ("state/clearance", "cache/clearance", "cc"):
        assert str(tmp_path / path) in named["clearance_private"]
    for path in ("cfg/clearance", "claude/settings*.json", "codex/config.toml", "managed.yaml"):
        assert str(tmp_path / path) in named["clearance_state"]
    assert f"{tmp_path / 'state'}$" in named["clearance_reach"]
    assert "/$" not in named["clearance_reach"] and "/{}" not in named["clearance_reach"]
    assert os.path.join(str(tmp_path), "{}") in named["clearance_reach"]
