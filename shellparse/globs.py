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

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Final, TypeVar

    T = TypeVar("T")

_SEGMENT_REGEX: Final[dict[str, re.Pattern[str]]] = {}
#: Answers a set keeps (``GlobSet.match``/``match_tree``), at most this many each.
MAX_MEMO: Final = 8192


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


def match_sequence(
    pattern: Sequence[T], items: Sequence[str], one: Callable[[T, str], bool], prefix: bool
) -> bool:
    """Whether ``pattern`` matches ``items`` (or a prefix of them, with ``prefix``): each
    element matches one item by ``one``, and a ``"**"`` element any number of items (path
    segments under a glob, a rule's ``argv`` words). Without recursion: a ``**`` that fails
    later takes one more item (the last ``**`` seen is the only one worth widening), so the
    cost is linear in each, whatever the number of ``**``."""
    pi = si = 0
    star = -1  # the last ``**`` seen, and where in ``items`` it stands
    star_si = 0
    while True:
        if pi < len(pattern) and pattern[pi] == "**":
            # a final ``**`` covers the directory itself too: ``src/**`` matches ``src``
            star, star_si = pi, si
            pi += 1
            continue
        if pi == len(pattern):
            if prefix or si == len(items):
                return True
        elif si < len(items) and one(pattern[pi], items[si]):
            pi += 1
            si += 1
            continue
        if star < 0 or star_si >= len(items):
            return False
        star_si += 1
        pi, si = star + 1, star_si


class PathPattern:
    """One compiled pattern; ``match`` takes an absolute, normalised path."""

    __slots__ = ("_lead", "_shell_form", "anchored", "exact", "literal", "segments", "text")

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
        # what a glob is compared with (``_search_forms``): made on the first ``could_match``,
        # which most processes never ask
        self._lead: tuple[str, ...] | None = None
        self._shell_form: list[tuple[str, list[tuple[bool, frozenset[str]] | None]] | None] = []

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
            return match_sequence(self.segments, parts, segment_match, not self.exact)
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
        return self.could_match_segments(_shell_segments(glob, globstar), tree)

    def could_match_segments(self, shell: list[Segment], tree: bool) -> bool:
        """``could_match`` for a glob already cut into segments (``_shell_segments``)."""
        if not self.anchored:
            # (below a tree, a name at any depth is found by searching it, not from the text)
            name = (self.segments[0], _pattern_tokens(self.segments[0]))
            after = _filter_start(shell)
            if self.exact:
                last = len(shell) - 1
                return last >= 0 and _name_meets(shell[last], name, last > after)
            return any(_name_meets(seg, name, k > after) for k, seg in enumerate(shell))
        if self._lead is None:
            self._search_forms()
        return _overlap(self._shell_form, shell, not self.exact, tree)

    def _search_forms(self) -> tuple[str, ...]:
        """Make the segments' token form and their literal start (the segments before the
        first wildcard); returns the literal start."""
        self._shell_form = [None if s == "**" else (s, _pattern_tokens(s)) for s in self.segments]
        taken: list[str] = []
        for segment in self.segments:
            if segment == "**" or _has_wild(segment):
                break
            taken.append(segment)
        lead = self._lead = tuple(taken)
        return lead

    def lead(self) -> tuple[str, ...]:
        """The segments before the first wildcard."""
        mine = self._lead
        return self._search_forms() if mine is None else mine

    def match_after_lead(self, parts: list[str], rest: tuple[str, ...]) -> bool:
        """``match`` of an anchored pattern for a path of the segments ``parts`` whose first
        ones are known to be its literal start (``lead``; a literal segment matches only
        itself): only ``rest``, the segments after it, are compared with what follows."""
        return match_sequence(
            rest, parts[len(self.segments) - len(rest) :], segment_match, not self.exact
        )

    def match_tree(self, path: str) -> bool:
        """Everything under ``path`` is touched: is it, or could something below it be, in
        the pattern? Only anchored patterns can say so from the text."""
        if self.match(path):
            return True
        return self.anchored and self.below([p for p in path.split("/") if p])

    def below(self, parts: list[str]) -> bool:
        """Whether something this (anchored) pattern matches lies strictly below the path of
        these segments."""
        if self.literal is not None:
            root = "/" + "/".join(parts)
            return self.literal.startswith(root.rstrip("/") + "/")
        return _match_ancestor(self.segments, parts, 0, 0)


def _filter_start(shell: list[Segment]) -> int:
    """Where a shell glob's filter begins: the first ``{}`` (what ``find`` selects below
    it); the glob's length without one."""
    for k, segment in enumerate(shell):
        if segment[1] == "{}":
            return k
    return len(shell)


