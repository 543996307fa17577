"""Static expansion: the fields a word becomes, and the flags saying how sure that is.

A policy matches argv, so every spelling of ``rm`` must come out as ``rm``, ``{a,b}`` as two
fields, ``~`` as the home directory; and whatever the text alone cannot tell (``$(…)``, an
environment variable, a glob) must be flagged, never guessed.
"""

from __future__ import annotations

import pytest

from clearance.shellparse import classify
from clearance.shellparse.expand import (
    BRACE,
    DYNAMIC,
    GLOB,
    INVALID,
    MAX_FIELDS,
    RESOLVED,
    TILDE,
    TILDE_USER,
    TRUNCATED,
    Env,
    expand_word,
    word_text,
)
from clearance.shellparse.nodes import SimpleCommand, Word
from clearance.shellparse.parser import parse

HOME = "/home/user"
CWD = "/work/project"


def words(text: str) -> list[Word]:
    result = parse(text)
    assert result.script is not None, result.error
    [statement] = result.script.statements
    [command] = statement.and_or.pipelines[0].commands
    assert isinstance(command, SimpleCommand)
    return command.words


def expand(source: str, variables: dict[str, str] | None = None) -> tuple[list[str], int]:
    """Fields and flags of ``source``, a single word given as an argument."""
    [_, word] = words("echo " + source)
    return expand_word(word, Env(HOME, CWD, variables))


def fields(source: str) -> list[str]:
    return expand(source)[0]


def flags(source: str) -> int:
    return expand(source)[1]


@pytest.mark.parametrize(
    "spelling",
    ["rm", '"r"m', "r''m", "\\rm", "$'\\x72m'", "$'\\162'm", "'rm'", '"rm"', "r\\m", 'r""m'],
)
def test_every_spelling_of_rm_is_rm(spelling: str) -> None:
    assert expand(spelling) == (["rm"], 0)


def test_brace_expansion_makes_fields() -> None:
    assert expand("{rm,-rf,/}") == (["rm", "-rf", "/"], BRACE)


def test_brace_expansion_with_prefix_suffix_and_nesting() -> None:
    assert fields("a{b,c{d,e}}f") == ["abf", "acdf", "acef"]
    assert fields("{a,b}{1,2}") == ["a1", "a2", "b1", "b2"]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("{1..3}", ["1", "2", "3"]),
        ("{3..1}", ["3", "2", "1"]),
        ("{01..03}", ["01", "02", "03"]),
        ("{0..10..5}", ["0", "5", "10"]),
        ("{00..10..5}", ["00", "05", "10"]),
        ("{-01..1}", ["-01", "000", "001"]),
        ("{-0..2}", ["0", "1", "2"]),
        ("{a..c}", ["a", "b", "c"]),
        ("x{1..2}y", ["x1y", "x2y"]),
    ],
)
def test_brace_sequences(source: str, expected: list[str]) -> None:
    assert fields(source) == expected


@pytest.mark.parametrize("source", ["'{a,b}'", '"{a,b}"', "\\{a,b}", "{a}", "{}", "{a..}", "${x}"])
def test_what_is_not_brace_expansion(source: str) -> None:
    found, flag = expand(source)
    assert len(found) == 1
    assert not flag & BRACE


def test_brace_expansion_is_bounded() -> None:
    found, _ = expand("{1..100000}")
    assert len(found) <= MAX_FIELDS + 1
    many, many_flags = expand("{a,b}" * 12)
    assert len(many) == MAX_FIELDS and many_flags & TRUNCATED


def test_tilde_is_home() -> None:
    assert expand("~") == ([HOME], TILDE)
    assert expand("~/x") == ([HOME + "/x"], TILDE)
    assert expand("~+/y") == ([CWD + "/y"], TILDE)


def test_tilde_of_another_user_is_flagged() -> None:
    found, flag = expand("~alice/x")
    assert found == ["~alice/x"]
    assert flag & TILDE and flag & TILDE_USER


def test_quoted_or_inner_tilde_is_literal() -> None:
    assert expand("'~'") == (["~"], 0)
    assert expand("a~") == (["a~"], 0)


def test_command_substitution_is_dynamic() -> None:
    found, flag = expand("$(whoami)")
    assert found == ["$(whoami)"] and flag & DYNAMIC


