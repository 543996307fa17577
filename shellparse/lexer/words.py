"""Words: literal text, the three quotings (``'…'``, ``"…"``, ``$'…'``), extglob groups
(``@(a|b)``), array literals (``(a b)``) and the words of ``[[ … ]]``; ``$…`` and backquotes
inside a word are read by ``expansions``.
"""

from __future__ import annotations

import re

from clearance.shellparse.errors import ShellSyntaxError
from clearance.shellparse.lexer import arithmetic, expansions
from clearance.shellparse.lexer.chars import WORD_END
from clearance.shellparse.nodes import (
    AnsiCQuoted,
    DoubleQuoted,
    Literal,
    ProcessSubstitution,
    SingleQuoted,
    Word,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.lexer.scanner import Lexer
    from clearance.shellparse.nodes import Part


_BLANKS_NL: Final = re.compile(r"(?:[ \t\n]|\\\n)+")
_LITERAL: Final = re.compile(r"[^ \t\n;&|()<>\\'\"$`]+")
_DQ_LITERAL: Final = re.compile(r'[^"\\$`]+')
_ARRAY_PREFIX: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=\Z")
_EXTGLOB_LEADERS: Final = frozenset("?*+@!")
_ANSI_SIMPLE: Final = {
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
_HEX: Final = frozenset("0123456789abcdefABCDEF")


def read_word(
    lx: Lexer, pos: int, *, regex: bool = False, bracket_end: int = -1
) -> tuple[Word, int]:
    """Scan one word from ``pos``; ``regex`` reads the right side of ``=~``.

    Before ``bracket_end`` (the end of an array subscript in command position) blanks and
    operators are part of the word.
    """
    text = lx.text
    n = lx.n
    start = pos
    parts: list[Part] = []
    depth = 0
    while pos < n:
        c = text[pos]
        if c in WORD_END:
            if pos < bracket_end:
                add_literal(parts, c, False)
                pos += 1
                continue
            if c in "<>" and pos == start and text.startswith("(", pos + 1):
                body, end = expansions.substitution(lx, pos + 2)
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
                add_literal(parts, c, False)
                pos += 1
                continue
            if c == "(" and pos > start:
                if text[pos - 1] in _EXTGLOB_LEADERS and ends_unquoted(parts):
                    pos = extglob_group(lx, pos, parts)
                    continue
                if _ARRAY_PREFIX.match(text, start, pos):
                    elements, end = array(lx, pos + 1)
                    add_literal(parts, "(", True)
                    for i, element in enumerate(elements):
                        if i:
                            add_literal(parts, " ", True)
                        parts.extend(element.parts)
                    add_literal(parts, ")", True)
                    pos = end
                    continue
            break
        if c == "\\":
            if pos + 1 >= n:
                add_literal(parts, "\\", True)
                pos += 1
            elif text[pos + 1] == "\n":
                pos += 2
            else:
                add_literal(parts, text[pos + 1], True)
                pos += 2
        elif c in "'\"$`":
            pos = quoted_or_expansion(lx, c, pos, parts)
        else:
            m = _LITERAL.match(text, pos)
            assert m is not None
            add_literal(parts, m.group(), False)
            pos = m.end()
    if pos == start:
        raise ShellSyntaxError(f"unexpected {text[pos]!r}" if pos < n else "", pos)
    return Word(parts, text[start:pos], start, pos), pos


def quoted_or_expansion(lx: Lexer, c: str, pos: int, parts: list[Part]) -> int:
    """Read the quote or expansion that ``c`` opens at ``pos`` (unquoted context) into
    ``parts``; returns the position after it. Shared by every word scanner."""
    if c == "'":
        end = lx.text.find("'", pos + 1)
        if end < 0:
            raise ShellSyntaxError("unterminated single quote", pos, "unterminated")
        parts.append(SingleQuoted(lx.text[pos + 1 : end]))
        return end + 1
    if c == '"':
        dq, pos = double_quoted(lx, pos + 1)
        parts.append(dq)
        return pos
    if c == "$":
        part, pos = expansions.dollar(lx, pos, in_dq=False)
        parts.append(part)
        return pos
    sub, pos = expansions.backtick(lx, pos + 1, in_dq=False)
    parts.append(sub)
    return pos


def double_quoted(lx: Lexer, pos: int) -> tuple[DoubleQuoted, int]:
    text = lx.text
    n = lx.n
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
                add_literal(parts, following, True)
                pos += 2
            else:
                add_literal(parts, "\\", True)
                pos += 1
        elif c == "$":
            part, pos = expansions.dollar(lx, pos, in_dq=True)
            parts.append(part)
        elif c == "`":
            sub, pos = expansions.backtick(lx, pos + 1, in_dq=True)
            parts.append(sub)
        else:
            m = _DQ_LITERAL.match(text, pos)
            assert m is not None
            add_literal(parts, m.group(), True)
            pos = m.end()


def ansi_c(lx: Lexer, pos: int) -> tuple[AnsiCQuoted, int]:
    text = lx.text
    n = lx.n
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


def extglob_group(lx: Lexer, pos: int, parts: list[Part]) -> int:
    """Read the extended-glob group ``(…)`` opening at ``pos`` into ``parts``; its end.

    The group is one piece of the word, blanks and ``|`` included, but expansions inside
    it still expand: ``@($(cmd))`` runs ``cmd``.
    """
    text = lx.text
    opening = pos
    depth = 0
    while pos < lx.n:
        c = text[pos]
        if c == "\\":
            if text.startswith("\n", pos + 1):
                pos += 2
                continue
            add_literal(parts, text[pos + 1 : pos + 2], True)
            pos += 2
        elif c in "'\"$`":
            pos = quoted_or_expansion(lx, c, pos, parts)
        else:
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            add_literal(parts, c, False)
            pos += 1
            if depth == 0:
                return pos
    raise ShellSyntaxError("unterminated pattern group", opening, "unterminated")


def array(lx: Lexer, pos: int) -> tuple[list[Word], int]:
    """Elements of ``name=( … )`` from ``pos`` (after the ``(``); returns them and the end."""
    text = lx.text
    elements: list[Word] = []
    while True:
        m = _BLANKS_NL.match(text, pos)
        if m is not None:
            pos = m.end()
        if pos >= lx.n:
            raise ShellSyntaxError("unterminated array assignment", pos, "unterminated")
        c = text[pos]
        if c == ")":
            return elements, pos + 1
        if c == "#":
            newline = text.find("\n", pos)
            pos = lx.n if newline < 0 else newline
            continue
        bracket_end = -1
        if c == "[":
            # `[key]=value`: bash reads the subscript as one piece, blanks and `<` in it.
            mark = len(lx.pending)
            found = arithmetic.arith(lx, pos + 1, "]")
            del lx.pending[mark:]  # the word below reads the subscript again
            if found is None:
                raise ShellSyntaxError(
                    "unterminated '[' of an array subscript", pos, "unterminated"
                )
            bracket_end = found[1]
        word, pos = read_word(lx, pos, bracket_end=bracket_end)
        elements.append(word)


def cond(lx: Lexer, pos: int) -> tuple[list[Word | str], int]:
    text = lx.text
    n = lx.n
    opening = pos - 2
    items: list[Word | str] = []
    regex_next = False
    while True:
        m = _BLANKS_NL.match(text, pos)
        if m is not None:
            pos = m.end()
        if pos >= n:
            raise ShellSyntaxError("unterminated '[['", opening, "unterminated")
        if text.startswith("]]", pos) and (pos + 2 >= n or text[pos + 2] in WORD_END):
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
        word, pos = read_word(lx, pos, regex=regex_next)
        regex_next = word.text == "=~"
        items.append(word)


def add_literal(parts: list[Part], text: str, quoted: bool) -> None:
    """Append literal text, merging with a preceding literal of the same quoting."""
    if parts:
        last = parts[-1]
        if isinstance(last, Literal) and last.quoted == quoted:
            last.text += text
            return
    parts.append(Literal(text, quoted))


def ends_unquoted(parts: list[Part]) -> bool:
    return bool(parts) and isinstance(parts[-1], Literal) and not parts[-1].quoted
