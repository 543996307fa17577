"""What a ``find`` expression hands on: for each action (``-exec``, ``-print``, ...) the
names a path must have to reach it, read from the operators as find evaluates them, left to
right with ``!`` before ``-a`` before ``-o`` before ``,``.

``find . -name '*.c' -exec cat {} +`` hands cat only files named ``*.c``. ``find . ! -name x
-exec cat {} +``, ``find . -exec cat {} + -name x`` and ``find . -name x -prune -o -exec cat {}
+`` hand it anything; ``find . ( -name a -o -name b ) -exec cat {} +`` names ``a`` or ``b``.

A ``Bound`` is a list of ``(glob, case-insensitive)`` -- a path reaching the action has a name
one of them matches -- or ``None``: any name. It is never tighter than find itself: where an
``-a`` has names on both sides it keeps the left's, an ``-o`` keeps both sides', a negation
keeps nothing. The words of the expression (which take a value, which are tests, actions or
options) are listed here once, for the ``find`` handler and for the readers of what a find
upstream prints (``find ... | xargs cat``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

Bound = list[tuple[str, bool]] | None

EXEC: Final = ("-exec", "-execdir", "-ok", "-okdir")


WRITE: Final = ("-fprint", "-fprint0", "-fprintf", "-fls")


VALUE: Final = frozenset(
    (
        "-name",
        "-iname",
        "-path",
        "-ipath",
        "-wholename",
        "-iwholename",
        "-regex",
        "-iregex",
        "-type",
        "-xtype",
        "-size",
        "-mtime",
        "-atime",
        "-ctime",
        "-mmin",
        "-amin",
        "-cmin",
        "-newer",
        "-anewer",
        "-cnewer",
        "-perm",
        "-user",
        "-group",
        "-uid",
        "-gid",
        "-maxdepth",
        "-mindepth",
        "-links",
        "-inum",
        "-samefile",
        "-lname",
        "-ilname",
        "-fstype",
        "-used",
        "-printf",
        "-regextype",
        "-context",
        "-newerXY",
        "-files0-from",
    )
)


#: find tests without a value: they select, so ``-delete`` removes only what matches.
TESTS: Final = frozenset(("-empty", "-executable", "-readable", "-writable", "-nouser", "-nogroup"))


#: The rest of find's expression words that take no value (options, operators, actions that
#: only print or stop); any other ``-word`` is an ``unknown_option``.
WORDS: Final = frozenset(
    (
        "-print",
        "-print0",
        "-ls",
        "-prune",
        "-quit",
        "-true",
        "-false",
        "-not",
        "-and",
        "-or",
        "-a",
        "-o",
        "-depth",
        "-d",
        "-mount",
        "-xdev",
        "-follow",
        "-noleaf",
        "-daystart",
        "-ignore_readdir_race",
        "-noignore_readdir_race",
        "-nowarn",
        "-warn",
        "-help",
        "--help",
        "-version",
        "--version",
        "-s",
        "-x",
        "-E",
        "-X",
    )
)


#: Actions that print the paths that reach them (to the output or to a file).
PRINTS: Final = frozenset(
    ("-print", "-print0", "-printf", "-ls", "-fprint", "-fprint0", "-fprintf", "-fls")
)
#: Actions that do something to each path besides printing.
_ACTS: Final = frozenset(("-delete", "-prune", "-quit"))
#: At most this many operators deep (a hostile expression's parentheses).
MAX_DEPTH: Final = 50


def starting_points(args: list[str]) -> tuple[int, int]:
    """Where find's starting points are in its arguments (``args[first:end]``; the expression
    begins at ``end``): after the options before them (``-H``, ``-L``, ``-P``, ``-D LIST``,
    ``-O LEVEL``), up to the first word that starts the expression."""
    i = 0
    while i < len(args) and (args[i] in ("-H", "-L", "-P") or args[i].startswith(("-D", "-O"))):
        i += 2 if args[i] == "-D" else 1
    first = min(i, len(args))
    while i < len(args) and not (args[i].startswith("-") or args[i] in ("(", "!", ")", ",")):
        i += 1
    return first, i


def _union(a: Bound, b: Bound) -> Bound:
    if a is None or b is None:
        return None
    return a + [n for n in b if n not in a]


class _Evaluation:
    """One pass over the expression: what reaches each action (by the index of its word)."""

    __slots__ = ("actions", "k", "tokens")

    def __init__(self, tokens: list[str], start: int) -> None:
        self.tokens = tokens
        self.k = start
        self.actions: dict[int, Bound] = {}

    def _reach(self, index: int, bound: Bound) -> None:
        self.actions[index] = _union(self.actions[index], bound) if index in self.actions else bound

    # Each parse returns (what passes as true, what passes as false), given what comes in.

    def expression(self, bound: Bound, depth: int) -> tuple[Bound, Bound]:
        """``A , B``: both evaluated, B's result stands."""
        true, false = self.alternatives(bound, depth)
        while self.k < len(self.tokens) and self.tokens[self.k] == ",":
            self.k += 1
            true, false = self.alternatives(bound, depth)
        return true, false

    def alternatives(self, bound: Bound, depth: int) -> tuple[Bound, Bound]:
        """``A -o B``: B sees what A let through as false."""
        true, false = self.conjunction(bound, depth)
        while self.k < len(self.tokens) and self.tokens[self.k] in ("-o", "-or"):
            self.k += 1
            right_true, false = self.conjunction(false, depth)
            true = _union(true, right_true)
        return true, false

    def conjunction(self, bound: Bound, depth: int) -> tuple[Bound, Bound]:
        """``A -a B`` (or ``A B``): B sees what A let through as true."""
        true, false = self.unary(bound, depth)
        while self.k < len(self.tokens) and self.tokens[self.k] not in (",", "-o", "-or", ")"):
            if self.tokens[self.k] in ("-a", "-and"):
                self.k += 1
                if self.k >= len(self.tokens):
                    break
            right_true, right_false = self.unary(true, depth)
            true, false = right_true, _union(false, right_false)
        return true, false

    def unary(self, bound: Bound, depth: int) -> tuple[Bound, Bound]:
        tokens = self.tokens
        if self.k >= len(tokens):
            return bound, bound
        token = tokens[self.k]
        if depth > MAX_DEPTH:
            # deeper than any person writes: whatever is inside reaches with any name
            self.k = len(tokens)
            return None, None
        if token in ("!", "-not"):
            self.k += 1
            true, false = self.unary(bound, depth + 1)
            return false, true
        if token == "(":
            self.k += 1
            true, false = self.expression(bound, depth + 1)
            if self.k < len(tokens) and tokens[self.k] == ")":
                self.k += 1
            return true, false
        return self.primary(bound)

    def primary(self, bound: Bound) -> tuple[Bound, Bound]:
        tokens, k = self.tokens, self.k
        token = tokens[k]
        if token in EXEC:
            j = k + 1
            while j < len(tokens) and tokens[j] not in (";", "+"):
                j += 1
            self._reach(k, bound)
            self.k = j + 1
            return bound, bound
        if token in PRINTS or token in _ACTS:
            self._reach(k, bound)
        if token in ("-name", "-iname") and k + 1 < len(tokens):
            glob = tokens[k + 1]
            self.k = k + 2
            if "/" in glob:  # never matches a name (GNU find warns): as any other test
                return bound, bound
            return (bound if bound is not None else [(glob, token == "-iname")]), bound
        if token in VALUE or token in WRITE or (token.startswith("-newer") and token not in WORDS):
            self.k = min(k + 2, len(tokens))
            return bound, bound
        self.k = k + 1
        return bound, bound


