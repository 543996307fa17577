"""The house's import boundaries, checked on the source of every module.

Each top-level package says in its ``__init__`` what it may import; this test reads every
``import`` of every module (inside functions and ``TYPE_CHECKING`` blocks too, relative ones
resolved) and fails on any import across a boundary the map below does not allow.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Top-level package -> the clearance packages its modules may import ("" is the root package,
#: which holds only the version). Every package may import itself.
ALLOWED: dict[str, frozenset[str]] = {
    "shellparse": frozenset(),
    "policies": frozenset(),
    "engine": frozenset({"", "shellparse", "policies"}),
    "sandbox": frozenset({"", "engine", "shellparse", "policies"}),
    "runner": frozenset({"", "engine", "shellparse", "policies", "sandbox"}),
    "hooks": frozenset({"", "engine", "shellparse", "policies", "sandbox"}),
    "cli": frozenset(
        {"", "engine", "shellparse", "policies", "runner", "hooks", "sandbox", "service"}
    ),
    "service": frozenset({"", "engine", "cli"}),
}


def _package_folders() -> list[str]:
    """The packages the root package links (``clearance/NAME -> ../NAME``)."""
    return sorted(p.name for p in (ROOT / "clearance").iterdir() if p.is_symlink())


def _module_name(path: Path) -> list[str]:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = ["clearance", *rel.parts]
    if parts[-1] == "__init__":
        parts.pop()
    return parts


def _imports(path: Path) -> set[str]:
    """Absolute names of the clearance modules ``path`` imports."""
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join([*base, *([node.module] if node.module else [])])
            else:
                name = node.module or ""
            found.add(name)
    return {name for name in found if name == "clearance" or name.startswith("clearance.")}


def _top(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_every_linked_package_has_a_boundary() -> None:
    assert set(_package_folders()) == set(ALLOWED), (
        "a package was added or removed: give it a line in ALLOWED and a 'May import' line"
    )


def test_the_root_package_holds_only_the_version_and_the_map() -> None:
    files = {p.name for p in (ROOT / "clearance").iterdir() if not p.is_symlink()}
    assert files <= {"__init__.py", "__main__.py", "py.typed", "__pycache__"}
    source = (ROOT / "clearance" / "__init__.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    assigned = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    assert assigned == {"__version__"}
    assert not [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_says_what_it_may_import(package: str) -> None:
    doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text("utf-8")))
    assert doc and "May import:" in doc, f"{package}/__init__.py must say what it may import"


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_imports_stay_inside_the_boundary(package: str) -> None:
    allowed = ALLOWED[package] | {package}
    crossings = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for name in sorted(_imports(path))
        if _top(name) not in allowed
    ]
    assert not crossings, f"{package} may import only {sorted(allowed)}: {crossings}"


def test_the_scan_sees_relative_and_deferred_imports() -> None:
    """The checker itself: a deferred absolute import and a relative import are both seen."""
    engine_api = _imports(ROOT / "engine" / "api.py")
    assert "clearance.policies" in engine_api
    tools = _imports(ROOT / "runner" / "tools" / "__init__.py")
    assert "clearance.runner.tools.runtime" in tools


#: Inside ``shellparse``: the handlers (what the program tables cannot say) sit below the
#: classifier that calls them, and the tables are data that name their handlers. Neither may
#: reach up: the types they share with the classifier live in ``shellparse/facts.py``.
BELOW_THE_CLASSIFIER = {
    "shellparse/handlers": ("clearance.shellparse.classifier", "clearance.shellparse.extract"),
    "shellparse/knowledge": ("clearance.shellparse.classifier", "clearance.shellparse.extract"),
    "shellparse/lexer": ("clearance.shellparse.classifier", "clearance.shellparse.extract"),
}


@pytest.mark.parametrize("folder", sorted(BELOW_THE_CLASSIFIER))
def test_handlers_tables_and_lexer_never_import_the_classifier(folder: str) -> None:
    forbidden = BELOW_THE_CLASSIFIER[folder]
    crossings = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted((ROOT / folder).glob("*.py"))
        for name in sorted(_imports(path))
        if name.startswith(forbidden)
    ]
    assert not crossings, crossings
    assert list((ROOT / folder).glob("*.py")), folder  # the folder exists and was read
