"""The LALR(1) driver: runs the table Lark built for ``shell.lark``.

It is the loop of any LALR parser -- shift, or reduce through a callback and go to the next
state -- with one addition that makes bash parseable: before reading each token the lexer is
shown the terminals the current state accepts, so it can tell a keyword from a word and the
``)`` that ends a ``$(…)`` from one that closes a subshell inside it.
"""

from __future__ import annotations

from clearance.shellparse import _lalr_table, builder
from clearance.shellparse.errors import ShellSyntaxError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

    from clearance.shellparse.lexer import Lexer

    Callback = Callable[[list[object]], object]

#: Deepest parser stack allowed. Nesting (subshells, groups, loops) is what grows the stack;
#: 600 entries is about 150 levels, far past anything real, and keeps every later recursive
#: walk of the tree well inside Python's recursion limit.
MAX_STACK: Final = 600
#: Most tokens the parses of one text may shift, nested substitutions included (a step
#: budget: the corpus's largest script needs ~300; past it the text is ``input_too_large``).
MAX_TOKENS: Final = 10_000

_STATES: Final = _lalr_table.STATES
_START: Final = _lalr_table.START
_END: Final = _lalr_table.END


def _resolve(name: str) -> Callback:
    callback = getattr(builder, name, None)
    if callback is None:
        return builder.unexpected_rule
    return callback  # type: ignore[no-any-return]


def _compile_rule(name: str, size: int, origin: str) -> tuple[Callback | None, int, str]:
    callback = _resolve(name)
    if size == 1 and callback in builder.PASSTHROUGH:
        return None, size, origin
    return callback, size, origin


_RULES = [_compile_rule(name, size, origin) for name, size, origin in _lalr_table.RULES]

_TOKEN_NAMES: Final = {
    "$END": "end of input",
    "NEWLINE": "newline",
    "WORD": "a word",
    "ASSIGNMENT_WORD": "an assignment",
    "IO_NUMBER": "a file descriptor",
    "AND_IF": "'&&'",
    "OR_IF": "'||'",
    "SEMI": "';'",
    "AMP": "'&'",
    "PIPE": "'|'",
    "PIPE_AMP": "'|&'",
    "LPAREN": "'('",
    "RPAREN": "')'",
    "DSEMI": "';;'",
    "SEMI_AMP": "';&'",
    "DSEMI_AMP": "';;&'",
    "LESS": "'<'",
    "GREAT": "'>'",
    "DGREAT": "'>>'",
    "CLOBBER": "'>|'",
    "LESSGREAT": "'<>'",
    "LESSAND": "'<&'",
    "GREATAND": "'>&'",
    "AND_GREAT": "'&>'",
    "AND_DGREAT": "'&>>'",
    "TLESS": "'<<<'",
    "DLESS": "'<<'",
    "DLESSDASH": "'<<-'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "BANG": "'!'",
    "TIMEOPT": "'-p'",
    "COND_CMD": "'[[ … ]]'",
    "ARITH_CMD": "'(( … ))'",
    "ARITH_FOR_EXPR": "'(( … ))'",
}


def describe_terminal(name: str) -> str:
    """A terminal as a person would name it in an error message."""
    return _TOKEN_NAMES.get(name) or f"'{name.lower()}'"


def can_shift(stack: list[int], terminal: str) -> bool:
    """Whether ``terminal`` would be shifted after the reductions it triggers.

    A state's row lists every terminal some merged LALR context allows; only running the
    reductions tells whether this context allows it. The lexer asks this at a ``)`` inside
    ``$(…)``: closing a subshell or a case pattern, or ending the substitution.
    """
    states = _STATES
    stack = list(stack)
    while True:
        action = states[stack[-1]].get(terminal)
        if action is None:
            return False
        if action >= 0:
            return True
        _, size, origin = _RULES[-action - 1]
        for _ in range(size):
            stack.pop()
        stack.append(states[stack[-1]][origin])


def parse_tokens(lexer: Lexer) -> object:
    """Parse everything ``lexer`` yields; returns the value of the start rule (a ``Script``)."""
    states = _STATES
    rules = _RULES
    stack = [_START]
    values: list[object] = []
    state = _START
    token = lexer.next_token(states[state], stack)
    while True:
        row = states[state]
        action = row.get(token.type)
        if action is None:
            expected = sorted(describe_terminal(t) for t in row if t.isupper() or t == "$END")
            raise ShellSyntaxError(
                f"unexpected {describe_terminal(token.type)}"
                + (f" ({token.source!r})" if token.source else "")
                + (f"; expected {', '.join(expected[:8])}" if expected else ""),
                token.start,
                expected=expected,
            )
        if action >= 0:
            stack.append(action)
            values.append(token)
            state = action
            if len(stack) > MAX_STACK:
                raise ShellSyntaxError("nesting is too deep", token.start, "depth_limit")
            shared = lexer.shared
            shared.tokens += 1
            if shared.tokens > MAX_TOKENS:
                raise ShellSyntaxError(
                    f"more than {MAX_TOKENS} tokens: the parse stops there",
                    token.start,
                    "input_too_large",
                )
            token = lexer.next_token(states[state], stack)
            continue
        callback, size, origin = rules[-action - 1]
        if callback is None:
            # A unit rule whose node is its only child (command -> simple_command, …):
            # the value stays, only the state moves.
            state = states[stack[-2]][origin]
            stack[-1] = state
            value = values[-1]
        else:
            if size:
                children = values[-size:]
                for _ in range(size):  # (pops: a slice deletion builds a slice object)
                    values.pop()
                    stack.pop()
            else:
                children = []
            value = callback(children)
            state = states[stack[-1]][origin]
            stack.append(state)
            values.append(value)
        if state == _END and token.type == "$END":
            return value
