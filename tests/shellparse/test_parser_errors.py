"""Parse errors are values: a code from a closed set, an offset, a line and a column.

``parse`` never raises. A text it cannot read comes back with ``ok`` false and the error set,
so that no caller can mistake it for "no commands" -- the fail-closed rule of the design.
"""

from __future__ import annotations

import sys

import pytest

from clearance.shellparse import builder, lalr, lexer, parser
from clearance.shellparse.errors import PARSE_ERROR_CODES, ParseError
from clearance.shellparse.parser import MAX_INPUT, ParseResult, parse


def error_of(text: str) -> ParseError:
    result = parse(text)
    assert isinstance(result, ParseResult)
    assert not result.ok and result.script is None
    assert result.error is not None
    assert result.error.code in PARSE_ERROR_CODES
    return result.error


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("echo 'abc", 5),
        ('echo "abc', 5),
        ("echo $'abc", 5),
        ("echo $(ls", 5),
        ("echo $(a $(b)", 5),
        ("echo ${x", 5),
        ("echo ${x:-a", 5),
        ("echo ${ ls", 5),
        ("echo <(ls", 5),
        ("echo `ls", 5),
        ("[[ -f x", 0),
        ("echo $((1 + 2", 5),
        ("a=(1 2", 6),
        ("a[1", 1),
    ],
)
def test_unterminated_constructs(text: str, offset: int) -> None:
    error = error_of(text)
    assert error.code == "unterminated"
    assert error.offset == offset


@pytest.mark.parametrize(
    ("text", "offset", "expected"),
    [
        ("a && && b", 5, "a word"),
        ("if a; then b", 12, "'fi'"),
        ("a |", 3, "a word"),
        ("(a", 2, "')'"),
        ("a )", 2, "end of input"),
        ("case x in a) b;; ", 17, "'esac'"),
        ("f() b", 4, "'{'"),
        ("echo >", 6, "a word"),
    ],
)
def test_syntax_errors_name_the_token_and_what_was_expected(
    text: str, offset: int, expected: str
) -> None:
    error = error_of(text)
    assert error.code == "parse_error"
    assert error.offset == offset
    assert error.message.startswith("unexpected")
    assert expected in error.expected
    assert error.expected == sorted(error.expected)


def test_line_and_column_are_one_based() -> None:
    error = error_of("echo ok\nif true; then\n  echo )\nfi")
    assert (error.line, error.column) == (3, 8)
    assert error.offset == len("echo ok\nif true; then\n  echo ")
    assert str(error) == f"3:8: {error.message}"


def test_error_dict_has_every_field() -> None:
    error = error_of("a ||")
    assert error.to_dict() == {
        "code": "parse_error",
        "message": error.message,
        "offset": 4,
        "line": 1,
        "column": 5,
        "expected": error.expected,
    }
    assert "a word" in error.expected


def test_input_too_large() -> None:
    error = error_of("a" * (MAX_INPUT + 1))
    assert error.code == "input_too_large"
    assert parse("a" * MAX_INPUT).ok


def test_nul_byte_is_refused() -> None:
    error = error_of("echo a\x00b")
    assert error.code == "parse_error"
    assert error.offset == 6


#: Substitutions nested one level past the lexer's bound; grammar nesting past the stack's.
TOO_DEEP = lexer.MAX_DEPTH + 1
TOO_NESTED = lalr.MAX_STACK


@pytest.mark.parametrize(
    "text",
    [
        "echo " + "$(" * TOO_DEEP + "x" + ")" * TOO_DEEP,
        "echo " + "<(" * TOO_DEEP + "x" + ")" * TOO_DEEP,
        "echo " + "${ " * TOO_DEEP + "x" + "; }" * TOO_DEEP,
        "echo " + '"$(' * TOO_DEEP + "x" + ')"' * TOO_DEEP,
        "( " * TOO_NESTED + "a" + " )" * TOO_NESTED,
        "{ " * TOO_NESTED + "a; " + "} " * TOO_NESTED,
        "if a; then " * TOO_NESTED + "b" + "; fi" * TOO_NESTED,
    ],
)
def test_deep_nesting_is_a_depth_limit(text: str) -> None:
    assert error_of(text).code == "depth_limit"


def test_nesting_below_the_limits_parses() -> None:
    depth = lexer.MAX_DEPTH - 1
    assert parse("echo " + "$(" * depth + "x" + ")" * depth).ok
    assert parse("( " * 100 + "a" + " )" * 100).ok
    assert parse("if a; then " * 100 + "b" + "; fi" * 100).ok


def test_internal_bug_is_an_error_value_not_success(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug inside the parser (here: a callback that crashes) must come back as an error,
    never as an exception and never as a clean parse."""

    def broken(children: list[object]) -> object:
        raise KeyError("boom")

    rules = [
        (broken if callback is builder.simple_name else callback, size, origin)
        for callback, size, origin in lalr._RULES
    ]
    monkeypatch.setattr(lalr, "_RULES", rules)
    result = parse("ls;")  # not a plain line: it goes through the driver
    assert not result.ok and result.error is not None
    assert result.error.code == "internal_error"
    assert "boom" in result.error.message


def _stack_depth() -> int:
    """The caller's recursion depth as the interpreter counts it: the lowest limit it takes."""
    limit = sys.getrecursionlimit()
    try:
        for depth in range(1, limit):
            try:
                sys.setrecursionlimit(depth + 1)
            except RecursionError:
                continue
            return depth
    finally:
        sys.setrecursionlimit(limit)
    return limit


def test_running_out_of_stack_is_a_depth_limit_never_an_exception() -> None:
    """A parse that starts a few frames below the interpreter's recursion limit answers
    ``depth_limit`` or parses; a ``RecursionError`` never escapes it. In pure Python the
    parser's frames count against the limit, so the tight rooms end in ``depth_limit``;
    compiled code does not count its frames, and there every room parses."""
    text = "echo $(echo $(cat <(ls | wc -l)))"
    outcomes: dict[int, str] = {}
    limit = sys.getrecursionlimit()
    try:
        for room in range(4, 64, 2):
            sys.setrecursionlimit(_stack_depth() + room)
            result = parse(text)
            sys.setrecursionlimit(limit)
            outcomes[room] = "ok" if result.ok else result.error.code if result.error else "?"
    finally:
        sys.setrecursionlimit(limit)
    assert set(outcomes.values()) <= {"ok", "depth_limit"}, outcomes
    assert outcomes[62] == "ok", outcomes  # with room enough, the same text parses
    if parser.__file__ and parser.__file__.endswith(".py"):
        assert outcomes[4] == "depth_limit", outcomes


def test_ok_result_has_no_error() -> None:
    result = parse("ls -la")
    assert result.ok and result.error is None and result.script is not None
    assert result.text == "ls -la"


def test_codes_are_a_closed_set() -> None:
    assert set(PARSE_ERROR_CODES) == {
        "parse_error",
        "unterminated",
        "depth_limit",
        "input_too_large",
        "internal_error",
    }
