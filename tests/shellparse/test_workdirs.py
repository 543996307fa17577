"""Options that set where a program acts (``shellparse.workdirs``), judged on a real tree.

Every row of the table is checked three ways: the program's knowledge gives the option the
role the table says; the place it names is a fact judged inside or outside the workspace (a
directory outside is never allowed where the same command in the project is, and one inside
the project is judged exactly like the project itself); and relative paths after it resolve
from there (``tar -C ~/.ssh -cf - id_rsa`` reads the key, its twin in ``src`` reads a source).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clearance.engine.api import decide, default_pack_path, load_policy
from clearance.engine.intents import ToolIntent
from clearance.engine.rules import PolicySet
from clearance.shellparse import classify
from clearance.shellparse.knowledge import lookup
from clearance.shellparse.workdirs import ROLE_OF_KIND, WORKDIR_OPTIONS

#: A command acting through each row's option; ``{d}`` is the place (a directory).
TEMPLATES = {
    ("git", "-C"): "git -C {d} add .",
    ("git", "--work-tree"): "git --work-tree={d} add .",
    ("make", "-C/--directory"): "make -C {d}",
    ("tar", "-C/--directory"): "tar -C {d} -xf /dev/null",
    ("terraform", "-chdir"): "terraform -chdir={d} apply",
    ("cargo", "-C"): "cargo -C {d} build",
    ("cargo", "--manifest-path"): "cargo --manifest-path {d}/Cargo.toml build",
    ("cargo build", "--manifest-path"): "cargo build --manifest-path {d}/Cargo.toml",
    ("npm", "-C/--prefix"): "npm --prefix {d} test",
    ("pnpm", "-C/--dir"): "pnpm --dir {d} test",
    ("yarn", "--cwd"): "yarn --cwd {d} test",
    ("go", "-C"): "go -C {d} build ./...",
    ("cmake", "-S"): "cmake -S {d} -B build",
    ("cmake", "-B"): "cmake -S . -B {d}",
    ("cmake", "--build"): "cmake --build {d}",
    ("docker compose", "--project-directory"): "docker compose --project-directory {d} build",
    ("docker compose", "-f/--file"): "docker compose -f {d}/compose.yml build",
    ("env", "-C/--chdir"): "env -C {d} make",
    ("sudo", "-D/--chdir"): "sudo -D {d} make",
    ("ninja", "-C"): "ninja -C {d}",
    ("gradle", "-p/--project-dir"): "gradle -p {d} build",
    ("just", "-d/--working-directory"): "just -d {d} build",
    ("uv run", "--directory"): "uv run --directory {d} pytest",
    ("poetry", "-C/--directory"): "poetry -C {d} build",
    ("poetry", "-P/--project"): "poetry -P {d} build",
    ("ctest", "--test-dir"): "ctest --test-dir {d}",
}

ROWS = [(program, option, kind) for program, option, kind in WORKDIR_OPTIONS]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, str]:
    root = tmp_path_factory.mktemp("workdirs")
    workspace, home, other = root / "proj", root / "home", root / "other"
    for folder in (workspace / ".git", workspace / "src", workspace / "sub", home / ".ssh"):
        folder.mkdir(parents=True)
    other.mkdir()
    (home / ".ssh" / "id_rsa").write_text("KEY\n")
    (workspace / "src" / "app.py").write_text("x = 1\n")
    for place in (workspace / "sub", other, workspace):
        (place / "Cargo.toml").write_text("[package]\n")
        (place / "compose.yml").write_text("services: {}\n")
    return str(workspace), str(home), str(other)


@pytest.fixture(scope="module")
def policy(world: tuple[str, str, str]) -> PolicySet:
    return load_policy(world[0], files=[default_pack_path()], use_cache=False)


def _decide(policy: PolicySet, world: tuple[str, str, str], command: str) -> Any:
    workspace, home, _ = world
    return decide(
        ToolIntent("bash", {"command": command}),
        policy,
        cwd=workspace,
        workspace=workspace,
        home=home,
    )


def _places(world: tuple[str, str, str], command: str, kind: str) -> list[Any]:
    """The path facts naming where the program acts."""
    workspace, home, _ = world
    facts = classify(command, cwd=workspace, home=home, workspace=workspace)
    wanted = "write" if kind == "place" else None
    return [
        path
        for part in facts.commands
        for path in part.paths
        if (path.source == "cwd" if wanted is None else path.access == wanted)
        and path.source != "redirect"
    ]


def test_every_row_has_an_example() -> None:
    assert {(p, o) for p, o, _ in ROWS} == set(TEMPLATES)


@pytest.mark.parametrize(("program", "option", "kind"), ROWS)
def test_knowledge_gives_the_role(program: str, option: str, kind: str) -> None:
    name, *subcommands = program.split()
    spec = lookup(name)
    assert spec is not None, name
    for word in subcommands:
        assert spec.subcommands is not None and word in spec.subcommands, (program, word)
        spec = spec.subcommands[word]
    for spelling in option.split("/"):
        opt = spec.options.get(spelling)
        assert opt is not None, (program, spelling)
        assert opt.role == ROLE_OF_KIND[kind], (program, spelling, opt.role)
        assert opt.value == "required", (program, spelling)


@pytest.mark.parametrize(("program", "option", "kind"), ROWS)
def test_place_outside_the_workspace(
    program: str, option: str, kind: str, world: tuple[str, str, str], policy: PolicySet
) -> None:
    workspace, _, other = world
    template = TEMPLATES[(program, option)]
    outside = template.format(d=other)
    inside = template.format(d="sub")
    here = template.format(d=".")
    far = [p for p in _places(world, outside, kind) if p.resolved.startswith(other)]
    assert far, outside
    assert all(p.inside_workspace is False for p in far), outside
    near = [p for p in _places(world, inside, kind) if p.resolved.startswith(workspace + "/sub")]
    assert near and all(p.inside_workspace is True for p in near), inside
    assert _decide(policy, world, outside).decision != "allow", outside
    # the benign twin: a place inside the project is judged like the project itself
    assert _decide(policy, world, inside).decision == _decide(policy, world, here).decision


#: (technique, command acting on a secret or outside, decision, benign twin that stays allowed)
RESOLUTION = [
    ("env -C", "env -C ~/.ssh cat id_rsa", "deny", "env -C src cat app.py"),
    ("env --chdir", "env --chdir ~/.ssh cat id_rsa", "deny", "env --chdir=src cat app.py"),
    ("tar -C", "tar -C ~/.ssh -cf - id_rsa", "deny", "tar -C src -cf - app.py"),
    (
        "git -C side door",
        "git -C ~/.ssh diff --no-index id_rsa /dev/null",
        "deny",
        "git -C src diff --no-index app.py /dev/null",
    ),
    (
        "manifest outside",
        "cargo build --manifest-path ../other/Cargo.toml",
        "ask",
        "cargo build --manifest-path sub/Cargo.toml",
    ),
    ("unknown place", 'make -C "$D"', "ask", "make -C sub"),
]


@pytest.mark.parametrize(
    ("technique", "command", "expected", "twin"), RESOLUTION, ids=[c[0] for c in RESOLUTION]
)
def test_relative_paths_resolve_from_the_place(
    technique: str,
    command: str,
    expected: str,
    twin: str,
    world: tuple[str, str, str],
    policy: PolicySet,
) -> None:
    assert _decide(policy, world, command).decision == expected, command
    assert _decide(policy, world, twin).decision == "allow", twin


def test_a_file_option_names_its_directory(world: tuple[str, str, str]) -> None:
    workspace, home, other = world
    facts = classify(f"cargo build --manifest-path {other}/Cargo.toml", cwd=workspace, home=home)
    paths = {(p.source, p.access, p.resolved) for p in facts.commands[0].paths}
    assert ("option", "read", str(Path(other) / "Cargo.toml")) in paths
    assert ("cwd", "read", other) in paths
    assert any(p == ("cwd", "write", other) for p in paths)  # the build writes there
