"""Program knowledge: one ``Spec`` per program, gathered from the tables of this package.

Each table holds one family (files, version control, builds, packages, interpreters,
wrappers, network, system). ``lookup`` is the entry point the classifier and the engine use.

A table is written in ``<table>.yaml`` (the vocabulary is in ``generate``'s docstring) and
compiled by ``python -m clearance.shellparse.knowledge`` into ``_data/<table>.json``, which
this module reads with ``json`` (no YAML on the hook path) and turns into ``Spec`` and ``Opt``
objects, a node the table shares built once. The tables load on demand: ``_index``
(generated too) names the table of each program, so a hook call that classifies
``git status`` loads the version-control table and no other, and an unknown program loads
none. A program is described in exactly one table (a test checks it, that the index matches
the tables, and that the JSON is what the YAML compiles to).
"""

from __future__ import annotations

import gc
import os

from clearance.shellparse.spec import Opt, Spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

#: The tables, in the order lookups try them.
TABLES: Final = (
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

#: Where the compiled tables are (``_data/<table>.json``, beside this module in the checkout
#: and in an installed copy alike).
DATA_DIR: Final = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_data")

_loaded: Final[dict[str, Spec]] = {}
#: Tables whose programs are in ``_loaded``.
_registered: Final[set[str]] = set()
#: How many of ``TABLES`` are in ``_loaded`` (one cell, updated in place).
_progress: Final = [0]
#: Each loaded table's sections (``programs``; ``modules`` for ``interpreters``), by table.
_tables: Final[dict[str, dict[str, list[Spec]]]] = {}


class _Decoder:
    """A table's JSON to objects. ``shared`` holds the nodes the table uses more than once
    (``[kind, node]``: ``S`` a spec, ``O`` an option, ``L`` an option list, ``D`` a
    subcommand map), each built once, in order; elsewhere an integer stands for one of them
    (and for one of ``strings`` where a spec's ``flags`` are)."""

    __slots__ = ("shared", "strings", "where")

    def __init__(self, where: str) -> None:
        self.where = where
        self.shared: list[Any] = []
        #: Long ``flags`` strings given more than once, by index (``flags: 3``).
        self.strings: list[str] = []

    def spec(self, node: Any) -> Spec:
        if isinstance(node, int):
            found: Spec = self.shared[node]
            return found
        return self.new_spec(node)

    def new_spec(self, node: dict[str, Any]) -> Spec:
        name: str = node.pop("name")
        flags = node.get("flags")
        if isinstance(flags, int):
            node["flags"] = self.strings[flags]
        options = node.get("options")
        if options is not None:
            node["options"] = self.options(options)
        subcommands = node.get("subcommands")
        if subcommands is not None:
            node["subcommands"] = self.subcommands(subcommands)
        default = node.get("default")
        if default is not None:
            node["default"] = self.spec(default)
        operands = node.get("operands")
        if isinstance(operands, list):
            node["operands"] = tuple(operands)
        handler_name = node.get("handler")
        if handler_name is not None:
            from clearance.shellparse.handlers import resolve

            handler = resolve(handler_name)
            if handler is None:
                raise ValueError(f"{self.where}: {name}: unknown handler {handler_name!r}")
            node["handler"] = handler
        return Spec(name, **node)

    def opt(self, node: Any) -> Opt:
        if isinstance(node, int):
            found: Opt = self.shared[node]
            return found
        return self.new_opt(node)

    def new_opt(self, node: dict[str, Any]) -> Opt:
        operands = node.get("operands")
        if isinstance(operands, list):
            node["operands"] = tuple(operands)
        return Opt(**node)

    def options(self, node: Any) -> list[Opt]:
        if isinstance(node, int):
            found: list[Opt] = self.shared[node]
            return found
        return [self.opt(item) for item in node]

    def subcommands(self, node: Any) -> dict[str, Spec]:
        if isinstance(node, int):
            found: dict[str, Spec] = self.shared[node]
            return found
        return {name: self.spec(value) for name, value in node.items()}

    def table(self, data: dict[str, Any]) -> dict[str, list[Spec]]:
        self.strings = data.get("strings", [])
        shared = self.shared
        for kind, node in data["shared"]:
            if kind == "S":
                shared.append(self.new_spec(node))
            elif kind == "O":
                shared.append(self.new_opt(node))
            elif kind == "L":
                shared.append([self.opt(item) for item in node])
            elif kind == "D":
                shared.append(self.subcommands(node))
            else:
                raise ValueError(f"{self.where}: shared node of unknown kind {kind!r}")
        return {
            section: [self.spec(node) for node in nodes]
            for section, nodes in data.items()
            if section not in ("shared", "strings")
        }


def decode(data: dict[str, Any], where: str) -> dict[str, list[Spec]]:
    """A compiled table (``where`` names it in errors) as its sections of specs. The tables
    are thousands of small objects that live as long as the process: collecting garbage
    while they are built only scans them again and again."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _Decoder(where).table(data)
    finally:
        if collecting:
            gc.enable()


def table_sections(table: str) -> dict[str, list[Spec]]:
    """The sections of one table (``programs``, and ``modules`` for ``interpreters``), read
    from its JSON once."""
    found = _tables.get(table)
    if found is None:
        if table not in TABLES:
            raise ValueError(f"{table!r} is not a table of clearance.shellparse.knowledge")
        import json

        name = f"{table}.json"
        with open(os.path.join(DATA_DIR, name), "rb") as fh:
            data = json.loads(fh.read())
        found = _tables[table] = decode(data, name)
    return found


def _load(table: str) -> None:
    """One table's programs into the lookup table."""
    if table in _registered:
        return
    for spec in table_sections(table)["programs"]:
        for program in spec.name.split("|"):
            _loaded.setdefault(program, spec)
    _registered.add(table)


def _load_next() -> bool:
    """The next table into the lookup table; ``False`` when all are in."""
    done = _progress[0]
    if done == len(TABLES):
        return False
    _load(TABLES[done])
    _progress[0] = done + 1
    return True


def all_programs() -> dict[str, Spec]:
    """Every program clearance knows, by name (loads every table)."""
    while _load_next():
        pass
    return _loaded


#: Files a build or test run executes as code: written earlier on the same command line,
#: they make ``make``/``npm test``/``pytest`` run whatever was just written.
BUILD_DEFINITIONS: Final = frozenset(
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
COMMAND_STRING_VARIABLES: Final = frozenset(
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
DANGEROUS_VARIABLES: Final = COMMAND_STRING_VARIABLES | frozenset(
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
_program_index: Final[list[dict[str, str]]] = []


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
_SYSTEM_FAMILIES: Final = frozenset(
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
_PACKAGED: Final = frozenset(("jq", "yq", "dotenv", "cross-env", "env-cmd", "rimraf"))


def system_program(name: str) -> bool:
    """Whether ``name`` is a program of the system's own (``ls``, ``git``, ``sudo``): a file
    of that name in a project's tool directory is the project's code, not that program."""
    return family(name) in _SYSTEM_FAMILIES and name not in _PACKAGED


def lookup(name: str) -> Spec | None:
    """The spec of program ``name``, or ``None`` when no table describes it.

    ``family`` (the generated index) names the one table that describes each program, so a
    lookup loads that table only, and a program no table knows loads none."""
    found = _loaded.get(name)
    if found is not None:
        return found
    table = family(name)
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
        for spec in table_sections(table)["programs"]:
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
    """Compile every table's YAML into its JSON, then rewrite the index from them."""
    from clearance.shellparse.knowledge import generate

    return generate.main()


_python_modules: Final[dict[str, Spec]] = {}


def lookup_module(name: str) -> Spec | None:
    """What ``python -m name`` runs: a module's own spec, else the program of that name
    (``python -m pytest`` is pytest)."""
    if not _python_modules:
        for spec in python_modules():
            for module_name in spec.name.split("|"):
                _python_modules[module_name] = spec
    return _python_modules.get(name) or lookup(name)


def python_modules() -> list[Spec]:
    """The specs of the Python modules ``python -m`` runs (``interpreters``' ``modules``)."""
    return table_sections("interpreters")["modules"]
