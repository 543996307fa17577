"""The shape of the tree ``parse`` builds for each construct of the bash grammar.

Every test names a construct and asserts the nodes it becomes: which command sits where, which
operator joins what, what a keyword in an unusual place turns into. The facts layer walks
these trees; a wrong shape here is a command the policy never sees.
"""

from __future__ import annotations

import pytest

from clearance.shellparse.nodes import (
    AndOr,
    ArithCommand,
    ArithFor,
    BraceGroup,
    Case,
    CommandSubstitution,
    Cond,
    Coproc,
    For,
    FunctionDef,
    If,
    Pipeline,
    ProcessSubstitution,
    Script,
    SimpleCommand,
    Statement,
    Subshell,
    While,
    Word,
)
from clearance.shellparse.parser import parse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.nodes import Command


def script(text: str) -> Script:
    result = parse(text)
    assert result.error is None, f"{text!r}: {result.error}"
    assert result.script is not None
    return result.script


def pipelines(text: str) -> list[Pipeline]:
    return [p for s in script(text).statements for p in s.and_or.pipelines]


def commands(body: list[Statement]) -> list[Command]:
    return [c for s in body for p in s.and_or.pipelines for c in p.commands]


def only(text: str) -> Command:
    found = commands(script(text).statements)
    assert len(found) == 1, found
    return found[0]


def simple(command: object) -> SimpleCommand:
    assert isinstance(command, SimpleCommand), command
    return command


def texts(command: object) -> list[str]:
    return [w.text for w in simple(command).words]


# --- simple commands, assignments, keywords as words -------------------------------------


def test_simple_command_words_in_order() -> None:
    assert texts(only("git commit -m 'a b'")) == ["git", "commit", "-m", "'a b'"]


def test_assignments_before_the_program_are_not_words() -> None:
    command = simple(only("A=1 B+=x C[2]=y D=(p q) env"))
    assert [a.name for a in command.assignments] == ["A", "B", "C", "D"]
    assert [a.append for a in command.assignments] == [False, True, False, False]
    assert command.assignments[2].subscript is not None
    assert command.assignments[2].subscript.expression == "2"
    array = command.assignments[3].array
    assert array is not None and [w.text for w in array] == ["p", "q"]
    assert texts(command) == ["env"]


def test_assignment_after_the_program_is_an_argument() -> None:
    command = simple(only("echo A=1"))
    assert command.assignments == []
    assert texts(command) == ["echo", "A=1"]


def test_assignment_only_command() -> None:
    command = simple(only("A=1 >out"))
    assert command.words == []
    assert [a.name for a in command.assignments] == ["A"]
    assert [r.op for r in command.redirects] == [">"]


@pytest.mark.parametrize(
    "text",
    ["echo if then fi", "echo for do done", "echo case esac in", "echo { } ! time"],
)
def test_reserved_words_after_the_program_are_arguments(text: str) -> None:
    assert texts(only(text)) == text.split()


def test_reserved_words_as_loop_items_and_case_patterns() -> None:
    loop = only("for x in do done; do :; done")
    assert isinstance(loop, For)
    assert loop.items is not None and [w.text for w in loop.items] == ["do", "done"]
    case = only("case do in do|then) :;; esac")
    assert isinstance(case, Case)
    assert case.subject.text == "do"
    assert [w.text for w in case.items[0].patterns] == ["do", "then"]


def test_quoted_keyword_is_a_command_name() -> None:
    assert texts(only("'if' x")) == ["'if'", "x"]
    assert texts(only("\\if x")) == ["\\if", "x"]


# --- pipelines and lists -----------------------------------------------------------------


def test_pipeline_with_stderr_pipe_and_negation() -> None:
    [pipeline] = pipelines("! a | b |& c")
    assert pipeline.negated
    assert [texts(c)[0] for c in pipeline.commands] == ["a", "b", "c"]
    assert pipeline.stderr == [False, True, False]


