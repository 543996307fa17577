"""What the tests of the audit ledger and its commands share: a small policy (``rm`` denied,
``ls`` allowed, anything else left to the default), written beside the test's files, the
decision on a Bash command under it, and a ledger of such decisions as a hook records them.
Test modules import these helpers (tests/cli/test_audit*.py, tests/engine/test_ledger*.py)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

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
