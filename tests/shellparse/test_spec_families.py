"""The helpers program tables are written with: subcommands by meaning (``verbs``), programs
that run a command (``runs_command``), and option values read once (``ParsedArgs.values``)."""

from __future__ import annotations

import pytest

from clearance.shellparse import classify
from clearance.shellparse.options import parse_program_args
from clearance.shellparse.spec import Opt, Spec, runs_command, verbs


def test_verbs_gives_each_name_of_a_meaning_its_classes() -> None:
    table = verbs({"install add": "package_install network", "list ls": "read_only"})
    assert sorted(table) == ["add", "install", "list", "ls"]
    assert table["install"].classes == table["add"].classes == {"package_install", "network"}
    assert table["ls"].classes == {"read_only"}


def test_verbs_refuses_a_name_given_twice() -> None:
    with pytest.raises(ValueError, match="'rm' is given twice"):
        verbs({"remove rm": "package_install write", "rm": "delete"})


def test_a_command_runner_leaves_the_command_its_own_options() -> None:
    spec = runs_command("wrap", "", "-n/--adjustment=", options=[Opt("-q")])
    parsed = parse_program_args(spec, ["-n", "5", "-q", "rm", "-rf", "x", "-q"])
    assert [o.name for o, _, _ in parsed.options if o is not None] == ["--adjustment", "-q"]
    assert parsed.operands == ["rm", "-rf", "x", "-q"]
    assert spec.operands == "command"


def test_option_values_are_read_under_every_spelling() -> None:
    spec = Spec("tool", options=[Opt("-e/--expression", value="required")], flags="-n")
    parsed = parse_program_args(spec, ["-e", "a", "-n", "--expression=b", "-eC", "f"])
    assert parsed.values("--expression") == ["a", "b", "C"]
    assert parsed.values("-e") == ["a", "C"]  # a spelling names only what was written so
    assert parsed.values("--missing") == []


@pytest.mark.parametrize(
    ("command", "inner"),
    [
        # wrappers of every table that run a command: the command is judged on its own
        ("timeout 5 rm -rf build", "rm"),
        ("poetry run pytest -x", "pytest"),
        ("conda run -n env python -m pytest", "python"),
        ("npx -y prettier --write .", "prettier"),
        ("nsenter -t 1 -m rm -rf /srv", "rm"),
        ("unshare -r rm -rf /srv", "rm"),
        ("runuser -u nobody -- rm -rf /srv", "rm"),
    ],
)
def test_commands_run_by_other_commands_are_judged(command: str, inner: str) -> None:
    facts = classify(command, cwd="/tmp/project", workspace="/tmp/project")
    programs = [c.program for c in facts.commands]
    assert inner in programs, programs
    nested = facts.commands[programs.index(inner)]
    assert nested.via, "the inner command is unwrapped from its runner"
