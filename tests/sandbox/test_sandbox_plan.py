"""The confinement follows the decision; a sandbox that cannot be set up is the policy's
choice (``sandbox.unavailable``), never a silent unconfined run; profiles and their
widenings come from the policy file."""

from __future__ import annotations

from pathlib import Path

import pytest

from clearance.engine.api import decide, load_policy
from clearance.engine.decision_schema import parse_decision
from clearance.engine.errors import PolicyError
from clearance.engine.intents import ToolIntent
from clearance.sandbox.plan import annotate
from clearance.sandbox.settings import settings_of

POLICY = """\
version: 1
id: p
{sandbox}
rules:
  - id: allow-tests
    decision: allow
    reason: tests
    when: {{program: [pytest]}}
  - id: allow-fetch
    decision: allow
    reason: a network read
    when: {{program: [curl]}}
"""


def _decide(tmp_path: Path, command: str, sandbox: str = "", name: str = "p.yaml"):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(POLICY.format(sandbox=sandbox))
    policy = load_policy(str(tmp_path), files=[str(path)])
    intent = ToolIntent("Bash", {"command": command}, cwd=str(tmp_path))
    return decide(intent, policy, cwd=str(tmp_path), workspace=str(tmp_path)), policy


def test_a_test_run_gets_no_network_and_a_network_read_gets_it(tmp_path: Path) -> None:
    decision, policy = _decide(tmp_path, "pytest -q")
    decision, confinement = annotate(decision, settings_of(policy), None)
    assert confinement is not None and confinement.network is False
    assert decision.decision == "allow" and decision.sandbox == confinement.to_dict()
    parse_decision(decision.to_dict())  # the schema twin accepts it
    fetched, policy = _decide(tmp_path, "curl https://example.com/x")
    fetched, confinement = annotate(fetched, settings_of(policy), None)
    assert confinement is not None and confinement.network is True


@pytest.mark.parametrize(
    ("setting", "expected"),
    [("", "ask"), ("sandbox: {unavailable: ask}", "ask"), ("sandbox: {unavailable: deny}", "deny")],
)
def test_no_sandbox_turns_the_allow_into_what_the_policy_says(
    tmp_path: Path, setting: str, expected: str
) -> None:
    decision, policy = _decide(tmp_path, "pytest -q", setting)
    decision, confinement = annotate(decision, settings_of(policy), "bubblewrap is not installed")
    assert confinement is None
    assert decision.decision == expected
    assert decision.reason_code == "sandbox_unavailable"
    assert "bubblewrap is not installed" in decision.reason
    assert decision.sandbox == {
        "confined": False,
        "unavailable": "bubblewrap is not installed",
        "policy": expected,
    }
    parse_decision(decision.to_dict())


def test_run_unconfined_is_an_explicit_choice_and_the_decision_says_it(tmp_path: Path) -> None:
    decision, policy = _decide(tmp_path, "pytest -q", "sandbox: {unavailable: run}")
    decision, confinement = annotate(decision, settings_of(policy), "no user namespaces")
    assert confinement is None
    assert decision.decision == "allow"
    assert "runs unconfined" in decision.reason
    assert decision.sandbox is not None and decision.sandbox["confined"] is False


def test_the_strictest_unavailable_wins_across_files(tmp_path: Path) -> None:
    lax = tmp_path / "lax.yaml"
    lax.write_text(POLICY.format(sandbox="sandbox: {unavailable: run}"))
    strict = tmp_path / "strict.yaml"
    strict.write_text(
        POLICY.format(sandbox="sandbox: {unavailable: deny}").replace("id: p", "id: q")
    )
    policy = load_policy(str(tmp_path), files=[str(lax), str(strict)])
    assert settings_of(policy).unavailable == "deny"


def test_a_profile_matching_the_program_widens_and_is_named(tmp_path: Path) -> None:
    sandbox = (
        "sandbox:\n  profiles:\n    integration:\n      network: true\n"
        "      writable: [~/.cache/pip]\n      programs: [pytest]"
    )
    decision, policy = _decide(tmp_path, "pytest -q", sandbox)
    decision, confinement = annotate(decision, settings_of(policy), None)
    assert confinement is not None and confinement.network is True
    assert confinement.network_because == "profile integration"
    assert decision.sandbox is not None and decision.sandbox["profile"] == "integration"
    assert decision.sandbox["widenings"] == [
        f"network (profile integration, {tmp_path / 'p.yaml'})",
        f"writable ~/.cache/pip (profile integration, {tmp_path / 'p.yaml'})",
    ]


@pytest.mark.parametrize(
    "bad",
    [
        "sandbox: {unavailable: maybe}",
        "sandbox: {profiles: {default: {network: true}}}",
        "sandbox: {profiles: {x: {writable: ['../up']}}}",
        "sandbox: {profiles: {x: {hosts: [example.com]}}}",
    ],
)
def test_a_bad_sandbox_key_is_a_policy_error(tmp_path: Path, bad: str) -> None:
    with pytest.raises(PolicyError):
        _decide(tmp_path, "pytest", bad)


@pytest.mark.parametrize("root", ["/", "/tmp", "/usr", "/etc"])
def test_a_shared_root_is_never_the_writable_workspace(root: str) -> None:
    from clearance.sandbox.confine import workspace_for

    assert workspace_for(root) is None


def test_a_project_is_the_writable_workspace(tmp_path: Path) -> None:
    from clearance.sandbox.confine import workspace_for

    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    assert workspace_for(str(tmp_path / "src")) == str(tmp_path)
