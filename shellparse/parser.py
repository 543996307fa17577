"""``parse``: bash text in, a ``Script`` or a ``ParseError`` out -- never an exception."""

from __future__ import annotations

import re

from clearance.shellparse.errors import ParseError, ShellSyntaxError
from clearance.shellparse.lexer import parse_script
from clearance.shellparse.nodes import (
    AndOr,
    Literal,
    Pipeline,
    Script,
    SimpleCommand,
    Statement,
    Word,
)
from clearance.shellparse.tokens import KEYWORDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: A line of plain words: no quoting, expansion, operator, glob, brace, tilde, assignment or
#: comment -- nothing whose meaning depends on the grammar. Two in three real command lines
#: are like this (``git status``, ``ls -la src``); they get the node tree the grammar would
#: build without running the lexer and driver. A test holds the two equal on the corpus.
#: Written as one class after the first word character (blanks and word characters), not as
#: words between blanks: a repeated group costs ``re`` a saved state per word, a repeated
#: class a test per character. ASCII only (``is_plain``): a class of every Unicode space
#: would cost the pattern's compilation twice its time at every start.
_PLAIN_SPECIAL: Final = r";&|()<>\\'\"$`#*?\[\]{}~=!"
#: (ASCII's whitespace, as ``\s`` has it: tab to carriage return, ``\x1c`` to ``\x1f``, space)
_PLAIN: Final = re.compile(
    rf"[ \t]*[^\t-\r\x1c-\x20{_PLAIN_SPECIAL}][^\n-\r\x1c-\x1f{_PLAIN_SPECIAL}]*\Z"
)


def is_plain(text: str) -> bool:
    """Whether ``text`` is a line of plain words (``_PLAIN``); a line with a character
    beyond ASCII goes through the grammar."""
    return text.isascii() and _PLAIN.match(text) is not None


#: Longest input parsed. Longer text is refused with ``input_too_large`` (fail closed: a
#: refusal is an error value, which no policy turns into ``allow``).
MAX_INPUT: Final = 256 * 1024


class ParseResult:
    """``script`` when the text parsed, else ``error``; exactly one of them is set."""

    __slots__ = ("error", "script", "text")

    def __init__(self, text: str, script: Script | None, error: ParseError | None) -> None:
        self.text = text
        self.script = script
        self.error = error

    @property
    def ok(self) -> bool:
        return self.error is None


def parse(text: str) -> ParseResult:
    """Parse a bash command line or script."""
    if len(text) > MAX_INPUT:
        return ParseResult(
            text,
            None,
            ParseError.at(
                text,
                "input_too_large",
                f"input is {len(text)} characters; the parser accepts at most {MAX_INPUT}",
                MAX_INPUT,
            ),
        )
    if "\x00" in text:
        return ParseResult(
            text,
            None,
            ParseError.at(text, "parse_error", "NUL byte in command", text.index("\x00")),
        )
    if is_plain(text):
        plain = _plain_script(text)
        if plain is not None:
            return ParseResult(text, plain, None)
    try:
        return ParseResult(text, parse_script(text), None)
    except ShellSyntaxError as exc:
        return ParseResult(
            text, None, ParseError.at(text, exc.code, exc.message, exc.pos, exc.expected)
        )
    except RecursionError:
        return ParseResult(text, None, ParseError.at(text, "depth_limit", "nesting is too deep", 0))
    except Exception as crash:  # a bug must still come back as a value, and never as success
        return ParseResult(
            text,
            None,
            ParseError.at(text, "internal_error", f"internal parser error: {crash!r}", 0),
        )


def _plain_script(text: str) -> Script | None:
    """The tree of a line of plain words, or ``None`` if its first word is a reserved word
    (``time``, ``if``, ``}``…: the grammar must see those)."""
    # ``is_plain``: the words are the runs between blanks and hold no whitespace, so
    # ``split()`` cuts exactly them, and each starts where the next ``find`` from the end of
    # the one before says (only blanks lie between)
    words: list[Word] = []
    end = 0
    for word in text.split():
        start = text.find(word, end)
        end = start + len(word)
        words.append(Word([Literal(word, False)], word, start, end))
    if not words or words[0].text in KEYWORDS:
        return None
    command = SimpleCommand([], words, [], words[0].start, words[-1].end)
    return Script([Statement(AndOr([Pipeline([command], [False])], []), False)])
