"""Invariants of the program tables: names, classes, roles and handlers that exist, one home
per program, option tables that build, and tables loaded only when needed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from clearance.shellparse import knowledge
from clearance.shellparse.facts import CLASSES
from clearance.shellparse.knowledge import (
    TABLES,
    all_programs,
    lookup,
    lookup_module,
    python_modules,
    table_sections,
)
from clearance.shellparse.spec import Spec

#: Every role the classifier gives meaning to (see ``spec`` and ``classifier.role``).
ROLES = frozenset(
    (
        "none",
        "read",
        "meta",
        "read_tree",
        "write",
        "delete",
        "exec",
        "unknown",
        "copy",
        "copy_tree",
        "move",
        "url",
        "host",
        "remote",
        "url_or_path",
        "url_or_path_tree",
        "cwd",
        "cwd_file",
        "code",
        "shell",
        "module",
        "target_dir",
        "command",
        "shell_words",
        "remote_shell",
        "remote_command",
    )
)


def _walk(spec: Spec, path: str) -> Iterator[tuple[str, Spec]]:
    yield path, spec
    for name, sub in (spec.subcommands or {}).items():
        yield from _walk(sub, f"{path} {name}")
    if spec.default is not None:
        yield from _walk(spec.default, f"{path} *")


def _every_spec() -> Iterator[tuple[str, Spec]]:
    seen: set[int] = set()
    specs = list(all_programs().items())
    specs += [(s.name, s) for s in python_modules()]
    for name, spec in specs:
        for path, found in _walk(spec, name):
            if id(found) not in seen:
                seen.add(id(found))
                yield path, found


def _roles(value: str | tuple[str, ...] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else value


def test_classes_roles_and_handlers_exist() -> None:
    problems: list[str] = []
    for path, spec in _every_spec():
        problems += [f"{path}: class {c}" for c in spec.classes if c not in CLASSES]
        problems += [f"{path}: operand role {r}" for r in _roles(spec.operands) if r not in ROLES]
        handler = spec.handler
        if handler is not None and not (
            callable(handler) and handler.__module__.startswith("clearance.shellparse.handlers.")
        ):
            problems.append(f"{path}: handler {handler!r} is not one of shellparse/handlers/")
        for spelling, opt in spec.options.items():
            if opt.role not in ROLES:
                problems.append(f"{path} {spelling}: role {opt.role}")
            problems += [
                f"{path} {spelling}: operand role {r}"
                for r in _roles(opt.operands)
                if r not in ROLES
            ]
            problems += [f"{path} {spelling}: class {c}" for c in opt.adds if c not in CLASSES]
            if opt.value not in (None, "required", "optional"):
                problems.append(f"{path} {spelling}: value {opt.value}")
            if not spelling.startswith(("-", "+")):
                problems.append(f"{path}: option spelled {spelling!r}")
    assert not problems, "\n".join(problems)


def test_the_program_index_matches_the_tables() -> None:
    from clearance.shellparse.knowledge import index_source

    path = Path(__file__).parents[2] / "shellparse" / "knowledge" / "_index.py"
    assert path.read_text(encoding="utf-8") == index_source(), (
        "stale: run python -m clearance.shellparse.knowledge"
    )


def test_the_compiled_tables_match_the_yaml() -> None:
    """``_data/<table>.json`` is what the generator makes of ``<table>.yaml``."""
    from clearance.shellparse.knowledge import generate

    for table in TABLES:
        path = Path(knowledge.DATA_DIR) / f"{table}.json"
        assert path.read_text(encoding="utf-8") == generate.compile_table(table), (
            f"{table}.json is stale: run python -m clearance.shellparse.knowledge"
        )


def test_each_program_is_described_once() -> None:
    homes: dict[str, list[str]] = {}
    for table in TABLES:
        for spec in table_sections(table)["programs"]:
            for name in spec.name.split("|"):
                homes.setdefault(name, []).append(table)
    twice = {name: where for name, where in homes.items() if len(where) > 1}
    assert not twice, twice


def test_every_name_looks_up_its_spec() -> None:
    programs = all_programs()
    assert len(programs) > 900
    for name, spec in programs.items():
        assert lookup(name) is spec
    assert lookup("no-such-program-here") is None


def test_module_lookup_prefers_modules_then_programs() -> None:
    server = lookup_module("http.server")
    assert server is not None and "network" in server.classes
    assert lookup_module("pytest") is lookup("pytest")
    assert lookup("http.server") is None


def test_canonical_names_are_long_when_there_is_one() -> None:
    problems = []
    for path, spec in _every_spec():
        for spelling, opt in spec.options.items():
            longs = [n for n in opt.names if n.startswith("--")]
            if longs and opt.name != longs[0]:
                problems.append(f"{path} {spelling}: {opt.name}")
            if any("=" in n or "," in n or (len(n) > 2 and "?" in n) for n in opt.names):
                problems.append(f"{path} {spelling}: a spelling with notation in it {opt.names}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("program", "spellings"),
    [
        ("rm", ("-r", "-R", "--recursive")),
        ("grep", ("-i", "-y", "--ignore-case")),
        ("sed", ("-n", "--quiet", "--silent")),
        ("curl", ("-d", "--data")),
        ("wget", ("-O", "--output-document")),
        ("tar", ("-x", "--extract", "--get")),
    ],
)
def test_aliases_share_one_option(program: str, spellings: tuple[str, ...]) -> None:
    spec = lookup(program)
    assert spec is not None
    assert len({id(spec.options[s]) for s in spellings}) == 1


@pytest.mark.parametrize(
    ("program", "spelling", "canonical"),
    [
        ("sudo", "-g", "--group"),
        ("sudo", "-u", "--user"),
        ("stdbuf", "-o", "--output"),
        ("pylint", "--rcfile", "--rcfile"),
        ("curl", "-J", "--remote-header-name"),
        ("pnpm", "--filter", "--filter"),
        ("java", "-javaagent", "-javaagent"),
    ],
)
def test_distinct_options_are_not_merged(program: str, spelling: str, canonical: str) -> None:
    spec = lookup(program)
    assert spec is not None
    assert spec.options[spelling].name == canonical


@pytest.mark.parametrize(
    ("command", "loaded"),
    [
        # the index names each program's one table: no other is read, and no YAML
        ("git status", "['_index'] ['vcs'] False"),
        ("echo hi && cd src && [ -f x ]", "['_index'] ['shell_builtins'] False"),
        ("frobnicate --x", "['_index'] [] False"),
    ],
)
def test_tables_load_on_demand(command: str, loaded: str) -> None:
    code = (
        "import sys\n"
        "from clearance.shellparse import classify, knowledge\n"
        f"classify({command!r})\n"
        "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules"
        " if m.startswith('clearance.shellparse.knowledge.')),"
        " sorted(knowledge._tables), 'yaml' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == loaded


_AWKWARD = ("-", "--", "", ":::", "{}", "=", "-c", "-o", "-I", "-x", "-f", "'x y'", "*", "+!x")


def test_every_program_survives_awkward_arguments() -> None:
    """Handlers meet argument lists nobody writes on purpose: a missing value, a bare ``--``,
    an empty word. The facts may say little, but the analysis never fails inside."""
    from corpus_expect import facts_of

    failures = []
    for k, (name, spec) in enumerate(sorted(all_programs().items())):
        subcommand = next(iter(spec.subcommands or {}), "")
        tail = " ".join(_AWKWARD[(k + i) % len(_AWKWARD)] or "''" for i in range(4))
        for command in (f"{name} {tail}", f"{name} {subcommand} {tail}", f"{name} -"):
            facts = facts_of(command)
            if facts.error is not None and facts.error.code == "internal_error":
                failures.append(f"{command!r}: {facts.error.message}")
    assert not failures, "\n".join(failures[:20])
