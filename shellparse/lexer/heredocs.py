"""Here-documents: the delimiter word after ``<<``/``<<-``, the bodies read after the
line that opened them, and the parts of an unquoted body (expansions, no quotes).
"""

from __future__ import annotations

import re

from clearance.shellparse.errors import ShellSyntaxError
from clearance.shellparse.lexer import expansions, scanner, words
from clearance.shellparse.lexer.chars import MAX_DEPTH
from clearance.shellparse.nodes import (
    AnsiCQuoted,
    CommandSubstitution,
    DoubleQuoted,
    HereDoc,
    Literal,
    SingleQuoted,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.lexer.scanner import Lexer
    from clearance.shellparse.nodes import Part
    from clearance.shellparse.tokens import Token


_HEREDOC_LITERAL: Final = re.compile(r"[^\\$`]+")


def heredoc_delimiter(lx: Lexer, pos: int) -> Token:
    word, end = words.read_word(lx, pos)
    lx.pos = end
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
    heredoc = HereDoc("".join(delimiter), quoted, lx.prev == "DLESSDASH", pos)
    lx.pending.append(heredoc)
    return lx._emit("WORD", heredoc, pos, end)


def read_heredocs(lx: Lexer) -> None:
    text = lx.text
    n = lx.n
    for heredoc in lx.pending:
        pos = lx.pos
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
                lx.subst
                and line.startswith(heredoc.delimiter)
                and line[len(heredoc.delimiter) :].lstrip(" \t").startswith(")")
            ):
                # Inside `$(…)` the delimiter may share its line with the closing `)`.
                heredoc.complete = True
                pos = line_end - len(line) + len(heredoc.delimiter)
                break
            lines.append(line)
        lx.pos = pos
        heredoc.body = "".join(line + "\n" for line in lines)
        if heredoc.quoted:
            heredoc.parts = [Literal(heredoc.body, True)]
        else:
            heredoc.parts = heredoc_body(scanner.Lexer(heredoc.body, depth=lx.depth + 1))
    lx.pending = []


def heredoc_body(lx: Lexer) -> list[Part]:
    """The parts of an unquoted here-document body: like double quotes without the quote."""
    if lx.depth > MAX_DEPTH:
        raise ShellSyntaxError("here-documents nested too deeply", 0, "depth_limit")
    text = lx.text
    n = lx.n
    pos = 0
    parts: list[Part] = []
    while pos < n:
        c = text[pos]
        if c == "\\":
            following = text[pos + 1 : pos + 2]
            if following == "\n":
                pos += 2
            elif following and following in "$`\\":
                words.add_literal(parts, following, True)
                pos += 2
            else:
                words.add_literal(parts, "\\", True)
                pos += 1
        elif c in "$`":
            try:
                if c == "$":
                    part, pos = expansions.dollar(lx, pos, in_dq=True)
                else:
                    part, pos = expansions.backtick(lx, pos + 1, in_dq=False)
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
            words.add_literal(parts, m.group(), True)
            pos = m.end()
    return parts
