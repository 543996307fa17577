"""Providers cannot execute anything: no process spawning, no tool runtime.

Checked statically over every module of `clearance.runner.providers`, so a future change
that reaches for `subprocess` or the tool runtime fails here before it can ship.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import clearance.runner.providers as providers_package

PACKAGE = "clearance.runner.providers"
PACKAGE_DIR = Path(providers_package.__file__).parent
MODULES = sorted(PACKAGE_DIR.glob("*.py"))

FORBIDDEN_MODULES = (
    "subprocess",
    "pty",
    "multiprocessing",
    "asyncio.subprocess",
    "clearance.runner.tools",
)
FORBIDDEN_OS = {"system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp", "startfile"}
FORBIDDEN_OS_PREFIXES = ("exec", "spawn")


def _forbidden_os_name(name: str) -> bool:
    return name in FORBIDDEN_OS or name.startswith(FORBIDDEN_OS_PREFIXES)


def _resolve(node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = PACKAGE.split(".")[: len(PACKAGE.split(".")) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _banned(module: str) -> bool:
    return any(module == bad or module.startswith(bad + ".") for bad in FORBIDDEN_MODULES)


def violations(source: str) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if _banned(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(node)
            for alias in node.names:
                full = f"{module}.{alias.name}"
                if _banned(module) or _banned(full):
                    found.append(f"from {module} import {alias.name}")
                elif module == "os" and _forbidden_os_name(alias.name):
                    found.append(f"from os import {alias.name}")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "os"
            and _forbidden_os_name(node.attr)
        ):
            found.append(f"os.{node.attr}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "__import__"
        ):
            found.append("__import__()")
    return found


def test_the_scan_sees_every_module() -> None:
    names = {path.stem for path in MODULES}
    assert {"openai", "anthropic", "scripted", "transport", "registry"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_provider_module_can_execute_anything(path: Path) -> None:
    assert violations(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "source",
    [
        "import subprocess",
        "import subprocess as sp",
        "from subprocess import run",
        "import os\nos.system('ls')",
        "from os import execvp",
        "import os\nos.spawnlp(0, 'x')",
        "from clearance.runner.tools import bash",
        "import clearance.runner.tools.bash",
        "from ..tools import registry",
        "from .. import tools",
        "from asyncio import subprocess",
        "__import__('subprocess')",
    ],
)
def test_the_scan_catches_each_way_in(source: str) -> None:
    assert violations(source) != []


def test_the_scan_allows_ordinary_imports() -> None:
    assert violations("import os\nfrom .types import TextDelta\nos.environ.get('X')") == []
