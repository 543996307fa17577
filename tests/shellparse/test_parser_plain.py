"""Lines of plain words skip the lexer and driver; the tree must be the grammar's own."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from clearance.shellparse.errors import ShellSyntaxError
from clearance.shellparse.lexer import parse_script
from clearance.shellparse.parser import _PLAIN, _PLAIN_SPECIAL, SPACE_NOT_BLANK, parse


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


def test_the_whitespace_a_plain_line_refuses_is_pythons_less_the_blanks() -> None:
    # ``_PLAIN`` lists them by hand (one class, no group): the list must be ``\s`` exactly
    listed = re.compile(f"[{SPACE_NOT_BLANK}]")
    for code in range(0x110000):
        c = chr(code)
        expected = c not in " \t" and re.match(r"\s", c) is not None
        assert (listed.match(c) is not None) == expected, hex(code)


def test_plain_is_words_between_blanks(corpus: Any) -> None:
    """The one-class pattern accepts exactly what its definition does: optional blanks, words
    (no whitespace, no special character) separated by blanks, optional blanks."""
    word = rf"[^\s{_PLAIN_SPECIAL}]+"
    definition = re.compile(rf"[ \t]*{word}(?:[ \t]+{word})*[ \t]*\Z")
    lines = list(corpus.commands)
    alphabet = " \t\n\r\x0b\x85\xa0\u2007\u3000ab-./=~*;$'\"\\é"
    rng = random.Random(7)
    lines += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9))) for _ in range(50000)]
    accepted = 0
    for line in lines:
        assert bool(_PLAIN.match(line)) == bool(definition.match(line)), repr(line)
        accepted += bool(definition.match(line))
    assert accepted > 20000
