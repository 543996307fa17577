"""How the lexer cuts bash text into words and what each word is made of.

Quoting, escapes, ``$…`` expansions, here-documents and redirection operators, checked through
the parts of the words ``parse`` returns. Also the places where the lexer must ask the parser
what may come next: keywords, assignments, file descriptors.
"""

from __future__ import annotations

import pytest

from clearance.shellparse.nodes import (
    AnsiCQuoted,
    ArithmeticExpansion,
    CommandSubstitution,
    DoubleQuoted,
    Literal,
    ParamExpansion,
    Redirect,
    SimpleCommand,
    SingleQuoted,
    Word,
)
from clearance.shellparse.parser import parse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.nodes import Part


def command(text: str) -> SimpleCommand:
    result = parse(text)
    assert result.error is None, f"{text!r}: {result.error}"
    assert result.script is not None
    [statement] = result.script.statements
    [pipeline] = statement.and_or.pipelines
    [found] = pipeline.commands
    assert isinstance(found, SimpleCommand), found
    return found


def word(text: str) -> Word:
    """The single argument of ``echo TEXT``."""
    words = command("echo " + text).words
    assert len(words) == 2, [w.text for w in words]
    return words[1]


def parts(text: str) -> list[Part]:
    return word(text).parts


def only_part(text: str) -> Part:
    [part] = parts(text)
    return part


def redirects(text: str) -> list[Redirect]:
    return command(text).redirects


# --- quoting and escapes ---------------------------------------------------------------------


def test_single_quotes_keep_everything() -> None:
    part = only_part("'a $b `c` \\d \"e\"'")
    assert isinstance(part, SingleQuoted)
    assert part.text == 'a $b `c` \\d "e"'


def test_double_quotes_hold_expansions() -> None:
    part = only_part('"a $b ${c} $(d) `e` \\$f"')
    assert isinstance(part, DoubleQuoted) and not part.locale
    kinds = [type(p).__name__ for p in part.parts]
    assert kinds == [
        "Literal",
        "ParamExpansion",
        "Literal",
        "ParamExpansion",
        "Literal",
        "CommandSubstitution",
        "Literal",
        "CommandSubstitution",
        "Literal",
    ]
    last = part.parts[-1]
    assert isinstance(last, Literal) and last.text == " $f" and last.quoted


def test_backslash_inside_double_quotes_escapes_only_special_characters() -> None:
    part = only_part('"\\a\\$\\"\\\\"')
    assert isinstance(part, DoubleQuoted)
    assert "".join(p.text for p in part.parts if isinstance(p, Literal)) == '\\a$"\\'


def test_locale_double_quotes() -> None:
    part = only_part('$"hello $x"')
    assert isinstance(part, DoubleQuoted) and part.locale


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("$'a\\nb'", "a\nb"),
        ("$'\\x72m'", "rm"),
        ("$'\\162m'", "rm"),
        ("$'\\u00e9'", "é"),
        ("$'\\U0001F600'", "\U0001f600"),
        ("$'\\e[1m'", "\x1b[1m"),
        ("$'\\cA'", "\x01"),
        ("$'it\\'s'", "it's"),
        ("$'\\q'", "\\q"),
        ("$'\\x'", "\\x"),
    ],
)
def test_ansi_c_quotes_decode_escapes(source: str, value: str) -> None:
    part = only_part(source)
    assert isinstance(part, AnsiCQuoted)
    assert part.text == value


def test_unquoted_backslash_makes_a_quoted_literal() -> None:
    assert [(p.text, p.quoted) for p in parts("a\\ b") if isinstance(p, Literal)] == [
        ("a", False),
        (" ", True),
        ("b", False),
    ]


def test_mixed_quoting_concatenates_into_one_word() -> None:
    w = word("a'b'\"c\"$'d'\\e")
    assert w.text == "a'b'\"c\"$'d'\\e"
    assert [type(p).__name__ for p in w.parts] == [
        "Literal",
        "SingleQuoted",
        "DoubleQuoted",
        "AnsiCQuoted",
        "Literal",
    ]


