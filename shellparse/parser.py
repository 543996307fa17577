"""``parse``: bash text in, a ``Script`` or a ``ParseError`` out -- never an exception."""

from __future__ import annotations

from clearance.shellparse.errors import ParseError, ShellSyntaxError
from clearance.shellparse.lexer import parse_script
from clearance.shellparse.nodes import Script

#: Longest input parsed. Longer text is refused with ``input_too_large`` (fail closed: a
#: refusal is an error value, which no policy turns into ``allow``).
MAX_INPUT = 256 * 1024


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
    try:
        return ParseResult(text, parse_script(text), None)
    except ShellSyntaxError as exc:
        return ParseResult(
            text, None, ParseError.at(text, exc.code, exc.message, exc.pos, exc.expected)
        )
    except RecursionError:
        return ParseResult(text, None, ParseError.at(text, "depth_limit", "nesting is too deep", 0))
    except Exception as exc:  # a bug must still come back as a value, and never as success
        return ParseResult(
            text,
            None,
            ParseError.at(text, "internal_error", f"internal parser error: {exc!r}", 0),
        )