def action_bounds(tokens: list[str], start: int = 0) -> tuple[dict[int, Bound], Bound]:
    """For the expression ``tokens[start:]``: the names that reach each action, by the index
    of its word, and what the whole expression lets through as true (what find prints when
    the expression has no action)."""
    evaluation = _Evaluation(tokens, start)
    true, _ = evaluation.expression(None, 0)
    while evaluation.k < len(tokens):  # after a stray ``)``: the rest, reached by any name
        evaluation.k += 1
        evaluation.expression(None, 0)
        true = None
    return evaluation.actions, true


def printed(tokens: list[str], start: int = 0) -> Bound:
    """The names of what find prints (``find ... | xargs cat``): what reaches an action
    (whose output may be names too: ``-exec echo {} ;``), or, with no action, what the
    expression lets through."""
    actions, true = action_bounds(tokens, start)
    if not actions:
        return true
    bound: Bound = []
    for reached in actions.values():
        bound = _union(bound, reached)
    return bound


def name_glob(glob: str, nocase: bool) -> str | None:
    """A ``-name``/``-iname`` glob as a path glob of its own case (``-iname ID_RSA`` ->
    ``[iI][dD]_[rR][sS][aA]``); ``None`` where folding a bracket or an escape is not done."""
    if not nocase:
        return glob
    if "[" in glob or "\\" in glob:
        return None
    return "".join(
        f"[{c.lower()}{c.upper()}]" if c.lower() != c.upper() and len(c.upper()) == 1 else c
        for c in glob
    )


#: ``find`` paths an action is judged with at most (starting points times names); past it,
#: what the action gets is any file anywhere.
MAX_FOUND: Final = 64


def found_paths(starts: list[str], bound: Bound) -> list[str]:
    """What ``{}`` stands for in a find action, as ``START/{}/NAME`` patterns: a file under
    each starting point, named as ``bound`` allows (``START/{}``: any name)."""
    names: list[str] = [""]
    if bound is not None:
        globs = [name_glob(glob, nocase) for glob, nocase in bound]
        known = [g for g in globs if g is not None]
        if len(known) == len(globs) and known:
            names = known
    if len(starts) * len(names) > MAX_FOUND:
        return ["/{}"]
    out: list[str] = []
    for start in starts:
        base = start.rstrip("/") or "/"
        prefix = "" if base == "/" else base
        for name in names:
            found = prefix + "/{}" + (f"/{name}" if name else "")
            if found not in out:
                out.append(found)
    return out
