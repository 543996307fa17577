"""Helpers for engine tests (a module of its own: test modules import it by this name,
which, unlike ``conftest``, no other test folder shares)."""

from __future__ import annotations

from collections.abc import Callable

from clearance.engine.api import decide, load_policy
from clearance.engine.decision import ApprovalDecision
from clearance.engine.intents import ToolIntent
from clearance.engine.rules import PolicySet

WORKSPACE = "/home/user/project"
HOME = "/home/user"

Write = Callable[..., str]


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