# --- parameter expansion ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "name", "op", "arg"),
    [
        ("$HOME", "HOME", None, None),
        ("${HOME}", "HOME", None, None),
        ("${x:-default}", "x", ":-", "default"),
        ("${x-d}", "x", "-", "d"),
        ("${x:=d}", "x", ":=", "d"),
        ("${x:?msg}", "x", ":?", "msg"),
        ("${x:+alt}", "x", ":+", "alt"),
        ("${x#pre}", "x", "#", "pre"),
        ("${x##pre}", "x", "##", "pre"),
        ("${x%suf}", "x", "%", "suf"),
        ("${x%%suf}", "x", "%%", "suf"),
        ("${x/a/b}", "x", "/", "a/b"),
        ("${x//a/b}", "x", "//", "a/b"),
        ("${x^^}", "x", "^^", ""),
        ("${x,}", "x", ",", ""),
        ("${x:1:2}", "x", ":", "1:2"),
        ("${x@Q}", "x", "@", "Q"),
        ("${10}", "10", None, None),
        ("$1", "1", None, None),
        ("$@", "@", None, None),
        ("$?", "?", None, None),
    ],
)
def test_parameter_expansion_operators(
    source: str, name: str, op: str | None, arg: str | None
) -> None:
    part = only_part(source)
    assert isinstance(part, ParamExpansion)
    assert (part.name, part.op) == (name, op)
    assert (part.arg.text if part.arg is not None else None) == arg
    assert part.text == source


def test_length_indirection_and_subscripts() -> None:
    length = only_part("${#x}")
    assert isinstance(length, ParamExpansion) and length.length and length.name == "x"
    indirect = only_part("${!ref}")
    assert isinstance(indirect, ParamExpansion) and indirect.indirect
    keys = only_part("${!prefix*}")
    assert isinstance(keys, ParamExpansion) and keys.indirect and keys.op == "*"
    element = only_part("${a[i+1]}")
    assert isinstance(element, ParamExpansion)
    assert element.subscript is not None and element.subscript.expression == "i+1"
    count = only_part("${#a[@]}")
    assert isinstance(count, ParamExpansion) and count.length and count.subscript is not None


def test_expansions_nest_inside_parameter_arguments() -> None:
    part = only_part("${x:-$(cmd) ${y:-z}}")
    assert isinstance(part, ParamExpansion) and part.arg is not None
    assert [type(p).__name__ for p in part.arg.parts] == [
        "CommandSubstitution",
        "Literal",
        "ParamExpansion",
    ]


def test_plain_brace_inside_parameter_is_not_counted() -> None:
    """``${x:-{a}b}`` is ``${x:-{a}`` then ``b}``, as bash reads (and prints) it."""
    w = word("${x:-{a}b}")
    first = w.parts[0]
    assert isinstance(first, ParamExpansion) and first.arg is not None
    assert first.arg.text == "{a"
    assert isinstance(w.parts[1], Literal) and w.parts[1].text == "b}"


def test_invalid_parameter_is_read_and_flagged() -> None:
    part = only_part("${a b}")
    assert isinstance(part, ParamExpansion) and part.invalid
    unclosed_subscript = only_part('"${a[@}"')
    assert isinstance(unclosed_subscript, DoubleQuoted)
    inner = unclosed_subscript.parts[0]
    assert isinstance(inner, ParamExpansion) and inner.invalid


def test_lone_dollar_is_literal() -> None:
    found = [p for p in parts("a$") if isinstance(p, Literal)]
    assert len(found) == len(parts("a$"))
    assert "".join(p.text for p in found) == "a$"


# --- command substitution and arithmetic -------------------------------------------------------


