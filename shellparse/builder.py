"""Reduce callbacks: each alias in ``shell.lark`` names the function here that builds its node.

The shape of a Lark ``Transformer`` with inline callbacks: a callback receives the matched
children (tokens for terminals, earlier results for rules) and returns a typed node, so no
generic parse tree is ever built. Children positions follow the grammar alternative exactly.
"""

from __future__ import annotations

from clearance.shellparse.errors import ShellSyntaxError
from clearance.shellparse.nodes import (
    AndOr,
    ArithCommand,
    ArithFor,
    Assignment,
    BraceGroup,
    Case,
    CaseItem,
    Cond,
    Coproc,
    For,
    FunctionDef,
    HereDoc,
    If,
    Pipeline,
    Redirect,
    Script,
    SimpleCommand,
    Statement,
    Subshell,
    While,
    Word,
)
from clearance.shellparse.tokens import Token

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

    from clearance.shellparse.nodes import ArithmeticExpansion, Command

    Children = list[object]
    Body = list[Statement]
    ElsePart = tuple[list[tuple[Body, Body]], Body | None]


def _tok(x: object) -> Token:
    assert isinstance(x, Token)
    return x


def _word(x: object) -> Word:
    value = _tok(x).value
    assert isinstance(value, Word)
    return value


def _body(x: object) -> Body:
    assert isinstance(x, list)
    return x


def _command(x: object) -> Command:
    return x  # type: ignore[return-value]


#: Callbacks of one-child rules that return that child unchanged (:func:`passthrough`).
PASSTHROUGH: Final[set[Callable[[Children], object]]] = set()


def passthrough(fn: Callable[[Children], object]) -> Callable[[Children], object]:
    """Marks a callback of a one-child rule that returns that child unchanged: the driver
    then only moves the state and skips the call. (A set, not an attribute on the function:
    compiled functions take no attributes.)"""
    PASSTHROUGH.add(fn)
    return fn


def unexpected_rule(children: Children) -> object:
    raise ShellSyntaxError("internal error: grammar rule without a callback", 0, "internal_error")


def ignore(children: Children) -> None:
    return None


# --- programs and lists -----------------------------------------------------------------


def program_empty(children: Children) -> Script:
    return Script([])


def program(children: Children) -> Script:
    return Script(_body(children[1]))


@passthrough
def commands_first(children: Children) -> Body:
    return _body(children[0])


def commands_more(children: Children) -> Body:
    body = _body(children[0])
    body.extend(_body(children[2]))
    return body


@passthrough
def statement_list(children: Children) -> Body:
    return _body(children[0])


def statement_list_sep(children: Children) -> Body:
    body = _body(children[0])
    body[-1].background = children[1] == "&"
    return body


def list_first(children: Children) -> Body:
    and_or = children[0]
    assert isinstance(and_or, AndOr)
    return [Statement(and_or, False)]


def list_more(children: Children) -> Body:
    body = _body(children[0])
    body[-1].background = children[1] == "&"
    and_or = children[2]
    assert isinstance(and_or, AndOr)
    body.append(Statement(and_or, False))
    return body


term_first = list_first
term_more = list_more


def separator_op(children: Children) -> str:
    return str(_tok(children[0]).value)


@passthrough
def separator(children: Children) -> object:
    return children[0]


def separator_newline(children: Children) -> str:
    return "\n"


def and_or_first(children: Children) -> AndOr:
    pipeline = children[0]
    assert isinstance(pipeline, Pipeline)
    return AndOr([pipeline], [])


def and_or_more(children: Children) -> AndOr:
    and_or = children[0]
    pipeline = children[3]
    assert isinstance(and_or, AndOr) and isinstance(pipeline, Pipeline)
    and_or.operators.append(str(_tok(children[1]).value))
    and_or.pipelines.append(pipeline)
    return and_or


@passthrough
def pipeline_plain(children: Children) -> object:
    return children[0]


def pipeline_bang(children: Children) -> Pipeline:
    pipeline = children[1]
    assert isinstance(pipeline, Pipeline)
    pipeline.negated = not pipeline.negated
    return pipeline


def pipeline_bang_alone(children: Children) -> Pipeline:
    """``!`` with nothing after it: bash accepts it (an empty pipeline, negated)."""
    pipeline = Pipeline([], [])
    pipeline.negated = True
    return pipeline


