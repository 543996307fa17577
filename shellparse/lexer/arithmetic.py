"""Arithmetic: ``$((…))``, ``((…))`` and subscripts (``a[i+1]``), scanned for the
substitutions and parameters they hold; where a ``(`` is closed.
"""

from __future__ import annotations

from clearance.shellparse.errors import ShellSyntaxError
from clearance.shellparse.lexer import expansions, words
from clearance.shellparse.lexer.chars import NAME
from clearance.shellparse.nodes import (
    ArithmeticExpansion,
    CommandSubstitution,
    DoubleQuoted,
    ParamExpansion,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.lexer.scanner import Lexer
    from clearance.shellparse.nodes import Part


def arith(lx: Lexer, pos: int, closing: str) -> tuple[ArithmeticExpansion, int] | None:
    """Scan arithmetic from ``pos`` to ``closing`` (``))`` or ``]``).

    Returns ``None`` when the text does not close as arithmetic (``((a) (b))`` is two
    subshells), letting the caller read it another way.
    """
    mark = len(lx.pending)
    found = arith_scan(lx, pos, closing)
    if found is None:
        del lx.pending[mark:]  # read again another way, they will be queued again
    return found


def arith_scan(lx: Lexer, pos: int, closing: str) -> tuple[ArithmeticExpansion, int] | None:
    text = lx.text
    n = lx.n
    start = pos
    depth = 0
    subs: list[CommandSubstitution] = []
    params: list[str] = []
    # The scan is a function of the offset alone (plus the depth count), so where the `(`
    # before `start` closes is known if an earlier scan went past it.
    closes = lx.shared.closes
    opens = [start - 1]
    if closing == "))":
        known = closes.get(start - 1)
        if known is not None and (known < 0 or not text.startswith("))", known)):
            return None
    while pos < n:
        c = text[pos]
        if closing == "))":
            if c == ")":
                closes[opens.pop()] = pos
                if depth == 0:
                    if text.startswith("))", pos):
                        return ArithmeticExpansion(text[start:pos], subs, params), pos + 2
                    return None
                depth -= 1
            elif c == "(":
                depth += 1
                opens.append(pos)
        elif c == "]":
            if depth == 0:
                return ArithmeticExpansion(text[start:pos], subs, params), pos + 1
            depth -= 1
        elif c == "[":
            depth += 1
        if c == "$":
            try:
                part, pos = expansions.dollar(lx, pos, in_dq=False)
            except ShellSyntaxError as exc:
                if exc.code == "depth_limit":
                    raise
                # Bash reads arithmetic text only when it evaluates it: an expansion
                # that does not parse fails then. Recorded as a substitution that
                # cannot be analysed, and the scan goes on for the closing `))`.
                subs.append(CommandSubstitution(None, text[pos:], False, exc.message))
                pos += 1
                continue
            collect_arith(part, subs, params)
            continue
        if c == "`":
            sub, pos = expansions.backtick(lx, pos + 1, in_dq=False)
            subs.append(sub)
            continue
        if c == '"':
            dq, pos = words.double_quoted(lx, pos + 1)
            for part in dq.parts:
                collect_arith(part, subs, params)
            continue
        if c == "'":
            end = text.find("'", pos + 1)
            if end < 0:
                break
            pos = end + 1
            continue
        if c == "\\":
            pos += 2
            continue
        if c.isalpha() or c == "_":
            m = NAME.match(text, pos)
            assert m is not None
            params.append(m.group())
            pos = m.end()
            continue
        pos += 1
    if closing == "))":
        for open_at in opens:  # still open where the text (or a quote) ends: never close
            closes[open_at] = -1
    return None


def paren_end(lx: Lexer, pos: int) -> int:
    """Offset of the ``)`` closing the ``(`` before ``pos``, quotes skipped; ``-1`` if none."""
    text = lx.text
    depth = 0
    while pos < lx.n:
        c = text[pos]
        if c == "\\":
            pos += 2
            continue
        if c in "'\"`":
            end = text.find(c, pos + 1)
            if end < 0:
                return -1
            pos = end + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return pos
            depth -= 1
        pos += 1
    return -1


def collect_arith(part: Part, subs: list[CommandSubstitution], params: list[str]) -> None:
    if isinstance(part, CommandSubstitution):
        subs.append(part)
    elif isinstance(part, ArithmeticExpansion):
        subs.extend(part.substitutions)
        params.extend(part.parameters)
    elif isinstance(part, ParamExpansion):
        params.append(part.name)
        if part.subscript is not None:
            subs.extend(part.subscript.substitutions)
        if part.arg is not None:
            for inner in part.arg.parts:
                collect_arith(inner, subs, params)
    elif isinstance(part, DoubleQuoted):
        for inner in part.parts:
            collect_arith(inner, subs, params)
