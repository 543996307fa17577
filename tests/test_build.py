"""The build: which copy of clearance the suite runs against, and the rules that keep the hot
modules compilable by mypyc (setup.py compiles them when it can).

``CLEARANCE_TEST_INSTALLED=compiled`` (see tests/conftest.py) must find every module setup.py
compiles as an extension module of the installed copy; ``=pure`` must find the installed
sources; unset, the checkout itself. The rules are checked on the source in every run, because
mypy does not flag what compiled code gets wrong at run time (an ``except … as`` name bound to
two exception types raises TypeError there)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODE = os.environ.get("CLEARANCE_TEST_INSTALLED", "")


def _setup() -> ModuleType:
    spec = importlib.util.spec_from_file_location("clearance_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # its setup() runs only as __main__
    return module


SETUP = _setup()
COMPILED: list[str] = SETUP.compiled_modules()
SOURCES = [ROOT / Path(path).relative_to("clearance") for path in SETUP.compiled_sources()]


def _real(path: str) -> Path:
    return Path(os.path.realpath(path))


def test_the_build_list_names_real_modules() -> None:
    for source in SOURCES:
        assert (ROOT / source).is_file(), source
    assert "clearance.shellparse.extract" in COMPILED and "clearance.hooks.base" in COMPILED
    # every module of the hooks package is compiled: it is compiled as a whole
    hooks = {p.stem for p in (ROOT / "hooks").glob("*.py") if p.stem != "__main__"}
    assert {name.rpartition(".")[2] for name in COMPILED if name.startswith("clearance.hooks.")} | {
        "__init__"
    } == hooks


def test_the_suite_imports_the_copy_it_claims() -> None:
    import clearance

    here = _real(clearance.__file__ or "")
    from_checkout = here.is_relative_to(ROOT) and "site-packages" not in here.parts
    assert from_checkout == (MODE in ("", "0")), (MODE, here)


@pytest.mark.skipif(MODE != "compiled", reason="runs against the installed compiled build")
@pytest.mark.parametrize("name", COMPILED)
def test_compiled_modules_are_extension_modules(name: str) -> None:
    module = importlib.import_module(name)
    assert (module.__file__ or "").endswith(".so"), (name, module.__file__)


@pytest.mark.skipif(MODE != "pure", reason="runs against the installed pure build")
@pytest.mark.parametrize("name", COMPILED)
def test_pure_modules_are_sources(name: str) -> None:
    module = importlib.import_module(name)
    assert (module.__file__ or "").endswith(".py"), (name, module.__file__)


@pytest.mark.skipif(MODE in ("", "0"), reason="runs against an installed copy")
def test_subprocesses_import_the_installed_copy_too() -> None:
    """A subprocess started from the checkout (``python -m clearance``, cwd first on its path)
    must not import the checkout's ``clearance/`` either."""
    probe = "import clearance.shellparse.extract as m; print(m.__file__)"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    found = _real(done.stdout.strip())
    assert not (found.is_relative_to(ROOT) and "site-packages" not in found.parts), found
    if MODE == "compiled":
        assert found.suffix == ".so", found


def _can_compile() -> bool:
    import shutil
    import sysconfig

    include = sysconfig.get_paths().get("include") or ""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return (
        os.path.isfile(os.path.join(include, "Python.h"))
        and shutil.which(compiler) is not None
        and importlib.util.find_spec("mypyc") is not None
    )


def test_the_default_build_is_compiled_where_it_can_be(monkeypatch: pytest.MonkeyPatch) -> None:
    """``pip install .`` (setuptools runs ``setup.py bdist_wheel``) compiles unless something
    is missing; ``CLEARANCE_PURE=1`` and editable installs are pure, with the reason said."""
    monkeypatch.delenv("CLEARANCE_PURE", raising=False)
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    reason = SETUP._why_pure()
    if _can_compile():
        assert reason is None, reason
    else:
        assert reason is not None and reason.startswith(("no ", "mypyc")), reason
    monkeypatch.setenv("CLEARANCE_PURE", "1")
    assert SETUP._why_pure() == "CLEARANCE_PURE is set"
    monkeypatch.setenv("CLEARANCE_PURE", "0")
    assert SETUP._why_pure() == reason
    monkeypatch.setattr(sys, "argv", ["setup.py", "editable_wheel"])
    assert SETUP._why_pure() == "editable install"
    monkeypatch.setattr(sys, "argv", ["setup.py", "egg_info"])
    assert SETUP._why_pure() == "not building"


# --- what compiled code cannot do (COMMON rules for every compiled module) ----------------


def _trees() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in SOURCES]


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def _own_nodes(function: ast.AST) -> list[ast.AST]:
    """The nodes of a function's body, not of functions or classes nested in it."""
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def test_no_module_getattr() -> None:
    found = [
        f"{path}:{node.lineno}"
        for path, tree in _trees()
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name in ("__getattr__", "__dir__")
    ]
    assert not found


def test_no_nested_classes() -> None:
    found = [
        f"{path}:{inner.lineno} {inner.name}"
        for path, tree in _trees()
        for outer in ast.walk(tree)
        if isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for inner in ast.walk(outer)
        if inner is not outer and isinstance(inner, ast.ClassDef)
    ]
    assert not found


def test_no_slots_read_through_a_class() -> None:
    found = [
        f"{path}:{node.lineno}"
        for path, tree in _trees()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "__slots__"
        and isinstance(node.ctx, ast.Load)
    ]
    assert not found


def test_no_attributes_set_on_functions() -> None:
    found = []
    for path, tree in _trees():
        functions = {f.name for f in _functions(tree)}
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id in functions
                ):
                    found.append(f"{path}:{node.lineno} {target.value.id}.{target.attr}")
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "setattr"
                and node.args
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id in functions
            ):
                found.append(f"{path}:{node.lineno} setattr({node.args[0].id}, …)")
    assert not found


def test_except_names_are_bound_to_one_type_per_function() -> None:
    found = []
    for path, tree in _trees():
        for function in _functions(tree):
            kinds: dict[str, set[str]] = {}
            for node in _own_nodes(function):
                if isinstance(node, ast.ExceptHandler) and node.name:
                    kind = ast.unparse(node.type) if node.type else "BaseException"
                    kinds.setdefault(node.name, set()).add(kind)
            found += [
                f"{path}:{function.lineno} {function.name}: {name} as {sorted(types)}"
                for name, types in kinds.items()
                if len(types) > 1
            ]
    assert not found