def pipeline_time(children: Children) -> Pipeline:
    pipeline = children[-1]
    assert isinstance(pipeline, Pipeline)
    pipeline.timed = True
    return pipeline


pipeline_time_opt = pipeline_time


def pipeline_time_alone(children: Children) -> Pipeline:
    pipeline = Pipeline([], [])
    pipeline.timed = True
    return pipeline


def pipe_first(children: Children) -> Pipeline:
    return Pipeline([_command(children[0])], [False])


def pipe_more(children: Children) -> Pipeline:
    pipeline = children[0]
    assert isinstance(pipeline, Pipeline)
    pipeline.stderr[-1] = _tok(children[1]).type == "PIPE_AMP"
    pipeline.commands.append(_command(children[3]))
    pipeline.stderr.append(False)
    return pipeline


# --- commands ---------------------------------------------------------------------------


@passthrough
def command_simple(children: Children) -> object:
    return children[0]


command_compound = command_simple
command_function = command_simple
command_coproc = command_simple
compound = command_simple


def command_compound_redirected(children: Children) -> object:
    command = children[0]
    redirects = children[1]
    assert isinstance(redirects, list)
    command.redirects = redirects  # type: ignore[attr-defined]
    return command


function_body = command_simple
function_body_redirected = command_compound_redirected


def coproc_simple(children: Children) -> Coproc:
    return Coproc(None, _command(children[1]))


coproc_compound = coproc_simple


def coproc_named(children: Children) -> Coproc:
    return Coproc(_word(children[1]).text, _command(children[2]))


def cond_command(children: Children) -> Cond:
    items = _tok(children[0]).value
    assert isinstance(items, list)
    return Cond(items)


def arith_command(children: Children) -> ArithCommand:
    return ArithCommand(_tok(children[0]).value)  # type: ignore[arg-type]


def subshell(children: Children) -> Subshell:
    return Subshell(_body(children[1]))


def brace_group(children: Children) -> BraceGroup:
    return BraceGroup(_body(children[1]))


def compound_list(children: Children) -> Body:
    return _body(children[1])


def compound_list_sep(children: Children) -> Body:
    body = _body(children[1])
    if children[2] == "&":
        body[-1].background = True
    return body


def do_group(children: Children) -> Body:
    return _body(children[1])


def for_body(children: Children) -> Body:
    body = children[0]
    if isinstance(body, BraceGroup):
        return body.body
    return _body(body)


def for_positional(children: Children) -> For:
    return For(_word(children[1]).text, None, _body(children[-1]), select=False)


def for_in_empty(children: Children) -> For:
    return For(_word(children[1]).text, [], _body(children[-1]), select=False)


def for_in(children: Children) -> For:
    items = children[4]
    assert isinstance(items, list)
    return For(_word(children[1]).text, items, _body(children[-1]), select=False)


def select_positional(children: Children) -> For:
    loop = for_positional(children)
    loop.select = True
    return loop


def select_in_empty(children: Children) -> For:
    loop = for_in_empty(children)
    loop.select = True
    return loop


def select_in(children: Children) -> For:
    loop = for_in(children)
    loop.select = True
    return loop


def for_arith(children: Children) -> ArithFor:
    header: ArithmeticExpansion = _tok(children[1]).value  # type: ignore[assignment]
    return ArithFor(header, _body(children[-1]))


def wordlist_first(children: Children) -> list[Word]:
    return [_word(children[0])]


def wordlist_more(children: Children) -> list[Word]:
    words = children[0]
    assert isinstance(words, list)
    words.append(_word(children[1]))
    return words


pattern_first = wordlist_first


def pattern_more(children: Children) -> list[Word]:
    words = children[0]
    assert isinstance(words, list)
    words.append(_word(children[2]))
    return words


def case_clause(children: Children) -> Case:
    items = children[5]
    assert isinstance(items, list)
    return Case(_word(children[1]), items)


def case_clause_empty(children: Children) -> Case:
    return Case(_word(children[1]), [])


def case_list_first(children: Children) -> list[CaseItem]:
    item = children[0]
    assert isinstance(item, CaseItem)
    return [item]


def case_list_more(children: Children) -> list[CaseItem]:
    items = children[0]
    item = children[1]
    assert isinstance(items, list) and isinstance(item, CaseItem)
    items.append(item)
    return items


def _case_item(patterns: object, body: object, terminator: object) -> CaseItem:
    assert isinstance(patterns, list)
    return CaseItem(patterns, _body(body) if body is not None else [], str(terminator or ""))