def _name_meets(
    segment: Segment,
    name: tuple[str, list[tuple[bool, frozenset[str]] | None]],
    filtered: bool,
) -> bool:
    """A glob segment against a name pattern that may match at any depth (``.env*``).

    A shell glob counts when it aims at names of that shape (see ``_specific``). A filter
    (``find -name``, ``grep --include``: a segment under ``{}``) counts when it admits the
    name's plainest instances (``.env``, ``id_rsa``, ``x.pem``): ``*.py`` admits none of them,
    ``*`` and ``.e*`` do."""
    text, tokens = segment
    if isinstance(tokens, str):
        return False
    if not _has_wild(text):
        return segment_match(name[0], text)
    # a wildcard segment's answer depends on its text and the name's alone (``*.py`` against
    # ``.env*`` is asked for every glob that ends in it): searched once per process
    key = (text, name[0], filtered)
    found = _NAME_MEETS.get(key)
    if found is None:
        if not filtered:
            found = _specific(tokens) and _segment_overlap(segment, name)
        else:
            pieces = _star_form(text, tokens)
            if pieces is not None:  # (``*.log``, ``*foo*``: most filters) string tests
                from clearance.shellparse.resolve import pieces_match

                found = any(pieces_match(pieces, w) for w in _witness_names(name))
            else:
                found = any(_admits(tokens, w) for w in _witness_names(name))
        if len(_NAME_MEETS) >= MAX_MEMO:
            _NAME_MEETS.clear()
        _NAME_MEETS[key] = found
    return found


_NAME_MEETS: Final[dict[tuple[str, str, bool], bool]] = {}


def _star_form(
    text: str, tokens: list[tuple[bool, frozenset[str]] | None]
) -> tuple[str, ...] | None:
    """The literal pieces around the ``*``s of a segment's tokens (its text ``text``) when
    every other token is one character (no ``?``, no class): ``_admits`` of such tokens is
    ``resolve.pieces_match`` of these. ``None`` otherwise. Kept per text."""
    if text in _STAR_FORMS:
        return _STAR_FORMS[text]
    pieces = [""]
    found: tuple[str, ...] | None = None
    for token in tokens:
        if token is None:
            pieces.append("")
        elif token[0] or len(token[1]) != 1:
            break
        else:
            pieces[-1] += next(iter(token[1]))
    else:
        found = tuple(pieces)
    if len(_STAR_FORMS) >= MAX_MEMO:
        _STAR_FORMS.clear()
    _STAR_FORMS[text] = found
    return found


_STAR_FORMS: Final[dict[str, tuple[str, ...] | None]] = {}


def _has_wild(text: str) -> bool:
    return "*" in text or "?" in text or "[" in text or "(" in text or "\\" in text


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


def _witness_names(name: tuple[str, list[tuple[bool, frozenset[str]] | None]]) -> list[str]:
    """``_witnesses`` of a name pattern as the names they spell, once per process."""
    found = _WITNESS_NAMES.get(name[0])
    if found is None:
        found = _WITNESS_NAMES[name[0]] = [
            "".join(min(token[1]) for token in witness if token is not None)
            for witness in _witnesses(name[1])
        ]
    return found


_WITNESS_NAMES: Final[dict[str, list[str]]] = {}


def _admits(tokens: list[tuple[bool, frozenset[str]] | None], name: str) -> bool:
    """Whether a glob segment's tokens match the name ``name`` (``_segment_overlap`` of the
    segment and a name without wildcards, without the leading-dot rule): the states are the
    token positions reached, one step per character."""
    # what the tokens before the first ``*`` and after the last one spell must start and
    # end the name: most filters (``*.py``) admit no secret's name, told here at once
    for token, c in zip(tokens, name, strict=False):
        if token is None:
            break
        if (c in token[1]) == token[0]:
            return False
    for token, c in zip(reversed(tokens), reversed(name), strict=False):
        if token is None:
            break
        if (c in token[1]) == token[0]:
            return False
    end = len(tokens)
    reached = _skip_stars(tokens, {0})
    for c in name:
        step: set[int] = set()
        for i in reached:
            if i == end:
                continue
            token = tokens[i]
            if token is None:
                if c != "/":
                    step.add(i)  # ``*`` takes the character and stays
            elif (c in token[1]) != token[0]:
                step.add(i + 1)
        if not step:
            return False
        reached = _skip_stars(tokens, step)
    return end in reached


