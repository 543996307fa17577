"""Lines of plain words skip the lexer and driver; the tree must be the grammar's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clearance.shellparse.errors import ShellSyntaxError
from clearance.shellparse.lexer import parse_script
from clearance.shellparse.parser import _PLAIN, parse


def test_plain_lines_get_the_grammars_tree(
    corpus: Any, ast_dump: Callable[[object], object]
) -> None:
    checked = 0
    for line in corpus.commands:
        if not _PLAIN.match(line):
            continue
        fast = parse(line)
        try:
            reference = parse_script(line)
        except ShellSyntaxError:  # a reserved word where none may stand (``fi``, ``done``)
            assert fast.script is None, line
            continue
        assert fast.script is not None, line
        assert ast_dump(fast.script) == ast_dump(reference), line
        checked += 1
    assert checked > 20000  # two in three corpus lines take this path


def test_what_is_not_plain_goes_through_the_grammar(ast_dump: Callable[[object], object]) -> None:
    for line in (
        "time ls",
        "if true",
        "} x",
        "! x",
        "ls $HOME",
        "a=b c",
        "rm -rf ~",
        "ls *.py",
        "echo {a,b}",
        "echo 'x'",
        "ls # c",
        "ls\n",
        "[[ -f x ]]",
        "x\ry",
    ):
        assert not _PLAIN.match(line) or line.split()[0] in ("time", "if", "}", "!"), line
        result = parse(line)
        if result.script is not None:
            assert ast_dump(result.script) == ast_dump(parse_script(line)), line