def test_arithmetic_expansion_records_parameters_and_substitutions() -> None:
    part = only_part("$(( a + ${b} * $(c) ))")
    assert isinstance(part, ArithmeticExpansion)
    assert part.expression == " a + ${b} * $(c) "
    assert part.parameters == ["a", "b"]
    assert len(part.substitutions) == 1


def test_old_style_arithmetic() -> None:
    part = only_part("$[1 + x]")
    assert isinstance(part, ArithmeticExpansion) and part.parameters == ["x"]


def test_dollar_double_paren_that_is_commands_is_a_substitution() -> None:
    """``$((a) && (b))`` does not close as arithmetic: bash runs it as commands."""
    part = only_part("$((a) && (b))")
    assert isinstance(part, CommandSubstitution) and part.body is not None
    assert len(part.body.statements[0].and_or.pipelines) == 2


def test_dollar_double_paren_neither_arithmetic_nor_commands() -> None:
    """Bash reads ``$((1+2):(3))`` only when it runs it; the line stays valid."""
    part = only_part("$((1+2):(3))")
    assert isinstance(part, CommandSubstitution)
    assert part.body is None and part.error
    assert part.text == "$((1+2):(3))"


def test_arithmetic_with_unparseable_expansion_still_closes() -> None:
    part = only_part("$(( x${y ))")
    assert isinstance(part, ArithmeticExpansion)
    assert [s.body for s in part.substitutions] == [None]


def test_function_substitution_that_does_not_parse_is_an_invalid_parameter() -> None:
    part = only_part("${ then x}")
    assert isinstance(part, ParamExpansion) and part.invalid


# --- assignments, descriptors: the lexer asks the parser -----------------------------------------


def test_assignment_after_a_redirection_of_a_command_is_an_argument() -> None:
    """LALR merges the state after ``>x`` in ``>x a=b`` (a prefix) with the one in
    ``echo >x a=b`` (a suffix); only the latter makes ``a=b`` an argument."""
    after_program = command("echo >x a=b")
    assert [w.text for w in after_program.words] == ["echo", "a=b"]
    assert after_program.assignments == []
    prefix = command(">x a=b")
    assert [a.name for a in prefix.assignments] == ["a"] and prefix.words == []


def test_subscript_in_command_position_is_one_word() -> None:
    assert [w.text for w in command("a[x y] b").words] == ["a[x y]", "b"]
    assert [w.text for w in command("echo a[x y]").words] == ["echo", "a[x", "y]"]


def test_assignment_with_spaces_in_subscript() -> None:
    [assignment] = command("a[i + 1]=v cmd").assignments
    assert assignment.subscript is not None
    assert assignment.subscript.expression == "i + 1"


def test_array_assignment_elements() -> None:
    [assignment] = command("a=(one 'two three' $(four) [5]=five) cmd").assignments
    assert assignment.array is not None
    assert [w.text for w in assignment.array] == ["one", "'two three'", "$(four)", "[5]=five"]


def test_array_element_subscript_is_one_piece() -> None:
    [assignment] = command("d=([a b]=1 [<0]=x [$(k)]=y) cmd").assignments
    assert assignment.array is not None
    assert [w.text for w in assignment.array] == ["[a b]=1", "[<0]=x", "[$(k)]=y"]
    assert isinstance(assignment.array[2].parts[1], CommandSubstitution)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cmd > out", [(None, ">", "out")]),
        ("cmd >> out", [(None, ">>", "out")]),
        ("cmd < in", [(None, "<", "in")]),
        ("cmd 2> err", [("2", ">", "err")]),
        ("cmd 2>&1", [("2", ">&", "1")]),
        ("cmd >&2", [(None, ">&", "2")]),
        ("cmd 3<&0", [("3", "<&", "0")]),
        ("cmd 4>&-", [("4", ">&", "-")]),
        ("cmd &> all", [(None, "&>", "all")]),
        ("cmd &>> all", [(None, "&>>", "all")]),
        ("cmd >| forced", [(None, ">|", "forced")]),
        ("cmd <> rw", [(None, "<>", "rw")]),
        ("cmd <<< 'here string'", [(None, "<<<", "'here string'")]),
        ("cmd {fd}> out", [("{fd}", ">", "out")]),
        ("cmd 2>e >o", [("2", ">", "e"), (None, ">", "o")]),
    ],
)
def test_redirections(text: str, expected: list[tuple[str | None, str, str]]) -> None:
    found = [(r.fd, r.op, r.target.text if r.target else "") for r in redirects(text)]
    assert found == expected