def _skip_stars(tokens: list[tuple[bool, frozenset[str]] | None], states: set[int]) -> set[int]:
    """``states`` with every position a run of ``*`` (matching nothing) leads to."""
    out = set(states)
    for state in states:
        i = state
        while i < len(tokens) and tokens[i] is None:
            i += 1
            out.add(i)
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
_ANY: Final[tuple[bool, frozenset[str]]] = (True, frozenset("/"))
_NOT_DOT: Final[tuple[bool, frozenset[str]]] = (True, frozenset("./"))
_POSIX_CLASSES: Final = {
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
_EXTGLOB_OPENERS: Final = frozenset("@!+*?")


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


_PATTERN_TOKENS: Final[dict[str, list[tuple[bool, frozenset[str]] | None]]] = {}
_SHELL_TOKENS: Final[dict[tuple[str, bool], list[tuple[bool, frozenset[str]] | None] | str]] = {}

if TYPE_CHECKING:
    #: A shell glob's segment: its text and its tokens (``"**"`` globstar, ``"{}"`` find's).
    Segment = tuple[str, list[tuple[bool, frozenset[str]] | None] | str]


def _shell_segments(glob: str, globstar: bool) -> list[Segment]:
    out: list[Segment] = []
    for text in glob.split("/"):
        if not text:
            continue
        key = (text, globstar)
        tokens = _SHELL_TOKENS.get(key)
        if tokens is None:
            if len(_SHELL_TOKENS) >= MAX_MEMO:
                _SHELL_TOKENS.clear()
            tokens = _SHELL_TOKENS[key] = _shell_tokens(text, globstar)
        out.append((text, tokens))
    return out


def _literal_lead(segments: list[Segment]) -> tuple[str, ...]:
    """The segments a shell glob spells literally before its first wildcard (``**``,
    ``{}``, ``*``, ``?``, ``[``, an extglob group or a backslash)."""
    out: list[str] = []
    for text, tokens in segments:
        if isinstance(tokens, str) or _has_wild(text):
            break
        out.append(text)
    return tuple(out)


def _pattern_tokens(segment: str) -> list[tuple[bool, frozenset[str]] | None]:
    found = _PATTERN_TOKENS.get(segment)
    if found is None:
        if len(_PATTERN_TOKENS) >= MAX_MEMO:
            _PATTERN_TOKENS.clear()
        found = _PATTERN_TOKENS[segment] = _tokenize_pattern(segment)
    return found


def _tokenize_pattern(segment: str) -> list[tuple[bool, frozenset[str]] | None]:
    return _tokens(segment, shell=False)


def _shell_tokens(segment: str, globstar: bool) -> list[tuple[bool, frozenset[str]] | None] | str:
    """A shell glob segment as tokens; ``"**"`` for a globstar segment. An extglob group
    (``@(a|b)``, ``!(x)``…) or a backslash makes the segment read as ``*`` plus its literal
    start: wider than bash, never narrower."""
    if (segment == "**" and globstar) or segment == "{}":
        return "**" if segment == "**" else "{}"
    return _tokens(segment, shell=True)


def _tokens(segment: str, *, shell: bool) -> list[tuple[bool, frozenset[str]] | None]:
    """``*`` (``None``), ``?`` and bracket tokens of a segment; with ``shell``, a backslash
    quotes the next character and an extglob group ends the segment as ``*``."""
    out: list[tuple[bool, frozenset[str]] | None] = []
    i = 0
    while i < len(segment):
        c = segment[i]
        if shell and c in _EXTGLOB_OPENERS and segment[i + 1 : i + 2] == "(":
            return [*out, None]
        if shell and c == "\\" and i + 1 < len(segment):
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


#: ``_segment_overlap`` answers by (the shell segment's text, whether it is ``**`` or ``{}``
#: whole, the pattern segment's text, ``hidden``): the tokens of either side are a function of
#: its text (``_shell_tokens``, ``_pattern_tokens``), and the same segments (``*.py``, ``src``,
#: ``.ssh``, ``*.pem``) meet again in glob after glob of a batch. A pattern segment without
#: its text (``""``: tokens made by hand, a witness's) is not kept.
_OVERLAPS: Final[dict[tuple[str, bool, str, bool], bool]] = {}


def _segment_overlap(
    segment: Segment,
    pattern_segment: tuple[str, list[tuple[bool, frozenset[str]] | None]],
    hidden: bool = True,
) -> bool:
    """Whether some name matches both the shell glob segment and the pattern segment. The
    shell side obeys bash's rule that only a literal ``.`` matches a leading dot."""
    if not pattern_segment[0]:
        return _segment_overlap_of(segment, pattern_segment, hidden)
    key = (segment[0], isinstance(segment[1], str), pattern_segment[0], hidden)
    found = _OVERLAPS.get(key)
    if found is None:
        found = _segment_overlap_of(segment, pattern_segment, hidden)
        if len(_OVERLAPS) >= MAX_MEMO:
            _OVERLAPS.clear()
        _OVERLAPS[key] = found
    return found


def _segment_overlap_of(
    segment: Segment,
    pattern_segment: tuple[str, list[tuple[bool, frozenset[str]] | None]],
    hidden: bool,
) -> bool:
    text, shell = segment
    ptext, pattern = pattern_segment
    if not isinstance(shell, str) and ptext:
        if not _has_wild(text):
            return segment_match(ptext, text) if _has_wild(ptext) else text == ptext
        if not _has_wild(ptext):
            if hidden and ptext.startswith(".") and not text.startswith((".", "[")):
                return False  # (a leading class is given the benefit of the doubt)
            from clearance.shellparse.resolve import segment_matches

            return segment_matches(text, ptext)
    if isinstance(shell, str):  # globstar: a name not starting with a dot; ``{}``: any name
        # (a file ``find`` selects is never literally named ``*``: that pattern is for globs)
        shell = [_NOT_DOT, None] if shell == "**" else [(True, frozenset("/*")), None]
    if not _ends_meet(shell, pattern):
        return False
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


def _ends_meet(
    a: list[tuple[bool, frozenset[str]] | None], b: list[tuple[bool, frozenset[str]] | None]
) -> bool:
    """What a name of both globs needs (their ``_segment_overlap`` is a search of pairs of
    states): each character before either's first ``*``, counted from the start, and each
    after either's last ``*``, counted from the end, is one both admit. ``*.py`` and ``*.pem``
    end apart, ``.env*`` and ``id_*`` start apart."""
    for x, y in zip(a, b, strict=False):
        if x is None or y is None:
            break
        negated, chars = _meet(x, y)
        if not (negated or chars):
            return False
    for x, y in zip(reversed(a), reversed(b), strict=False):
        if x is None or y is None:
            break
        negated, chars = _meet(x, y)
        if not (negated or chars):
            return False
    return True


def _overlap(
    pattern: list[tuple[str, list[tuple[bool, frozenset[str]] | None]] | None],
    shell: list[Segment],
    prefix: bool,
    tree: bool,
) -> bool:
    """Whether ``pattern`` and ``shell`` can name the same path: a search of the states
    ``(pi, si)`` (each step moves forward, so they form a DAG; a state is the integer
    ``pi * (len(shell) + 1) + si``), without recursion -- a word of thousands of segments is
    as deep as it is long."""
    width = len(shell) + 1
    patterns, shells = len(pattern), len(shell)
    # names under a ``{}`` (what ``find`` selects) are fnmatch'ed: ``*`` matches dots
    filtered_from = _filter_start(shell)
    whole = [isinstance(segment[1], str) for segment in shell]  # ``**`` or ``{}``
    # whether the pattern's rest from ``pi`` is only ``**`` (it matches the empty rest)
    open_end = [False] * patterns + [True]
    for pi in range(patterns - 1, -1, -1):
        open_end[pi] = open_end[pi + 1] and pattern[pi] is None
    seen: set[int] = set()
    stack = [0]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        pi, si = divmod(state, width)
        if pi == patterns:
            if si == shells or prefix:
                return True
            continue
        if si == shells:
            if tree or open_end[pi]:
                return True
            continue
        seg = pattern[pi]
        if seg is None:
            stack.append(state + 1)
            stack.append(state + width)
        elif whole[si]:
            if _segment_overlap(shell[si], seg):
                stack.append(state + width + 1)
                stack.append(state + width)
            stack.append(state + 1)
        elif _segment_overlap(shell[si], seg, si <= filtered_from):
            stack.append(state + width + 1)
    return False


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


class Affixes:
    """Literal starts (or ends) of names, by their first (or last) character: whether a name
    starts (ends) with one is a ``startswith`` (``endswith``) over the few that share its
    first (last) character -- the same answer as over all of them, in a fraction of the
    comparisons. An empty affix starts (ends) every name."""

    __slots__ = ("by_char", "every", "last")

    def __init__(self, affixes: list[str], *, last: bool) -> None:
        self.last = last
        self.every = "" in affixes
        grouped: dict[str, list[str]] = {}
        for affix in affixes:
            if affix:
                grouped.setdefault(affix[-1] if last else affix[0], []).append(affix)
        self.by_char = {char: tuple(group) for char, group in grouped.items()}

    def meets(self, name: str) -> bool:
        """Whether ``name`` starts (ends, for ``last``) with one of the affixes."""
        if self.every:
            return True
        if not name:
            return False
        if self.last:
            group = self.by_char.get(name[-1])
            return group is not None and name.endswith(group)
        group = self.by_char.get(name[0])
        return group is not None and name.startswith(group)


def name_shapes(globs: list[str]) -> tuple[set[str], list[str], list[str], list[str]]:
    """Name patterns (one glob segment each) by shape: the literal names, the starts of the
    ``name*`` ones and the ends of the ``*name`` ones (each a string test: ``Affixes``), and
    the others (several wildcards, ``?``, classes, ``a*b``), as they are."""
    literal: set[str] = set()
    prefixes: list[str] = []
    suffixes: list[str] = []
    others: list[str] = []
    for glob in globs:
        if "*" not in glob and "?" not in glob and "[" not in glob:
            literal.add(glob)
        elif glob.count("*") == 1 and "?" not in glob and "[" not in glob:
            head, _, tail = glob.partition("*")
            if not tail:
                prefixes.append(head)
            elif not head:
                suffixes.append(tail)
            else:
                others.append(glob)
        else:
            others.append(glob)
    return literal, prefixes, suffixes, others


class _LiteralNames:
    """Name patterns (one glob segment each) asked of names without wildcards: whether any
    matches ``name`` as ``segment_match`` would, by a set lookup and ``Affixes`` for the
    literal names and the ``name*`` / ``*name`` shapes, ``segment_match`` for the others
    only (a few: ``*credentials*.json``) -- instead of a call per pattern."""

    __slots__ = ("literal", "others", "prefixes", "suffixes")

    def __init__(self, globs: list[str]) -> None:
        literal, prefixes, suffixes, others = name_shapes(globs)
        self.literal = frozenset(literal)
        self.prefixes = Affixes(prefixes, last=False)
        self.suffixes = Affixes(suffixes, last=True)
        self.others = tuple(others)

    def meets(self, name: str) -> bool:
        """Whether one of the patterns matches ``name`` (taken as it is)."""
        return (
            name in self.literal
            or self.prefixes.meets(name)
            or self.suffixes.meets(name)
            or any(segment_match(glob, name) for glob in self.others)
        )


class _Index:
    """A set of patterns sorted by shape so that one path is decided by a few hash lookups
    and C-level ``startswith``/``endswith`` calls, whatever the number of patterns: literal
    paths by the path's ancestors, literal names by its segments, ``name*``/``*name`` by
    prefix and suffix (``Affixes``); the rest (a few names with several wildcards) by one
    small regex searched over the path. Anchored globs are matched segment by segment, only
    those whose literal start shares the path's first segment."""

    __slots__ = (
        "anchored_by",
        "anchored_root",
        "below",
        "below_any",
        "exact_names",
        "exact_paths",
        "exact_prefixes",
        "exact_suffixes",
        "heads",
        "names",
        "prefixes",
        "rest",
        "rest_hints",
        "rest_regex",
        "suffixes",
        "trees",
    )

    def __init__(self, patterns: list[PathPattern]) -> None:
        trees: set[str] = set()
        exact_paths: set[str] = set()
        names: set[str] = set()
        exact_names: set[str] = set()
        prefixes: list[str] = []
        suffixes: list[str] = []
        exact_prefixes: list[str] = []
        exact_suffixes: list[str] = []
        rest: list[PathPattern] = []
        heads: list[tuple[str, PathPattern]] = []
        for pattern in patterns:
            if pattern.literal is not None:
                (exact_paths if pattern.exact else trees).add(pattern.literal)
                continue
            if pattern.anchored:
                heads.append(("/" + "/".join(pattern.lead()), pattern))
                continue
            name = pattern.segments[0]
            wild = sum(name.count(c) for c in "*?[")
            if wild == 0:
                (exact_names if pattern.exact else names).add(name)
            elif wild == 1 and name.count("*") == 1 and name.startswith("*") != name.endswith("*"):
                if name.endswith("*"):
                    (exact_prefixes if pattern.exact else prefixes).append(name[:-1])
                else:
                    (exact_suffixes if pattern.exact else suffixes).append(name[1:])
            else:
                rest.append(pattern)
        self.trees = frozenset(trees)
        self.exact_paths = frozenset(exact_paths)
        self.names = frozenset(names)
        self.exact_names = frozenset(exact_names)
        self.prefixes = Affixes(prefixes, last=False)
        self.suffixes = Affixes(suffixes, last=True)
        self.exact_prefixes = Affixes(exact_prefixes, last=False)
        self.exact_suffixes = Affixes(exact_suffixes, last=True)
        self.rest = tuple(rest)
        #: the rest (names with several wildcards, ``*credentials*.json``) as one regex
        #: searched over the whole path: one C-level call instead of a test per segment
        self.rest_regex = _names_regex(rest) if rest else None
        #: a piece each of them holds as it is (``literal_hints``): a path holding none is
        #: not searched
        self.rest_hints = literal_hints([p.segments[0] for p in rest]) if rest else None
        #: anchored globs by the first segment of their literal start (a path can only be at
        #: or under the start ``/etc/ssh`` if its own first segment is ``etc``), and those
        #: whose start is ``/`` (``/*/secret``), which any absolute path may meet: each as
        #: (start, start as a directory, the pattern, its segments after the start)
        by_first: dict[str, list[tuple[str, str, PathPattern, tuple[str, ...]]]] = {}
        root: list[tuple[str, str, PathPattern, tuple[str, ...]]] = []
        for head, pattern in heads:
            after = pattern.segments[len(pattern.lead()) :]
            entry = (head, head.rstrip("/") + "/", pattern, after)
            if head == "/":
                root.append(entry)
            else:
                by_first.setdefault(_first_segment(head), []).append(entry)
        self.anchored_by = {first: tuple(group) for first, group in by_first.items()}
        self.anchored_root = tuple(root)
        #: every anchored pattern (literal paths too) by the first segment of its literal
        #: start, and those without one: what ``GlobSet.match_tree`` asks whether something
        #: lies below a path (only a pattern filed under the path's own first segment, or
        #: under none, can have a match there)
        below: dict[str, list[PathPattern]] = {}
        below_any: list[PathPattern] = []
        for pattern in patterns:
            if pattern.anchored:
                lead = pattern.lead()
                if lead:
                    below.setdefault(lead[0], []).append(pattern)
                else:
                    below_any.append(pattern)
        self.below = {first: tuple(group) for first, group in below.items()}
        self.below_any = tuple(below_any)
        #: where every pattern has a place (a literal path, or an anchored glob's literal
        #: start), what a path ``match`` accepts starts with: ``GlobSet.match`` turns away a
        #: path starting with none of them in one C-level call (a tree search under ``/`` or
        #: ``~`` tests every path it meets against the secrets placed there). Only for a path
        #: in normal form: ``match`` reads a tree's place segment by segment, so ``//`` and a
        #: relative path take the long way. ``None`` when a pattern names a file anywhere.
        #: The starts are kept by their first segment (each is whole segments: ``/etc/ssh``),
        #: so that a path is compared with those under its own first directory only: a path
        #: whose first segment merely begins like one (``/etcetera``, ``/etc``) is no path
        #: under it, and ``match`` would turn it away too. A start ``/`` admits every path:
        #: then there is no filter.
        placed = all(p.literal is not None or p.anchored for p in patterns)
        starts = (*trees, *exact_paths, *(h for h, _ in heads)) if placed else ()
        grouped: dict[str, list[str]] | None = {} if placed and "/" not in starts else None
        if grouped is not None:
            for start in starts:
                grouped.setdefault(_first_segment(start), []).append(start)
        self.heads: dict[str, tuple[str, ...]] | None = (
            None if grouped is None else {k: tuple(v) for k, v in grouped.items()}
        )

    def match(self, path: str) -> bool:
        if path in self.exact_paths:
            return True
        parts = [p for p in path.split("/") if p]
        trees = self.trees
        if trees:
            if "/" in trees:
                return True
            prefix = ""
            for part in parts:
                prefix = prefix + "/" + part
                if prefix in trees:
                    return True
        if parts:
            names = self.names
            prefixes = self.prefixes
            suffixes = self.suffixes
            for part in parts:
                if part in names or prefixes.meets(part) or suffixes.meets(part):
                    return True
            last = parts[-1]
            if (
                last in self.exact_names
                or self.exact_prefixes.meets(last)
                or self.exact_suffixes.meets(last)
            ):
                return True
        if path[:1] == "/":
            # (an anchored start is absolute: a relative path is at or under none of them;
            # one that is at or under a start begins with its segments)
            for head, under, pattern, rest in self.anchored_root:
                if (path == head or path.startswith(under)) and pattern.match_after_lead(
                    parts, rest
                ):
                    return True
            group = self.anchored_by.get(_first_segment(path))
            if group is not None:
                for head, under, pattern, rest in group:
                    if (path == head or path.startswith(under)) and pattern.match_after_lead(
                        parts, rest
                    ):
                        return True
        regex = self.rest_regex
        if regex is None:
            return False
        hints = self.rest_hints
        if hints is not None and not holds_a_hint(hints, path):
            return False
        return regex.search(path) is not None


def literal_hints(globs: list[str]) -> tuple[str, ...] | None:
    """A piece of each glob (names, no ``/``) that whatever it matches holds as it is: its
    longest run between ``*`` and ``?``. A text holding none of them matches none of the
    globs, told by a few scans in C before any regex runs. ``None`` where a glob has no
    such run, or a bracket expression or a backslash (whose text is not what a match holds):
    then only the globs can tell."""
    hints: list[str] = []
    for glob in globs:
        if "[" in glob or "\\" in glob:
            return None
        longest = max(glob.replace("?", "*").split("*"), key=len)
        if not longest:
            return None
        hints.append(longest)
    return tuple(hints)


def holds_a_hint(hints: tuple[str, ...], text: str) -> bool:
    """Whether ``text`` holds one of ``literal_hints``'s pieces."""
    for hint in hints:
        if hint in text:
            return True
    return False


def _first_segment(path: str) -> str:
    """The first segment of an absolute path (``etc`` of ``/etc/ssh``; ``""`` of ``/``)."""
    cut = path.find("/", 1)
    return path[1:] if cut < 0 else path[1:cut]


def _names_regex(patterns: list[PathPattern]) -> re.Pattern[str]:
    """Unanchored name patterns as one regex over a path: a name at any depth
    (``/NAME/`` or ``/NAME`` at the end), or only the last one for an exact pattern."""
    anywhere = [glob_regex_body(p.segments[0], "[^/]*", "[^/]") for p in patterns if not p.exact]
    last = [glob_regex_body(p.segments[0], "[^/]*", "[^/]") for p in patterns if p.exact]
    alternatives = []
    # (a name starts after a ``/`` or, in a relative path, at the start)
    if anywhere:
        alternatives.append("(?:^|/)(?=[^/])(?:" + "|".join(anywhere) + ")(?:/|$)")
    if last:
        alternatives.append("(?:^|/)(?=[^/])(?:" + "|".join(last) + ")$")
    return re.compile("|".join(alternatives), re.DOTALL)


class GlobSet:
    """Several patterns; matches when one does and no ``!`` pattern does.

    Matching goes through an index of the patterns by shape (``_Index``): a few lookups per
    path, nothing compiled. ``fold``: for a case-insensitive file system, patterns and paths
    are compared in lower case.
    """

    __slots__ = (
        "_could",
        "_excluded_index",
        "_index",
        "_leads",
        "_literal_names",
        "_matched",
        "_names",
        "_placed",
        "_segment_names",
        "_trees",
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
        self._index: _Index | None = None
        self._excluded_index: _Index | None = None
        self._could: dict[tuple[str, bool, bool], bool] = {}
        #: ``could_match`` asks the patterns with a place (anchored) one by one, and the
        #: names at any depth (``.env*``, ``id_rsa*``: a third of the secrets) segment by
        #: segment for all of them at once: whether any name, and any exact name, meets a
        #: glob segment is kept per segment (``*.py``, ``src`` recur in thousands of globs)
        self._placed = [p for p in self.patterns if p.anchored]
        self._names = [
            (p.exact, (p.segments[0], _pattern_tokens(p.segments[0])))
            for p in self.patterns
            if not p.anchored
        ]
        self._segment_names: dict[tuple[str, bool], tuple[bool, bool]] = {}
        #: the names (not exact, exact) as ``_LiteralNames``, made on first use
        self._literal_names: tuple[_LiteralNames, _LiteralNames] | None = None
        #: the anchored patterns by their literal start: those whose start is exactly a
        #: tuple, and those whose start goes on past it
        self._leads: tuple[dict[tuple[str, ...], list[PathPattern]], ...] | None = None
        #: answers of ``match`` and ``match_tree`` by path: a set is immutable and a path's
        #: answer depends on nothing else, so the same path is never matched twice
        self._matched: dict[str, bool] = {}
        self._trees: dict[str, bool] = {}

    def match(self, path: str) -> bool:
        if self.fold:
            path = path.lower()
        memo = self._matched
        found = memo.get(path)  # (first: a path met before is not filtered again)
        if found is not None:
            return found
        index = self._index
        if index is None:
            index = self._indexed()
        heads = index.heads
        if heads is not None and path[:1] == "/" and "//" not in path:
            under = heads.get(_first_segment(path))
            if under is None or not path.startswith(under):
                return False  # (not remembered: a tree search meets thousands such)
        found = self._match(path)
        if len(memo) >= MAX_MEMO:
            memo.clear()
        memo[path] = found
        return found

    def _indexed(self) -> _Index:
        index = self._index = _Index(self.patterns)
        self._excluded_index = _Index(self.excluded)
        return index

    def _match(self, path: str) -> bool:
        index = self._index
        if index is None:
            index = self._indexed()
        if not index.match(path):
            return False
        excluded = self._excluded_index
        return not (self.excluded and excluded is not None and excluded.match(path))

    def could_match(self, glob: str, *, tree: bool = False, globstar: bool = False) -> bool:
        """Whether a path the shell glob ``glob`` expands to could be in the set (see
        :meth:`PathPattern.could_match`); exclusions are not trusted to narrow a glob."""
        if self.fold:
            glob = glob.lower()
        key = (glob, tree, globstar)
        found = self._could.get(key)
        if found is None:
            segments = _shell_segments(glob, globstar)
            lead = _literal_lead(segments)
            found = self._names_could_match(segments) or any(
                p.could_match_segments(segments, tree) for p in self._placed_meeting(lead)
            )
            if found and not tree and self.excluded:
                found = not any(_within(segments, e) for e in self.excluded)
            if len(self._could) >= MAX_MEMO:
                self._could.clear()
            self._could[key] = found
        return found

    def _placed_meeting(self, lead: tuple[str, ...]) -> list[PathPattern]:
        """The anchored patterns a glob whose literal start is ``lead`` could overlap: those
        whose own literal start is a prefix of it, and those whose start extends it (the
        others spell another name at some depth before either has a wildcard: ``_overlap``
        would stop at it) -- a few lookups instead of a test of every pattern."""
        leads = self._leads
        if leads is None:
            exactly: dict[tuple[str, ...], list[PathPattern]] = {}
            beyond: dict[tuple[str, ...], list[PathPattern]] = {}
            for pattern in self._placed:
                mine = pattern.lead()
                exactly.setdefault(mine, []).append(pattern)
                for k in range(len(mine)):
                    beyond.setdefault(mine[:k], []).append(pattern)
            leads = self._leads = (exactly, beyond)
        exactly, beyond = leads
        out: list[PathPattern] = list(beyond.get(lead, ()))
        for k in range(len(lead) + 1):
            found = exactly.get(lead[:k])
            if found is not None:
                out.extend(found)
        return out

    def _names_could_match(self, shell: list[Segment]) -> bool:
        """``could_match_segments`` of every name pattern (unanchored) at once: a segment
        after the first ``{}`` is a filter (what ``find`` selects); an exact name counts
        in the last segment only."""
        if not self._names:
            return False
        after = _filter_start(shell)
        last = len(shell) - 1
        for k, segment in enumerate(shell):
            loose, exact = self._names_meet(segment, k > after)
            if loose or (exact and k == last):
                return True
        return False

    def _names_meet(self, segment: Segment, filtered: bool) -> tuple[bool, bool]:
        """Whether a name pattern, and an exact one, meets the glob segment (``_name_meets``
        of each), kept per segment text."""
        text, tokens = segment
        if isinstance(tokens, str):
            return False, False  # ``**`` and ``{}``: names below a tree are searched for
        key = (text, filtered)
        found = self._segment_names.get(key)
        if found is None:
            if not _has_wild(text):
                # a literal segment meets a name pattern when the pattern matches it
                # (filtered or not: ``_name_meets``): every pattern at once
                both = self._literal_names
                if both is None:
                    names = self._names
                    both = self._literal_names = (
                        _LiteralNames([name[0] for is_exact, name in names if not is_exact]),
                        _LiteralNames([name[0] for is_exact, name in names if is_exact]),
                    )
                found = (both[0].meets(text), both[1].meets(text))
            else:
                loose = exact = False
                for is_exact, name in self._names:
                    if (exact if is_exact else loose) or not _name_meets(segment, name, filtered):
                        continue
                    if is_exact:
                        exact = True
                    else:
                        loose = True
                    if loose and exact:
                        break
                found = (loose, exact)
            if len(self._segment_names) >= MAX_MEMO:
                self._segment_names.clear()
            self._segment_names[key] = found
        return found

    def match_tree(self, path: str) -> bool:
        """Whether an operation on everything under ``path`` touches the set."""
        if self.fold:
            path = path.lower()
        memo = self._trees
        found = memo.get(path)
        if found is None:
            found = self.match(path) or self._tree_meets(path)
            if len(memo) >= MAX_MEMO:
                memo.clear()
            memo[path] = found
        return found

    def _tree_meets(self, path: str) -> bool:
        """Whether a pattern (its exclusion aside) matches ``path`` or something below it:
        its index for the first (an absolute path), and for the second only the anchored
        patterns whose literal start could lie under the path's first segment (``_Index``'s
        ``below``)."""
        parts = [p for p in path.split("/") if p]
        index = self._index
        if index is None:
            index = self._indexed()
        if path[:1] == "/":
            if index.match(path):
                return True
        elif any(p.match(path) for p in self.patterns):
            return True
        if not parts:
            return any(p.below(parts) for p in self.patterns if p.anchored)
        return any(p.below(parts) for p in index.below_any) or any(
            p.below(parts) for p in index.below.get(parts[0], ())
        )


#: What may follow a ``*`` in an exclusion's last segment for ``_within`` to compare it.
_PLAIN_TAIL: Final = re.compile(r"[A-Za-z0-9._-]+")


def _within(shell: list[Segment], excluded: PathPattern) -> bool:
    """Whether every path the shell glob (cut into ``shell`` segments) can expand to is in
    ``excluded``: an anchored, exact pattern (``~/.ssh/*.pub$``) of as many segments, each
    spelling the glob's segment literally, but for a last one ``*TAIL`` that the glob's own
    last segment ends with (``*.pub``, ``id_*.pub``: whatever fills it, the name ends so). The
    one narrowing of a glob an exclusion is trusted with; anything else (``**``, a found
    ``{}``, a wildcard elsewhere, a tree) is not narrowed."""
    segments = excluded.segments
    if not (excluded.anchored and excluded.exact) or len(segments) != len(shell):
        return False
    last = len(segments) - 1
    for k, (text, tokens) in enumerate(shell):
        mine = segments[k]
        if isinstance(tokens, str):
            return False  # ``**`` or ``{}``
        if k < last or not mine.startswith("*"):
            if _has_wild(mine) or text != mine:
                return False
            continue
        tail = mine[1:]
        if not _PLAIN_TAIL.fullmatch(tail) or not text.endswith(tail):
            return False
    return True


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
