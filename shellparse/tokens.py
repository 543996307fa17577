"""Tokens the lexer hands the LALR driver."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


class Token:
    """``type`` is a terminal of ``shell.lark``; ``value`` is a node (a ``Word``, an
    ``Assignment``, a ``HereDoc``…) or the operator text; ``source`` is the raw text."""

    __slots__ = ("end", "source", "start", "type", "value")

    def __init__(self, type_: str, value: object, start: int, end: int, source: str) -> None:
        self.type = type_
        self.value = value
        self.start = start
        self.end = end
        self.source = source

    def __repr__(self) -> str:
        return f"Token({self.type}, {self.source!r})"


#: Reserved words and the terminal each becomes where the parser accepts it.
KEYWORDS: Final = {
    "if": "IF",
    "then": "THEN",
    "else": "ELSE",
    "elif": "ELIF",
    "fi": "FI",
    "do": "DO",
    "done": "DONE",
    "case": "CASE",
    "esac": "ESAC",
    "while": "WHILE",
    "until": "UNTIL",
    "for": "FOR",
    "select": "SELECT",
    "in": "IN",
    "function": "FUNCTION",
    "{": "LBRACE",
    "}": "RBRACE",
    "!": "BANG",
    "time": "TIME",
    "coproc": "COPROC",
}

#: Operators by leading character, longest first.
OPERATORS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    ";": ((";;&", "DSEMI_AMP"), (";;", "DSEMI"), (";&", "SEMI_AMP"), (";", "SEMI")),
    "&": (("&&", "AND_IF"), ("&>>", "AND_DGREAT"), ("&>", "AND_GREAT"), ("&", "AMP")),
    "|": (("||", "OR_IF"), ("|&", "PIPE_AMP"), ("|", "PIPE")),
    "<": (
        ("<<<", "TLESS"),
        ("<<-", "DLESSDASH"),
        ("<<", "DLESS"),
        ("<&", "LESSAND"),
        ("<>", "LESSGREAT"),
        ("<", "LESS"),
    ),
    ">": ((">>", "DGREAT"), (">&", "GREATAND"), (">|", "CLOBBER"), (">", "GREAT")),
}
