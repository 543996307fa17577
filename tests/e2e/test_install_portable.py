"""The hook command ``clearance hook install --scope project`` writes, inside the real agents.

A project's settings file is committed and runs on every teammate's machine, so the command in it
must not name this machine's paths, and on a machine without clearance it must BLOCK the tool
call (an agent runs the tool when its hook cannot start). "A machine without clearance" is the
same command run with a ``PATH`` that holds no ``clearance``; its twin, with this environment's
``clearance`` on ``PATH``, decides normally and lets a harmless command run.
"""

from __future__ import annotations

import io
import json
import shlex
import sys
import tomllib
from pathlib import Path

import pytest

from clearance.hooks.install import NOT_INSTALLED, run_install

from .harness import AGENTS, HOOK_NAMES, Agent, E2ESession

#: A PATH with the system's programs (node, python3, sh) and no clearance.
BARE_PATH = "/usr/local/bin:/usr/bin:/bin"


def installed_command(agent: Agent, project: Path, home: Path) -> str:
    """Install the hook for ``agent`` at project scope and read back the command it wrote."""
    out, err = io.StringIO(), io.StringIO()
    code = run_install(
        HOOK_NAMES[agent], scope="project", project=str(project), env={"HOME": str(home)},
        out=out, err=err,
    )  # fmt: skip
    assert code == 0, err.getvalue()
    if agent == "codex":
        data = tomllib.loads((project / ".codex" / "config.toml").read_text(encoding="utf-8"))
        event = "PreToolUse"
    else:
        folder = ".claude" if agent == "claude" else ".gemini"
        data = json.loads((project / folder / "settings.json").read_text(encoding="utf-8"))
        event = "PreToolUse" if agent == "claude" else "BeforeTool"
    (group,) = data["hooks"][event]
    (entry,) = group["hooks"]
    command = entry["command"]
    assert isinstance(command, str)
    return command


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    project, home = tmp_path / "proj", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    return project, home


@pytest.mark.parametrize("agent", AGENTS)
def test_project_hook_names_no_path_of_this_machine(
    agent: Agent, e2e: E2ESession, dirs: tuple[Path, Path]
) -> None:
    command = installed_command(agent, *dirs)
    for local in (str(e2e.clearance()), sys.prefix, sys.executable, str(dirs[0])):
        assert local not in command, command


@pytest.mark.parametrize("agent", AGENTS)
def test_project_hook_blocks_on_a_machine_without_clearance(
    agent: Agent, e2e: E2ESession, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    command = installed_command(agent, *dirs)
    marker = tmp_path / "e2e_marker_portable"
    harness = e2e.harness()
    summary = harness.run(
        agent,
        command,
        f"touch {shlex.quote(str(marker))}",
        marker=marker,
        extra_env={"PATH": BARE_PATH},
    )
    assert summary.hook_called, summary.describe()
    assert summary.hook_exit_code == 2, summary.describe()
    assert summary.marker_exists is False, summary.describe()
    assert not summary.executed, summary.describe()
    assert NOT_INSTALLED in summary.seen, summary.describe()


@pytest.mark.parametrize("agent", AGENTS)
def test_project_hook_decides_where_clearance_is_on_path(
    agent: Agent, e2e: E2ESession, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    """The twin: the same command with clearance on PATH answers (the default pack allows
    ``ls``), so the block above is the launcher's and not a broken command line."""
    command = installed_command(agent, *dirs)
    marker = tmp_path / "unused_marker"
    path = f"{e2e.clearance().parent}:{BARE_PATH}"
    summary = e2e.harness().run(agent, command, "ls /", marker=marker, extra_env={"PATH": path})
    assert summary.hook_called, summary.describe()
    assert summary.hook_exit_code == 0, summary.describe()
    assert summary.executed, summary.describe()
