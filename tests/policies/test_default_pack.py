"""The shipped default pack against the evasion and everyday corpora.

Evasions (tests/shellparse/data/evasions.yaml) must never be allowed: zero false allows.
Everyday agent commands (everyday.yaml) must run without asking, except those the pack asks
about on purpose: package installs and network access.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from workspace_support import NOWHERE, decide_in, default_pack

from clearance.engine.decision import ApprovalDecision
from clearance.engine.rules import PolicySet

DATA = Path(__file__).parents[1] / "shellparse" / "data"
#: The rules by which the default pack asks about everyday commands on purpose.
ASKED_ON_PURPOSE = frozenset(("default/ask-network", "default/ask-package-install"))


def entries(name: str) -> list[dict[str, Any]]:
    data = yaml.safe_load((DATA / name).read_text())
    assert isinstance(data, list)
    return data


@pytest.fixture(scope="module")
def default_policy() -> PolicySet:
    # The installed default pack, with no discovery: what every user starts from.
    return default_pack(NOWHERE)


def decide_command(policy: PolicySet, command: str) -> ApprovalDecision:
    return decide_in(policy, NOWHERE, command)


@pytest.mark.parametrize(
    "entry", entries("evasions.yaml"), ids=lambda e: str(e.get("technique") or e["cmd"])
)
def test_no_evasion_is_allowed(default_policy: PolicySet, entry: dict[str, Any]) -> None:
    decision = decide_command(default_policy, entry["cmd"])
    assert decision.decision != "allow", f"{entry['cmd']!r} was allowed: " + "; ".join(
        f"{p.argv} -> {p.decision} {p.policy_id}" for p in decision.parts
    )


@pytest.mark.parametrize("entry", entries("everyday.yaml"), ids=lambda e: str(e["cmd"]))
def test_everyday_commands_run_without_asking(
    default_policy: PolicySet, entry: dict[str, Any]
) -> None:
    decision = decide_command(default_policy, entry["cmd"])
    if decision.policy_id in ASKED_ON_PURPOSE:
        assert decision.decision == "ask"
        return
    assert decision.decision == "allow", (
        f"{entry['cmd']!r} -> {decision.decision} ({decision.reason_code}: {decision.reason}); "
        + "; ".join(
            f"{p.argv} -> {p.decision} {p.policy_id or p.reason_code}" for p in decision.parts
        )
    )
