"""Techniques whose fix lies outside the knowledge tables and the pack, held as failing tests
(``xfail``, strict: they fail the suite once fixed, so the mark is taken off then).

Each has its twin, which passes today and must keep passing when the gap is closed.
"""

from __future__ import annotations

from typing import Any

import pytest

from clearance.engine.api import decide, default_pack_path, load_policy
from clearance.engine.intents import ToolIntent
from clearance.engine.rules import PolicySet

WORKSPACE = "/work/proj"
HOME = "/home/u"


@pytest.fixture(scope="module")
def policy() -> PolicySet:
    return load_policy(WORKSPACE, files=[default_pack_path()], use_cache=False)


def _decide(policy: PolicySet, command: str) -> Any:
    return decide(
        ToolIntent("bash", {"command": command}),
        policy,
        cwd=WORKSPACE,
        workspace=WORKSPACE,
        home=HOME,
    )


#: ``IFS=… read`` is the shell's most common idiom: a prefix assignment of IFS reaches only
#: the ``read`` builtin's splitting of its own input. The environment table judges a
#: variable without the program it rides with (``environment.judge`` is called from
#: ``extract``), so every IFS is ``env_code``.
IFS_FOR_READ = [
    'ls | while IFS= read -r line; do echo "$line"; done',
    'IFS=, read -r a b <<< "1,2"',
    'while IFS= read -r f; do wc -l "$f"; done < list.txt',
]


@pytest.mark.xfail(
    strict=True,
    reason="extract judges IFS= as env_code whatever it prefixes; a prefix of read only "
    "splits read's input (needs the program beside environment.judge, in extract.py)",
)
@pytest.mark.parametrize("command", IFS_FOR_READ)
def test_ifs_as_a_prefix_of_read_is_harmless(policy: PolicySet, command: str) -> None:
    assert _decide(policy, command).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        'IFS=/; x="rm/-rf/$HOME"; $x',
        "x=\"rm/-rf/$HOME\"; IFS=/ eval '$x'",
        "IFS=/ read -r a b <<< x; $a",
    ],
)
def test_ifs_that_splits_a_later_expansion_is_not_allowed(policy: PolicySet, command: str) -> None:
    assert _decide(policy, command).decision != "allow"
