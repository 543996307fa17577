"""The bash lexer: characters in, tokens of ``shell.lark`` out.

Bash decides how to read a word by where it stands, so the lexer is contextual: the driver
passes the set of terminals the parser accepts before every token. That set tells a keyword
(``if`` at the start of a command) from a word (``echo if``), an assignment from an argument,
and the ``)`` that ends a ``$(…)`` from one that closes a subshell inside it.

Words are scanned into typed parts (quotes, escapes, ``$…`` expansions). A command
substitution is parsed right where it stands by a nested run of the same parser over the same
text, which ends at the first ``)`` the nested parser cannot accept: exactly how bash finds the
end of ``$(case x in a) …;; esac)``.
"""

from __future__ import annotations

import re

from clearance.shellparse.errors import ShellSyntaxError
from clearance.shellparse.lalr import can_shift, parse_tokens
from clearance.shellparse.nodes import (
    AnsiCQuoted,
    ArithmeticExpansion,
    Assignment,
    CommandSubstitution,
    DoubleQuoted,
    HereDoc,
    Literal,
    ParamExpansion,
    ProcessSubstitution,
    Script,
    SingleQuoted,
    Word,
)
from clearance.shellparse.tokens import KEYWORDS, OPERATORS, Token

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Container

    from clearance.shellparse.nodes import Part

    Memo = tuple[Part, int, list[HereDoc]] | ShellSyntaxError

#: Deepest nesting of substitutions (``$(…)``, backquotes, ``<(…)``) the lexer follows.
MAX_DEPTH = 48

_BLANKS = re.compile(r"(?:[ \t]|\\\n)+")
_BLANKS_NL = re.compile(r"(?:[ \t\n]|\\\n)+")
_LITERAL = re.compile(r"[^ \t\n;&|()<>\\'\"$`]+")
_DQ_LITERAL = re.compile(r'[^"\\$`]+')
_HEREDOC_LITERAL = re.compile(r"[^\\$`]+")
_PARAM_ARG_LITERAL = re.compile(r"[^}\\'\"$`<>]+")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DIGITS = re.compile(r"[0-9]+")
_IO_NUMBER = re.compile(r"[0-9]+(?=[<>])|\{[A-Za-z_][A-Za-z0-9_]*\}(?=[<>])")
_ARRAY_PREFIX = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=\Z")
_PARAM_OP = re.compile(r":[-=?+]|[-=?+]|##|#|%%|%|//|/#|/%|/|\^\^|\^|,,|,|~~|~|@|:")
_WORD_END = frozenset(" \t\n;&|()<>")
_INSIDE_COMMAND = frozenset(("WORD", "ASSIGNMENT_WORD", "IO_NUMBER"))
_EXTGLOB_LEADERS = frozenset("?*+@!")
#: Redirection operators whose target is a file name (after `>&` and `<&` digits are a
#: descriptor, which is what those operators take).
_FILE_REDIRECTIONS = frozenset(
    ("LESS", "GREAT", "DGREAT", "CLOBBER", "LESSGREAT", "AND_GREAT", "AND_DGREAT", "TLESS")
)
#: Reserved words that end or continue a construct; where a command may start they are
#: syntax errors when the grammar cannot take them (``if`` and the other openers always can).
_NEVER_A_COMMAND = frozenset(
    ("then", "else", "elif", "fi", "do", "done", "esac", "in", "}", "]]", "!")
)

_ANSI_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_HEX = frozenset("0123456789abcdefABCDEF")


def parse_script(text: str, depth: int = 0, origin: str | None = None) -> Script:
    """Parse ``text`` as a whole script (raises ``ShellSyntaxError``)."""
    lexer = Lexer(text, 0, depth=depth)
    script = parse_tokens(lexer)
    assert isinstance(script, Script)
    script.origin = origin
    return script


class Shared:
    """What every lexer over one text shares.

    Text is read more than one way: ``$((…))`` as arithmetic, then as commands; ``((…))``,
    then as subshells; ``a[…]`` as a subscript, then as a word. ``expansions`` keeps each
    expansion read, by (offset, inside double quotes): without it, text nested that way is
    read twice per level, in exponential time. The nesting depth is not part of the key -- it
    only bounds recursion, and a result taken from here recurses no further. ``closes`` keeps,
    for each ``(`` an arithmetic scan went past, the offset of the ``)`` that closes it
    (``-1``: none), so that a run of ``((((…`` is scanned once, not once per parenthesis.
    ``tokens`` counts the tokens every parse of the text shifted: the parse's step budget
    (:data:`clearance.shellparse.lalr.MAX_TOKENS`), shared by nested parses.
    """

    __slots__ = ("closes", "expansions", "tokens")

    def __init__(self) -> None:
        self.tokens = 0
        self.expansions: dict[tuple[int, bool], Memo] = {}
        self.closes: dict[int, int] = {}


