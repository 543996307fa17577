"""Approval: the engine decides; asks go to a terminal or to --on-ask (deny by default)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from clearance.engine.intents import ToolIntent
from clearance.runner.approval import (
    Approver,
    AskChoice,
    AskRequest,
    OnAsk,
    TerminalAsker,
)


class Recorder:
    """An asker that answers from a list and remembers what it was asked."""

    def __init__(self, *answers: AskChoice) -> None:
        self.answers = list(answers)
        self.asked: list[AskRequest] = []

    @property
    def name(self) -> str:
        return "recorder"

    def ask(self, request: AskRequest) -> AskChoice:
        self.asked.append(request)
        return self.answers.pop(0)


def _approver(workspace: Path, policy_file: str, asker: object) -> Approver:
    return Approver(workspace=workspace, asker=asker, policy_files=[policy_file], home="/h")  # type: ignore[arg-type]


def _settle(approver: Approver, command: str):  # type: ignore[no-untyped-def]
    intent = ToolIntent("bash", {"command": command}, cwd=str(approver.workspace))
    return approver.settle(intent, approver.decide(intent))


def test_allow_and_deny_never_reach_the_asker(workspace: Path, policy_file: str) -> None:
    asker = Recorder()
    approver = _approver(workspace, policy_file, asker)
    allowed = _settle(approver, "echo hi")
    assert allowed.outcome == "allow" and allowed.answer is None
    denied = _settle(approver, "git reset --hard HEAD~1")
    assert denied.outcome == "deny" and denied.decision.policy_id == "test/no-hard-reset"
    assert asker.asked == []


def test_without_a_terminal_asks_are_denied_by_default(workspace: Path, policy_file: str) -> None:
    approval = _settle(_approver(workspace, policy_file, OnAsk()), "npm install lodash")
    assert approval.decision.decision == "ask"
    assert approval.outcome == "deny"
    assert approval.answered_by == "--on-ask deny"


def test_on_ask_allow_allows_once_and_grants_nothing(workspace: Path, policy_file: str) -> None:
    approver = _approver(workspace, policy_file, OnAsk("allow"))
    approval = _settle(approver, "npm install lodash")
    assert (approval.outcome, approval.answer, approval.grant) == ("allow", "allow_once", None)
    assert approver.grants.rules == []


def test_allow_for_the_session_becomes_a_grant_the_engine_applies(
    workspace: Path, policy_file: str
) -> None:
    asker = Recorder("allow_session")
    approver = _approver(workspace, policy_file, asker)
    first = _settle(approver, "npm install lodash")
    assert first.outcome == "allow" and first.grant is not None
    assert asker.asked[0].grant_summary == [
        "`npm`, subcommand `install`, no options, no paths outside the workspace, no network hosts"
    ]
    again = _settle(approver, "npm install react")
    assert again.decision.decision == "allow"
    assert again.decision.policy_id == "session/grant-1"
    assert len(asker.asked) == 1


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("o\n", "allow_once"),
        ("yes\n", "allow_once"),
        ("s\n", "allow_session"),
        ("d\n", "deny"),
        ("\n", "deny"),
        ("", "deny"),
        ("what\nhuh\nnope?\n", "deny"),
        ("what\ns\n", "allow_session"),
    ],
)
def test_the_terminal_prompt_takes_only_clear_answers(
    workspace: Path, policy_file: str, typed: str, expected: str
) -> None:
    out = io.StringIO()
    asker = TerminalAsker(io.StringIO(typed), out)
    approver = _approver(workspace, policy_file, asker)
    intent = ToolIntent("bash", {"command": "npm install lodash"}, cwd=str(workspace))
    decision = approver.decide(intent)
    from clearance.engine.amend import Grant

    grant = Grant({"id": "grant-1"}, ["`npm`, subcommand `install`"])
    assert asker.ask(AskRequest(intent, decision, grant)) == expected
    shown = out.getvalue()
    assert "[s] allow for this session" in shown
    assert "[s] would add grant-1, allowing only:\n        `npm`, subcommand `install`" in shown


def test_without_a_grant_pattern_session_is_not_offered() -> None:
    out = io.StringIO()
    asker = TerminalAsker(io.StringIO("s\ns\ns\n"), out)
    intent = ToolIntent("bash", {"command": "x"})
    from clearance.engine.decision import ApprovalDecision

    assert asker.ask(AskRequest(intent, ApprovalDecision("ask", "default", "?"))) == "deny"
    assert "for this session" not in out.getvalue()


def test_a_grant_settles_an_explicit_ask_rule(workspace: Path, policy_file: str) -> None:
    asker = Recorder("allow_session")
    approval = _settle(_approver(workspace, policy_file, asker), "curl https://example.com")
    (request,) = asker.asked
    assert request.grant is not None and request.no_grant_because is None
    assert "hosts only example.com" in request.grant_summary[0]
    assert approval.outcome == "allow" and approval.answer == "allow_session"
    assert approval.grant is not None


def test_a_grant_is_only_offered_where_it_would_take_effect(
    workspace: Path, policy_file: str
) -> None:
    # Inline interpreter code stays fail-closed: a grant naming the program does not name
    # the marker, so it would change nothing and is not offered.
    asker = Recorder("allow_session")
    approval = _settle(_approver(workspace, policy_file, asker), "python3 -c 'import socket'")
    (request,) = asker.asked
    assert request.grant is None
    assert request.no_grant_because is not None
    assert (approval.outcome, approval.answer, approval.grant) == ("allow", "allow_once", None)
    assert approval.fields()["no_grant_because"] == request.no_grant_because


def test_a_session_grant_does_not_widen_to_other_options_paths_or_hosts(
    workspace: Path, policy_file: str
) -> None:
    asker = Recorder("allow_session", "deny", "deny", "deny")
    approver = _approver(workspace, policy_file, asker)
    first = _settle(approver, "curl https://example.com/a")
    assert first.answer == "allow_session" and first.grant is not None
    assert "hosts only example.com" in (first.grant_offered or [""])[0]
    assert _settle(approver, "curl https://example.com/b").decision.decision == "allow"
    for wider in (
        "curl https://evil.example/x",  # another host
        "curl -o /tmp/out https://example.com/a",  # an option and a path not seen
        "curl -d @notes.txt https://example.com/a",  # an option not seen
    ):
        approval = _settle(approver, wider)
        assert approval.decision.decision == "ask", wider
        assert approval.outcome == "deny"
    assert len(asker.asked) == 4