def test_digits_not_before_a_redirection_are_a_word() -> None:
    assert [w.text for w in command("echo 2 > x").words] == ["echo", "2"]


def test_descriptor_after_a_file_redirection_is_an_error() -> None:
    result = parse("echo >1>&2")
    assert result.error is not None and result.error.code == "parse_error"
    assert parse("echo 2>&1>x").error is None


# --- here-documents ---------------------------------------------------------------------


def test_heredoc_body_with_expansions() -> None:
    [redirect] = redirects("cat <<EOF\nhello $USER $(date)\nEOF\n")
    heredoc = redirect.heredoc
    assert heredoc is not None and redirect.op == "<<"
    assert heredoc.delimiter == "EOF" and not heredoc.quoted and heredoc.complete
    assert heredoc.body == "hello $USER $(date)\n"
    assert [type(p).__name__ for p in heredoc.parts] == [
        "Literal",
        "ParamExpansion",
        "Literal",
        "CommandSubstitution",
        "Literal",
    ]


@pytest.mark.parametrize("delimiter", ["'EOF'", '"EOF"', "\\EOF", "E'O'F"])
def test_quoted_delimiter_keeps_the_body_literal(delimiter: str) -> None:
    [redirect] = redirects(f"cat <<{delimiter}\n$(rm x)\nEOF\n")
    heredoc = redirect.heredoc
    assert heredoc is not None and heredoc.quoted and heredoc.delimiter == "EOF"
    [literal] = heredoc.parts
    assert isinstance(literal, Literal) and literal.text == "$(rm x)\n"


def test_dash_heredoc_strips_leading_tabs() -> None:
    [redirect] = redirects("cat <<-END\n\t\tindented\n\tEND\n")
    assert redirect.op == "<<-"
    assert redirect.heredoc is not None
    assert redirect.heredoc.body == "indented\n" and redirect.heredoc.complete


def test_two_heredocs_on_one_line_read_in_order() -> None:
    result = parse("cat <<A; cat <<B\na\nA\nb\nB\necho after")
    assert result.script is not None
    first, second, third = (s.and_or.pipelines[0].commands[0] for s in result.script.statements)
    assert isinstance(first, SimpleCommand) and isinstance(second, SimpleCommand)
    assert first.redirects[0].heredoc is not None and second.redirects[0].heredoc is not None
    assert first.redirects[0].heredoc.body == "a\n"
    assert second.redirects[0].heredoc.body == "b\n"
    assert isinstance(third, SimpleCommand) and third.words[0].text == "echo"


def test_balanced_backquotes_in_a_heredoc_run() -> None:
    [redirect] = redirects("cat <<EOF\nuse `foo` to\nEOF\n")
    assert redirect.heredoc is not None
    [sub] = [p for p in redirect.heredoc.parts if isinstance(p, CommandSubstitution)]
    assert sub.backtick and sub.body is not None


def test_heredoc_opened_inside_substitution_is_read_after_the_line() -> None:
    [arg] = command("echo $(cat <<E\nbody\nE\n)").words[1:]
    sub = arg.parts[0]
    assert isinstance(sub, CommandSubstitution) and sub.body is not None
    inner = sub.body.statements[0].and_or.pipelines[0].commands[0]
    assert isinstance(inner, SimpleCommand)
    heredoc = inner.redirects[0].heredoc
    assert heredoc is not None and heredoc.body == "body\n"


