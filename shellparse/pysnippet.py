"""What a short Python program given inline (``python3 -c CODE``) does, when all it does is
compute and print.

Agents check a JSON file or a version with a one-line program many times a day
(``python3 -c 'import json; print(json.load(open("package.json"))["name"])'``). Such a
program is judged by what it touches instead of as code that could do anything, but only
when every construct in it comes from a closed list: a few statement and expression forms,
the builtins that compute or print, ``open`` called directly with a literal path and mode
(its read or write is a path like any other), and named functions of standard modules that
neither run programs nor change files. Anything else -- an unlisted name, attribute, module or
statement, a name starting with ``_`` (the way out of every sandbox of this kind), ``open``
handed around as a value, a module held in a variable, more than :data:`MAX_CODE`
characters -- leaves the program what it was: code that runs (``None``).

The analysis reads the text only; whether an imported name is shadowed by a file in the
directory the program runs in (``python -c`` imports from there first) is the caller's
question (:func:`shadowing_files`).
"""

from __future__ import annotations

import ast
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: The longest program read; a longer one is code that runs.
MAX_CODE: Final = 4096

#: Builtins that compute, convert or print.
_BUILTINS: Final = _names(
    "abs all any ascii bin bool bytearray bytes callable chr complex dict divmod "
    "enumerate filter float format frozenset hash hex int isinstance issubclass "
    "iter len list map max min next oct ord pow print range repr reversed round set "
    "slice sorted str sum tuple type zip True False None Exception ValueError "
    "KeyError TypeError IndexError StopIteration"
)

#: Modules whose public attributes (functions, classes, constants; never a module) compute
#: and nothing else. Their file-taking functions take file objects, which only ``open`` (mode
#: judged) or ``sys.stdin``/``sys.stdout`` make. Left out on purpose: ``operator``
#: (``attrgetter`` takes attribute names as strings, past the ``_`` rule), ``string``
#: (``Formatter.get_field`` likewise), ``typing`` (``get_type_hints`` evaluates strings),
#: ``shlex`` (``shlex.sourcehook`` opens a path given at run time).
_PURE_MODULES: Final = _names(
    "base64 binascii bisect calendar cmath collections copy csv datetime decimal "
    "difflib enum fractions functools hashlib heapq html itertools json keyword "
    "math pprint random re statistics struct textwrap tomllib unicodedata zlib"
)

#: Modules with I/O of their own: only the attributes listed.
_LISTED: Final = {
    "sys": _names(
        "argv byteorder executable exit float_info getdefaultencoding getrecursionlimit "
        "getsizeof implementation int_info maxsize maxunicode platform prefix stderr "
        "stdin stdout version version_info"
    ),
    "os": _names("cpu_count curdir getcwd getpid linesep listdir name path sep walk"),
    "os.path": _names(
        "abspath basename commonpath commonprefix dirname exists expanduser getsize "
        "isabs isdir isfile islink join normpath realpath relpath split splitext"
    ),
    "platform": _names("machine node python_implementation python_version release system"),
    "time": _names("gmtime localtime monotonic perf_counter sleep strftime time"),
    "urllib.parse": _names("quote quote_plus unquote urlencode urljoin urlparse"),
}

_MODULES: Final = _PURE_MODULES | frozenset(_LISTED)

_STATEMENTS: Final = (
    ast.Expr,
    ast.Assign,
    ast.AugAssign,
    ast.If,
    ast.For,
    ast.While,
    ast.With,
    ast.Import,
    ast.ImportFrom,
    ast.Pass,
    ast.Break,
    ast.Continue,
    ast.Try,
    ast.Assert,
)

_EXPRESSIONS: Final = (
    ast.Name,
    ast.Constant,
    ast.Call,
    ast.Attribute,
    ast.Subscript,
    ast.Slice,
    ast.List,
    ast.Tuple,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.BinOp,
    ast.UnaryOp,
    ast.BoolOp,
    ast.Compare,
    ast.IfExp,
    ast.JoinedStr,
    ast.FormattedValue,
    ast.Starred,
    ast.Lambda,
)

