"""Gitignore-style path globs matched segment by segment, without compiling regexes.

A hook is one process per tool call; compiling the secrets set and the policy's path sets
into regular expressions cost it more than all its other work. Most patterns are literal
paths or names, or have a single ``*``: plain string tests decide them. Only a segment with
``?``, ``[…]`` or several ``*`` is turned into a (small, cached) regex.

Semantics: ``~/`` is the home, ``{workspace}`` the workspace root; a pattern with a ``/`` is
anchored (absolute, or relative to the workspace), one without matches a name at any depth;
``**`` spans segments (``dir/**`` covers ``dir`` itself too); a pattern covers what it names and
everything under it, unless it ends with ``$`` (exactly that path). A pattern starting with ``!``
excludes what it names from the other patterns of its group (``.env.*`` but not
``!.env.example``).

Besides ``match`` (a path), a set answers ``could_match`` (a shell glob: could one of the paths it
expands to be in the set?) and ``match_tree`` (an operation on everything under a directory: is
the directory in the set, or could something below it be?).
"""

from __future__ import annotations

import re

_SEGMENT_REGEX: dict[str, re.Pattern[str]] = {}


def glob_regex_body(glob: str, star: str, one: str) -> str:
    """A glob as regex text: ``*`` becomes ``star``, ``?`` ``one``, ``[…]`` a class
    (``[!…]`` negated); everything else is literal."""
    out = []
    i = 0
    while i < len(glob):
        c = glob[i]
        if c == "*":
            out.append(star)
        elif c == "?":
            out.append(one)
        elif c == "[":
            end = glob.find("]", i + 1)
            if end < 0:
                out.append(re.escape(c))
            else:
                chars = glob[i + 1 : end]
                if chars.startswith("!"):
                    chars = "^" + chars[1:]
                out.append("[" + chars.replace("\\", "\\\\") + "]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _segment_regex(glob: str) -> re.Pattern[str]:
    found = _SEGMENT_REGEX.get(glob)
    if found is None:
        found = _SEGMENT_REGEX[glob] = re.compile(glob_regex_body(glob, "[^/]*", "[^/]"), re.DOTALL)
    return found


def segment_match(glob: str, segment: str) -> bool:
    """One path segment against one glob segment (``*``, ``?``, ``[…]``)."""
    if "*" not in glob and "?" not in glob and "[" not in glob:
        return glob == segment
    if "?" in glob or "[" in glob or glob.count("*") > 1:
        return _segment_regex(glob).fullmatch(segment) is not None
    head, _, tail = glob.partition("*")
    return (
        len(segment) >= len(head) + len(tail)
        and segment.startswith(head)
        and segment.endswith(tail)
    )


def _match_segments(
    pattern: tuple[str, ...], path: list[str], pi: int, si: int, prefix: bool
) -> bool:
    """Whether ``pattern[pi:]`` matches ``path[si:]`` (or a prefix of it, with ``prefix``)."""
    while pi < len(pattern):
        glob = pattern[pi]
        if glob == "**":
            # a final ``**`` covers the directory itself too: ``src/**`` matches ``src``
            return any(
                _match_segments(pattern, path, pi + 1, k, prefix) for k in range(si, len(path) + 1)
            )
        if si >= len(path) or not segment_match(glob, path[si]):
            return False
        pi += 1
        si += 1
    return prefix or si == len(path)


class PathPattern:
    """One compiled pattern; ``match`` takes an absolute, normalised path."""

    __slots__ = ("anchored", "exact", "literal", "segments", "text")

    def __init__(self, pattern: str, home: str, workspace: str) -> None:
        self.text = pattern
        self.exact = pattern.endswith("$")
        if self.exact:
            pattern = pattern[:-1]
        home = home.rstrip("/") or "/"
        workspace = workspace.rstrip("/") or "/"
        if pattern == "~" or pattern.startswith("~/"):
            pattern = home + pattern[1:]
        elif pattern.startswith("{workspace}"):
            pattern = workspace + pattern[len("{workspace}") :]
        stripped = pattern.rstrip("/")
        self.anchored = "/" in stripped or pattern.startswith("/")
        if self.anchored and stripped and not stripped.startswith("/"):
            stripped = workspace.rstrip("/") + "/" + stripped
        self.segments = tuple(s for s in stripped.split("/") if s) if self.anchored else (stripped,)
        self.literal = (
            ("/" + "/".join(self.segments))
            if self.anchored and not any(c in stripped for c in "*?[")
            else None
        )

    def match(self, path: str) -> bool:
        if self.literal is not None:
            if path == self.literal:
                return True
            if self.literal == "/":
                return not self.exact
            return not self.exact and path.startswith(self.literal + "/")
        if self.anchored and self.segments == () and path == "/":
            return True
        parts = [p for p in path.split("/") if p]
        if self.anchored:
            return _match_segments(self.segments, parts, 0, 0, not self.exact)
        name = self.segments[0]
        if self.exact:
            return bool(parts) and segment_match(name, parts[-1])
        return any(segment_match(name, part) for part in parts)

    def could_match(self, glob: str, *, tree: bool = False, globstar: bool = False) -> bool:
        """Whether a path the shell glob ``glob`` (absolute) expands to could be matched --
        or, with ``tree``, could lie above something matched (``rm -rf d*`` reaches into it).

        The shell side follows bash: a segment not starting with ``.`` never matches a name
        that does, and ``**`` spans directories only with ``globstar``.
        """
        shell = [_shell_tokens(s, globstar) for s in glob.split("/") if s]
        if not self.anchored:
            # (below a tree, a name at any depth is found by searching it, not from the text)
            name = _pattern_tokens(self.segments[0])
            found = [k for k, seg in enumerate(shell) if seg == "{}"]
            after = found[0] if found else len(shell)
            if self.exact:
                last = len(shell) - 1
                return last >= 0 and _name_meets(shell[last], name, last > after)
            return any(_name_meets(seg, name, k > after) for k, seg in enumerate(shell))
        pattern = [None if s == "**" else _pattern_tokens(s) for s in self.segments]
        memo: dict[tuple[int, int], bool] = {}
        return _overlap(pattern, shell, 0, 0, not self.exact, tree, memo)

    def match_tree(self, path: str) -> bool:
        """Everything under ``path`` is touched: is it, or could something below it be, in
        the pattern? Only anchored patterns can say so from the text."""
        if self.match(path):
            return True
        if not self.anchored:
            return False
        parts = [p for p in path.split("/") if p]
        if self.literal is not None:
            root = "/" + "/".join(parts)
            return self.literal.startswith(root.rstrip("/") + "/")
        return _match_ancestor(self.segments, parts, 0, 0)


def _name_meets(
    segment: list[tuple[bool, frozenset[str]] | None] | str,
    name: list[tuple[bool, frozenset[str]] | None],
    filtered: bool,
) -> bool:
    """A glob segment against a name pattern that may match at any depth (``.env*``).

    A shell glob counts when it aims at names of that shape (see ``_specific``). A filter
    (``find -name``, ``grep --include``: a segment under ``{}``) counts when it admits the
    name's plainest instances (``.env``, ``id_rsa``, ``x.pem``): ``*.py`` admits none of them,
    ``*`` and ``.e*`` do."""
    if isinstance(segment, str):
        return False
    if not filtered:
        return _specific(segment) and _segment_overlap(segment, name)
    return any(_segment_overlap(segment, w, False) for w in _witnesses(name))


def _witnesses(
    name: list[tuple[bool, frozenset[str]] | None],
) -> list[list[tuple[bool, frozenset[str]] | None]]:
    """The plainest names a pattern matches: each ``*`` empty or ``x``, each ``?`` ``x``,
    each class its first member."""
    out: list[list[tuple[bool, frozenset[str]] | None]] = [[]]
    for token in name:
        if token is None:
            plain: list[tuple[bool, frozenset[str]] | None] = [(False, frozenset("x"))]
            out = [w + extra for w in out for extra in ([], plain)][:16]
        elif token[0]:
            letter = "x" if "x" not in token[1] else "y"
            out = [[*w, (False, frozenset(letter))] for w in out]
        else:
            out = [[*w, (False, frozenset(min(token[1])))] for w in out] if token[1] else []
    return out


def _specific(segment: list[tuple[bool, frozenset[str]] | None] | str) -> bool:
    """Whether a glob segment aims at names of some shape: it starts with a literal or a
    class (``.*``, ``id_*``, ``[.]e*``) or has no ``*`` (``.en?``). ``*``, ``*.py`` and
    ``**`` are judged by what they match on the machine, not by every name they could
    match (``*.py`` could match ``id_rsa.py``: so could any file name)."""
    if isinstance(segment, str) or not segment:
        return False
    if None not in segment:
        return True
    first = segment[0]
    return first is not None and first != _ANY


def _match_ancestor(pattern: tuple[str, ...], path: list[str], pi: int, si: int) -> bool:
    """Whether ``path[si:]`` is a proper prefix of something ``pattern[pi:]`` matches."""
    while pi < len(pattern):
        if si >= len(path):
            return True
        glob = pattern[pi]
        if glob == "**":
            return True
        if not segment_match(glob, path[si]):
            return False
        pi += 1
        si += 1
    return False


# --- glob against glob: could their languages meet? ------------------------------------------

# A token is a character set ``(negated, characters)`` or ``None`` for ``*``; ``?`` is
# ``(True, {"/"})``.
_ANY: tuple[bool, frozenset[str]] = (True, frozenset("/"))
_NOT_DOT: tuple[bool, frozenset[str]] = (True, frozenset("./"))
_POSIX_CLASSES = {
    "alpha": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "upper": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "lower": "abcdefghijklmnopqrstuvwxyz",
    "digit": "0123456789",
    "alnum": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    "xdigit": "0123456789abcdefABCDEF",
    "space": " \t\n\r\f\v",
    "blank": " \t",
    "punct": "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
    "word": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
}
_EXTGLOB_OPENERS = frozenset("@!+*?")


def _bracket(text: str, i: int) -> tuple[tuple[bool, frozenset[str]] | None, int]:
    """The class starting at ``text[i] == "["``: (set, index after it), or (None, i) when
    there is no closing bracket (then ``[`` is literal)."""
    j = i + 1
    negated = j < len(text) and text[j] in "!^"
    if negated:
        j += 1
    chars: set[str] = set()
    first = True
    while j < len(text):
        c = text[j]
        if c == "]" and not first:
            return (negated, frozenset(chars)), j + 1
        first = False
        if c == "[" and text.startswith("[:", j):
            end = text.find(":]", j + 2)
            if end > 0:
                chars.update(_POSIX_CLASSES.get(text[j + 2 : end], ""))
                j = end + 2
                continue
        if c == "\\" and j + 1 < len(text):
            c = text[j + 1]
            j += 1
        if j + 2 < len(text) and text[j + 1] == "-" and text[j + 2] != "]":
            lo, hi = ord(c), ord(text[j + 2])
            if hi - lo > 512:
                return (True, frozenset("/")), text.find("]", j + 2) + 1 or len(text)
            chars.update(chr(k) for k in range(lo, hi + 1))
            j += 3
            continue
        chars.add(c)
        j += 1
    return None, i


def _pattern_tokens(segment: str) -> list[tuple[bool, frozenset[str]] | None]:
    out: list[tuple[bool, frozenset[str]] | None] = []
    i = 0
    while i < len(segment):
        c = segment[i]
        if c == "*":
            if not out or out[-1] is not None:
                out.append(None)
            i += 1
        elif c == "?":
            out.append(_ANY)
            i += 1
        elif c == "[":
            found, after = _bracket(segment, i)
            if found is None:
                out.append((False, frozenset("[")))
                i += 1
            else:
                out.append(found)
                i = after
        else:
            out.append((False, frozenset(c)))
            i += 1
    return out


def _shell_tokens(segment: str, globstar: bool) -> list[tuple[bool, frozenset[str]] | None] | str:
    """A shell glob segment as tokens; ``"**"`` for a globstar segment. An extglob group
    (``@(a|b)``, ``!(x)``…) or a backslash makes the segment read as ``*`` plus its literal
    start: wider than bash, never narrower."""
    if (segment == "**" and globstar) or segment == "{}":
        return "**" if segment == "**" else "{}"
    i = 0
    out: list[tuple[bool, frozenset[str]] | None] = []
    while i < len(segment):
        c = segment[i]
        if c in _EXTGLOB_OPENERS and segment[i + 1 : i + 2] == "(":
            return [*out, None]
        if c == "\\" and i + 1 < len(segment):
            out.append((False, frozenset(segment[i + 1])))
            i += 2
            continue
        if c == "*":
            if not out or out[-1] is not None:
                out.append(None)
            i += 1
        elif c == "?":
            out.append(_ANY)
            i += 1
        elif c == "[":
            found, after = _bracket(segment, i)
            if found is None:
                out.append((False, frozenset("[")))
                i += 1
            else:
                out.append(found)
                i = after
        else:
            out.append((False, frozenset(c)))
            i += 1
    return out


def _meet(
    x: tuple[bool, frozenset[str]], y: tuple[bool, frozenset[str]]
) -> tuple[bool, frozenset[str]]:
    nx, cx = x
    ny, cy = y
    if not nx and not ny:
        return False, cx & cy
    if not nx:
        return False, cx - cy
    if not ny:
        return False, cy - cx
    return True, cx | cy


def _segment_overlap(
    shell: list[tuple[bool, frozenset[str]] | None] | str,
    pattern: list[tuple[bool, frozenset[str]] | None],
    hidden: bool = True,
) -> bool:
    """Whether some name matches both the shell glob segment and the pattern segment. The
    shell side obeys bash's rule that only a literal ``.`` matches a leading dot."""
    if isinstance(shell, str):  # globstar: a name not starting with a dot; ``{}``: any name
        # (a file ``find`` selects is never literally named ``*``: that pattern is for globs)
        shell = [_NOT_DOT, None] if shell == "**" else [(True, frozenset("/*")), None]
    hidden_rule = hidden and not (shell and shell[0] == (False, frozenset(".")))
    seen: set[tuple[int, int, bool]] = set()
    stack = [(0, 0, False)]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        i, j, started = state
        if i == len(shell) and j == len(pattern):
            return True
        a_end = i >= len(shell)
        b_end = j >= len(pattern)
        a = None if a_end else shell[i]
        b = None if b_end else pattern[j]
        if not a_end and a is None:
            stack.append((i + 1, j, started))
        if not b_end and b is None:
            stack.append((i, j + 1, started))
        if a_end or b_end:
            continue
        chars = _meet(_ANY if a is None else a, _ANY if b is None else b)
        if not started and hidden_rule:
            chars = _meet(chars, _NOT_DOT)
        if chars[0] or chars[1]:
            stack.append((i if a is None else i + 1, j if b is None else j + 1, True))
    return False


def _overlap(
    pattern: list[list[tuple[bool, frozenset[str]] | None] | None],
    shell: list[list[tuple[bool, frozenset[str]] | None] | str],
    pi: int,
    si: int,
    prefix: bool,
    tree: bool,
    memo: dict[tuple[int, int], bool],
) -> bool:
    key = (pi, si)
    found = memo.get(key)
    if found is not None:
        return found
    memo[key] = False
    if pi == len(pattern):
        result = si == len(shell) or prefix
    elif si == len(shell):
        result = tree or all(p is None for p in pattern[pi:])
    else:
        seg = pattern[pi]
        sh = shell[si]
        if seg is None:
            result = _overlap(pattern, shell, pi + 1, si, prefix, tree, memo) or _overlap(
                pattern, shell, pi, si + 1, prefix, tree, memo
            )
        elif sh in ("**", "{}"):
            result = (
                _overlap(pattern, shell, pi, si + 1, prefix, tree, memo)
                or (
                    _segment_overlap(sh, seg)
                    and _overlap(pattern, shell, pi + 1, si, prefix, tree, memo)
                )
                or (
                    _segment_overlap(sh, seg)
                    and _overlap(pattern, shell, pi + 1, si + 1, prefix, tree, memo)
                )
            )
        else:
            # names under a ``{}`` (what ``find`` selects) are fnmatch'ed: ``*`` matches dots
            hidden = "{}" not in shell[:si]
            result = _segment_overlap(sh, seg, hidden) and _overlap(
                pattern, shell, pi + 1, si + 1, prefix, tree, memo
            )
    memo[key] = result
    return result


def regex_source(pattern: str, home: str, workspace: str) -> str:
    """The same pattern as a regular expression over absolute paths (for long-lived
    processes, where one compiled alternation beats string tests per pattern)."""
    from clearance.shellparse.paths import glob_to_regex

    exact = pattern.endswith("$")
    if exact:
        pattern = pattern[:-1]
    workspace = workspace.rstrip("/") or "/"
    home = home.rstrip("/") or "/"
    tail = "" if exact else "(?:/.*)?"
    if pattern == "/":
        return "/" if exact else "/.*"
    if pattern == "~":
        return re.escape(home) + tail
    if pattern.startswith("{workspace}"):
        rest = pattern[len("{workspace}") :]
        if not rest:
            return re.escape(workspace) + tail
        return re.escape(workspace) + glob_to_regex(rest, home, descendants=not exact)
    if "/" in pattern.rstrip("/") and not pattern.startswith(("/", "~/")):
        pattern = workspace + "/" + pattern
    return glob_to_regex(pattern, home, descendants=not exact)


class GlobSet:
    """Several patterns; matches when one does and no ``!`` pattern does.

    A short-lived process (a hook) matches a handful of paths: string tests, nothing to
    compile. After ``COMPILE_AFTER`` matches the set compiles itself into one regex, which a
    long-lived process (``gate``, the runner, a benchmark) then uses. ``fold``: for a
    case-insensitive file system, patterns and paths are compared in lower case.
    """

    COMPILE_AFTER = 64

    __slots__ = (
        "_calls",
        "_regex",
        "excluded",
        "fold",
        "home",
        "patterns",
        "texts",
        "workspace",
    )

    def __init__(
        self,
        patterns: list[str] | tuple[str, ...],
        home: str,
        workspace: str,
        *,
        fold: bool = False,
    ) -> None:
        self.fold = fold
        if fold:
            patterns = [p.lower() for p in patterns]
            home = home.lower()
            workspace = workspace.lower()
        self.texts = [p for p in patterns if not p.startswith("!")]
        negated = [p[1:] for p in patterns if p.startswith("!")]
        self.home = home
        self.workspace = workspace
        self.patterns = [PathPattern(p, home, workspace) for p in self.texts]
        self.excluded = [PathPattern(p, home, workspace) for p in negated]
        self._calls = 0
        self._regex: re.Pattern[str] | None = None

    def match(self, path: str) -> bool:
        if self.fold:
            path = path.lower()
        regex = self._regex
        if regex is not None:
            return regex.fullmatch(path) is not None
        self._calls += 1
        if self._calls > self.COMPILE_AFTER and self.texts:
            source = "|".join(
                f"(?:{regex_source(p, self.home, self.workspace)})" for p in self.texts
            )
            if self.excluded:
                negative = "|".join(
                    f"(?:{regex_source(p.text, self.home, self.workspace)})" for p in self.excluded
                )
                source = f"(?!(?:{negative})\\Z)(?:{source})"
            self._regex = re.compile(source, re.DOTALL)
        if any(pattern.match(path) for pattern in self.excluded):
            return False
        return any(pattern.match(path) for pattern in self.patterns)

    def could_match(self, glob: str, *, tree: bool = False, globstar: bool = False) -> bool:
        """Whether a path the shell glob ``glob`` expands to could be in the set (see
        :meth:`PathPattern.could_match`); exclusions are not trusted to narrow a glob."""
        if self.fold:
            glob = glob.lower()
        return any(p.could_match(glob, tree=tree, globstar=globstar) for p in self.patterns)

    def match_tree(self, path: str) -> bool:
        """Whether an operation on everything under ``path`` touches the set."""
        if self.fold:
            path = path.lower()
        if self.match(path):
            return True
        return any(p.match_tree(path) for p in self.patterns)


class GlobUnion:
    """Several sets, each with its own exclusions (a policy's ``sets: [secrets, agent_config]``)."""

    __slots__ = ("sets",)

    def __init__(self, sets: list[GlobSet]) -> None:
        self.sets = sets

    def match(self, path: str) -> bool:
        return any(s.match(path) for s in self.sets)

    def could_match(self, glob: str, *, tree: bool = False, globstar: bool = False) -> bool:
        return any(s.could_match(glob, tree=tree, globstar=globstar) for s in self.sets)

    def match_tree(self, path: str) -> bool:
        return any(s.match_tree(path) for s in self.sets)
