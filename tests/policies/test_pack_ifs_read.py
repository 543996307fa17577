"""The default pack on ``IFS=… read``: the shell's most common idiom is allowed (a prefix
assignment of IFS reaches only the builtin's splitting of its own input), and every IFS that
splits a later expansion is not."""

from __future__ import annotations

import pytest
from pack_support import decide_command, pack_policy  # noqa: F401  (the fixture)

from clearance.engine.rules import PolicySet

IFS_FOR_READ = [
    'ls | while IFS= read -r line; do echo "$line"; done',
    'IFS=, read -r a b <<< "1,2"',
    "printf '%s\\n' a b | while IFS= read -r x; do echo \"$x\"; done",
]


@pytest.mark.parametrize("command", IFS_FOR_READ)
def test_ifs_as_a_prefix_of_read_is_harmless(policy: PolicySet, command: str) -> None:
    assert decide_command(policy, command).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        'IFS=/; x="rm/-rf/$HOME"; $x',
        "x=\"rm/-rf/$HOME\"; IFS=/ eval '$x'",
        "IFS=/ read -r a b <<< x; $a",
    ],
)
def test_ifs_that_splits_a_later_expansion_is_not_allowed(policy: PolicySet, command: str) -> None:
    assert decide_command(policy, command).decision != "allow"
