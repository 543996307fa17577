"""How program tables are written: subcommands by meaning (a key of several names), programs
that run a command (``operands: command``, ``permute: false``), and option values read once
(``ParsedArgs.values``)."""

from __future__ import annotations

import json

import pytest

from clearance.shellparse import classify
from clearance.shellparse.knowledge import decode, generate
from clearance.shellparse.options import parse_program_args
from clearance.shellparse.spec import Opt, Spec


def _program(yaml_text: str) -> Spec:
    text = generate.compile_text(yaml_text, "t.yaml")
    (spec,) = decode(json.loads(text), "t.json")["programs"]
    return spec


def test_a_key_of_several_names_gives_each_name_of_a_meaning_its_classes() -> None:
    spec = _program(
        "programs:\n  pm:\n    subcommands:\n"
        "      install add: {classes: package_install network}\n"
        "      list ls: {classes: read_only}\n"
    )
    table = spec.subcommands
    assert table is not None
    assert sorted(table) == ["add", "install", "list", "ls"]
    assert table["install"] is table["add"]
    assert table["install"].classes == {"package_install", "network"}
    assert table["ls"].classes == {"read_only"}


def test_a_subcommand_given_twice_is_refused() -> None:
    with pytest.raises(generate.TableError, match="subcommand 'rm' is given twice"):
        _program(
            "programs:\n  pm:\n    subcommands:\n"
            "      remove rm: {classes: package_install write}\n"
            "      rm: {classes: delete}\n"
        )


def test_a_command_runner_leaves_the_command_its_own_options() -> None:
    spec = _program(
        "programs:\n  wrap:\n    operands: command\n    permute: false\n"
        "    options: [{name: -q}]\n    flags: -n/--adjustment=\n"
    )
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
