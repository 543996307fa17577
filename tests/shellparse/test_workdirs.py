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
from workspace_support import World, decide_in, default_pack, make_world

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


#: What a build directory holds: a manifest and a compose file.
BUILD_FILES = {"Cargo.toml": "[package]\n", "compose.yml": "services: {}\n"}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("workdirs")


@pytest.fixture(scope="module")
def other(root: Path) -> str:
    """A build directory outside the project."""
    place = root / "other"
    place.mkdir()
    for name, text in BUILD_FILES.items():
        (place / name).write_text(text)
    return str(place)


@pytest.fixture(scope="module")
def world(root: Path, other: str) -> World:
    """The project (a source, build files at its top and in ``sub``) and a home with a key,
    beside ``other`` (which commands in the project name as ``../other``)."""
    files = {"src/app.py": "x = 1\n", **BUILD_FILES}
    files.update({f"sub/{name}": text for name, text in BUILD_FILES.items()})
    return make_world(root, files, {".ssh/id_rsa": "KEY\n"})


@pytest.fixture(scope="module")
def policy(world: World) -> PolicySet:
    return default_pack(world)


def _places(world: World, command: str, kind: str) -> list[Any]:
    """The path facts naming where the program acts."""
    workspace, home = world
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
    program: str, option: str, kind: str, world: World, other: str, policy: PolicySet
) -> None:
    workspace, _ = world
    template = TEMPLATES[(program, option)]
    outside = template.format(d=other)
    inside = template.format(d="sub")
    here = template.format(d=".")
    far = [p for p in _places(world, outside, kind) if p.resolved.startswith(other)]
    assert far, outside
    assert all(p.inside_workspace is False for p in far), outside
    near = [p for p in _places(world, inside, kind) if p.resolved.startswith(workspace + "/sub")]
    assert near and all(p.inside_workspace is True for p in near), inside
    assert decide_in(policy, world, outside).decision != "allow", outside
    # the benign twin: a place inside the project is judged like the project itself
    assert decide_in(policy, world, inside).decision == decide_in(policy, world, here).decision


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
    world: World,
    policy: PolicySet,
) -> None:
    assert decide_in(policy, world, command).decision == expected, command
    assert decide_in(policy, world, twin).decision == "allow", twin


def test_a_file_option_names_its_directory(world: World, other: str) -> None:
    workspace, home = world
    facts = classify(f"cargo build --manifest-path {other}/Cargo.toml", cwd=workspace, home=home)
    paths = {(p.source, p.access, p.resolved) for p in facts.commands[0].paths}
    assert ("option", "read", str(Path(other) / "Cargo.toml")) in paths
    assert ("cwd", "read", other) in paths
    assert any(p == ("cwd", "write", other) for p in paths)  # the build writes there