class Lexer:
    """Tokens of ``text`` from ``pos``; ``subst`` makes it stop at an unmatched ``)``."""

    def __init__(
        self,
        text: str,
        pos: int = 0,
        *,
        depth: int = 0,
        subst: bool = False,
        shared: Shared | None = None,
    ) -> None:
        self.text = text
        self.pos = pos
        self.n = len(text)
        self.depth = depth
        self.subst = subst
        self.pending: list[HereDoc] = []
        self.shared = Shared() if shared is None else shared
        self.prev = "NEWLINE"
        self.prev2 = "NEWLINE"
        #: In ``subst`` mode, the offset of the ``)`` that ended the substitution.
        self.end_pos = -1
        #: What ends a ``subst`` run: ``)`` for ``$(…)``, ``}`` for ``${ …; }``.
        self.closer = "RPAREN"
        #: In ``subst`` mode, the offset of the ``$(``, ``<(`` or ``${`` that opened it: where
        #: an unterminated substitution is reported.
        self.opening = pos

    # --- tokens ----------------------------------------------------------------------------

    def _emit(self, type_: str, value: object, start: int, end: int) -> Token:
        self.prev2 = self.prev
        self.prev = type_
        return Token(type_, value, start, end, self.text[start:end])

    def next_token(self, accepts: Container[str], stack: list[int]) -> Token:
        text = self.text
        n = self.n
        while True:
            pos = self.pos
            m = _BLANKS.match(text, pos)
            if m is not None:
                pos = m.end()
            if pos >= n:
                self.pos = pos
                if self.pending:
                    self._read_heredocs()
                if self.subst:
                    missing = "')'" if self.closer == "RPAREN" else "'}'"
                    raise ShellSyntaxError(
                        f"unterminated substitution: missing {missing}",
                        self.opening,
                        "unterminated",
                    )
                return self._emit("$END", "", pos, pos)
            c = text[pos]
            if c == "#":
                newline = text.find("\n", pos)
                self.pos = n if newline < 0 else newline
                continue
            if c == "\n":
                self.pos = pos + 1
                if self.pending:
                    self._read_heredocs()
                return self._emit("NEWLINE", "\n", pos, pos + 1)
            if c in "();&|<>":
                token = self._operator(c, pos, accepts, stack)
                if token is not None:
                    return token
            return self._word_token(c, pos, accepts, stack)

    def _keyword_position(self) -> bool:
        return self.prev not in _INSIDE_COMMAND

    def _operator(
        self, c: str, pos: int, accepts: Container[str], stack: list[int]
    ) -> Token | None:
        text = self.text
        if c == "(":
            if text.startswith("((", pos):
                if self.prev == "FOR" and "ARITH_FOR_EXPR" in accepts:
                    found = self._arith(pos + 2, "))")
                    if found is None:
                        raise ShellSyntaxError("unterminated '(( … ))'", pos, "unterminated")
                    arith, end = found
                    self.pos = end
                    return self._emit("ARITH_FOR_EXPR", arith, pos, end)
                if "ARITH_CMD" in accepts and self._keyword_position():
                    found = self._arith(pos + 2, "))")
                    if found is not None:
                        arith, end = found
                        self.pos = end
                        return self._emit("ARITH_CMD", arith, pos, end)
            self.pos = pos + 1
            return self._emit("LPAREN", "(", pos, pos + 1)
        if c == ")":
            if self.subst and self.closer == "RPAREN" and not can_shift(stack, "RPAREN"):
                self.end_pos = pos
                self.pos = pos
                return self._emit("$END", "", pos, pos)
            self.pos = pos + 1
            return self._emit("RPAREN", ")", pos, pos + 1)
        if c in "<>" and text.startswith("(", pos + 1):
            return None  # process substitution: a word
        if text.startswith("\\\n", pos + 1):
            return self._continued_operator(c, pos)
        for op, name in OPERATORS[c]:
            if text.startswith(op, pos):
                self.pos = pos + len(op)
                return self._emit(name, op, pos, self.pos)
        raise AssertionError(c)  # every operator character has a one-character operator

    def _continued_operator(self, c: str, pos: int) -> Token:
        """An operator split by line continuations (``&\\<newline>&`` is ``&&``)."""
        text = self.text
        chars = [c]
        ends = [pos + 1]
        i = pos + 1
        while len(chars) < 3 and i < self.n:
            if text.startswith("\\\n", i):
                i += 2
                continue
            chars.append(text[i])
            i += 1
            ends.append(i)
        joined = "".join(chars)
        for op, name in OPERATORS[c]:
            if joined.startswith(op):
                self.pos = ends[len(op) - 1]
                return self._emit(name, op, pos, self.pos)
        raise AssertionError(c)  # every operator character has a one-character operator

    def _word_token(self, c: str, pos: int, accepts: Container[str], stack: list[int]) -> Token:
        text = self.text
        if (c.isdigit() or c == "{") and "IO_NUMBER" in accepts:
            m = _IO_NUMBER.match(text, pos)
            if m is not None:
                self.pos = m.end()
                return self._emit("IO_NUMBER", m.group(), pos, self.pos)
        elif c.isdigit() and self.prev in _FILE_REDIRECTIONS and _IO_NUMBER.match(text, pos):
            # `echo >1>&2`: bash reads digits before `<`/`>` as a descriptor wherever they
            # stand, and a descriptor cannot be the target of `>`.
            raise ShellSyntaxError("unexpected file descriptor after a redirection", pos)
        if (
            c == "["
            and text.startswith("[[", pos)
            and "COND_CMD" in accepts
            and self._keyword_position()
            and (pos + 2 >= self.n or text[pos + 2] in " \t\n")
        ):
            items, end = self._cond(pos + 2)
            self.pos = end
            return self._emit("COND_CMD", items, pos, end)
        if self.prev in ("DLESS", "DLESSDASH"):
            return self._heredoc_delimiter(pos)
        if (
            c == "}"
            and self.closer == "RBRACE"
            and self._keyword_position()
            and not can_shift(stack, "RBRACE")
        ):
            self.end_pos = pos  # the `}` that ends `${ …; }`
            return self._emit("$END", "", pos, pos)
        bracket_end = -1
        if "ASSIGNMENT_WORD" in accepts and (c.isalpha() or c == "_"):
            found = self._assignment(pos, stack)
            if isinstance(found, Token):
                return found
            bracket_end = found
        word, end = self._word(pos, bracket_end=bracket_end)
        self.pos = end
        parts = word.parts
        if len(parts) == 1:
            part = parts[0]
            if isinstance(part, Literal) and not part.quoted:
                keyword = KEYWORDS.get(part.text)
                if keyword is not None and keyword in accepts and self._keyword_allowed(keyword):
                    return self._emit(keyword, part.text, pos, end)
                if part.text == "-p" and self.prev == "TIME" and "TIMEOPT" in accepts:
                    return self._emit("TIMEOPT", "-p", pos, end)
                if part.text in _NEVER_A_COMMAND and "IF" in accepts and self._keyword_position():
                    # Where a command may start, bash reads `then`, `done`, `}`, `]]`… as
                    # reserved words even when they cannot stand there, which is a syntax
                    # error -- never a command named `done`.
                    raise ShellSyntaxError(f"unexpected {part.text!r}", pos)
        return self._emit("WORD", word, pos, end)

    def _keyword_allowed(self, keyword: str) -> bool:
        if self.prev not in _INSIDE_COMMAND:
            return True
        # `for x in`, `for x do`, `case x in`: the word after the loop variable or subject;
        # `function f {`, `coproc NAME {`: the body after the name.
        if self.prev2 in ("FUNCTION", "COPROC"):
            return True
        return keyword in ("IN", "DO") and self.prev2 in ("FOR", "SELECT", "CASE")

    # --- words -----------------------------------------------------------------------------

    def _word(self, pos: int, *, regex: bool = False, bracket_end: int = -1) -> tuple[Word, int]:
        """Scan one word from ``pos``; ``regex`` reads the right side of ``=~``.

        Before ``bracket_end`` (the end of an array subscript in command position) blanks and
        operators are part of the word.
        """
        text = self.text
        n = self.n
        start = pos
        parts: list[Part] = []
        depth = 0
        while pos < n:
            c = text[pos]
            if c in _WORD_END:
                if pos < bracket_end:
                    _add_literal(parts, c, False)
                    pos += 1
                    continue
                if c in "<>" and pos == start and text.startswith("(", pos + 1):
                    body, end = self._substitution(pos + 2)
                    parts.append(ProcessSubstitution(c, body, text[pos : end + 1]))
                    pos = end + 1
                    continue
                if regex and (depth > 0 or c in "()|<>"):
                    # The right side of `=~`: parentheses group, and inside a group even
                    # blanks and `;&|<>` belong to the pattern.
                    if c == "(":
                        depth += 1
                    elif c == ")":
                        if depth == 0:
                            break
                        depth -= 1
                    _add_literal(parts, c, False)
                    pos += 1
                    continue
                if c == "(" and pos > start:
                    if text[pos - 1] in _EXTGLOB_LEADERS and _ends_unquoted(parts):
                        pos = self._extglob_group(pos, parts)
                        continue
                    if _ARRAY_PREFIX.match(text, start, pos):
                        elements, end = self._array(pos + 1)
                        _add_literal(parts, "(", True)
                        for i, element in enumerate(elements):
                            if i:
                                _add_literal(parts, " ", True)
                            parts.extend(element.parts)
                        _add_literal(parts, ")", True)
                        pos = end
                        continue
                break
            if c == "\\":
                if pos + 1 >= n:
                    _add_literal(parts, "\\", True)
                    pos += 1
                elif text[pos + 1] == "\n":
                    pos += 2
                else:
                    _add_literal(parts, text[pos + 1], True)
                    pos += 2
            elif c in "'\"$`":
                pos = self._quoted_or_expansion(c, pos, parts)
            else:
                m = _LITERAL.match(text, pos)
                assert m is not None
                _add_literal(parts, m.group(), False)
                pos = m.end()
        if pos == start:
            raise ShellSyntaxError(f"unexpected {text[pos]!r}" if pos < n else "", pos)
        return Word(parts, text[start:pos], start, pos), pos

    def _quoted_or_expansion(self, c: str, pos: int, parts: list[Part]) -> int:
        """Read the quote or expansion that ``c`` opens at ``pos`` (unquoted context) into
        ``parts``; returns the position after it. Shared by every word scanner."""
        if c == "'":
            end = self.text.find("'", pos + 1)
            if end < 0:
                raise ShellSyntaxError("unterminated single quote", pos, "unterminated")
            parts.append(SingleQuoted(self.text[pos + 1 : end]))
            return end + 1
        if c == '"':
            dq, pos = self._double_quoted(pos + 1)
            parts.append(dq)
            return pos
        if c == "$":
            part, pos = self._dollar(pos, in_dq=False)
            parts.append(part)
            return pos
        sub, pos = self._backtick(pos + 1, in_dq=False)
        parts.append(sub)
        return pos

    def _double_quoted(self, pos: int) -> tuple[DoubleQuoted, int]:
        text = self.text
        n = self.n
        opening = pos - 1
        parts: list[Part] = []
        while True:
            if pos >= n:
                raise ShellSyntaxError("unterminated double quote", opening, "unterminated")
            c = text[pos]
            if c == '"':
                return DoubleQuoted(parts, False), pos + 1
            if c == "\\":
                following = text[pos + 1 : pos + 2]
                if following == "\n":
                    pos += 2
                elif following and following in '$`"\\':
                    _add_literal(parts, following, True)
                    pos += 2
                else:
                    _add_literal(parts, "\\", True)
                    pos += 1
            elif c == "$":
                part, pos = self._dollar(pos, in_dq=True)
                parts.append(part)
            elif c == "`":
                sub, pos = self._backtick(pos + 1, in_dq=True)
                parts.append(sub)
            else:
                m = _DQ_LITERAL.match(text, pos)
                assert m is not None
                _add_literal(parts, m.group(), True)
                pos = m.end()

    def _dollar(self, pos: int, *, in_dq: bool) -> tuple[Part, int]:
        if self.text[pos + 1 : pos + 2] in ("(", "{", "["):
            return self._memoized(pos, in_dq, self._dollar_uncached)
        return self._dollar_uncached(pos, in_dq)

    def _memoized(
        self, pos: int, in_dq: bool, read: Callable[[int, bool], tuple[Part, int]]
    ) -> tuple[Part, int]:
        """``read(pos, in_dq)``, once per offset and depth; here-documents it opens included."""
        key = (pos, in_dq)
        hit = self.shared.expansions.get(key)
        if hit is None:
            mark = len(self.pending)
            try:
                part, end = read(pos, in_dq)
            except ShellSyntaxError as exc:
                del self.pending[mark:]
                if exc.code != "depth_limit":  # that one ends the whole parse anyway
                    self.shared.expansions[key] = exc
                raise
            self.shared.expansions[key] = (part, end, self.pending[mark:])
            return part, end
        if isinstance(hit, ShellSyntaxError):
            raise hit
        part, end, heredocs = hit
        self._add_pending(heredocs)
        return part, end

    def _add_pending(self, heredocs: list[HereDoc]) -> None:
        """Queue here-documents opened inside an expansion, each once (text read twice opens
        the same ones again)."""
        for heredoc in heredocs:
            if not any(heredoc is queued for queued in self.pending):
                self.pending.append(heredoc)

    def _dollar_uncached(self, pos: int, in_dq: bool) -> tuple[Part, int]:
        text = self.text
        following = text[pos + 1 : pos + 2]
        if following == "(":
            if text.startswith("((", pos + 1):
                found = self._arith(pos + 3, "))")
                if found is not None:
                    return found
                try:
                    body, end = self._substitution(pos + 2)
                except ShellSyntaxError as exc:
                    # Bash does not read `$((…))` when it parses the line: if the parentheses
                    # balance, the line is valid and this part fails when it runs.
                    close = self._paren_end(pos + 2) if exc.code != "depth_limit" else -1
                    if close < 0:
                        raise
                    return CommandSubstitution(
                        None, text[pos : close + 1], False, exc.message
                    ), close + 1
            else:
                body, end = self._substitution(pos + 2)
            return CommandSubstitution(body, text[pos : end + 1], False), end + 1
        if following == "{":
            return self._braced_parameter(pos, in_dq)
        if following == "'" and not in_dq:
            return self._ansi_c(pos + 2)
        if following == '"' and not in_dq:
            dq, end = self._double_quoted(pos + 2)
            dq.locale = True
            return dq, end
        if following == "[":
            found = self._arith(pos + 2, "]")
            if found is None:
                raise ShellSyntaxError("unterminated '$['", pos, "unterminated")
            return found
        m = _NAME.match(text, pos + 1)
        if m is not None:
            return ParamExpansion(m.group(), text[pos : m.end()]), m.end()
        if following and (following.isdigit() or following in "@*#?$!-"):
            return ParamExpansion(following, text[pos : pos + 2]), pos + 2
        return Literal("$", in_dq), pos + 1

    def _braced_parameter(self, dollar: int, in_dq: bool) -> tuple[Part, int]:
        text = self.text
        n = self.n
        pos = dollar + 2
        if pos < n and (text[pos] in " \t\n|"):
            return self._function_substitution(dollar, in_dq)
        indirect = length = False
        if pos < n and text[pos] == "!" and text[pos + 1 : pos + 2] not in ("}", ""):
            indirect = True
            pos += 1
        elif pos < n and text[pos] == "#" and text[pos + 1 : pos + 2] not in ("}", ""):
            following = text[pos + 1]
            if (
                following.isalnum()
                or following == "_"
                or (following in "@*!?$-#" and text[pos + 2 : pos + 3] == "}")
            ):
                length = True
                pos += 1
        m = _NAME.match(text, pos) or _DIGITS.match(text, pos)
        if m is not None:
            name = m.group()
            pos = m.end()
        elif pos < n and text[pos] in "@*#?$!-":
            name = text[pos]
            pos += 1
        else:
            return self._invalid_parameter(dollar, in_dq)
        subscript = None
        if pos < n and text[pos] == "[":
            try:
                found = self._arith(pos + 1, "]")
            except ShellSyntaxError as exc:
                if exc.code == "depth_limit":
                    raise
                found = None  # `"${a[@}"`: the `}` ends it, the quote after it is not inside
            if found is None:
                return self._invalid_parameter(dollar, in_dq)
            subscript, pos = found
        op = arg = None
        if indirect and text[pos : pos + 1] in ("*", "@") and text[pos + 1 : pos + 2] == "}":
            op = text[pos]
            pos += 1
        else:
            m = _PARAM_OP.match(text, pos)
            if m is not None:
                op = m.group()
                arg, pos = self._parameter_argument(m.end(), dollar, in_dq)
        if pos >= n or text[pos] != "}":
            return self._invalid_parameter(dollar, in_dq)
        return (
            ParamExpansion(
                name,
                text[dollar : pos + 1],
                braced=True,
                op=op,
                arg=arg,
                subscript=subscript,
                indirect=indirect,
                length=length,
            ),
            pos + 1,
        )

    def _invalid_parameter(self, dollar: int, in_dq: bool) -> tuple[ParamExpansion, int]:
        """``${…}`` that bash accepts when reading but rejects when running it."""
        arg, end = self._parameter_argument(dollar + 2, dollar, in_dq)
        param = ParamExpansion("", self.text[dollar : end + 1], braced=True, arg=arg)
        param.invalid = True
        return param, end + 1

    def _function_substitution(self, dollar: int, in_dq: bool) -> tuple[Part, int]:
        """``${ cmd; }`` / ``${| cmd; }``: newer bash runs ``cmd`` in the current shell."""
        if self.depth + 1 > MAX_DEPTH:
            raise ShellSyntaxError("substitutions nested too deeply", dollar, "depth_limit")
        start = dollar + 2
        if self.text[start] == "|":
            start += 1
        inner = Lexer(self.text, start, depth=self.depth + 1, subst=True, shared=self.shared)
        inner.closer = "RBRACE"
        inner.opening = dollar
        try:
            script = parse_tokens(inner)
        except ShellSyntaxError as exc:
            if exc.code == "depth_limit":
                raise
            # Bash before 5.3 reads `${ …}` as a parameter expansion, which fails only when
            # it runs; so does this text as a command.
            return self._invalid_parameter(dollar, in_dq)
        assert isinstance(script, Script)
        self._add_pending(inner.pending)
        end = inner.end_pos
        return CommandSubstitution(script, self.text[dollar : end + 1], False), end + 1

    def _parameter_argument(self, pos: int, opening: int, in_dq: bool) -> tuple[Word, int]:
        text = self.text
        n = self.n
        start = pos
        parts: list[Part] = []
        while pos < n:
            c = text[pos]
            if c == "}":
                # Bash pairs the `}` with the `${`, not with a plain `{` before it:
                # `${x:-{a}b}` is `${x:-{a}` followed by `b}`.
                return Word(parts, text[start:pos], start, pos), pos
            if c == "\\":
                following = text[pos + 1 : pos + 2]
                if following == "\n":
                    pos += 2
                elif following:
                    _add_literal(parts, following, True)
                    pos += 2
                else:
                    pos += 1
            elif c in "'\"$`":
                pos = self._quoted_or_expansion(c, pos, parts)
            elif c in "<>" and not in_dq and text.startswith("(", pos + 1):
                # `${x:-<(cmd)}` runs `cmd` when it expands (inside double quotes it is text).
                body, end = self._substitution(pos + 2)
                parts.append(ProcessSubstitution(c, body, text[pos : end + 1]))
                pos = end + 1
            else:
                m = _PARAM_ARG_LITERAL.match(text, pos)
                end = pos + 1 if m is None else m.end()  # a `<` or `>` not opening `(…)`
                _add_literal(parts, text[pos:end], False)
                pos = end
        raise ShellSyntaxError("unterminated '${'", opening, "unterminated")

    def _ansi_c(self, pos: int) -> tuple[AnsiCQuoted, int]:
        text = self.text
        n = self.n
        start = pos
        out: list[str] = []
        while pos < n:
            c = text[pos]
            if c == "'":
                return AnsiCQuoted("".join(out), text[start:pos]), pos + 1
            if c != "\\" or pos + 1 >= n:
                out.append(c)
                pos += 1
                continue
            e = text[pos + 1]
            pos += 2
            if e in _ANSI_SIMPLE:
                out.append(_ANSI_SIMPLE[e])
            elif e in "01234567":
                digits = e
                while len(digits) < 3 and pos < n and text[pos] in "01234567":
                    digits += text[pos]
                    pos += 1
                out.append(chr(int(digits, 8) & 0xFF))
            elif e in "xuU":
                limit = {"x": 2, "u": 4, "U": 8}[e]
                digits = ""
                while len(digits) < limit and pos < n and text[pos] in _HEX:
                    digits += text[pos]
                    pos += 1
                if not digits:
                    out.append("\\" + e)
                else:
                    code = int(digits, 16)
                    out.append(chr(code) if code <= 0x10FFFF else "\ufffd")
            elif e == "c" and pos < n:
                out.append(chr(ord(text[pos]) & 0x1F))
                pos += 1
            else:
                out.append("\\" + e)
        raise ShellSyntaxError("unterminated $'…' string", start - 2, "unterminated")

    def _backtick(self, pos: int, *, in_dq: bool) -> tuple[CommandSubstitution, int]:
        part, end = self._memoized(pos - 1, in_dq, self._backtick_uncached)
        assert isinstance(part, CommandSubstitution)
        return part, end

    def _backtick_uncached(self, opening: int, in_dq: bool) -> tuple[CommandSubstitution, int]:
        pos = opening + 1
        text = self.text
        n = self.n
        out: list[str] = []
        while pos < n:
            c = text[pos]
            if c == "`":
                break
            if c == "\\" and pos + 1 < n:
                following = text[pos + 1]
                if following in "$`\\" or (in_dq and following == '"'):
                    out.append(following)
                    pos += 2
                    continue
                if following == "\n":
                    pos += 2
                    continue
            out.append(c)
            pos += 1
        else:
            raise ShellSyntaxError("unterminated backquote", opening, "unterminated")
        if self.depth + 1 > MAX_DEPTH:
            raise ShellSyntaxError("substitutions nested too deeply", opening, "depth_limit")
        source = text[opening : pos + 1]
        try:
            body = parse_script("".join(out), self.depth + 1, "backtick")
        except ShellSyntaxError as exc:
            if exc.code == "depth_limit":
                raise
            # Bash too reads backquotes only when it runs them: the line is valid, this
            # substitution fails when it runs, the rest of the line still runs.
            return CommandSubstitution(None, source, True, exc.message), pos + 1
        return CommandSubstitution(body, source, True), pos + 1

    def _substitution(self, pos: int) -> tuple[Script, int]:
        """Parse the script of ``$(…)``/``<(…)`` starting at ``pos``; returns it and its ``)``."""
        if self.depth + 1 > MAX_DEPTH:
            raise ShellSyntaxError("substitutions nested too deeply", pos, "depth_limit")
        inner = Lexer(self.text, pos, depth=self.depth + 1, subst=True, shared=self.shared)
        inner.opening = pos - 2
        script = parse_tokens(inner)
        assert isinstance(script, Script)
        self._add_pending(inner.pending)
        return script, inner.end_pos

    def _arith(self, pos: int, closing: str) -> tuple[ArithmeticExpansion, int] | None:
        """Scan arithmetic from ``pos`` to ``closing`` (``))`` or ``]``).

        Returns ``None`` when the text does not close as arithmetic (``((a) (b))`` is two
        subshells), letting the caller read it another way.
        """
        mark = len(self.pending)
        found = self._arith_scan(pos, closing)
        if found is None:
            del self.pending[mark:]  # read again another way, they will be queued again
        return found

    def _arith_scan(self, pos: int, closing: str) -> tuple[ArithmeticExpansion, int] | None:
        text = self.text
        n = self.n
        start = pos
        depth = 0
        subs: list[CommandSubstitution] = []
        params: list[str] = []
        # The scan is a function of the offset alone (plus the depth count), so where the `(`
        # before `start` closes is known if an earlier scan went past it.
        closes = self.shared.closes
        opens = [start - 1]
        if closing == "))":
            known = closes.get(start - 1)
            if known is not None and (known < 0 or not text.startswith("))", known)):
                return None
        while pos < n:
            c = text[pos]
            if closing == "))":
                if c == ")":
                    closes[opens.pop()] = pos
                    if depth == 0:
                        if text.startswith("))", pos):
                            return ArithmeticExpansion(text[start:pos], subs, params), pos + 2
                        return None
                    depth -= 1
                elif c == "(":
                    depth += 1
                    opens.append(pos)
            elif c == "]":
                if depth == 0:
                    return ArithmeticExpansion(text[start:pos], subs, params), pos + 1
                depth -= 1
            elif c == "[":
                depth += 1
            if c == "$":
                try:
                    part, pos = self._dollar(pos, in_dq=False)
                except ShellSyntaxError as exc:
                    if exc.code == "depth_limit":
                        raise
                    # Bash reads arithmetic text only when it evaluates it: an expansion
                    # that does not parse fails then. Recorded as a substitution that
                    # cannot be analysed, and the scan goes on for the closing `))`.
                    subs.append(CommandSubstitution(None, text[pos:], False, exc.message))
                    pos += 1
                    continue
                _collect_arith(part, subs, params)
                continue
            if c == "`":
                sub, pos = self._backtick(pos + 1, in_dq=False)
                subs.append(sub)
                continue
            if c == '"':
                dq, pos = self._double_quoted(pos + 1)
                for part in dq.parts:
                    _collect_arith(part, subs, params)
                continue
            if c == "'":
                end = text.find("'", pos + 1)
                if end < 0:
                    break
                pos = end + 1
                continue
            if c == "\\":
                pos += 2
                continue
            if c.isalpha() or c == "_":
                m = _NAME.match(text, pos)
                assert m is not None
                params.append(m.group())
                pos = m.end()
                continue
            pos += 1
        if closing == "))":
            for open_at in opens:  # still open where the text (or a quote) ends: never close
                closes[open_at] = -1
        return None

    def _paren_end(self, pos: int) -> int:
        """Offset of the ``)`` closing the ``(`` before ``pos``, quotes skipped; ``-1`` if none."""
        text = self.text
        depth = 0
        while pos < self.n:
            c = text[pos]
            if c == "\\":
                pos += 2
                continue
            if c in "'\"`":
                end = text.find(c, pos + 1)
                if end < 0:
                    return -1
                pos = end + 1
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    return pos
                depth -= 1
            pos += 1
        return -1

    def _extglob_group(self, pos: int, parts: list[Part]) -> int:
        """Read the extended-glob group ``(…)`` opening at ``pos`` into ``parts``; its end.

        The group is one piece of the word, blanks and ``|`` included, but expansions inside
        it still expand: ``@($(cmd))`` runs ``cmd``.
        """
        text = self.text
        opening = pos
        depth = 0
        while pos < self.n:
            c = text[pos]
            if c == "\\":
                if text.startswith("\n", pos + 1):
                    pos += 2
                    continue
                _add_literal(parts, text[pos + 1 : pos + 2], True)
                pos += 2
            elif c in "'\"$`":
                pos = self._quoted_or_expansion(c, pos, parts)
            else:
                if c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                _add_literal(parts, c, False)
                pos += 1
                if depth == 0:
                    return pos
        raise ShellSyntaxError("unterminated pattern group", opening, "unterminated")

    def _array(self, pos: int) -> tuple[list[Word], int]:
        """Elements of ``name=( … )`` from ``pos`` (after the ``(``); returns them and the end."""
        text = self.text
        elements: list[Word] = []
        while True:
            m = _BLANKS_NL.match(text, pos)
            if m is not None:
                pos = m.end()
            if pos >= self.n:
                raise ShellSyntaxError("unterminated array assignment", pos, "unterminated")
            c = text[pos]
            if c == ")":
                return elements, pos + 1
            if c == "#":
                newline = text.find("\n", pos)
                pos = self.n if newline < 0 else newline
                continue
            bracket_end = -1
            if c == "[":
                # `[key]=value`: bash reads the subscript as one piece, blanks and `<` in it.
                mark = len(self.pending)
                found = self._arith(pos + 1, "]")
                del self.pending[mark:]  # the word below reads the subscript again
                if found is None:
                    raise ShellSyntaxError(
                        "unterminated '[' of an array subscript", pos, "unterminated"
                    )
                bracket_end = found[1]
            word, pos = self._word(pos, bracket_end=bracket_end)
            elements.append(word)

    def _assignment(self, pos: int, stack: list[int]) -> Token | int:
        """An ``ASSIGNMENT_WORD`` at ``pos``, or where a ``NAME[…]`` word's subscript ends.

        The second answer (``-1`` for none) is for a word such as ``a[x y]`` in command
        position: bash reads the subscript of a would-be assignment as one piece, blanks
        included, and an unclosed one (``a[x``) is a syntax error.
        """
        text = self.text
        n = self.n
        m = _NAME.match(text, pos)
        if m is None:
            return -1
        name = m.group()
        i = m.end()
        if i >= n or text[i] not in "[+=":
            return -1
        # The state may list ASSIGNMENT_WORD only because LALR merged it with the state of
        # a command prefix (`>x a=b` vs `echo >x a=b`): only the reductions can tell.
        if not can_shift(stack, "ASSIGNMENT_WORD"):
            return -1
        subscript = None
        if text[i] == "[":
            found = self._arith(i + 1, "]")
            if found is None:
                raise ShellSyntaxError("unterminated '[' of an array subscript", i, "unterminated")
            subscript, i = found
        append = False
        if text.startswith("+=", i):
            append = True
            i += 2
        elif i < n and text[i] == "=":
            i += 1
        else:
            return i if subscript is not None else -1
        array: list[Word] | None = None
        value: Word | None = None
        if i < n and text[i] == "(":
            array, end = self._array(i + 1)
        elif i < n and text[i] not in _WORD_END:
            value, end = self._word(i)
        else:
            value, end = Word([], "", i, i), i
        self.pos = end
        assignment = Assignment(
            name,
            value,
            array,
            append=append,
            subscript=subscript,
            text=text[pos:end],
            start=pos,
            end=end,
        )
        return self._emit("ASSIGNMENT_WORD", assignment, pos, end)

    # --- [[ … ]] ---------------------------------------------------------------------------

    def _cond(self, pos: int) -> tuple[list[Word | str], int]:
        text = self.text
        n = self.n
        opening = pos - 2
        items: list[Word | str] = []
        regex_next = False
        while True:
            m = _BLANKS_NL.match(text, pos)
            if m is not None:
                pos = m.end()
            if pos >= n:
                raise ShellSyntaxError("unterminated '[['", opening, "unterminated")
            if text.startswith("]]", pos) and (pos + 2 >= n or text[pos + 2] in _WORD_END):
                return items, pos + 2
            two = text[pos : pos + 2]
            if two in ("&&", "||"):
                items.append(two)
                pos += 2
                continue
            c = text[pos]
            if not regex_next and c in "()<>":
                items.append(c)
                pos += 1
                continue
            if c in ";&|":
                raise ShellSyntaxError(f"unexpected {c!r} inside '[['", pos)
            word, pos = self._word(pos, regex=regex_next)
            regex_next = word.text == "=~"
            items.append(word)

    # --- here-documents --------------------------------------------------------------------

    def _heredoc_delimiter(self, pos: int) -> Token:
        word, end = self._word(pos)
        self.pos = end
        delimiter: list[str] = []
        quoted = False
        for part in word.parts:
            if isinstance(part, Literal):
                quoted = quoted or part.quoted
                delimiter.append(part.text)
            elif isinstance(part, (SingleQuoted, AnsiCQuoted)):
                quoted = True
                delimiter.append(part.text)
            elif isinstance(part, DoubleQuoted):
                quoted = True
                delimiter.extend(p.text for p in part.parts if isinstance(p, Literal))
            else:
                delimiter.append(getattr(part, "text", ""))
        heredoc = HereDoc("".join(delimiter), quoted, self.prev == "DLESSDASH", pos)
        self.pending.append(heredoc)
        return self._emit("WORD", heredoc, pos, end)

    def _read_heredocs(self) -> None:
        text = self.text
        n = self.n
        for heredoc in self.pending:
            pos = self.pos
            lines: list[str] = []
            while pos < n:
                newline = text.find("\n", pos)
                line_end = n if newline < 0 else newline
                line = text[pos:line_end]
                if heredoc.strip_tabs:
                    line = line.lstrip("\t")
                pos = n if newline < 0 else newline + 1
                if line == heredoc.delimiter:
                    heredoc.complete = True
                    break
                if (
                    self.subst
                    and line.startswith(heredoc.delimiter)
                    and line[len(heredoc.delimiter) :].lstrip(" \t").startswith(")")
                ):
                    # Inside `$(…)` the delimiter may share its line with the closing `)`.
                    heredoc.complete = True
                    pos = line_end - len(line) + len(heredoc.delimiter)
                    break
                lines.append(line)
            self.pos = pos
            heredoc.body = "".join(line + "\n" for line in lines)
            if heredoc.quoted:
                heredoc.parts = [Literal(heredoc.body, True)]
            else:
                heredoc.parts = Lexer(heredoc.body, depth=self.depth + 1)._heredoc_body()
        self.pending = []

    def _heredoc_body(self) -> list[Part]:
        """The parts of an unquoted here-document body: like double quotes without the quote."""
        if self.depth > MAX_DEPTH:
            raise ShellSyntaxError("here-documents nested too deeply", 0, "depth_limit")
        text = self.text
        n = self.n
        pos = 0
        parts: list[Part] = []
        while pos < n:
            c = text[pos]
            if c == "\\":
                following = text[pos + 1 : pos + 2]
                if following == "\n":
                    pos += 2
                elif following and following in "$`\\":
                    _add_literal(parts, following, True)
                    pos += 2
                else:
                    _add_literal(parts, "\\", True)
                    pos += 1
            elif c in "$`":
                try:
                    if c == "$":
                        part, pos = self._dollar(pos, in_dq=True)
                    else:
                        part, pos = self._backtick(pos + 1, in_dq=False)
                except ShellSyntaxError as exc:
                    if exc.code == "depth_limit":
                        raise
                    # Bash expands a here-document only when the command runs: an expansion
                    # that does not parse fails then, the line itself is valid.
                    parts.append(CommandSubstitution(None, text[pos:], c == "`", exc.message))
                    break
                parts.append(part)
            else:
                m = _HEREDOC_LITERAL.match(text, pos)
                assert m is not None
                _add_literal(parts, m.group(), True)
                pos = m.end()
        return parts


def _add_literal(parts: list[Part], text: str, quoted: bool) -> None:
    """Append literal text, merging with a preceding literal of the same quoting."""
    if parts:
        last = parts[-1]
        if isinstance(last, Literal) and last.quoted == quoted:
            last.text += text
            return
    parts.append(Literal(text, quoted))


def _ends_unquoted(parts: list[Part]) -> bool:
    return bool(parts) and isinstance(parts[-1], Literal) and not parts[-1].quoted


def _collect_arith(part: Part, subs: list[CommandSubstitution], params: list[str]) -> None:
    if isinstance(part, CommandSubstitution):
        subs.append(part)
    elif isinstance(part, ArithmeticExpansion):
        subs.extend(part.substitutions)
        params.extend(part.parameters)
    elif isinstance(part, ParamExpansion):
        params.append(part.name)
        if part.subscript is not None:
            subs.extend(part.subscript.substitutions)
        if part.arg is not None:
            for inner in part.arg.parts:
                _collect_arith(inner, subs, params)
    elif isinstance(part, DoubleQuoted):
        for inner in part.parts:
            _collect_arith(inner, subs, params)