def case_item_empty(children: Children) -> CaseItem:
    return _case_item(children[0], None, None)


def case_item_body(children: Children) -> CaseItem:
    return _case_item(children[0], children[2], None)


def case_item_empty_paren(children: Children) -> CaseItem:
    return _case_item(children[1], None, None)


def case_item_body_paren(children: Children) -> CaseItem:
    return _case_item(children[1], children[3], None)


def case_item_empty_sep(children: Children) -> CaseItem:
    return _case_item(children[0], None, children[3])


def case_item_body_sep(children: Children) -> CaseItem:
    return _case_item(children[0], children[2], children[3])


def case_item_empty_sep_paren(children: Children) -> CaseItem:
    return _case_item(children[1], None, children[4])


def case_item_body_sep_paren(children: Children) -> CaseItem:
    return _case_item(children[1], children[3], children[4])


def case_sep(children: Children) -> str:
    return str(_tok(children[0]).value)


def if_plain(children: Children) -> If:
    return If([(_body(children[1]), _body(children[3]))], None)


def if_else(children: Children) -> If:
    rest: ElsePart = children[4]  # type: ignore[assignment]
    return If([(_body(children[1]), _body(children[3])), *rest[0]], rest[1])


def elif_last(children: Children) -> ElsePart:
    return ([(_body(children[1]), _body(children[3]))], None)


def elif_more(children: Children) -> ElsePart:
    rest: ElsePart = children[4]  # type: ignore[assignment]
    return ([(_body(children[1]), _body(children[3])), *rest[0]], rest[1])


def else_part(children: Children) -> ElsePart:
    return ([], _body(children[1]))


def while_clause(children: Children) -> While:
    return While(_body(children[1]), _body(children[2]), until=False)


def until_clause(children: Children) -> While:
    return While(_body(children[1]), _body(children[2]), until=True)


def function_def(children: Children) -> FunctionDef:
    return FunctionDef(_word(children[0]).text, _command(children[-1]))


def function_def_keyword_parens(children: Children) -> FunctionDef:
    return FunctionDef(_word(children[1]).text, _command(children[-1]))


function_def_keyword = function_def_keyword_parens
function_def_keyword_newline = function_def_keyword_parens


# --- simple commands and redirections ---------------------------------------------------


def items_first(children: Children) -> list[object]:
    return [children[0]]


def items_more(children: Children) -> list[object]:
    items = children[0]
    assert isinstance(items, list)
    items.append(children[1])
    return items


def _simple(prefix: object, name: object, suffix: object) -> SimpleCommand:
    assignments: list[Assignment] = []
    words: list[Word] = []
    redirects: list[Redirect] = []
    start = end = -1
    for group in (prefix, [name] if name is not None else None, suffix):
        if not group:
            continue
        assert isinstance(group, list)
        for item in group:
            if isinstance(item, Redirect):
                redirects.append(item)
                item_start, item_end = item.start, item.end
            else:
                token = _tok(item)
                if isinstance(token.value, Assignment):
                    assignments.append(token.value)
                else:
                    words.append(_word(token))
                item_start, item_end = token.start, token.end
            if start < 0:
                start = item_start
            end = max(end, item_end)
    return SimpleCommand(assignments, words, redirects, start, end)


def simple_prefix_name_suffix(children: Children) -> SimpleCommand:
    return _simple(children[0], children[1], children[2])


def simple_prefix_name(children: Children) -> SimpleCommand:
    return _simple(children[0], children[1], None)


def simple_prefix(children: Children) -> SimpleCommand:
    return _simple(children[0], None, None)


def simple_name_suffix(children: Children) -> SimpleCommand:
    return _simple(None, children[0], children[1])


def simple_name(children: Children) -> SimpleCommand:
    return _simple(None, children[0], None)


@passthrough
def io_redirect(children: Children) -> object:
    return children[0]


def io_redirect_fd(children: Children) -> Redirect:
    fd = _tok(children[0])
    redirect = children[1]
    assert isinstance(redirect, Redirect)
    redirect.fd = str(fd.value)
    redirect.start = fd.start
    return redirect


def io_file(children: Children) -> Redirect:
    op = _tok(children[0])
    target = _tok(children[1])
    if isinstance(target.value, HereDoc):
        return Redirect(str(op.value), None, target.value, None, op.start, target.end)
    return Redirect(str(op.value), _word(target), None, None, op.start, target.end)
