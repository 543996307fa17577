"""Regexes in rules: matched in linear time, whatever the pattern and the text.

A rule's ``regex`` may come from a repository's own ``.clearance/policy.yaml``, so its pattern
is untrusted: with a backtracking engine, ``(a+)+$`` against a line of ``a``s takes longer
than any hook may. Rule regexes are therefore compiled with RE2 (the ``google-re2`` wheel),
which never backtracks: its time is linear in the text, its memory bounded (``max_mem``).

RE2 speaks nearly the syntax of Python's ``re``; what it lacks -- backreferences (``\\1``) and
lookaround (``(?=…)``, ``(?<!…)``) -- is what makes matching exponential, and a pattern using it
is an error at load, naming file:line. Python's ``\\Z`` is RE2's ``\\z`` and is translated.

Without the wheel (a platform it does not build for), patterns are matched by Python's ``re``
only when a conservative check finds no construct that can backtrack catastrophically (no
backreference, no lookaround, no quantified group that itself holds a quantifier or an
alternation); anything else is refused at load.

RE2 is imported only when a rule has a regex: the hook's cold start never pays for it
otherwise.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

#: Longest pattern accepted in a rule.
MAX_PATTERN: Final = 4096
#: RE2's memory budget for one compiled pattern.
MAX_MEM: Final = 8 << 20


class RegexError(ValueError):
    """A rule regex that cannot be matched safely (the message says why)."""


def translate(pattern: str) -> str:
    """Python spellings RE2 writes differently: ``\\Z`` (end of text) is ``\\z``."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append("\\z" if nxt == "Z" else c + nxt)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _re2() -> Any:
    try:
        import re2  # type: ignore[import-untyped]
    except ImportError:
        return None
    return re2


def compile_regex(pattern: str) -> Any:
    """A compiled pattern with ``search(text)``; :class:`RegexError` when it is unsafe."""
    if len(pattern) > MAX_PATTERN:
        raise RegexError(f"regex is {len(pattern)} characters, over the limit of {MAX_PATTERN}")
    re2 = _re2()
    if re2 is not None:
        options = re2.Options()
        options.log_errors = False
        options.max_mem = MAX_MEM
        try:
            return re2.compile(translate(pattern), options=options)
        except Exception as exc:
            detail = exc.args[0] if exc.args else exc
            if isinstance(detail, bytes):
                detail = detail.decode("utf-8", "replace")
            raise RegexError(
                f"regex {pattern!r} cannot be matched in linear time: {detail} "
                "(backreferences and lookaround are not supported)"
            ) from None
    return _compile_checked(pattern)


def problem(pattern: str) -> str | None:
    """Why ``pattern`` cannot be used in a rule, or ``None``."""
    try:
        compile_regex(pattern)
    except RegexError as exc:
        return str(exc)
    return None


def _compile_checked(pattern: str) -> Any:
    import importlib
    import re

    # the parser's module by name: typeshed does not declare ``re._parser`` (mypyc's build
    # type-checks this module on its own)
    sre_parse: Any = importlib.import_module("re._parser")

    try:
        parsed = sre_parse.parse(pattern)
    except re.error as exc:
        raise RegexError(f"invalid regex {pattern!r}: {exc}") from None
    why = _unsafe(parsed, sre_parse, False, 0)
    if why is not None:
        raise RegexError(
            f"regex {pattern!r} can backtrack catastrophically ({why}); install google-re2 "
            "to match it in linear time"
        )
    return re.compile(pattern)


def _unsafe(items: Any, sre: Any, in_repeat: bool, depth: int) -> str | None:
    if depth > 50:
        return "nesting too deep"
    constants = sre._constants if hasattr(sre, "_constants") else sre
    for op, arg in items:
        if op in (constants.GROUPREF, constants.GROUPREF_EXISTS):
            return "a backreference"
        if op in (constants.ASSERT, constants.ASSERT_NOT):
            return "lookaround"
        possessive = getattr(constants, "POSSESSIVE_REPEAT", constants.MAX_REPEAT)
        if op in (constants.MAX_REPEAT, constants.MIN_REPEAT, possessive):
            if in_repeat:
                return "a quantifier inside a quantified group"
            why = _unsafe(arg[2], sre, True, depth + 1)
            if why is not None:
                return why
        elif op == constants.SUBPATTERN:
            why = _unsafe(arg[-1], sre, in_repeat, depth + 1)
            if why is not None:
                return why
        elif op == constants.BRANCH:
            if in_repeat:
                return "an alternation inside a quantified group"
            for branch in arg[1]:
                why = _unsafe(branch, sre, in_repeat, depth + 1)
                if why is not None:
                    return why
    return None
