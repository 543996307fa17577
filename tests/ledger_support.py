"""What the tests of the audit ledger and its commands share: a small policy (``rm`` denied,
``ls`` allowed, anything else left to the default), written beside the test's files, the
decision on a Bash command under it, a ledger of such decisions as a hook records them, and
``clearance audit`` run in a process of its own (``audit_process``).
Test modules import these helpers (tests/cli/test_audit*.py, tests/engine/test_ledger*.py),
and the audit commands' tests the fixtures ``policy`` (the file) and ``ledger`` (``CALLS``
recorded)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from clearance.engine.api import decide, load_policy
from clearance.engine.decision import ApprovalDecision
from clearance.engine.intents import ToolIntent
from clearance.engine.ledger import Ledger

#: Rules ``a/no-rm`` (deny) and ``a/ls`` (allow).
POLICY = """\
version: 1
id: a
rules:
  - id: no-rm
    decision: deny
    reason: no deletes
    when: {program: rm}
  - id: ls
    decision: allow
    reason: listing is harmless
    when: {program: ls}
"""

#: (agent, session id or None, command): a Bash call as an agent's hook sends it.
Call = tuple[str, str | None, str]

#: Four calls of three agents in three sessions: two denied, one allowed, one left to the
#: default (``make``: ask).
CALLS: list[Call] = [
    ("claude-code", "s-1", "ls -la"),
    ("codex", "s-2", "rm -rf build"),
    ("claude-code", "s-1", "ls && rm x"),
    ("gemini-cli", "s-3", "make"),
]


def policy_file(directory: Path) -> str:
    """``POLICY`` in ``directory/audit-policy.yaml`` (written the first time); its path."""
    path = directory / "audit-policy.yaml"
    if not path.exists():
        path.write_text(POLICY)
    return str(path)


def decide_bash(
    cwd: Path, command: str, *, source: str = "cli", session: str | None = None
) -> tuple[ApprovalDecision, ToolIntent]:
    """The Bash ``command`` sent from ``cwd`` by ``source`` (in ``session``), and its decision
    under ``POLICY`` (the file in ``cwd``)."""
    intent = ToolIntent(
        "Bash", {"command": command}, source=source, cwd=str(cwd), session_id=session
    )
    policy = load_policy(str(cwd), files=[policy_file(cwd)])
    return decide(intent, policy, cwd=str(cwd)), intent


def record_calls(cwd: Path, calls: Iterable[Call]) -> str:
    """``cwd/ledger.jsonl`` holding the decision on each call, recorded as a hook records it
    (its agent, session and policy file); its path."""
    path = cwd / "ledger.jsonl"
    book = Ledger(str(path))
    for agent, session, command in calls:
        decision, intent = decide_bash(cwd, command, source=agent, session=session)
        book.append(
            decision,
            intent,
            surface="hook",
            agent=agent,
            session_id=session,
            policy_files=[policy_file(cwd)],
        )
    return str(path)


@pytest.fixture(name="policy")
def policy_fixture(tmp_path: Path) -> str:
    """``POLICY`` in the test's directory; its path."""
    return policy_file(tmp_path)


@pytest.fixture(name="ledger")
def ledger_fixture(tmp_path: Path) -> str:
    """``CALLS`` recorded in ``tmp_path/ledger.jsonl``; its path."""
    return record_calls(tmp_path, CALLS)


def audit_process(
    tmp_path: Path, *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``clearance audit ARGS`` in a process of its own (from ``cwd``), its policy cache in
    ``tmp_path/cache``."""
    return subprocess.run(
        [sys.executable, "-m", "clearance", "audit", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "CLEARANCE_CACHE_DIR": str(tmp_path / "cache")},
        timeout=60,
        check=False,
    )
