"""The harness itself works: tiny stub hooks in each agent's own format, run in the real CLIs.

These tests say nothing about clearance. They prove that a deny in the agent's format stops the
command and reaches the model, that an allow lets it run, that exit 2 blocks, and, as a control,
that a crashing hook lets the command run. Without that control a "blocked" assertion elsewhere
could pass for the wrong reason (for instance Claude Code refusing the command on its own).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from .harness import AGENTS, Agent, E2ESession, RunSummary

REASON = "SELFCHECK_REASON: stub/deny-all blocked this"
EXIT2_REASON = "SELFCHECK_EXIT2: stub/exit-2 blocked this"

# The deny each agent documents and honours (exit 0, JSON on stdout).
DENY_JSON: dict[Agent, dict[str, object]] = {
    "claude": {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": REASON,
        }
    },
    "gemini": {"decision": "deny", "reason": REASON},
    "codex": {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": REASON,
        }
    },
}

# The allow each agent honours. Codex lists permissionDecision "allow" as unsupported and simply
# runs the tool when the hook prints nothing, so its allow is empty output.
ALLOW_JSON: dict[Agent, dict[str, object] | None] = {
    "claude": {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "SELFCHECK_ALLOW: stub/allow-all",
        }
    },
    "gemini": {"decision": "allow"},
    "codex": None,
}


def stub_hook(directory: Path, name: str, *, stdout: str = "", stderr: str = "", code: int) -> str:
    """Write a shell hook that drains stdin, prints fixed text and exits with ``code``."""
    script = directory / f"{name}.sh"
    lines = ["#!/bin/sh", "cat > /dev/null"]
    if stdout:
        lines.append(f"printf '%s\\n' {shlex.quote(stdout)}")
    if stderr:
        lines.append(f"printf '%s\\n' {shlex.quote(stderr)} >&2")
    lines.append(f"exit {code}")
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    script.chmod(0o755)
    return shlex.quote(str(script))


def assert_blocked(summary: RunSummary, reason: str) -> None:
    assert summary.hook_called, summary.describe()
    assert summary.marker_exists is False, summary.describe()
    assert not summary.executed, summary.describe()
    assert reason in summary.seen, summary.describe()


def assert_ran(summary: RunSummary) -> None:
    assert summary.hook_called, summary.describe()
    assert summary.marker_exists is True, summary.describe()
    assert summary.executed, summary.describe()


@pytest.mark.parametrize("agent", AGENTS)
def test_deny_in_agent_format_blocks_and_reaches_model(
    agent: Agent, e2e: E2ESession, tmp_path: Path
) -> None:
    hook = stub_hook(tmp_path, "deny", stdout=json.dumps(DENY_JSON[agent]), code=0)
    marker = tmp_path / "selfcheck_deny"
    summary = e2e.run(agent, hook, f"touch {shlex.quote(str(marker))}", marker=marker)
    assert_blocked(summary, REASON)
    assert summary.hook_stdin is not None
    assert str(marker) in json.dumps(summary.hook_stdin), "hook did not get the proposed command"


@pytest.mark.parametrize("agent", AGENTS)
def test_allow_in_agent_format_runs_command(agent: Agent, e2e: E2ESession, tmp_path: Path) -> None:
    allow = ALLOW_JSON[agent]
    hook = stub_hook(tmp_path, "allow", stdout=json.dumps(allow) if allow else "", code=0)
    marker = tmp_path / "selfcheck_allow"
    assert_ran(e2e.run(agent, hook, f"touch {shlex.quote(str(marker))}", marker=marker))


def test_claude_allow_passes_its_own_permission_check(e2e: E2ESession, tmp_path: Path) -> None:
    """Without bypass mode headless Claude Code refuses writes outside the project by itself; the
    hook's allow is what lets this one through, so tests can check a real allow with
    ``claude_bypass=False``."""
    hook = stub_hook(tmp_path, "allow", stdout=json.dumps(ALLOW_JSON["claude"]), code=0)
    marker = tmp_path / "selfcheck_allow_default_mode"
    command = f"touch {shlex.quote(str(marker))}"
    assert_ran(e2e.run("claude", hook, command, marker=marker, claude_bypass=False))


@pytest.mark.parametrize("agent", AGENTS)
def test_exit_2_with_stderr_blocks(agent: Agent, e2e: E2ESession, tmp_path: Path) -> None:
    hook = stub_hook(tmp_path, "exit2", stderr=EXIT2_REASON, code=2)
    marker = tmp_path / "selfcheck_exit2"
    summary = e2e.run(agent, hook, f"touch {shlex.quote(str(marker))}", marker=marker)
    assert_blocked(summary, EXIT2_REASON)
    assert summary.hook_exit_code == 2, summary.describe()


@pytest.mark.parametrize("agent", AGENTS)
def test_control_crashing_hook_fails_open(agent: Agent, e2e: E2ESession, tmp_path: Path) -> None:
    """Exit 1 is a non-blocking error in all three agents: the command runs. If this ever fails,
    the blocked-command tests may be passing because something else stopped the command."""
    hook = stub_hook(tmp_path, "crash", stderr="SELFCHECK_CRASH", code=1)
    marker = tmp_path / "selfcheck_crash"
    assert_ran(e2e.run(agent, hook, f"touch {shlex.quote(str(marker))}", marker=marker))