def test_double_negation_cancels() -> None:
    [pipeline] = pipelines("! ! a")
    assert not pipeline.negated


def test_bare_bang_is_an_empty_negated_pipeline() -> None:
    [pipeline] = pipelines("!")
    assert pipeline.negated and pipeline.commands == []


def test_time_with_and_without_p() -> None:
    [timed] = pipelines("time -p a | b")
    assert timed.timed and len(timed.commands) == 2
    [alone] = pipelines("time")
    assert alone.timed and alone.commands == []
    [both] = pipelines("time ! a")
    assert both.timed and both.negated


def test_pipe_continues_on_next_line() -> None:
    [pipeline] = pipelines("a |\n\n b")
    assert len(pipeline.commands) == 2


def test_and_or_operators_in_order() -> None:
    [statement] = script("a && b || c").statements
    assert isinstance(statement.and_or, AndOr)
    assert statement.and_or.operators == ["&&", "||"]
    assert len(statement.and_or.pipelines) == 3


def test_list_separators_and_background() -> None:
    statements = script("a & b; c\nd &").statements
    assert [s.background for s in statements] == [True, False, False, True]
    assert [texts(s.and_or.pipelines[0].commands[0])[0] for s in statements] == [
        "a",
        "b",
        "c",
        "d",
    ]


def test_empty_and_comment_only_scripts() -> None:
    assert script("").statements == []
    assert script("  \n\n# just a comment\n").statements == []


def test_comments_end_at_newline_and_need_a_word_boundary() -> None:
    statements = script("a # b c\nd e#f").statements
    assert [texts(s.and_or.pipelines[0].commands[0]) for s in statements] == [
        ["a"],
        ["d", "e#f"],
    ]


def test_line_continuation_joins_lines() -> None:
    assert texts(only("echo a \\\n  b")) == ["echo", "a", "b"]
    assert texts(only("ec\\\nho x")) == ["ec\\\nho", "x"]


def test_line_continuation_inside_an_operator() -> None:
    [statement] = script("a &\\\n& b").statements
    assert statement.and_or.operators == ["&&"]


# --- compound commands ---------------------------------------------------------------------


def test_subshell_and_brace_group() -> None:
    sub = only("(a; b)")
    assert isinstance(sub, Subshell) and len(commands(sub.body)) == 2
    group = only("{ a; b; }")
    assert isinstance(group, BraceGroup) and len(commands(group.body)) == 2


def test_compound_command_redirections() -> None:
    group = only("{ a; } >out 2>&1")
    assert isinstance(group, BraceGroup)
    assert [(r.fd, r.op) for r in group.redirects] == [(None, ">"), ("2", ">&")]
    loop = only("while read l; do :; done < in")
    assert isinstance(loop, While)
    assert [r.op for r in loop.redirects] == ["<"]


def test_if_elif_else() -> None:
    command = only("if a; then b; elif c; then d; else e; fi")
    assert isinstance(command, If)
    assert [(texts(commands(c)[0]), texts(commands(b)[0])) for c, b in command.branches] == [
        (["a"], ["b"]),
        (["c"], ["d"]),
    ]
    assert command.else_body is not None
    assert texts(commands(command.else_body)[0]) == ["e"]


def test_if_on_several_lines() -> None:
    command = only("if a\nthen\n  b\nfi")
    assert isinstance(command, If) and command.else_body is None


def test_for_loops() -> None:
    loop = only("for f in *.py a; do rm $f; done")
    assert isinstance(loop, For)
    assert loop.variable == "f" and not loop.select
    assert loop.items is not None and [w.text for w in loop.items] == ["*.py", "a"]
    positional = only("for a do echo $a; done")
    assert isinstance(positional, For) and positional.items is None
    braces = only("for a in 1; { echo; }")
    assert isinstance(braces, For) and len(commands(braces.body)) == 1


