"""Helpers for engine tests: write policies to temporary files, decide commands."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from clearance.engine.api import decide, load_policy
from clearance.engine.decision import ApprovalDecision
from clearance.engine.intents import ToolIntent
from clearance.engine.rules import PolicySet

WORKSPACE = "/home/user/project"
HOME = "/home/user"

Write = Callable[..., str]


@pytest.fixture
def write_policy(tmp_path: Path) -> Write:
    counter = [0]

    def write(text: str, name: str | None = None) -> str:
        counter[0] += 1
        path = tmp_path / (name or f"policy{counter[0]}.yaml")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        return str(path)

    return write


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLEARANCE_CACHE_DIR", str(tmp_path / "cache"))


def policy_of(*files: str) -> PolicySet:
    return load_policy(WORKSPACE, files=list(files), use_cache=False)


def check(
    policy: PolicySet, command: str, tool: str = "bash", **kwargs: object
) -> ApprovalDecision:
    if tool in ("bash", "Bash", "run_shell_command", "shell"):
        intent = ToolIntent(tool, {"command": command})
    else:
        intent = ToolIntent(tool, dict(kwargs))
    return decide(intent, policy, cwd=WORKSPACE, workspace=WORKSPACE, home=HOME)
