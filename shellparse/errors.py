"""Parse errors are values: the public API returns them, it never raises them.

``ShellSyntaxError`` is raised internally (lexer, driver) and caught at the API boundary, where
it becomes a ``ParseError`` carrying a reason code from a closed set.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: Reason codes a parse can fail with. Closed: callers may switch on them.
PARSE_ERROR_CODES: Final = (
    "parse_error",  # the text is not valid bash
    "unterminated",  # a quote, substitution, ``[[`` or here-document never closes
    "depth_limit",  # nesting deeper than the parser's bound
    "input_too_large",  # longer than the parser accepts
    "internal_error",  # a bug in clearance: reported, never passed off as success
)


class ShellSyntaxError(Exception):
    """Raised inside the parser; converted to ``ParseError`` by ``parse``."""

    def __init__(
        self,
        message: str,
        pos: int,
        code: str = "parse_error",
        expected: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.code = code
        #: What the parser would have accepted at ``pos`` (for unexpected tokens).
        self.expected = expected


class ParseError:
    """Why and where parsing failed: ``offset`` into the text, 1-based ``line``/``column``."""

    __slots__ = ("code", "column", "expected", "line", "message", "offset")

    def __init__(
        self,
        code: str,
        message: str,
        offset: int,
        line: int,
        column: int,
        expected: list[str] | None = None,
    ) -> None:
        self.code = code
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
        self.expected = expected or []

    @classmethod
    def at(
        cls, text: str, code: str, message: str, offset: int, expected: list[str] | None = None
    ) -> ParseError:
        offset = max(0, min(offset, len(text)))
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        return cls(code, message, offset, line, column, expected)

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": self.message,
            "offset": self.offset,
            "line": self.line,
            "column": self.column,
            "expected": self.expected,
        }

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"