def test_heredoc_read_once_when_its_text_is_read_twice() -> None:
    """``a[…]`` in command position is read as a subscript, then again as a word; the
    here-document it opens must be queued once, or the next one steals its body."""
    result = parse("a[$(cat <<X)] b; cat <<Y\nx\nX\ny\nY\n")
    assert result.script is not None
    [_, second] = (s.and_or.pipelines[0].commands[0] for s in result.script.statements)
    assert isinstance(second, SimpleCommand)
    heredoc = second.redirects[0].heredoc
    assert heredoc is not None and heredoc.body == "y\n" and heredoc.complete


def test_heredoc_in_function_substitution_is_read() -> None:
    [arg] = command("echo ${ cat <<E; }\nbody\nE\n").words[1:]
    sub = arg.parts[0]
    assert isinstance(sub, CommandSubstitution) and sub.body is not None
    inner = sub.body.statements[0].and_or.pipelines[0].commands[0]
    assert isinstance(inner, SimpleCommand)
    assert inner.redirects[0].heredoc is not None
    assert inner.redirects[0].heredoc.body == "body\n"


@pytest.mark.parametrize("body", ["use `foo to", "cost $(", "a ${ b", "$(( x"])
def test_heredoc_expansion_that_does_not_parse_keeps_the_line(body: str) -> None:
    """Bash expands a here-document when the command runs; a broken expansion (markdown
    backquote in a README written by ``cat <<EOF``) fails then, not when the line is read."""
    [redirect] = redirects(f"cat <<EOF\n{body}\nEOF\n")
    assert redirect.heredoc is not None and redirect.heredoc.complete
    broken = [p for p in redirect.heredoc.parts if isinstance(p, CommandSubstitution)]
    assert [(s.body, bool(s.error)) for s in broken] == [(None, True)]


def test_unterminated_heredoc_is_accepted_but_incomplete() -> None:
    [redirect] = redirects("cat <<EOF\nno end")
    assert redirect.heredoc is not None
    assert not redirect.heredoc.complete and redirect.heredoc.body == "no end\n"


# --- extended globs ---------------------------------------------------------------------


@pytest.mark.parametrize("pattern", ["@(a|b)", "!(x)", "*.+(c|h)", "?(y)", "a*(z)", "@(a b)"])
def test_extended_glob_stays_one_word(pattern: str) -> None:
    assert word(pattern).text == pattern


def test_substitution_inside_extended_glob_is_parsed() -> None:
    """``@($(cmd))`` runs ``cmd`` (bash expands the group): it must not hide as text."""
    w = word("!(*.py|$(rm -rf x)|`id`)")
    subs = [p for p in w.parts if isinstance(p, CommandSubstitution)]
    assert [s.text for s in subs] == ["$(rm -rf x)", "`id`"]
    assert all(s.body is not None for s in subs)


def test_process_substitution_inside_parameter_argument_is_parsed() -> None:
    """``${x:-<(cmd)}`` runs ``cmd`` when the default is used; in double quotes it is text."""
    part = only_part("${x:-a<(rm -rf y)}")
    assert isinstance(part, ParamExpansion) and part.arg is not None
    kinds = [type(p).__name__ for p in part.arg.parts]
    assert kinds == ["Literal", "ProcessSubstitution"]
    quoted = only_part('"${x:-<(rm -rf y)}"')
    assert isinstance(quoted, DoubleQuoted)
    inner = quoted.parts[0]
    assert isinstance(inner, ParamExpansion) and inner.arg is not None
    assert all(isinstance(p, Literal) for p in inner.arg.parts)
    plain = only_part("${x:-a<b>c}")
    assert isinstance(plain, ParamExpansion) and plain.arg is not None
    assert plain.arg.text == "a<b>c"
