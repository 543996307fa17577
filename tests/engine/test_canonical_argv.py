"""argv patterns match the program's canonical form: global options before the subcommand
are taken out, as the subcommand matcher does; lint points at position-dependent patterns."""

from __future__ import annotations

import pytest
from engine_support import Write, check, policy_of

from clearance.engine.canonical import canonical_argv
from clearance.engine.lint import lint, position_dependent

DENY_SUBCOMMANDS = """
version: 1
id: p
defaults: {decision: allow}
rules:
  - id: no-destroy
    decision: deny
    reason: infrastructure is not destroyed by agents
    when: {argv: ["terraform destroy **"]}
  - id: no-push
    decision: deny
    reason: pushes go through review first
    when: {argv: ["git push **"]}
  - id: no-docker-rm
    decision: deny
    reason: containers are not removed by agents
    when: {argv: ["docker rm **"]}
  - id: no-kubectl-delete
    decision: deny
    reason: clusters are changed by the pipeline
    when: {argv: ["kubectl delete **"]}
  - id: no-npm-publish
    decision: deny
    reason: releases are published by the pipeline
    when: {argv: ["npm publish $"]}
"""


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("terraform destroy", "p/no-destroy"),
        ("terraform -chdir=infra destroy", "p/no-destroy"),
        ("terraform -chdir=infra destroy -auto-approve", "p/no-destroy"),
        ("git push origin main", "p/no-push"),
        ("git -C /tmp/other push origin main", "p/no-push"),
        ("git -c user.name=x --no-pager push", "p/no-push"),
        ("docker --context prod rm -f web", "p/no-docker-rm"),
        ("kubectl -n prod delete pod web", "p/no-kubectl-delete"),
        ("kubectl --namespace=prod --context staging delete pod web", "p/no-kubectl-delete"),
        ("npm --prefix packages/a publish", "p/no-npm-publish"),
    ],
)
def test_a_global_option_before_the_subcommand_does_not_bypass_a_rule(
    write_policy: Write, command: str, rule: str
) -> None:
    decision = check(policy_of(write_policy(DENY_SUBCOMMANDS)), command)
    assert (decision.decision, decision.policy_id) == ("deny", rule), command


@pytest.mark.parametrize(
    "command",
    [
        "terraform -chdir=infra plan",
        "git -C /tmp/other status",
        "docker --context prod ps",
        "kubectl -n prod get pods",
        "npm --prefix packages/a publish --dry-run",
        "echo terraform destroy",
    ],
)
def test_the_benign_twins_still_pass(write_policy: Write, command: str) -> None:
    decision = check(policy_of(write_policy(DENY_SUBCOMMANDS)), command)
    assert decision.decision == "allow", (command, decision.policy_id)


def test_the_canonical_form_keeps_what_follows_the_subcommand() -> None:
    assert canonical_argv("git", ["git", "-C", "x", "push", "--force", "origin"]) == [
        "git",
        "push",
        "--force",
        "origin",
    ]
    assert canonical_argv("git", ["git", "-c", "a=b", "stash", "-q", "drop"]) == [
        "git",
        "stash",
        "drop",
    ]
    # nothing to take out, or no subcommands: the argv as written
    assert canonical_argv("git", ["git", "status"]) is None
    assert canonical_argv("git", ["git", "--version"]) is None
    assert canonical_argv("ls", ["ls", "-la"]) is None


def test_a_pattern_that_spells_the_global_option_still_matches_as_written(
    write_policy: Write,
) -> None:
    policy = policy_of(
        write_policy(
            """
            version: 1
            id: p
            rules:
              - id: ok
                decision: allow
                reason: status of the other checkout
                when: {argv: ["git -C ../other status"]}
            """
        )
    )
    assert check(policy, "git -C ../other status").decision == "allow"


def test_lint_suggests_subcommand_for_position_dependent_patterns(write_policy: Write) -> None:
    assert position_dependent("kubectl * delete **") is not None
    assert "subcommand: push" in str(position_dependent("git -C * push **"))
    assert position_dependent("git push -f origin") is None
    assert position_dependent("kubectl * **") is None
    policy = policy_of(
        write_policy(
            """
            version: 1
            id: p
            rules:
              - id: no-delete
                decision: deny
                reason: clusters are changed by the pipeline only
                when: {argv: ["kubectl * delete **"]}
                examples: {match: ["kubectl prod delete pod x"]}
            """
        )
    )
    kinds = [(f.kind, f.severity) for f in lint(policy)]
    assert ("position-dependent", "warning") in kinds


def test_the_default_pack_has_no_position_dependent_patterns(write_policy: Write) -> None:
    policy = policy_of(write_policy("version: 1\nid: p\nextends: default\n"))
    assert [f for f in lint(policy) if f.kind == "position-dependent"] == []
    # the pattern the default pack dropped is covered by the canonical form
    assert check(policy, "systemctl --user enable evil.service").decision == "deny"
