"""Session grants built by the engine: exactly as wide as what the human approved."""

from __future__ import annotations

import pytest
from engine_support import HOME, WORKSPACE, Write, policy_of

from clearance.engine.amend import NEVER_GRANTED, Grant, propose_grant, with_grants
from clearance.engine.api import decide
from clearance.engine.decision import ApprovalDecision
from clearance.engine.intents import ToolIntent
from clearance.engine.rules import PolicySet

ASKING = """
version: 1
id: p
defaults: {decision: allow}
rules:
  - {id: ask-chmod, decision: ask, reason: mode changes are confirmed, when: {program: chmod}}
  - {id: ask-npm, decision: ask, reason: installs run code, when: {program: npm}}
  - {id: ask-curl, decision: ask, reason: network needs a look, when: {program: curl}}
  - {id: ask-git, decision: ask, reason: git writes need a look, when: {program: git}}
  - {id: ask-rm, decision: ask, reason: deletes need a look here, when: {program: rm}}
  - {id: ask-write, decision: ask, reason: file writes need a look, when: {program: write_file}}
  - id: final-terraform
    decision: ask
    final: true
    reason: infrastructure is confirmed every time
    when: {program: terraform}
"""


def _intent(call: ToolIntent | str) -> ToolIntent:
    """``call``, or the Bash call of the command line ``call``."""
    return (
        call
        if isinstance(call, ToolIntent)
        else ToolIntent("bash", {"command": call}, cwd=WORKSPACE)
    )


def _decide(policy: PolicySet, call: ToolIntent | str) -> ApprovalDecision:
    return decide(_intent(call), policy, cwd=WORKSPACE, workspace=WORKSPACE, home=HOME)


def _grant(
    policy: PolicySet, call: ToolIntent | str, grant_id: str = "grant-1"
) -> tuple[Grant | None, str | None]:
    """The grant a human's approval of ``call`` (decided under ``policy``) proposes, or why
    there is none."""
    return propose_grant(
        _intent(call),
        _decide(policy, call),
        policy,
        grant_id=grant_id,
        who="terminal",
        cwd=WORKSPACE,
        workspace=WORKSPACE,
        home=HOME,
    )


def _granted(policy: PolicySet, call: ToolIntent | str) -> PolicySet:
    grant, why = _grant(policy, call)
    assert grant is not None, why
    return with_grants(policy, [grant.rule])


@pytest.fixture
def policy(write_policy: Write) -> PolicySet:
    return policy_of(write_policy(ASKING))


def test_the_grant_allows_the_call_and_its_kin(policy: PolicySet) -> None:
    granted = _granted(policy, "chmod 755 build/x")
    decision = _decide(granted, "chmod 755 build/x")
    assert decision.decision == "allow" and decision.policy_id == "session/grant-1"
    assert _decide(granted, "chmod 644 build/y").decision == "allow"


@pytest.mark.parametrize(
    "wider",
    [
        "chmod -R 755 /home/user",  # an option not seen, a path outside
        "chmod -R 755 build/x",  # an option not seen
        "chmod 755 /home/user/x",  # a path outside the workspace
        "chmod 755 build/sub/deeper",  # not the same directory
        "chmod 755 src/x",  # another directory
        "chmod u+s build/x",  # setuid: privileged, never granted
    ],
)
def test_a_grant_never_widens(policy: PolicySet, wider: str) -> None:
    granted = _granted(policy, "chmod 755 build/x")
    assert _decide(granted, wider).decision != "allow", wider


def test_subcommand_options_and_hosts_are_part_of_the_grant(policy: PolicySet) -> None:
    npm = _granted(policy, "npm install lodash")
    assert _decide(npm, "npm install react").decision == "allow"
    assert _decide(npm, "npm publish").decision == "ask"
    assert _decide(npm, "npm install -g react").decision == "ask"
    assert _decide(npm, "npm --prefix /tmp install react").decision == "ask"
    curl = _granted(policy, "curl https://example.com/a")
    assert _decide(curl, "curl https://example.com/b").decision == "allow"
    assert _decide(curl, "curl https://evil.example/b").decision == "ask"
    assert _decide(curl, "curl https://example.com/a https://evil.example/b").decision == "ask"
    assert _decide(curl, "curl -d @notes https://example.com").decision == "ask"


def test_destructive_and_privileged_calls_are_not_granted(policy: PolicySet) -> None:
    grant, why = _grant(policy, "rm build/x")
    assert grant is None and why is not None and "never covers destructive" in why
    grant, why = _grant(policy, "git push --force")
    assert grant is None
    for name in ("delete", "privilege", "vcs_destructive", "secret_read"):
        assert name in NEVER_GRANTED


def test_a_final_rule_gets_no_grant(policy: PolicySet) -> None:
    grant, why = _grant(policy, "terraform plan")
    assert grant is None and why is not None and "p/final-terraform" in why


def test_a_grant_is_a_rule_with_its_own_id_and_a_summary(policy: PolicySet) -> None:
    grant, _ = _grant(policy, "npm install lodash", grant_id="grant-7")
    assert grant is not None
    rule = grant.rule
    assert rule["id"] == "grant-7" and rule["decision"] == "allow"
    summary = grant.summary
    assert summary == [
        "`npm`, subcommand `install`, no options, no paths outside the workspace, no network hosts"
    ]
    assert "npm" in str(rule["reason"])


def test_a_dynamic_path_is_not_granted(policy: PolicySet) -> None:
    grant, why = _grant(policy, "chmod 755 $TARGET")
    assert grant is None and why is not None


def test_an_unknown_tool_is_not_granted(policy: PolicySet) -> None:
    intent = ToolIntent("mcp__db__query", {"sql": "select 1"}, cwd=WORKSPACE)
    assert _decide(policy, intent).decision == "ask"
    grant, why = _grant(policy, intent)
    assert grant is None and why is not None and "does not know the tool" in why


def test_a_file_tool_grant_keeps_to_the_path_class(policy: PolicySet) -> None:
    outside = ToolIntent("Write", {"file_path": "/etc/motd", "content": "x"}, cwd=WORKSPACE)
    assert _decide(policy, outside).decision == "ask"
    granted = _granted(policy, outside)
    other = ToolIntent("Write", {"file_path": "/etc/hosts", "content": "x"}, cwd=WORKSPACE)
    assert _decide(granted, other).decision != "allow"
    assert _decide(granted, outside).decision == "allow"
