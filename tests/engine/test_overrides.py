"""Overrides and final rules, through the scopes the hook loads (managed, user, project,
session, default)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from clearance.engine.api import decide, load_policy
from clearance.engine.decision import ApprovalDecision
from clearance.engine.decision_schema import parse_decision
from clearance.engine.errors import PolicyError
from clearance.engine.intents import ToolIntent
from clearance.engine.rules import PolicySet


class Machine:
    """A project with .git, a home, and optional managed and user policies."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.project = root / "home" / "user" / "project"
        (self.project / ".git").mkdir(parents=True)
        self.home = root / "home" / "user"
        self.env = {
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "CLEARANCE_MANAGED_POLICY": "",
        }

    def write(self, scope: str, text: str) -> str:
        if scope == "project":
            path = self.project / ".clearance" / "policy.yaml"
        elif scope == "user":
            path = self.home / ".config" / "clearance" / "policy.yaml"
        else:
            path = self.root / "etc" / "policy.yaml"
            self.env["CLEARANCE_MANAGED_POLICY"] = str(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        return str(path)

    def policy(self, session: list[dict[str, object]] | None = None) -> PolicySet:
        return load_policy(str(self.project), env=self.env, use_cache=False, session=session)

    def check(self, policy: PolicySet, command: str) -> ApprovalDecision:
        ws = str(self.project)
        decision = decide(
            ToolIntent("bash", {"command": command}, cwd=ws),
            policy,
            cwd=ws,
            workspace=ws,
            home=str(self.home),
        )
        data = decision.to_dict()
        assert parse_decision(data).model_dump() == data
        return decision


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return Machine(tmp_path)


NPM = """
version: 1
id: proj
rules:
  - id: allow-npm-install
    decision: allow
    reason: This project installs its dependencies from the lock file.
    {overrides}
    when:
      argv: ["npm install|ci **"]
"""


def test_without_overrides_a_project_allow_is_shadowed_by_the_default_ask(
    machine: Machine,
) -> None:
    machine.write("project", NPM.format(overrides=""))
    decision = machine.check(machine.policy(), "npm install lodash")
    assert decision.decision == "ask"
    assert decision.policy_id in ("default/ask-package-install", "default/ask-network")
    assert decision.overridden_by == {}


def test_an_override_settles_the_named_asks_and_is_recorded(machine: Machine) -> None:
    machine.write(
        "project",
        NPM.format(overrides="overrides: [default/ask-package-install, default/ask-network]"),
    )
    policy = machine.policy()
    decision = machine.check(policy, "npm install lodash")
    assert decision.decision == "allow"
    assert decision.policy_id == "proj/allow-npm-install"
    assert decision.overridden_by == {
        "default/ask-package-install": "proj/allow-npm-install",
        "default/ask-network": "proj/allow-npm-install",
    }
    assert decision.parts[0].overridden_by == decision.overridden_by
    assert policy.override_problems == []


def test_an_override_settles_only_the_rules_it_names(machine: Machine) -> None:
    machine.write("project", NPM.format(overrides="overrides: [default/ask-package-install]"))
    decision = machine.check(machine.policy(), "npm install lodash")
    assert decision.decision == "ask" and decision.policy_id == "default/ask-network"
    assert decision.overridden_by == {"default/ask-package-install": "proj/allow-npm-install"}


def test_an_override_applies_only_to_the_parts_its_rule_matches(machine: Machine) -> None:
    machine.write(
        "project",
        NPM.format(overrides="overrides: [default/ask-package-install, default/ask-network]"),
    )
    policy = machine.policy()
    decision = machine.check(policy, "npm install && pip install requests")
    assert decision.decision == "ask"
    assert decision.parts[0].decision == "allow"
    assert decision.parts[1].decision == "ask"
    assert decision.parts[1].overridden_by == {}
    # a deny in the same command is not touched
    assert machine.check(policy, "npm install && cat .env").decision == "deny"


def test_a_non_critical_default_deny_named_explicitly_can_be_overridden(
    machine: Machine,
) -> None:
    machine.write(
        "project",
        """
        version: 1
        id: proj
        rules:
          - id: allow-rebase
            decision: ask
            reason: This team rebases feature branches; a human confirms each one.
            overrides: [default/no-git-history-rewrite]
            when: {argv: ["git rebase **"]}
        """,
    )
    policy = machine.policy()
    rebase = machine.check(policy, "git rebase -i HEAD~3")
    assert rebase.decision == "ask" and rebase.policy_id == "proj/allow-rebase"
    assert rebase.overridden_by == {"default/no-git-history-rewrite": "proj/allow-rebase"}
    # what the rule does not match stays denied
    assert machine.check(policy, "git push --force").decision == "deny"


def test_a_critical_default_deny_is_never_overridden(machine: Machine) -> None:
    machine.write(
        "project",
        """
        version: 1
        id: proj
        rules:
          - id: read-env
            decision: allow
            reason: The agent may read the local env file of this project.
            overrides: [default/no-secret-reads]
            when: {argv: ["cat .env"]}
        """,
    )
    policy = machine.policy()
    decision = machine.check(policy, "cat .env")
    assert decision.decision == "deny" and decision.policy_id == "default/no-secret-reads"
    assert decision.overridden_by == {}
    ((rule, name, why),) = policy.override_problems
    assert rule.policy_id == "proj/read-env" and name == "default/no-secret-reads"
    assert "critical" in why


def test_a_final_managed_rule_is_overridden_by_nobody_not_even_a_session_grant(
    machine: Machine,
) -> None:
    machine.write(
        "managed",
        """
        version: 1
        id: org
        rules:
          - id: ask-terraform
            decision: ask
            final: true
            reason: Infrastructure changes are confirmed by a human, always.
            when: {argv: ["terraform apply|destroy **"]}
        """,
    )
    machine.write(
        "project",
        """
        version: 1
        id: proj
        rules:
          - id: allow-terraform
            decision: allow
            reason: Our sandbox account is disposable, apply freely.
            overrides: [org/ask-terraform]
            when: {argv: ["terraform apply **"]}
        """,
    )
    policy = machine.policy()
    decision = machine.check(policy, "terraform apply")
    assert decision.decision == "ask" and decision.policy_id == "org/ask-terraform"
    assert [why for _, _, why in policy.override_problems] == [
        "org/ask-terraform is final: nothing below it can override it"
    ]
    grant = {
        "id": "session",
        "scope": "session",
        "path": "<session>",
        "digest": "g",
        "rules": [
            {
                "id": "grant-1",
                "decision": "allow",
                "reason": "granted for this session",
                "when": {"argv": ["terraform apply **"]},
            }
        ],
    }
    granted = machine.policy(session=[grant])
    assert machine.check(granted, "terraform apply").decision == "ask"


def test_a_managed_rule_that_is_not_final_can_be_overridden_unless_locked(
    machine: Machine,
) -> None:
    managed = """
        version: 1
        id: org
        lock: {lock}
        rules:
          - id: ask-docker
            decision: ask
            reason: Containers are confirmed by a human in this organisation.
            when: {{program: docker}}
          - id: no-docker-push
            decision: deny
            reason: Images are pushed by the release pipeline only.
            when: {{argv: ["docker push **"]}}
        """
    machine.write("managed", managed.format(lock="false"))
    machine.write(
        "project",
        """
        version: 1
        id: proj
        rules:
          - id: allow-docker
            decision: allow
            reason: This project builds and runs its dev containers all day.
            overrides: [org/ask-docker, org/no-docker-push]
            when: {program: docker}
        """,
    )
    policy = machine.policy()
    assert machine.check(policy, "docker ps").decision == "allow"
    # a managed deny is never settled by an override
    assert machine.check(policy, "docker push img").decision == "deny"
    assert any("deny outside the default pack" in why for _, _, why in policy.override_problems)
    machine.write("managed", managed.format(lock="true"))
    locked = machine.policy()
    assert machine.check(locked, "docker ps").decision == "ask"


def test_a_user_rule_may_override_a_project_rule_but_not_the_reverse(machine: Machine) -> None:
    machine.write(
        "project",
        """
        version: 1
        id: proj
        rules:
          - id: ask-make
            decision: ask
            reason: The project asks before make deploys anything.
            when: {argv: ["make deploy"]}
          - id: allow-curl
            decision: allow
            reason: The project lets the agent fetch from its own host.
            overrides: [me/ask-curl]
            when: {argv: ["curl https://example.com/**"]}
        """,
    )
    machine.write(
        "user",
        """
        version: 1
        id: me
        rules:
          - id: allow-make
            decision: allow
            reason: I deploy my own experiments without a prompt.
            overrides: [proj/ask-make]
            when: {argv: ["make deploy"]}
          - id: ask-curl
            decision: ask
            reason: I want to see every download myself, wherever it goes.
            when: {program: curl}
        """,
    )
    policy = machine.policy()
    assert machine.check(policy, "make deploy").decision == "allow"
    curl = machine.check(policy, "curl https://example.com/x")
    assert curl.decision == "ask" and curl.policy_id in ("me/ask-curl", "default/ask-network")
    assert any(
        name == "me/ask-curl" and "not below" in why for _, name, why in policy.override_problems
    )


def test_an_override_naming_nothing_is_a_problem_and_settles_nothing(machine: Machine) -> None:
    machine.write("project", NPM.format(overrides="overrides: [default/ask-packages-install]"))
    policy = machine.policy()
    assert machine.check(policy, "npm install").decision == "ask"
    ((rule, name, why),) = policy.override_problems
    assert (rule.policy_id, name, why) == (
        "proj/allow-npm-install",
        "default/ask-packages-install",
        "no rule has this id",
    )


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (
            "{id: x, decision: deny, reason: no docker here, overrides: [default/ask-network],"
            " when: {program: docker}}",
            "a deny rule cannot override anything",
        ),
        (
            "{id: x, decision: allow, reason: all asks go, overrides: ['default/ask-*'],"
            " when: {program: docker}}",
            "without globs",
        ),
        (
            "{id: x, decision: allow, reason: all asks go, overrides: [ask-network],"
            " when: {program: docker}}",
            "POLICY/RULE",
        ),
    ],
)
def test_malformed_overrides_do_not_load(machine: Machine, rule: str, message: str) -> None:
    machine.write("project", f"version: 1\nid: proj\nrules:\n  - {rule}\n")
    with pytest.raises(PolicyError) as error:
        machine.policy()
    assert message in str(error.value)
    assert ".clearance/policy.yaml:4:" in str(error.value)


def test_whole_command_rules_are_not_overridden(machine: Machine) -> None:
    machine.write(
        "user",
        """
        version: 1
        id: me
        rules:
          - id: ask-curl-pipe
            decision: ask
            target: command
            reason: Downloads piped anywhere need my look.
            when: {all: [{program: curl}, {program: tee}]}
        """,
    )
    machine.write(
        "project",
        """
        version: 1
        id: proj
        rules:
          - id: allow-curl
            decision: allow
            reason: Fetching from our own host is part of the build.
            overrides: [me/ask-curl-pipe, default/ask-network]
            when: {argv: ["curl https://example.com/**"]}
        """,
    )
    policy = machine.policy()
    decision = machine.check(policy, "curl https://example.com/x | tee out.txt")
    assert decision.decision == "ask" and decision.policy_id == "me/ask-curl-pipe"
    assert any("whole-command" in why for _, _, why in policy.override_problems)
