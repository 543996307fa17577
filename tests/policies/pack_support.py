"""What the default-pack suites by technique share: the shipped pack loaded once per module
(the fixture ``policy``: import ``pack_policy``) and one Bash command decided under it in a
workspace that is not on disk (``/work/proj``, home ``/home/u``)."""

from __future__ import annotations

import pytest

from clearance.engine.api import decide, default_pack_path, load_policy
from clearance.engine.decision import ApprovalDecision
from clearance.engine.intents import ToolIntent
from clearance.engine.rules import PolicySet

WORKSPACE = "/work/proj"
HOME = "/home/u"


@pytest.fixture(scope="module", name="policy")
def pack_policy() -> PolicySet:
    return load_policy(WORKSPACE, files=[default_pack_path()], use_cache=False)


def decide_command(
    policy: PolicySet, command: str, *, resolve: bool | None = None
) -> ApprovalDecision:
    return decide(
        ToolIntent("bash", {"command": command}),
        policy,
        cwd=WORKSPACE,
        workspace=WORKSPACE,
        home=HOME,
        resolve=resolve,
    )


#: A row of a suite by technique: (technique, malicious command, its decision, the rule id or
#: reason code that decides it, the benign twin that must be allowed).
Twin = tuple[str, str, str, str, str]


def check_twin(policy: PolicySet, bad: str, decision: str, why: str, twin: str) -> None:
    """The malicious command gets ``decision`` from ``why``, and its twin is allowed."""
    found = decide_command(policy, bad)
    assert found.decision == decision, (
        f"{bad!r}: {found.decision} {found.policy_id} {found.reason_code}"
    )
    assert why in (found.policy_id, found.reason_code), (
        f"{bad!r}: decided by {found.policy_id or found.reason_code}, expected {why}"
    )
    allowed = decide_command(policy, twin)
    assert allowed.decision == "allow", (
        f"{twin!r}: {allowed.decision} {allowed.policy_id} {allowed.reason_code}: {allowed.reason}"
    )


def check_distinct(twins: list[Twin]) -> None:
    """Every technique is named once, and no command stands in two rows."""
    assert len({t[0] for t in twins}) == len(twins)
    assert len({t[1] for t in twins} | {t[4] for t in twins}) == 2 * len(twins)
