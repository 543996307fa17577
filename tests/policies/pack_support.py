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
