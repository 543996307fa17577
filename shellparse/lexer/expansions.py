"""``$…`` and backquotes: parameters (``$x``, ``${x…}`` with their operators and
arguments), command substitutions (``$(…)``, backquotes, ``${ …; }``), each read once per
offset (``memoized``); ``$((…))`` and subscripts go to ``arithmetic``.
"""

from __future__ import annotations

import re

from clearance.shellparse.errors import ShellSyntaxError
from clearance.shellparse.lalr import parse_tokens
from clearance.shellparse.lexer import arithmetic, scanner, words
from clearance.shellparse.lexer.chars import MAX_DEPTH, MAX_NESTING, NAME
from clearance.shellparse.nodes import (
    CommandSubstitution,
    Literal,
    ParamExpansion,
    ProcessSubstitution,
    Script,
    Word,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

    from clearance.shellparse.lexer.scanner import Lexer
    from clearance.shellparse.nodes import Part


_PARAM_ARG_LITERAL: Final = re.compile(r"[^}\\'\"$`<>]+")
_DIGITS: Final = re.compile(r"[0-9]+")
_PARAM_OP: Final = re.compile(r":[-=?+]|[-=?+]|##|#|%%|%|//|/#|/%|/|\^\^|\^|,,|,|~~|~|@|:")


def dollar(lx: Lexer, pos: int, *, in_dq: bool) -> tuple[Part, int]:
    if lx.text[pos + 1 : pos + 2] in ("(", "{", "["):
        return memoized(lx, pos, in_dq, nested_dollar)
    return dollar_uncached(lx, pos, in_dq)


def nested_dollar(lx: Lexer, pos: int, in_dq: bool) -> tuple[Part, int]:
    """``dollar_uncached`` of an expansion that can hold others, within the nesting bound."""
    shared = lx.shared
    if shared.nesting >= MAX_NESTING:
        raise ShellSyntaxError("expansions nested too deeply", pos, "depth_limit")
    shared.nesting += 1
    try:
        return dollar_uncached(lx, pos, in_dq)
    finally:
        shared.nesting -= 1


def memoized(
    lx: Lexer, pos: int, in_dq: bool, read: Callable[[Lexer, int, bool], tuple[Part, int]]
) -> tuple[Part, int]:
    """``read(lx, pos, in_dq)``, once per offset and depth; here-documents it opens included."""
    key = (pos, in_dq)
    hit = lx.shared.expansions.get(key)
    if hit is None:
        mark = len(lx.pending)
        try:
            part, end = read(lx, pos, in_dq)
        except ShellSyntaxError as exc:
            del lx.pending[mark:]
            if exc.code != "depth_limit":  # that one ends the whole parse anyway
                lx.shared.expansions[key] = exc
            raise
        lx.shared.expansions[key] = (part, end, lx.pending[mark:])
        return part, end
    if isinstance(hit, ShellSyntaxError):
        raise hit
    part, end, heredocs = hit
    lx._add_pending(heredocs)
    return part, end


def dollar_uncached(lx: Lexer, pos: int, in_dq: bool) -> tuple[Part, int]:
    text = lx.text
    following = text[pos + 1 : pos + 2]
    if following == "(":
        if text.startswith("((", pos + 1):
            found = arithmetic.arith(lx, pos + 3, "))")
            if found is not None:
                return found
            try:
                body, end = substitution(lx, pos + 2)
            except ShellSyntaxError as exc:
                # Bash does not read `$((…))` when it parses the line: if the parentheses
                # balance, the line is valid and this part fails when it runs.
                close = arithmetic.paren_end(lx, pos + 2) if exc.code != "depth_limit" else -1
                if close < 0:
                    raise
                return CommandSubstitution(
                    None, text[pos : close + 1], False, exc.message
                ), close + 1
        else:
            body, end = substitution(lx, pos + 2)
        return CommandSubstitution(body, text[pos : end + 1], False), end + 1
    if following == "{":
        return braced_parameter(lx, pos, in_dq)
    if following == "'" and not in_dq:
        return words.ansi_c(lx, pos + 2)
    if following == '"' and not in_dq:
        dq, end = words.double_quoted(lx, pos + 2)
        dq.locale = True
        return dq, end
    if following == "[":
        found = arithmetic.arith(lx, pos + 2, "]")
        if found is None:
            raise ShellSyntaxError("unterminated '$['", pos, "unterminated")
        return found
    m = NAME.match(text, pos + 1)
    if m is not None:
        return ParamExpansion(m.group(), text[pos : m.end()]), m.end()
    if following and (following.isdigit() or following in "@*#?$!-"):
        return ParamExpansion(following, text[pos : pos + 2]), pos + 2
    return Literal("$", in_dq), pos + 1


def braced_parameter(lx: Lexer, dollar: int, in_dq: bool) -> tuple[Part, int]:
    text = lx.text
    n = lx.n
    pos = dollar + 2
    if pos < n and (text[pos] in " \t\n|"):
        return function_substitution(lx, dollar, in_dq)
    indirect = length = False
    if pos < n and text[pos] == "!" and text[pos + 1 : pos + 2] not in ("}", ""):
        indirect = True
        pos += 1
    elif pos < n and text[pos] == "#" and text[pos + 1 : pos + 2] not in ("}", ""):
        following = text[pos + 1]
        if (
            following.isalnum()
            or following == "_"
            or (following in "@*!?$-#" and text[pos + 2 : pos + 3] == "}")
        ):
            length = True
            pos += 1
    m = NAME.match(text, pos) or _DIGITS.match(text, pos)
    if m is not None:
        name = m.group()
        pos = m.end()
    elif pos < n and text[pos] in "@*#?$!-":
        name = text[pos]
        pos += 1
    else:
        return invalid_parameter(lx, dollar, in_dq)
    subscript = None
    if pos < n and text[pos] == "[":
        try:
            found = arithmetic.arith(lx, pos + 1, "]")
        except ShellSyntaxError as exc:
            if exc.code == "depth_limit":
                raise
            found = None  # `"${a[@}"`: the `}` ends it, the quote after it is not inside
        if found is None:
            return invalid_parameter(lx, dollar, in_dq)
        subscript, pos = found
    op = arg = None
    if indirect and text[pos : pos + 1] in ("*", "@") and text[pos + 1 : pos + 2] == "}":
        op = text[pos]
        pos += 1
    else:
        m = _PARAM_OP.match(text, pos)
        if m is not None:
            op = m.group()
            arg, pos = parameter_argument(lx, m.end(), dollar, in_dq)
    if pos >= n or text[pos] != "}":
        return invalid_parameter(lx, dollar, in_dq)
    return (
        ParamExpansion(
            name,
            text[dollar : pos + 1],
            braced=True,
            op=op,
            arg=arg,
            subscript=subscript,
            indirect=indirect,
            length=length,
        ),
        pos + 1,
    )


def invalid_parameter(lx: Lexer, dollar: int, in_dq: bool) -> tuple[ParamExpansion, int]:
    """``${…}`` that bash accepts when reading but rejects when running it."""
    arg, end = parameter_argument(lx, dollar + 2, dollar, in_dq)
    param = ParamExpansion("", lx.text[dollar : end + 1], braced=True, arg=arg)
    param.invalid = True
    return param, end + 1


def function_substitution(lx: Lexer, dollar: int, in_dq: bool) -> tuple[Part, int]:
    """``${ cmd; }`` / ``${| cmd; }``: newer bash runs ``cmd`` in the current shell."""
    if lx.depth + 1 > MAX_DEPTH:
        raise ShellSyntaxError("substitutions nested too deeply", dollar, "depth_limit")
    start = dollar + 2
    if lx.text[start] == "|":
        start += 1
    inner = scanner.Lexer(lx.text, start, depth=lx.depth + 1, subst=True, shared=lx.shared)
    inner.closer = "RBRACE"
    inner.opening = dollar
    try:
        script = parse_tokens(inner)
    except ShellSyntaxError as exc:
        if exc.code == "depth_limit":
            raise
        # Bash before 5.3 reads `${ …}` as a parameter expansion, which fails only when
        # it runs; so does this text as a command.
        return invalid_parameter(lx, dollar, in_dq)
    assert isinstance(script, Script)
    lx._add_pending(inner.pending)
    end = inner.end_pos
    return CommandSubstitution(script, lx.text[dollar : end + 1], False), end + 1


def parameter_argument(lx: Lexer, pos: int, opening: int, in_dq: bool) -> tuple[Word, int]:
    text = lx.text
    n = lx.n
    start = pos
    parts: list[Part] = []
    while pos < n:
        c = text[pos]
        if c == "}":
            # Bash pairs the `}` with the `${`, not with a plain `{` before it:
            # `${x:-{a}b}` is `${x:-{a}` followed by `b}`.
            return Word(parts, text[start:pos], start, pos), pos
        if c == "\\":
            following = text[pos + 1 : pos + 2]
            if following == "\n":
                pos += 2
            elif following:
                words.add_literal(parts, following, True)
                pos += 2
            else:
                pos += 1
        elif c in "'\"$`":
            pos = words.quoted_or_expansion(lx, c, pos, parts)
        elif c in "<>" and not in_dq and text.startswith("(", pos + 1):
            # `${x:-<(cmd)}` runs `cmd` when it expands (inside double quotes it is text).
            body, end = substitution(lx, pos + 2)
            parts.append(ProcessSubstitution(c, body, text[pos : end + 1]))
            pos = end + 1
        else:
            m = _PARAM_ARG_LITERAL.match(text, pos)
            end = pos + 1 if m is None else m.end()  # a `<` or `>` not opening `(…)`
            words.add_literal(parts, text[pos:end], False)
            pos = end
    raise ShellSyntaxError("unterminated '${'", opening, "unterminated")


def backtick(lx: Lexer, pos: int, *, in_dq: bool) -> tuple[CommandSubstitution, int]:
    part, end = memoized(lx, pos - 1, in_dq, backtick_uncached)
    assert isinstance(part, CommandSubstitution)
    return part, end


def backtick_uncached(lx: Lexer, opening: int, in_dq: bool) -> tuple[CommandSubstitution, int]:
    pos = opening + 1
    text = lx.text
    n = lx.n
    out: list[str] = []
    while pos < n:
        c = text[pos]
        if c == "`":
            break
        if c == "\\" and pos + 1 < n:
            following = text[pos + 1]
            if following in "$`\\" or (in_dq and following == '"'):
                out.append(following)
                pos += 2
                continue
            if following == "\n":
                pos += 2
                continue
        out.append(c)
        pos += 1
    else:
        raise ShellSyntaxError("unterminated backquote", opening, "unterminated")
    if lx.depth + 1 > MAX_DEPTH:
        raise ShellSyntaxError("substitutions nested too deeply", opening, "depth_limit")
    source = text[opening : pos + 1]
    try:
        body = scanner.parse_script("".join(out), lx.depth + 1, "backtick")
    except ShellSyntaxError as exc:
        if exc.code == "depth_limit":
            raise
        # Bash too reads backquotes only when it runs them: the line is valid, this
        # substitution fails when it runs, the rest of the line still runs.
        return CommandSubstitution(None, source, True, exc.message), pos + 1
    return CommandSubstitution(body, source, True), pos + 1


def substitution(lx: Lexer, pos: int) -> tuple[Script, int]:
    """Parse the script of ``$(…)``/``<(…)`` starting at ``pos``; returns it and its ``)``."""
    if lx.depth + 1 > MAX_DEPTH:
        raise ShellSyntaxError("substitutions nested too deeply", pos, "depth_limit")
    inner = scanner.Lexer(lx.text, pos, depth=lx.depth + 1, subst=True, shared=lx.shared)
    inner.opening = pos - 2
    script = parse_tokens(inner)
    assert isinstance(script, Script)
    lx._add_pending(inner.pending)
    return script, inner.end_pos
