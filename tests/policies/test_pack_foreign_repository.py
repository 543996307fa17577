"""git run in a repository outside the workspace takes that repository's configuration: a
``core.fsmonitor``, a pager or hooks there run as soon as ``git status`` does. ``git -C DIR``
and ``cd DIR && git …`` into a repository whose configuration names a program are code the
line does not show; a plain repository there (nothing in its config runs, only sample hooks)
is read like the workspace's own, and so is a directory in no repository (git fails)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from workspace_support import decide_in, default_pack, make_world


def _repository(path: Path, *config: tuple[str, str], bare: bool = False) -> str:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", *(["--bare"] if bare else []), str(path)], check=True)
    for key, value in config:
        subprocess.run(["git", "-C", str(path), "config", key, value], check=True)
    return str(path)


@pytest.mark.parametrize(
    "command",
    ["git -C {repo} status", "cd {repo} && git status", "git -C {repo}/sub/dir log -1"],
)
def test_a_repository_whose_config_runs_a_program_is_not_allowed(
    tmp_path: Path, command: str
) -> None:
    world = make_world(tmp_path / "w", {"a.txt": "a\n"})
    repo = _repository(tmp_path / "other", ("core.fsmonitor", "rm -rf ~"))
    (Path(repo) / "sub" / "dir").mkdir(parents=True)
    found = decide_in(default_pack(world), world, command.format(repo=repo))
    assert found.decision != "allow", f"{command}: {found.decision} {found.policy_id}"
    plain = _repository(tmp_path / "plain")
    (Path(plain) / "sub" / "dir").mkdir(parents=True)
    twin = decide_in(default_pack(world), world, command.format(repo=plain))
    assert twin.decision == "allow", f"{command}: {twin.decision} {twin.policy_id} {twin.reason}"


def test_a_bare_repository_is_its_own_configuration(tmp_path: Path) -> None:
    world = make_world(tmp_path / "w", {"a.txt": "a\n"})
    evil = _repository(tmp_path / "evil.git", ("core.pager", "sh -c id"), bare=True)
    plain = _repository(tmp_path / "plain.git", bare=True)
    policy = default_pack(world)
    assert decide_in(policy, world, f"git -C {evil} log").decision != "allow"
    assert decide_in(policy, world, f"git -C {plain} log").decision == "allow"


def test_no_repository_there_is_read_only(tmp_path: Path) -> None:
    world = make_world(tmp_path / "w", {"a.txt": "a\n"})
    (tmp_path / "empty").mkdir()
    found = decide_in(default_pack(world), world, f"git -C {tmp_path / 'empty'} status")
    assert found.decision == "allow", f"{found.decision} {found.policy_id} {found.reason}"
