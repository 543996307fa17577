"""Program knowledge: one ``Spec`` per program, gathered from the modules of this package.

Each module holds one family (files, version control, builds, packages, interpreters,
wrappers, network, system). ``lookup`` is the entry point the classifier and the engine use.

The modules are imported on demand: ``_index`` (generated) names the module of each program,
so a hook call that classifies ``git status`` loads the version-control table and no other,
and an unknown program loads none. A program is described in exactly one module (a test
checks it, and that the index matches the tables).
"""

from __future__ import annotations

import gc
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    from clearance.shellparse.spec import Spec

#: The table modules, in the order lookups try them.
TABLES = (
    "shell_builtins",
    "files",
    "vcs",
    "utilities",
    "build",
    "packages",
    "interpreters",
    "wrappers",
    "network",
    "system",
)

_loaded: dict[str, Spec] = {}
#: How many of ``TABLES`` are in ``_loaded`` (one cell, updated in place).
_progress = [0]


def _load_next() -> bool:
    """Import the next table module into the lookup table; ``False`` when all are in."""
    done = _progress[0]
    if done == len(TABLES):
        return False
    name = f"clearance.shellparse.knowledge.{TABLES[done]}"
    # The tables are thousands of small objects that live as long as the process: collecting
    # garbage while they are built only scans them again and again.
    collecting = gc.isenabled()
    gc.disable()
    try:
        __import__(name)  # the import statement's path: cheaper than importlib
    finally:
        if collecting:
            gc.enable()
    module: ModuleType = sys.modules[name]
    for spec in module.SPECS:
        for program in spec.name.split("|"):
            _loaded.setdefault(program, spec)
    _progress[0] = done + 1
    return True


def all_programs() -> dict[str, Spec]:
    """Every program clearance knows, by name (imports every table)."""
    while _load_next():
        pass
    return _loaded


#: Files a build or test run executes as code: written earlier on the same command line,
#: they make ``make``/``npm test``/``pytest`` run whatever was just written.
BUILD_DEFINITIONS = frozenset(
    (
        "Makefile",
        "makefile",
        "GNUmakefile",
        "package.json",
        ".npmrc",
        "conftest.py",
        "pytest.ini",
        "setup.py",
        "setup.cfg",
        "pyproject.toml",
        "tox.ini",
        "noxfile.py",
        "Cargo.toml",
        "build.rs",
        ".cargo/config.toml",
        "CMakeLists.txt",
        "build.gradle",
        "build.gradle.kts",
        "pom.xml",
        "Rakefile",
        "Gemfile",
        "justfile",
        "Justfile",
        "Taskfile.yml",
        "go.mod",
        "deno.json",
        "vite.config.ts",
        "vite.config.js",
        "jest.config.js",
        "vitest.config.ts",
    )
)

#: Environment variables that make a program run code of the variable's choosing.
DANGEROUS_VARIABLES = frozenset(
    (
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "LD_AUDIT",
        "DYLD_INSERT_LIBRARIES",
        "DYLD_LIBRARY_PATH",
        "BASH_ENV",
        "ENV",
        "PROMPT_COMMAND",
        "PS4",
        "SHELLOPTS",
        "BASHOPTS",
        "PYTHONSTARTUP",
        "PYTHONPATH",
        "PYTHONHOME",
        "PYTHONINSPECT",
        "NODE_OPTIONS",
        "NODE_PATH",
        "PERL5OPT",
        "PERL5LIB",
        "PERLLIB",
        "RUBYOPT",
        "RUBYLIB",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_EXTERNAL_DIFF",
        "GIT_ASKPASS",
        "GIT_PROXY_COMMAND",
        "GIT_EXEC_PATH",
        "GIT_TEMPLATE_DIR",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_CONFIG_COUNT",
        "GIT_CONFIG_PARAMETERS",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "PAGER",
        "MANPAGER",
        "SYSTEMD_PAGER",
        "EDITOR",
        "VISUAL",
        "BROWSER",
        "LESSOPEN",
        "LESSCLOSE",
        "IFS",
    )
)

#: Of those, the ones whose value is itself a shell command line (analysed as one).
COMMAND_STRING_VARIABLES = frozenset(
    (
        "PROMPT_COMMAND",
        "GIT_SSH_COMMAND",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_EXTERNAL_DIFF",
        "GIT_PROXY_COMMAND",
        "PAGER",
        "MANPAGER",
        "SYSTEMD_PAGER",
        "EDITOR",
        "VISUAL",
        "BROWSER",
        "LESSOPEN",
        "LESSCLOSE",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "GIT_ASKPASS",
    )
)


def _load(table: str) -> None:
    """Import one table module (by name) into the lookup table."""
    name = f"clearance.shellparse.knowledge.{table}"
    if name in sys.modules:
        return
    collecting = gc.isenabled()
    gc.disable()
    try:
        __import__(name)
    finally:
        if collecting:
            gc.enable()
    for spec in sys.modules[name].SPECS:
        for program in spec.name.split("|"):
            _loaded.setdefault(program, spec)


def lookup(name: str) -> Spec | None:
    """The spec of program ``name``, or ``None`` when no table describes it.

    ``_index.INDEX`` names the one module that describes each program, so a lookup imports
    that module only, and a program no table knows imports none (a test holds the index to
    the tables; ``python -m clearance.shellparse.knowledge`` rewrites it)."""
    found = _loaded.get(name)
    if found is not None:
        return found
    from clearance.shellparse.knowledge._index import INDEX

    table = INDEX.get(name)
    if table is None:
        return None
    _load(table)
    return _loaded.get(name)


def index_source() -> str:
    """The text of ``_index.py`` for the tables as they are."""
    where: dict[str, str] = {}
    for table in TABLES:
        module = __import__(f"clearance.shellparse.knowledge.{table}", fromlist=["SPECS"])
        for spec in module.SPECS:
            for program in spec.name.split("|"):
                where.setdefault(program, table)
    lines = [
        '"""Generated by ``python -m clearance.shellparse.knowledge``: program -> table module."""',
        "",
        "# fmt: off",
        "INDEX = {",
        *(f"    {program!r}: {table!r}," for program, table in sorted(where.items())),
        "}",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    import os

    path = os.path.join(os.path.dirname(__file__), "_index.py")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(index_source())
    print(f"wrote {path}")
    return 0


_python_modules: dict[str, Spec] = {}


def lookup_module(name: str) -> Spec | None:
    """What ``python -m name`` runs: a module's own spec, else the program of that name
    (``python -m pytest`` is pytest)."""
    if not _python_modules:
        from clearance.shellparse.knowledge import interpreters

        for spec in interpreters.MODULES:
            for module_name in spec.name.split("|"):
                _python_modules[module_name] = spec
    return _python_modules.get(name) or lookup(name)