_OTHER: Final = (
    ast.Module,
    ast.comprehension,
    ast.keyword,
    ast.withitem,
    ast.alias,
    ast.ExceptHandler,
    ast.arguments,
    ast.arg,
    ast.expr_context,
    ast.operator,
    ast.unaryop,
    ast.boolop,
    ast.cmpop,
)


class _Unknown(Exception):
    """The program uses something outside the closed list."""


class Snippet:
    """What an inline program touches: ``paths`` (``(path, access)``, access ``read`` or
    ``write``) and ``modules`` (the top-level names it imports)."""

    __slots__ = ("modules", "paths")

    def __init__(self) -> None:
        self.paths: list[tuple[str, str]] = []
        self.modules: set[str] = set()


def analyse(code: str) -> Snippet | None:
    """The paths and modules of ``code`` when every construct in it is on the closed list,
    else ``None``."""
    if len(code) > MAX_CODE or "\0" in code:
        return None
    try:
        tree = ast.parse(code, mode="exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    found = Snippet()
    try:
        _Walker(found).run(tree)
    except (_Unknown, RecursionError):
        return None
    return found


class _Walker:
    __slots__ = ("aliases", "bases", "found", "opened", "variables")

    def __init__(self, found: Snippet) -> None:
        self.found = found
        #: local name -> the module it names (``import os.path as p``: ``p`` -> ``os.path``)
        self.aliases: dict[str, str] = {}
        #: local names bound by the program (assignments, loops, comprehensions, ``as``)
        self.variables: set[str] = set()
        #: ``open`` calls checked (the ``open`` names they hold are allowed)
        self.opened: set[int] = set()
        #: nodes an attribute is taken of (a module may be named only there)
        self.bases: set[int] = set()

    def run(self, tree: ast.Module) -> None:
        nodes = list(ast.walk(tree))
        if len(nodes) > 2000:
            raise _Unknown
        for node in nodes:  # bindings first: a name may be used before (``for`` targets)
            self._bind(node)
        if self.variables & set(self.aliases):
            raise _Unknown  # a name that is a module and a value: which one is not followed
        self.bases = {id(n.value) for n in nodes if isinstance(n, ast.Attribute)}
        for node in nodes:  # the ``open`` calls first: their name is then allowed
            if isinstance(node, ast.Call):
                self._check_call(node)
        for node in nodes:
            self._check(node)

    def _bind(self, node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                self._module(alias.name)
                if alias.asname:
                    self.aliases[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    self.aliases[top] = top
        elif isinstance(node, ast.ImportFrom):
            if node.level or node.module is None:
                raise _Unknown
            self._module(node.module)
            for alias in node.names:
                dotted = f"{node.module}.{alias.name}"
                if dotted in _MODULES:
                    self.aliases[alias.asname or alias.name] = dotted
                else:
                    self._attribute(node.module, alias.name)
                    self.variables.add(alias.asname or alias.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            self.variables.add(node.id)
        elif isinstance(node, ast.arg):
            self.variables.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            self.variables.add(node.name)

    def _module(self, name: str) -> None:
        if name not in _MODULES:
            raise _Unknown
        self.found.modules.add(name.split(".", maxsplit=1)[0])

    def _attribute(self, module: str, name: str) -> None:
        if name.startswith("_"):
            raise _Unknown
        listed = _LISTED.get(module)
        if listed is not None:
            if name not in listed:
                raise _Unknown
            return
        if module not in _PURE_MODULES:
            raise _Unknown
        # a pure module's attribute may still be a module it imported (``shlex.os``)
        import importlib

        value = getattr(importlib.import_module(module), name, None)
        if value is None or type(value).__name__ == "module":
            raise _Unknown

    def _check(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt):
            if not isinstance(node, _STATEMENTS):
                raise _Unknown
            return
        if isinstance(node, ast.expr):
            if not isinstance(node, _EXPRESSIONS):
                raise _Unknown
            if isinstance(node, ast.Attribute):
                self._check_attribute(node)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                self._check_name(node)
            return
        if not isinstance(node, _OTHER):
            raise _Unknown

    def _module_of(self, node: ast.expr) -> str | None:
        """The module ``node`` names (``os``, ``os.path``), or ``None`` for a value."""
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id) if node.id not in self.variables else None
        if isinstance(node, ast.Attribute):
            outer = self._module_of(node.value)
            if outer is not None and f"{outer}.{node.attr}" in _MODULES:
                return f"{outer}.{node.attr}"
        return None

    def _check_attribute(self, node: ast.Attribute) -> None:
        if node.attr.startswith("_") or not isinstance(node.ctx, ast.Load):
            raise _Unknown  # (``sys.stdout = …``: a module changed for what follows)
        if self._module_of(node) is not None:
            # ``os.path`` names a module: only to take an attribute of it, never as a value
            if id(node) not in self.bases:
                raise _Unknown
            return
        module = self._module_of(node.value)
        if module is not None:
            self._attribute(module, node.attr)
        # else a method of a value the program computed: its names were checked

    def _check_name(self, node: ast.Name) -> None:
        name = node.id
        if name.startswith("_"):
            raise _Unknown
        if name in self.variables:
            return
        if name in self.aliases:
            # a module may be named only to take an attribute of it
            if id(node) not in self.bases:
                raise _Unknown
            return
        if name == "open":
            if id(node) not in self.opened:
                raise _Unknown  # handed around, it opens what the analysis cannot see
            return
        if name not in _BUILTINS:
            raise _Unknown

    def _check_call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open" and "open" not in self.variables:
            self.opened.add(id(func))
            self._open(node)

    def _open(self, node: ast.Call) -> None:
        args = list(node.args)
        mode_node: ast.expr | None = args[1] if len(args) > 1 else None
        for keyword in node.keywords:
            if keyword.arg == "mode":
                mode_node = keyword.value
            elif keyword.arg == "file":
                args[:1] = [keyword.value]
            elif keyword.arg not in ("encoding", "errors", "newline"):
                raise _Unknown
        if not args or len(args) > 2 or any(isinstance(a, ast.Starred) for a in args):
            raise _Unknown
        path = args[0]
        if not isinstance(path, ast.Constant) or not isinstance(path.value, str) or not path.value:
            raise _Unknown
        mode = "r"
        if mode_node is not None:
            if not isinstance(mode_node, ast.Constant) or not isinstance(mode_node.value, str):
                raise _Unknown
            mode = mode_node.value
        writes = any(c in mode for c in "wax+")
        self.found.paths.append((path.value, "write" if writes else "read"))


#: The most entries of a directory read to tell whether it shadows a standard module.
MAX_LISTED: Final = 20_000


def shadowing_files(directory: str, limit: int = MAX_LISTED) -> list[str] | None:
    """The entries of ``directory`` that an ``import`` of a standard module would load
    instead of the standard library's: ``python -c`` puts the directory it runs in first on
    its path, and the standard modules import one another (``json`` imports ``re``). A
    ``NAME.py``, a sourceless ``NAME.pyc``, an extension ``NAME.*.so`` or a package
    ``NAME/__init__.py`` for any standard module NAME counts. ``[]`` for a directory that does
    not exist; ``None``: the directory cannot be listed (python may still import from it), or
    holds more than ``limit`` entries (not read: not known)."""
    import sys

    names = sys.stdlib_module_names
    entries: list[str] = []
    try:
        with os.scandir(directory) as listing:
            for item in listing:
                if len(entries) == limit:
                    return None
                entries.append(item.name)
    except (FileNotFoundError, NotADirectoryError):
        return []  # no such directory: nothing there to import
    except OSError:
        return None
    out: list[str] = []
    for entry in entries:
        stem, dot, suffix = entry.partition(".")
        if stem not in names:
            continue
        path = os.path.join(directory, entry)
        if not dot:
            if os.path.lexists(os.path.join(path, "__init__.py")):
                out.append(path)
        elif suffix in ("py", "pyc", "pyw") or suffix.endswith("so"):
            out.append(path)
    return out
