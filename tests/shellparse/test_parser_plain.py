"""Lines of plain words skip the lexer and driver; the tree must be the grammar's own."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from clearance.shellparse.errors import ShellSyntaxError
from clearance.shellparse.lexer import parse_script
from clearance.shellparse.parser import _PLAIN_SPECIAL, is_plain, parse


def test_plain_lines_get_the_grammars_tree(
    corpus: Any, ast_dump: Callable[[object], object]
) -> None:
    checked = 0
    for line in corpus.commands:
        if not is_plain(line):
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
        assert not is_plain(line) or line.split()[0] in ("time", "if", "}", "!"), line
        result = parse(line)
        if result.script is not None:
            assert ast_dump(result.script) == ast_dump(parse_script(line)), line


def test_plain_is_words_between_blanks(corpus: Any, ast_dump: Callable[[object], object]) -> None:
    """The one-class pattern accepts exactly what its definition does -- optional blanks,
    words (no whitespace, no special character) separated by blanks, optional blanks -- on
    every line of ASCII: the corpus's, every pair of ASCII characters, and generated ones; a
    line beyond ASCII is left to the grammar."""
    word = rf"[^\s{_PLAIN_SPECIAL}]+"
    definition = re.compile(rf"[ \t]*{word}(?:[ \t]+{word})*[ \t]*\Z")
    ascii_chars = [chr(c) for c in range(128)]
    lines = [line for line in corpus.commands if line.isascii()]
    lines += [a + b for a in ascii_chars for b in ascii_chars]
    alphabet = " \t\n\r\x0b\x0c\x1c\x1fab-./=~*;$'\"\\"
    rng = random.Random(7)
    lines += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9))) for _ in range(50000)]
    accepted = 0
    for line in lines:
        assert is_plain(line) == bool(definition.match(line)), repr(line)
        accepted += is_plain(line)
    assert accepted > 20000
    for line in ("ls caf\u00e9", "ls\u3000x", "ls\u00a0x", "echo \u2028"):
        assert not is_plain(line), line
        result = parse(line)
        assert result.script is not None and ast_dump(result.script) == ast_dump(
            parse_script(line)
        ), line
