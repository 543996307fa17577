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
    from clearance.shellparse.spec import Spec

#: The table modules, in the order lookups try them.
TABLES = (
    "shell_builtins",
    "files",
    "vcs",
    "utilities",
    "build",
    "packages",
    "system_packages",
    "interpreters",
    "wrappers",
    "network",
    "system",
    "crypto",
    "macos",
    "version_only",
)

_loaded: dict[str, Spec] = {}
#: Tables whose specs are in ``_loaded`` (a module imported some other way -- by a test, by
#: ``index_source`` -- is registered on its first lookup all the same).
_registered: set[str] = set()
#: How many of ``TABLES`` are in ``_loaded`` (one cell, updated in place).
_progress = [0]


def _load(table: str) -> None:
    """Import one table module (by name) into the lookup table. The tables are thousands
    of small objects that live as long as the process: collecting garbage while they are
    built only scans them again and again."""
    if table in _registered:
        return
    name = f"clearance.shellparse.knowledge.{table}"
    if name not in sys.modules:
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
    _registered.add(table)


def _load_next() -> bool:
    """Import the next table module into the lookup table; ``False`` when all are in."""
    done = _progress[0]
    if done == len(TABLES):
        return False
    _load(TABLES[done])
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

#: Environment variables whose value is a shell command line a program runs (analysed as one).
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

#: Environment variables that make a program run code of the variable's choosing: those
#: holding a command line, and those naming libraries, start-up files or programs.
DANGEROUS_VARIABLES = COMMAND_STRING_VARIABLES | frozenset(
    (
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "LD_AUDIT",
        "DYLD_INSERT_LIBRARIES",
        "DYLD_LIBRARY_PATH",
        "BASH_ENV",
        "ENV",
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
        "GIT_EXEC_PATH",
        "GIT_TEMPLATE_DIR",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_CONFIG_COUNT",
        "GIT_CONFIG_PARAMETERS",
        "IFS",
    )
)


#: The generated index, once imported (one cell: the module stays unimported until a
#: program outside the loaded tables is looked up).
_program_index: list[dict[str, str]] = []


def family(name: str) -> str | None:
    """The table module that describes program ``name`` (``files``, ``build``…), or ``None``
    when no table does; nothing is imported but the index."""
    if not _program_index:
        from clearance.shellparse.knowledge._index import INDEX

        _program_index.append(INDEX)
    return _program_index[0].get(name)


#: Families of programs that the system provides and no package manager puts in a project's
#: ``node_modules/.bin`` or ``.venv/bin``; the names of those families that packages do
#: install are kept apart.
_SYSTEM_FAMILIES = frozenset(
    (
        "files",
        "utilities",
        "shell_builtins",
        "vcs",
        "wrappers",
        "crypto",
        "macos",
        "system_packages",
    )
)
_PACKAGED = frozenset(("jq", "yq", "dotenv", "cross-env", "env-cmd", "rimraf"))


def system_program(name: str) -> bool:
    """Whether ``name`` is a program of the system's own (``ls``, ``git``, ``sudo``): a file
    of that name in a project's tool directory is the project's code, not that program."""
    return family(name) in _SYSTEM_FAMILIES and name not in _PACKAGED


def lookup(name: str) -> Spec | None:
    """The spec of program ``name``, or ``None`` when no table describes it.

    ``_index.INDEX`` names the one module that describes each program, so a lookup imports
    that module only, and a program no table knows imports none (a test holds the index to
    the tables; ``python -m clearance.shellparse.knowledge`` rewrites it)."""
    found = _loaded.get(name)
    if found is not None:
        return found
    if not _program_index:
        from clearance.shellparse.knowledge._index import INDEX

        _program_index.append(INDEX)
    table = _program_index[0].get(name)
    if table is None:
        return None
    _load(table)
    return _loaded.get(name)


def index_source() -> str:
    """The text of ``_index.py`` for the tables as they are: the program index, and the
    pattern tables (environment families, autorun files) as dictionaries."""
    from clearance.shellparse.knowledge import autorun, environment, patterns

    where: dict[str, str] = {}
    for table in TABLES:
        module = __import__(f"clearance.shellparse.knowledge.{table}", fromlist=["SPECS"])
        for spec in module.SPECS:
            for program in spec.name.split("|"):
                where.setdefault(program, table)
    names, paths = autorun.autorun_index()
    lines = [
        '"""Generated by ``python -m clearance.shellparse.knowledge``: program -> table module,',
        "and the pattern tables of ``environment`` and ``autorun`` split for lookups",
        '(``patterns.split``)."""',
        "",
        "# fmt: off",
        "INDEX = {",
        *(f"    {program!r}: {table!r}," for program, table in sorted(where.items())),
        "}",
        "",
        *patterns.source("ENVIRONMENT", patterns.split(environment.FAMILIES)),
        "",
        *patterns.source("AUTORUN_NAMES", names),
        "",
        "AUTORUN_PATHS = {",
        *(
            line
            for head, entries in sorted(paths.items())
            for line in (f"    {head!r}: (", *(f"        {e!r}," for e in entries), "    ),")
        ),
        "}",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    import os

    path = os.path.join(os.path.dirname(__file__), "_index.py")
    text = index_source()  # first: a table that fails to import leaves the index as it was
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
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
