"""The LALR(1) table of ``shell.lark``, built by Lark and stored as a Python literal.

Lark compiles the grammar (and proves it free of conflicts with ``strict=True``); the table it
produces is written to ``_lalr_table.py`` so that a process start only unmarshals a cached
``.pyc``. Importing Lark itself costs more than the whole start-up budget of a hook, so the
runtime never does. ``python -m clearance.shellparse.lalr_build`` rebuilds the file; a test fails
when it is stale.
"""

from __future__ import annotations

import hashlib
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

GRAMMAR_PATH = os.path.join(os.path.dirname(__file__), "shell.lark")
TABLE_PATH = os.path.join(os.path.dirname(__file__), "_lalr_table.py")


def grammar_text() -> str:
    with open(GRAMMAR_PATH, encoding="utf-8") as fh:
        return fh.read()


def grammar_digest(text: str | None = None) -> str:
    return hashlib.sha256((grammar_text() if text is None else text).encode()).hexdigest()


def build_lark(text: str | None = None) -> Any:
    """Build Lark's own LALR parser for the grammar (used to make the table, and as reference)."""
    from lark import Lark
    from lark.lexer import Lexer

    class _TokensFromOutside(Lexer):
        """Placeholder: the table is all we take; tokens come from our lexer."""

        def __init__(self, conf: Any) -> None:
            pass

        def lex(self, lexer_state: Any, parser_state: Any) -> Any:
            return iter(())

    return Lark(
        grammar_text() if text is None else text,
        parser="lalr",
        lexer=_TokensFromOutside,
        strict=True,
        keep_all_tokens=True,
    )


def build_table_source(text: str | None = None) -> str:
    """Render the table module for the grammar ``text`` (default: ``shell.lark``)."""
    from lark.parsers.lalr_analysis import IntParseTable, Shift

    source = grammar_text() if text is None else text
    lark = build_lark(source)
    table = IntParseTable.from_ParseTable(lark.parser.parser.parser.parse_table)
    start = table.start_states["start"]
    # Lark numbers states in an order that depends on string hashing, so it changes from
    # one process to the next. Renumber them breadth-first from the start state, symbols in
    # sorted order: the same grammar then always gives the same file.
    order = [start]
    number = {start: 0}
    for state_id in order:
        for _symbol, (action, arg) in sorted(table.states[state_id].items()):
            if action is Shift and arg not in number:
                number[arg] = len(order)
                order.append(arg)
    rule_index: dict[object, int] = {}
    rules: list[tuple[str, int, str]] = []
    states: list[dict[str, int]] = []
    for state_id in order:
        row: dict[str, int] = {}
        for symbol, (action, arg) in sorted(table.states[state_id].items()):
            if action is Shift:
                row[symbol] = number[arg]
            else:
                if arg not in rule_index:
                    rule_index[arg] = len(rules)
                    name = arg.alias or arg.origin.name
                    rules.append((str(name), len(arg.expansion), str(arg.origin.name)))
                row[symbol] = -rule_index[arg] - 1
        states.append(row)
    lines = [
        '"""Generated from shell.lark by ``python -m clearance.shellparse.lalr_build``."""',
        "",
        "# ruff: noqa: E501",
        "# fmt: off",
        f"GRAMMAR_SHA256 = {grammar_digest(source)!r}",
        f"START = {number[start]!r}",
        f"END = {number[table.end_states['start']]!r}",
        "# STATES[s][symbol]: >= 0 shift (or goto) that state; < 0 reduce RULES[-action - 1].",
        "STATES: list[dict[str, int]] = [",
    ]
    lines.extend(f"    {row!r}," for row in states)
    lines.append("]")
    lines.append("# RULES[r] = (callback, number of children, nonterminal)")
    lines.append("RULES: list[tuple[str, int, str]] = [")
    lines.extend(f"    {rule!r}," for rule in rules)
    lines.append("]")
    return "\n".join(lines) + "\n"


def main() -> int:
    source = build_table_source()
    with open(TABLE_PATH, "w", encoding="utf-8") as fh:
        fh.write(source)
    print(f"wrote {TABLE_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