def test_arithmetic_for() -> None:
    loop = only("for ((i = 0; i < 3; i++)); do echo $i; done")
    assert isinstance(loop, ArithFor)
    assert loop.header.expression == "i = 0; i < 3; i++"
    assert texts(commands(loop.body)[0]) == ["echo", "$i"]


def test_select() -> None:
    loop = only("select x in a b; do break; done")
    assert isinstance(loop, For) and loop.select


def test_while_and_until() -> None:
    loop = only("while true; do a; done")
    assert isinstance(loop, While) and not loop.until
    assert texts(commands(loop.condition)[0]) == ["true"]
    until = only("until a; do b; done")
    assert isinstance(until, While) and until.until


def test_case_items_patterns_and_terminators() -> None:
    case = only("case $x in a|b) one;; (c) two;& *) ;;& esac")
    assert isinstance(case, Case)
    assert case.subject.text == "$x"
    assert [[w.text for w in item.patterns] for item in case.items] == [["a", "b"], ["c"], ["*"]]
    assert [item.terminator for item in case.items] == [";;", ";&", ";;&"]
    assert case.items[2].body == []


def test_case_last_item_without_terminator_and_empty_case() -> None:
    case = only("case x in\n  a) b\nesac")
    assert isinstance(case, Case) and case.items[0].terminator == ""
    empty = only("case x in esac")
    assert isinstance(empty, Case) and empty.items == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("f() { a; }", "f"),
        ("function g { a; }", "g"),
        ("function h() { a; }", "h"),
        ("function i\n{ a; }", "i"),
        ("j() ( a )", "j"),
        ("k()\n{ a; }", "k"),
    ],
)
def test_function_definitions(text: str, name: str) -> None:
    command = only(text)
    assert isinstance(command, FunctionDef)
    assert command.name == name
    assert isinstance(command.body, BraceGroup | Subshell)


def test_function_body_redirection() -> None:
    command = only("f() { a; } > log")
    assert isinstance(command, FunctionDef)
    assert isinstance(command.body, BraceGroup)
    assert [r.op for r in command.body.redirects] == [">"]


def test_conditional_expression() -> None:
    cond = only('[[ -f "$f" && ! -d x || ( a < b ) ]]')
    assert isinstance(cond, Cond)
    rendered = [item if isinstance(item, str) else item.text for item in cond.items]
    assert rendered == ["-f", '"$f"', "&&", "!", "-d", "x", "||", "(", "a", "<", "b", ")"]


def test_conditional_regex_keeps_its_parentheses() -> None:
    cond = only("[[ $a =~ ^(x|y) z$ ]]")
    assert isinstance(cond, Cond)
    assert [item if isinstance(item, str) else item.text for item in cond.items] == [
        "$a",
        "=~",
        "^(x|y)",
        "z$",
    ]


def test_double_bracket_needs_a_blank_to_be_a_keyword() -> None:
    assert texts(only("[[x")) == ["[[x"]


def test_arithmetic_command() -> None:
    command = only("(( i += $(a) ))")
    assert isinstance(command, ArithCommand)
    assert command.arith.expression == " i += $(a) "
    assert len(command.arith.substitutions) == 1


def test_double_parenthesis_that_is_not_arithmetic_is_two_subshells() -> None:
    command = only("((a) ; (b))")
    assert isinstance(command, Subshell)
    assert all(isinstance(c, Subshell) for c in commands(command.body))


def test_coproc_forms() -> None:
    plain = only("coproc cat file")
    assert isinstance(plain, Coproc) and plain.name is None
    assert texts(plain.command) == ["cat", "file"]
    named = only("coproc NAME { cat; }")
    assert isinstance(named, Coproc) and named.name == "NAME"
    assert isinstance(named.command, BraceGroup)


# --- substitutions nest commands -----------------------------------------------------------


def substitution(command: object, word: int = 1, part: int = 0) -> CommandSubstitution:
    found = simple(command).words[word].parts[part]
    assert isinstance(found, CommandSubstitution), found
    return found


