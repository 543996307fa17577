"""The program tables as data: the YAML's vocabulary, the generator's refusals, the handler
registry, and the sharing a table's aliases keep when it loads."""

from __future__ import annotations

import json

import pytest

from clearance.shellparse import handlers, knowledge
from clearance.shellparse.handlers import files, vcs
from clearance.shellparse.knowledge import generate, lookup


def test_a_handler_resolves_only_through_its_module_registry() -> None:
    assert handlers.resolve("files.sed") is files.sed
    assert handlers.resolve("vcs.git_push") is vcs.git_push
    # a function of the module that the registry does not list, another module, no family
    assert handlers.resolve("files.annotations") is None
    assert handlers.resolve("os.system") is None
    assert handlers.resolve("sed") is None
    for family in handlers.FAMILIES:
        module = __import__(f"clearance.shellparse.handlers.{family}", fromlist=["HANDLERS"])
        for name, function in module.HANDLERS.items():
            assert getattr(module, name) is function


def test_the_vocabulary_compiles_to_specs_and_options() -> None:
    text = generate.compile_text(
        """
programs:
  "frob frobnicate":
    classes: write
    operands: [none, write]
    options:
      - &quiet {name: "-q/--quiet"}
      - {names: "-u/--user -g/--group", value: required}
    flags: ["-a/--all", "-n/--lines="]
    handler: files.sed
    subcommands:
      "ls list": {classes: read_only}
      rm: {classes: delete, options: [*quiet]}
    default: {name: other, classes: unknown}
""",
        "t.yaml",
    )
    (spec,) = knowledge.decode(json.loads(text), "t.json")["programs"]
    assert spec.name == "frob|frobnicate"
    assert spec.classes == {"write"}
    assert spec.operands == ("none", "write")
    assert spec.handler is files.sed
    table = spec.options
    assert table["--user"] is not table["--group"]
    assert table["-u"].name == "--user" and table["-g"].value == "required"
    assert table["--lines"].value == "required" and table["-a"].value is None
    subs = spec.subcommands
    assert subs is not None
    assert subs["ls"] is subs["list"] and subs["ls"].name == "ls|list"
    # an alias is the same object where it is used again
    assert subs["rm"].options["-q"] is table["--quiet"]
    assert spec.default is not None and spec.default.name == "other"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "programs:\n  frob:\n    handler: files.no_such_handler\n",
            "t.yaml: programs/frob: unknown handler 'files.no_such_handler'",
        ),
        (
            "programs:\n  frob:\n    subcommands:\n      x:\n        handler: os.system\n",
            "t.yaml: programs/frob/subcommands/x: unknown handler 'os.system'",
        ),
        ("programs:\n  frob: {}\n  frob: {}\n", "'frob' is given twice"),
        ("programs:\n  frob: {colour: red}\n", "programs/frob: unknown keys ['colour']"),
        ("programs:\n  frob: {families: '-*'}\n", "would match any option"),
        ("programs:\n  frob: {classes: wrte}\n", "'wrte' is not an effect class"),
        ("programs:\n  frob: {options: [{role: read}]}\n", "either name or names"),
        ("progams: {}\n", "a table is a mapping with programs"),
    ],
)
def test_the_generator_refuses_what_the_vocabulary_does_not_say(source: str, message: str) -> None:
    with pytest.raises(generate.TableError) as caught:
        generate.compile_text(source, "t.yaml")
    assert message in str(caught.value)


def test_a_compiled_table_naming_an_unknown_handler_does_not_load() -> None:
    data = {"shared": [], "programs": [{"name": "frob", "handler": "files.nope"}]}
    with pytest.raises(ValueError, match=r"t\.json: frob: unknown handler 'files\.nope'"):
        knowledge.decode(data, "t.json")


def test_shared_entries_load_once() -> None:
    git = lookup("git")
    assert git is not None and git.subcommands is not None
    assert git.subcommands["log"] is git.subcommands["show"]
    assert git.subcommands["diff"].options["--output"] is git.subcommands["log"].options["--output"]
    npm, pnpm = lookup("npm"), lookup("pnpm")
    assert npm is not None and pnpm is not None
    assert npm.subcommands is not None and pnpm.subcommands is not None
    assert npm.subcommands["install"] is pnpm.subcommands["install"]
