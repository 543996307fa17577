"""Static expansion: what a word becomes when the shell runs it, as far as the text tells.

Quote removal, escapes, ANSI-C strings, brace expansion (``{rm,-rf,/}`` is three words),
tilde, and variables assigned earlier on the same line are all resolved. What cannot be known
-- ``$(…)``, a variable from the environment -- keeps its source text and raises a flag, so the
caller can mark the fact as dynamic instead of guessing.

Budgets, not hopes: a word expands to at most :data:`MAX_WORD` characters, one analysis spends
at most :data:`MAX_STEPS` (a step per word, plus a step per character produced: ``Env.copy``
shares the budget), and brace expansion nests at most :data:`MAX_BRACE_DEPTH` deep. Past any of
them the word keeps its source text and is flagged ``TRUNCATED | DYNAMIC`` -- a marker, never a
computation: ``a=x; a=$a$a; a=$a$a; …`` doubles nothing past the first 64 KB.
"""

from __future__ import annotations

import re

from clearance.shellparse.nodes import (
    AnsiCQuoted,
    DoubleQuoted,
    Literal,
    ParamExpansion,
    ProcessSubstitution,
    SingleQuoted,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.nodes import Part, Word

#: The file name a process substitution (``<(…)``, ``>(…)``) becomes: one end of a pipe.
PROCESS_SUBSTITUTION_FILE: Final = "/dev/fd/63"

DYNAMIC: Final = 1  # a part whose value is not in the text ($(…), $VAR, $((…)))
GLOB: Final = 2  # an unquoted *, ? or [ … ]: the shell may replace the word by file names
TILDE: Final = 4  # a leading ~ was expanded (or could not be: see TILDE_USER)
BRACE: Final = 8  # brace expansion produced the fields
TRUNCATED: Final = 16  # brace expansion produced more fields than MAX_FIELDS
TILDE_USER: Final = 32  # ~user: another user's home, not known (the text alone, or no such user)
INVALID: Final = 64  # ${…} that bash rejects when it runs
RESOLVED: Final = 128  # a variable was replaced by the value assigned earlier on the line

#: Most fields one word may expand to; more are cut and flagged TRUNCATED.
MAX_FIELDS: Final = 256
#: Most characters one word may expand to (every field together).
MAX_WORD: Final = 64 * 1024
#: Most work one analysis may spend on expansion: one per word plus one per character.
MAX_STEPS: Final = 4 * 1024 * 1024
#: Deepest nesting of brace expansions followed.
MAX_BRACE_DEPTH: Final = 32
#: Most atoms brace expansion of one word may scan or produce.
MAX_BRACE_STEPS: Final = 200_000
_OVER: Final = DYNAMIC | TRUNCATED


def _stops_plain(text: str) -> bool:
    """Whether an unquoted literal holds a character after which it is not plainly itself:
    a glob (``*``, ``?``, ``[``; extglob groups open with ``(``), a brace, a tilde. (Six scans
    in C: cheaper than a set lookup per character.)"""
    return "*" in text or "?" in text or "[" in text or "(" in text or "{" in text or "~" in text


class Env:
    """What expansion may rely on: home, working directory, variables known by value.

    ``cwd`` is ``None`` once a ``cd`` to an unknown place has run: paths relative to it can no
    longer be resolved.
    """

    __slots__ = ("budget", "cwd", "home", "homes", "vars")

    def __init__(
        self,
        home: str,
        cwd: str | None,
        variables: dict[str, str] | None = None,
        budget: list[int] | None = None,
        homes: dict[str, str | None] | None = None,
    ):
        self.home = home
        self.cwd = cwd
        self.vars: dict[str, str] = {} if variables is None else variables
        #: Steps left for the whole analysis (shared by every copy).
        self.budget = [MAX_STEPS] if budget is None else budget
        #: Other users' homes (``~user``) as this machine's user database gives them, looked
        #: up once per line (shared by every copy); ``None``: the text alone is judged, and
        #: ``~user`` is not known.
        self.homes = homes

    def copy(self) -> Env:
        return Env(self.home, self.cwd, dict(self.vars), self.budget, self.homes)

    def home_of(self, user: str) -> str | None:
        """The home of ``user`` on this machine, ``None`` when it is not known (the text
        alone is judged, no such user, a name bash would not look up)."""
        homes = self.homes
        if homes is None or _USER_NAME.fullmatch(user) is None:
            return None
        if user not in homes:
            import pwd

            try:
                found: str | None = pwd.getpwnam(user).pw_dir
            except (KeyError, OSError):
                found = None
            homes[user] = found if found and found.startswith("/") else None
        return homes[user]


#: A name ``~NAME`` looks up in the user database (POSIX's portable user names).
_USER_NAME: Final = re.compile(r"[A-Za-z0-9._][A-Za-z0-9._-]*")


# A segment: (text, quoted, dynamic, splits). ``splits``: an unquoted variable value, which the
# shell splits into fields at blanks.
if TYPE_CHECKING:
    Segment = tuple[str, bool, bool, bool]


def _segments(parts: list[Part], env: Env, flags: list[int], quoted: bool) -> list[Segment]:
    out: list[Segment] = []
    for part in parts:
        if isinstance(part, Literal):
            out.append((part.text, part.quoted or quoted, False, False))
        elif isinstance(part, (SingleQuoted, AnsiCQuoted)):
            out.append((part.text, True, False, False))
        elif isinstance(part, DoubleQuoted):
            inner = _segments(part.parts, env, flags, True)
            out.extend(inner if inner else [("", True, False, False)])
        elif isinstance(part, ParamExpansion):
            value = _parameter(part, env)
            if part.invalid:
                flags[0] |= INVALID | DYNAMIC
            if value is None:
                flags[0] |= DYNAMIC
                out.append((part.text, quoted, True, False))
            else:
                flags[0] |= RESOLVED
                out.append((value, quoted, False, not quoted))
        elif isinstance(part, ProcessSubstitution):
            # the word bash passes: a pipe to the script, which is analysed as a command
            out.append((PROCESS_SUBSTITUTION_FILE, True, False, False))
        else:
            flags[0] |= DYNAMIC
            out.append((part.text, quoted, True, False))
    return out


def _parameter(part: ParamExpansion, env: Env) -> str | None:
    """The value of ``$x``/``${x}``, and of ``${x:-word}``, ``${x:?}``, ``${x:+word}`` and
    their kin when the variable's value is known (``None``: not known before it runs). An
    unknown variable may be set or not, so its default is no more known than its value."""
    if part.indirect or part.length or part.subscript is not None or part.invalid:
        return None
    name = part.name
    value: str | None = None
    if name in env.vars:
        value = env.vars[name]
    elif name == "HOME":
        value = env.home
    elif name == "PWD" and env.cwd is not None:
        value = env.cwd
    op = part.op
    if not op or value is None:
        return None if op else value
    if op in ("-", "=", "?"):
        return value  # set: its value, empty or not
    if op in (":-", ":="):
        if value:
            return value
        default = _default_word(part, env)
        if op == ":=":  # the variable is given the default, for the rest of the line
            if default is None:
                env.vars.pop(name, None)
            else:
                env.vars[name] = default
        return default
    if op == ":?":
        return value or None  # empty: the shell stops there with the error
    if op == ":+":
        return _default_word(part, env) if value else ""
    if op == "+":
        return _default_word(part, env)
    return None  # a pattern removed or replaced, a case changed: not worked out here


def _default_word(part: ParamExpansion, env: Env) -> str | None:
    """The word of ``${x:-word}`` as the shell expands it, when it holds no expansion of its
    own (one level only: a nested default stays unknown)."""
    arg = part.arg
    if arg is None:
        return ""
    if not all(
        isinstance(p, (Literal, SingleQuoted, AnsiCQuoted, DoubleQuoted)) for p in arg.parts
    ):
        return None
    if any(
        not isinstance(q, Literal)
        for p in arg.parts
        if isinstance(p, DoubleQuoted)
        for q in p.parts
    ):
        return None
    fields, flags = expand_word(arg, env)
    if flags & (DYNAMIC | INVALID):
        return None
    return " ".join(fields)


def expand_word(word: Word, env: Env) -> tuple[list[str], int]:
    """The fields ``word`` becomes, and flags saying how sure that is."""
    budget = env.budget
    if budget[0] <= 0:
        return [word.text], _OVER  # every later word keeps its text and the marker
    parts = word.parts
    if len(parts) == 1:
        # the common word: one literal that neither globs, brace-expands, expands a tilde
        # nor splits -- its own one field, at the same cost to the budget as below
        part = parts[0]
        plain: str | None = None
        if isinstance(part, Literal):
            if part.quoted or not _stops_plain(part.text):
                plain = part.text
        elif isinstance(part, (SingleQuoted, AnsiCQuoted)):
            plain = part.text
        if plain is not None:
            size = len(plain)
            budget[0] -= 1 + 2 * size
            if size > MAX_WORD or budget[0] < 0:
                return [word.text], _OVER
            return [plain], 0
    flags = [0]
    segments = _segments(word.parts, env, flags, False)
    if not segments:
        return [""], flags[0]
    size = sum(len(segment[0]) for segment in segments)
    budget[0] -= 1 + size
    if size > MAX_WORD or budget[0] < 0:
        return [word.text], flags[0] | _OVER
    if any(not quoted and not dynamic and "{" in text for text, quoted, dynamic, _ in segments):
        fields = _brace_fields(segments, flags)
    else:
        fields = [segments]
    results: list[str] = []
    total = 0
    for field in fields:
        finished = _finish(field, env, flags)
        total += sum(len(text) for text in finished)
        if total > MAX_WORD:
            return [word.text], flags[0] | _OVER
        results.extend(finished)
    budget[0] -= total
    if budget[0] < 0:
        return [word.text], flags[0] | _OVER
    return results, flags[0]


def word_text(word: Word, env: Env) -> tuple[str, int]:
    """One string for ``word`` (fields joined by a space): for targets and patterns."""
    fields, flags = expand_word(word, env)
    return " ".join(fields), flags


def _finish(field: list[Segment], env: Env, flags: list[int]) -> list[str]:
    # tilde
    if field and not field[0][1] and not field[0][2] and field[0][0].startswith("~"):
        text = field[0][0]
        slash = text.find("/")
        user = text[1:] if slash < 0 else text[1:slash]
        rest = "" if slash < 0 else text[slash:]
        # the home is literal; what follows it is still unquoted (``~/.s?h/*`` is a glob)
        tail: list[Segment] = [(rest, False, False, False)] if rest else []
        if user == "":
            field = [(env.home, True, False, False), *tail, *field[1:]]
            flags[0] |= TILDE
        elif user == "+" and env.cwd is not None:
            field = [(env.cwd, True, False, False), *tail, *field[1:]]
            flags[0] |= TILDE
        elif len(field) == 1 or slash >= 0:
            other = env.home_of(user)
            if other is None:
                flags[0] |= TILDE | TILDE_USER
            else:
                field = [(other, True, False, False), *tail, *field[1:]]
                flags[0] |= TILDE
    # glob, field splitting
    if _has_glob(field):
        flags[0] |= GLOB
    pieces: list[str] = []
    fields: list[str] = []
    for text, _quoted, _dynamic, splits in field:
        if splits and (" " in text or "\t" in text or "\n" in text):
            words = text.split()
            if text[:1].isspace() and pieces:
                fields.append("".join(pieces))
                pieces = []
            for i, w in enumerate(words):
                if i:
                    fields.append("".join(pieces))
                    pieces = []
                pieces.append(w)
            if text[-1:].isspace():
                fields.append("".join(pieces))
                pieces = []
        else:
            pieces.append(text)
    if pieces or not fields:
        fields.append("".join(pieces))
    return fields


def _has_glob(field: list[Segment]) -> bool:
    """Whether the shell would match ``field`` against file names.

    An unquoted ``*`` or ``?`` always makes a pattern; an unquoted ``[`` only when a ``]``
    follows it. A lone ``[`` -- the test command ``[ -f x ]`` -- is a plain word.
    """
    for i, (text, quoted, dynamic, _) in enumerate(field):
        if quoted or dynamic:
            continue
        if "@(" in text or "!(" in text or "+(" in text:
            return True  # an extglob group (``shopt -s extglob``)
        if "*" in text or "?" in text:
            return True
        at = text.find("[")
        if at < 0:
            continue
        if "]" in text[at + 1 :] or any("]" in later[0] for later in field[i + 1 :]):
            return True
    return False


# --- brace expansion ---------------------------------------------------------------------

# An atom is one unquoted literal character that may be brace syntax (special=True), or an
# opaque segment that never is.
if TYPE_CHECKING:
    Atom = tuple[Segment, bool]


def _brace_fields(segments: list[Segment], flags: list[int]) -> list[list[Segment]]:
    atoms: list[Atom] = []
    for segment in segments:
        text, quoted, dynamic, _ = segment
        if quoted or dynamic:
            atoms.append((segment, False))
        else:
            atoms.extend(((c, False, False, False), True) for c in text)
    expanded = _expand_atoms(atoms, flags, 0, [MAX_BRACE_STEPS])
    if len(expanded) > 1 or expanded[0] is not atoms:
        flags[0] |= BRACE
    return [[atom[0] for atom in result] for result in expanded]


def _expand_atoms(
    atoms: list[Atom], flags: list[int], depth: int, steps: list[int]
) -> list[list[Atom]]:
    if depth > MAX_BRACE_DEPTH or steps[0] <= 0:
        flags[0] |= TRUNCATED
        return [atoms]
    i = 0
    n = len(atoms)
    while i < n:
        segment, special = atoms[i]
        if (
            special
            and segment[0] == "{"
            and not (i and atoms[i - 1] == (("$", False, False, False), True))
        ):
            if steps[0] <= 0:
                flags[0] |= TRUNCATED
                return [atoms]
            found = _brace_close(atoms, i, steps)
            if found is not None:
                close, commas = found
                inner = atoms[i + 1 : close]
                if commas:
                    alternatives: list[list[Atom]] = []
                    start = i + 1
                    for comma in [*commas, close]:
                        alternatives.extend(
                            _expand_atoms(atoms[start:comma], flags, depth + 1, steps)
                        )
                        start = comma + 1
                else:
                    sequence = _sequence(inner)
                    if sequence is None:
                        i += 1
                        continue
                    alternatives = [[((s, False, False, False), False)] for s in sequence]
                prefix = atoms[:i]
                suffixes = _expand_atoms(atoms[close + 1 :], flags, depth + 1, steps)
                out: list[list[Atom]] = []
                for alternative in alternatives:
                    for suffix in suffixes:
                        if len(out) >= MAX_FIELDS or steps[0] <= 0:
                            flags[0] |= TRUNCATED
                            return out or [atoms]
                        steps[0] -= len(prefix) + len(alternative) + len(suffix)
                        out.append(prefix + alternative + suffix)
                return out
        i += 1
    return [atoms]


def _brace_close(atoms: list[Atom], open_at: int, steps: list[int]) -> tuple[int, list[int]] | None:
    depth = 0
    commas: list[int] = []
    steps[0] -= len(atoms) - open_at
    for j in range(open_at + 1, len(atoms)):
        segment, special = atoms[j]
        if not special:
            continue
        c = segment[0]
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                return j, commas
            depth -= 1
        elif c == "," and depth == 0:
            commas.append(j)
    return None


def _sequence(inner: list[Atom]) -> list[str] | None:
    if not all(special for _, special in inner):
        return None
    text = "".join(segment[0] for segment, _ in inner)
    pieces = text.split("..")
    if len(pieces) not in (2, 3):
        return None
    step = 1
    if len(pieces) == 3:
        try:
            step = abs(int(pieces[2])) or 1
        except ValueError:
            return None
    a, b = pieces[0], pieces[1]
    try:
        lo, hi = int(a), int(b)
    except ValueError:
        if len(a) == 1 and len(b) == 1 and a.isalpha() and b.isalpha():
            lo, hi = ord(a), ord(b)
            rng = range(lo, hi + 1, step) if lo <= hi else range(lo, hi - 1, -step)
            return [chr(c) for c in list(rng)[: MAX_FIELDS + 1]]
        return None
    # Zero padding when an end is written with a leading zero: `{01..3}`, not `{0..10}`.
    padded = any(len(end.lstrip("-")) > 1 and end.lstrip("-")[0] == "0" for end in (a, b))
    width = max(len(a), len(b)) if padded else 0
    rng = range(lo, hi + 1, step) if lo <= hi else range(lo, hi - 1, -step)
    out: list[str] = []
    for k in rng:
        if len(out) > MAX_FIELDS:
            break
        out.append(str(k).zfill(width) if width else str(k))
    return out