def test_case_inside_command_substitution() -> None:
    sub = substitution(only("echo $(case x in a) b;; esac)"))
    assert sub.body is not None
    [case] = commands(sub.body.statements)
    assert isinstance(case, Case)
    assert texts(commands(case.items[0].body)[0]) == ["b"]


def test_parenthesis_inside_substitution_closes_the_right_thing() -> None:
    sub = substitution(only("echo $( (a) ; echo ')' \")\" )"))
    assert sub.body is not None
    inner = commands(sub.body.statements)
    assert isinstance(inner[0], Subshell)
    assert texts(inner[1]) == ["echo", "')'", '")"']


def test_nested_command_substitutions() -> None:
    word = simple(only('echo "$(a "$(b $(c))")"')).words[1]
    [dq] = word.parts
    first = dq.parts[0]  # type: ignore[union-attr]
    assert isinstance(first, CommandSubstitution) and first.body is not None
    a = simple(commands(first.body.statements)[0])
    second = a.words[1].parts[0].parts[0]  # type: ignore[union-attr]
    assert isinstance(second, CommandSubstitution) and second.body is not None
    b = simple(commands(second.body.statements)[0])
    third = b.words[1].parts[0]
    assert isinstance(third, CommandSubstitution) and third.body is not None
    assert texts(commands(third.body.statements)[0]) == ["c"]


def test_backticks_nested_with_escapes() -> None:
    sub = substitution(only("echo `a \\`b\\``"))
    assert sub.backtick and sub.body is not None and sub.body.origin == "backtick"
    inner = simple(commands(sub.body.statements)[0])
    assert texts(inner)[0] == "a"
    nested = inner.words[1].parts[0]
    assert isinstance(nested, CommandSubstitution) and nested.backtick
    assert nested.body is not None
    assert texts(commands(nested.body.statements)[0]) == ["b"]


def test_backtick_that_does_not_parse_keeps_the_line() -> None:
    command = simple(only("echo `if` b"))
    sub = command.words[1].parts[0]
    assert isinstance(sub, CommandSubstitution)
    assert sub.body is None and sub.error
    assert texts(command) == ["echo", "`if`", "b"]


def test_process_substitutions() -> None:
    command = simple(only("diff <(sort a) >(tee b)"))
    subs = [w.parts[0] for w in command.words[1:]]
    assert all(isinstance(s, ProcessSubstitution) for s in subs)
    assert [s.direction for s in subs] == ["<", ">"]  # type: ignore[union-attr]
    assert texts(commands(subs[0].body.statements)[0]) == ["sort", "a"]  # type: ignore[union-attr]


def test_redirect_from_process_substitution() -> None:
    loop = only("cat < <(ls)")
    redirect = simple(loop).redirects[0]
    assert redirect.op == "<" and redirect.target is not None
    assert isinstance(redirect.target.parts[0], ProcessSubstitution)


def test_function_substitution() -> None:
    sub = substitution(only("echo ${ a; b; }"))
    assert sub.body is not None and len(commands(sub.body.statements)) == 2


# --- syntax errors bash reports too ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["do su", "then x", "fi", "a; done", "esac", "in x", "}", "a | }", "]]", "a | ! b", "a | !"],
)
def test_closing_reserved_word_where_a_command_starts_is_an_error(text: str) -> None:
    result = parse(text)
    assert result.error is not None and result.error.code == "parse_error"


def test_every_statement_is_a_statement_node() -> None:
    for statement in script("a; b && c | d &").statements:
        assert isinstance(statement, Statement)
        assert all(isinstance(p, Pipeline) for p in statement.and_or.pipelines)
        assert all(isinstance(w, Word) for p in statement.and_or.pipelines for w in texts_words(p))


def texts_words(pipeline: Pipeline) -> list[Word]:
    return [w for c in pipeline.commands for w in simple(c).words]
