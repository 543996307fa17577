"""The token stream the LALR driver pulls: ``Lexer.next_token`` skips blanks, comments and
line continuations, reads operators (``((`` as arithmetic where it is one), reserved words
where the parser can take them, assignment words (``a=b``, ``a[i]+=(x y)``) and IO numbers,
and hands words to ``words``, ``[[ … ]]`` to ``words.cond`` and here-document operators to
``heredocs``. ``Shared`` is what every lexer over one text shares (memos, the step budget).
"""

from __future__ import annotations

import re

from clearance.shellparse.errors import ShellSyntaxError
from clearance.shellparse.lalr import can_shift, parse_tokens
from clearance.shellparse.lexer import arithmetic, heredocs, words
from clearance.shellparse.lexer.chars import NAME, WORD_END
from clearance.shellparse.nodes import Assignment, HereDoc, Literal, Script, Word
from clearance.shellparse.tokens import KEYWORDS, OPERATORS, Token

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container
    from typing import Final

    from clearance.shellparse.nodes import Part

    Memo = tuple[Part, int, list[HereDoc]] | ShellSyntaxError


_IO_NUMBER: Final = re.compile(r"[0-9]+(?=[<>])|\{[A-Za-z_][A-Za-z0-9_]*\}(?=[<>])")
_INSIDE_COMMAND: Final = frozenset(("WORD", "ASSIGNMENT_WORD", "IO_NUMBER"))
#: Redirection operators whose target is a file name (after `>&` and `<&` digits are a
#: descriptor, which is what those operators take).
_FILE_REDIRECTIONS: Final = frozenset(
    ("LESS", "GREAT", "DGREAT", "CLOBBER", "LESSGREAT", "AND_GREAT", "AND_DGREAT", "TLESS")
)
#: Reserved words that end or continue a construct; where a command may start they are
#: syntax errors when the grammar cannot take them (``if`` and the other openers always can).
_NEVER_A_COMMAND: Final = frozenset(
    ("then", "else", "elif", "fi", "do", "done", "esac", "in", "}", "]]", "!")
)


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
    (:data:`clearance.shellparse.lalr.MAX_TOKENS`), shared by nested parses. ``nesting``
    counts the ``$…`` expansions being read inside each other (bound:
    :data:`clearance.shellparse.lexer.chars.MAX_NESTING`).
    """

    __slots__ = ("closes", "expansions", "nesting", "tokens")

    def __init__(self) -> None:
        self.tokens = 0
        self.nesting = 0
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

    def _emit(self, type_: str, value: object, start: int, end: int) -> Token:
        self.prev2 = self.prev
        self.prev = type_
        return Token(type_, value, start, end, self.text[start:end])

    def next_token(self, accepts: Container[str], stack: list[int]) -> Token:
        text = self.text
        n = self.n
        while True:
            pos = self.pos
            # blanks and line continuations (``(?:[ \t]|\\\n)+``), a character at a time:
            # mostly one space, where a regex call and its match object cost far more
            while pos < n:
                c = text[pos]
                if c in " \t":  # (c is one character)
                    pos += 1
                elif c == "\\" and text.startswith("\n", pos + 1):
                    pos += 2
                else:
                    break
            if pos >= n:
                self.pos = pos
                if self.pending:
                    heredocs.read_heredocs(self)
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
                    heredocs.read_heredocs(self)
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
                    found = arithmetic.arith(self, pos + 2, "))")
                    if found is None:
                        raise ShellSyntaxError("unterminated '(( … ))'", pos, "unterminated")
                    arith, end = found
                    self.pos = end
                    return self._emit("ARITH_FOR_EXPR", arith, pos, end)
                if "ARITH_CMD" in accepts and self._keyword_position():
                    found = arithmetic.arith(self, pos + 2, "))")
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
            items, end = words.cond(self, pos + 2)
            self.pos = end
            return self._emit("COND_CMD", items, pos, end)
        if self.prev in ("DLESS", "DLESSDASH"):
            return heredocs.heredoc_delimiter(self, pos)
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
        word, end = words.read_word(self, pos, bracket_end=bracket_end)
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

    def _add_pending(self, heredocs: list[HereDoc]) -> None:
        """Queue here-documents opened inside an expansion, each once (text read twice opens
        the same ones again)."""
        for heredoc in heredocs:
            if not any(heredoc is queued for queued in self.pending):
                self.pending.append(heredoc)

    def _assignment(self, pos: int, stack: list[int]) -> Token | int:
        """An ``ASSIGNMENT_WORD`` at ``pos``, or where a ``NAME[…]`` word's subscript ends.

        The second answer (``-1`` for none) is for a word such as ``a[x y]`` in command
        position: bash reads the subscript of a would-be assignment as one piece, blanks
        included, and an unclosed one (``a[x``) is a syntax error.
        """
        text = self.text
        n = self.n
        m = NAME.match(text, pos)
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
            found = arithmetic.arith(self, i + 1, "]")
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
            array, end = words.array(self, i + 1)
        elif i < n and text[i] not in WORD_END:
            value, end = words.read_word(self, i)
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