def test_unknown_variable_is_dynamic_known_one_is_resolved() -> None:
    unknown, unknown_flags = expand("$TARGET")
    assert unknown == ["$TARGET"] and unknown_flags & DYNAMIC
    assert expand("$TARGET", {"TARGET": "dist"}) == (["dist"], RESOLVED)
    assert expand("$HOME/.ssh") == ([HOME + "/.ssh"], RESOLVED)


def test_unquoted_variable_splits_into_fields_quoted_does_not() -> None:
    assert expand("$A", {"A": "-r -f"})[0] == ["-r", "-f"]
    assert expand('"$A"', {"A": "-r -f"})[0] == ["-r -f"]
    assert expand("x$A", {"A": "1 2"})[0] == ["x1", "2"]


def test_operators_on_parameters_are_not_resolved() -> None:
    for source in ("${A#v}", "${A%v}", "${A/v/w}", "${A^^}", "${#A}", "${!A}", "${A[0]}"):
        found, flag = expand(source, {"A": "v"})
        assert flag & DYNAMIC, source
        assert found == [source]


@pytest.mark.parametrize(
    ("source", "variables", "expected"),
    [
        ("${A:-x}", {"A": "v"}, "v"),
        ("${A:-x}", {"A": ""}, "x"),
        ("${A-x}", {"A": ""}, ""),
        ("${A:=x}", {"A": ""}, "x"),
        ("${A:?}", {"A": "v"}, "v"),
        ("${A?}", {"A": ""}, ""),
        ("${A:+x}", {"A": "v"}, "x"),
        ("${A:+x}", {"A": ""}, ""),
        ("${A+x}", {"A": ""}, "x"),
        ("${A:-'a b'}", {"A": ""}, "a b"),
        ("${HOME:?}/.ssh", {}, HOME + "/.ssh"),
    ],
)
def test_defaults_of_a_known_variable_are_what_the_shell_gives(
    source: str, variables: dict[str, str], expected: str
) -> None:
    found, flag = expand('"' + source + '"', variables)
    assert found == [expected] and not flag & DYNAMIC


@pytest.mark.parametrize(
    ("source", "variables"),
    [
        ("${X:-/}", {}),  # unknown: set or not, nobody knows
        ("${A:?}", {"A": ""}),  # the shell stops with an error
        ("${A:-$B}", {"A": ""}),  # a default of its own expansion
        ("${A:-$(cmd)}", {"A": ""}),
    ],
)
def test_defaults_not_known_stay_dynamic(source: str, variables: dict[str, str]) -> None:
    assert expand(source, variables)[1] & DYNAMIC


def test_an_assigned_default_holds_for_the_rest_of_the_line() -> None:
    facts = classify("D=; : ${D:=/tmp/x}; rm -rf $D", cwd="/work/p", home=HOME, resolve=False)
    assert facts.commands[-1].argv == ["rm", "-rf", "/tmp/x"]


def test_invalid_substitution_is_flagged() -> None:
    assert expand("${a b}")[1] & INVALID


@pytest.mark.parametrize("source", ["*.py", "file?", "[ab]c", "a[0-9]", "x*y"])
def test_unquoted_pattern_is_a_glob(source: str) -> None:
    assert flags(source) & GLOB


@pytest.mark.parametrize("source", ["'*.py'", '"file?"', "\\*", "[", "a[", "]", "x]", "'['a]"])
def test_quoted_or_unclosed_pattern_is_not_a_glob(source: str) -> None:
    assert not flags(source) & GLOB


def test_test_bracket_command_is_not_a_glob() -> None:
    """``[ -f x ]``: the ``[`` is the test program, not a pattern."""
    found = [expand_word(w, Env(HOME, CWD)) for w in words("[ -f x ]")]
    assert found == [(["["], 0), (["-f"], 0), (["x"], 0), (["]"], 0)]


def test_word_text_joins_fields() -> None:
    [word] = words("{a,b}")
    assert word_text(word, Env(HOME, CWD)) == ("a b", BRACE)


def test_empty_quotes_are_one_empty_field() -> None:
    assert expand("''") == ([""], 0)
    assert expand('""') == ([""], 0)


def test_env_copy_is_independent() -> None:
    env = Env(HOME, CWD, {"A": "1"})
    other = env.copy()
    other.vars["A"] = "2"
    assert env.vars["A"] == "1"
