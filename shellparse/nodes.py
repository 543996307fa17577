"""The typed AST of a bash command line.

Plain slotted classes rather than dataclasses: this module is on the start-up path of every hook
call, and ``dataclasses`` alone costs more import time than the whole parser. Offsets (``start``,
``end``) index the text that was parsed; nodes from inside backticks or here-documents index the
text of that inner source and say so through ``Script.origin``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeAlias


# --- words -------------------------------------------------------------------------------


class Literal:
    """Text that reaches the command as it is. ``quoted`` literals never glob or brace-expand."""

    __slots__ = ("quoted", "text")
    kind = "literal"

    def __init__(self, text: str, quoted: bool) -> None:
        self.text = text
        self.quoted = quoted


class SingleQuoted:
    """``'…'``: every character literal."""

    __slots__ = ("text",)
    kind = "single_quoted"

    def __init__(self, text: str) -> None:
        self.text = text


class AnsiCQuoted:
    """``$'…'``: ``text`` is the decoded value, ``raw`` the source between the quotes."""

    __slots__ = ("raw", "text")
    kind = "ansi_c_quoted"

    def __init__(self, text: str, raw: str) -> None:
        self.text = text
        self.raw = raw


class DoubleQuoted:
    """``"…"`` (or ``$"…"``): literals plus the expansions bash still performs inside."""

    __slots__ = ("locale", "parts")
    kind = "double_quoted"

    def __init__(self, parts: list[Part], locale: bool) -> None:
        self.parts = parts
        self.locale = locale


class ParamExpansion:
    """``$x``, ``${x}``, ``${x:-word}``, ``${#x}``, ``${!x}``, ``${a[i]}``…"""

    __slots__ = (
        "arg",
        "braced",
        "indirect",
        "invalid",
        "length",
        "name",
        "op",
        "subscript",
        "text",
    )
    kind = "parameter"

    def __init__(
        self,
        name: str,
        text: str,
        *,
        braced: bool = False,
        op: str | None = None,
        arg: Word | None = None,
        subscript: ArithmeticExpansion | None = None,
        indirect: bool = False,
        length: bool = False,
        invalid: bool = False,
    ) -> None:
        self.name = name
        self.text = text
        self.braced = braced
        self.op = op
        self.arg = arg
        self.subscript = subscript
        self.indirect = indirect
        self.length = length
        #: bash accepts the text but fails when it runs it ("bad substitution").
        self.invalid = invalid


class CommandSubstitution:
    """``$(…)``, a backquoted command or ``${ …; }``: a script that runs to produce text.

    Bash reads the inside of backquotes only when it runs them; when that inside does not
    parse, ``body`` is ``None`` and ``error`` says why (the rest of the line still runs).
    """

    __slots__ = ("backtick", "body", "error", "text")
    kind = "command_substitution"

    def __init__(
        self, body: Script | None, text: str, backtick: bool, error: str | None = None
    ) -> None:
        self.body = body
        self.text = text
        self.backtick = backtick
        self.error = error


class ArithmeticExpansion:
    """``$((…))``/``$[…]`` and the body of ``((…))``; substitutions inside still run."""

    __slots__ = ("expression", "parameters", "substitutions")
    kind = "arithmetic"

    def __init__(
        self,
        expression: str,
        substitutions: list[CommandSubstitution],
        parameters: list[str],
    ) -> None:
        self.expression = expression
        self.substitutions = substitutions
        self.parameters = parameters

    @property
    def text(self) -> str:
        return f"$(({self.expression}))"


class ProcessSubstitution:
    """``<(…)`` or ``>(…)``: a script whose output (or input) becomes a file name."""

    __slots__ = ("body", "direction", "text")
    kind = "process_substitution"

    def __init__(self, direction: str, body: Script, text: str) -> None:
        self.direction = direction
        self.body = body
        self.text = text


if TYPE_CHECKING:
    Part: TypeAlias = (
        Literal
        | SingleQuoted
        | AnsiCQuoted
        | DoubleQuoted
        | ParamExpansion
        | CommandSubstitution
        | ArithmeticExpansion
        | ProcessSubstitution
    )


class Word:
    """One shell word: the parts that concatenate into it, and where it stood in the source."""

    __slots__ = ("end", "parts", "start", "text")

    def __init__(self, parts: list[Part], text: str, start: int, end: int) -> None:
        self.parts = parts
        self.text = text
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        return f"Word({self.text!r})"


class HereDoc:
    """A here-document; ``body`` is filled in when the lexer reaches the line after the operator.

    ``parts`` holds the body with its expansions when the delimiter was unquoted (bash expands
    such bodies, so ``$(…)`` inside one runs), a single literal otherwise.
    """

    __slots__ = ("body", "complete", "delimiter", "parts", "quoted", "start", "strip_tabs")

    def __init__(self, delimiter: str, quoted: bool, strip_tabs: bool, start: int) -> None:
        self.delimiter = delimiter
        self.quoted = quoted
        self.strip_tabs = strip_tabs
        self.start = start
        self.body = ""
        self.parts: list[Part] = []
        self.complete = False


# --- commands ----------------------------------------------------------------------------


class Assignment:
    """``NAME=value``, ``NAME+=value``, ``NAME[i]=value`` or ``NAME=(a b c)``."""

    __slots__ = ("append", "array", "end", "name", "start", "subscript", "text", "value")

    def __init__(
        self,
        name: str,
        value: Word | None,
        array: list[Word] | None,
        *,
        append: bool,
        subscript: ArithmeticExpansion | None,
        text: str,
        start: int,
        end: int,
    ) -> None:
        self.name = name
        self.value = value
        self.array = array
        self.append = append
        self.subscript = subscript
        self.text = text
        self.start = start
        self.end = end


class Redirect:
    """``[fd]op target``; ``op`` is the operator (``>``, ``>>``, the ``>&`` of ``2>&1``…)."""

    __slots__ = ("end", "fd", "heredoc", "op", "start", "target")

    def __init__(
        self,
        op: str,
        target: Word | None,
        heredoc: HereDoc | None,
        fd: str | None,
        start: int,
        end: int,
    ) -> None:
        self.op = op
        self.target = target
        self.heredoc = heredoc
        self.fd = fd
        self.start = start
        self.end = end


class SimpleCommand:
    """Assignments, words and redirections in source order; ``words[0]`` is the program."""

    __slots__ = ("assignments", "end", "redirects", "start", "words")
    kind = "simple"

    def __init__(
        self,
        assignments: list[Assignment],
        words: list[Word],
        redirects: list[Redirect],
        start: int,
        end: int,
    ) -> None:
        self.assignments = assignments
        self.words = words
        self.redirects = redirects
        self.start = start
        self.end = end


class Pipeline:
    """Commands joined by ``|`` or ``|&`` (``stderr[i]`` says command i also pipes stderr)."""

    __slots__ = ("commands", "negated", "stderr", "timed")

    def __init__(self, commands: list[Command], stderr: list[bool]) -> None:
        self.commands = commands
        self.stderr = stderr
        self.negated = False
        self.timed = False


class AndOr:
    """Pipelines joined by ``&&`` / ``||``; ``operators[i]`` sits between i and i+1."""

    __slots__ = ("operators", "pipelines")

    def __init__(self, pipelines: list[Pipeline], operators: list[str]) -> None:
        self.pipelines = pipelines
        self.operators = operators


class Statement:
    """An and-or list with how it ends: ``;``, newline, or ``&`` (``background``)."""

    __slots__ = ("and_or", "background")

    def __init__(self, and_or: AndOr, background: bool) -> None:
        self.and_or = and_or
        self.background = background


class Script:
    """A sequence of statements: a whole command line, or the inside of a substitution.

    ``origin`` is ``None`` for text parsed in place, else a label (``backtick``,
    ``heredoc``, ``bash -c``…) saying which inner text the offsets refer to.
    """

    __slots__ = ("origin", "statements")

    def __init__(self, statements: list[Statement], origin: str | None = None) -> None:
        self.statements = statements
        self.origin = origin


class Subshell:
    __slots__ = ("body", "redirects")
    kind = "subshell"

    def __init__(self, body: list[Statement]) -> None:
        self.body = body
        self.redirects: list[Redirect] = []


class BraceGroup:
    __slots__ = ("body", "redirects")
    kind = "group"

    def __init__(self, body: list[Statement]) -> None:
        self.body = body
        self.redirects: list[Redirect] = []


class If:
    """``branches`` are (condition, body) pairs for ``if`` and each ``elif``."""

    __slots__ = ("branches", "else_body", "redirects")
    kind = "if"

    def __init__(
        self,
        branches: list[tuple[list[Statement], list[Statement]]],
        else_body: list[Statement] | None,
    ) -> None:
        self.branches = branches
        self.else_body = else_body
        self.redirects: list[Redirect] = []


class While:
    __slots__ = ("body", "condition", "redirects", "until")
    kind = "while"

    def __init__(self, condition: list[Statement], body: list[Statement], until: bool) -> None:
        self.condition = condition
        self.body = body
        self.until = until
        self.redirects: list[Redirect] = []


class For:
    """``for``/``select``; ``items`` is ``None`` when the loop runs over ``"$@"``."""

    __slots__ = ("body", "items", "redirects", "select", "variable")
    kind = "for"

    def __init__(
        self, variable: str, items: list[Word] | None, body: list[Statement], select: bool
    ) -> None:
        self.variable = variable
        self.items = items
        self.body = body
        self.select = select
        self.redirects: list[Redirect] = []


class ArithFor:
    __slots__ = ("body", "header", "redirects")
    kind = "arith_for"

    def __init__(self, header: ArithmeticExpansion, body: list[Statement]) -> None:
        self.header = header
        self.body = body
        self.redirects: list[Redirect] = []


class CaseItem:
    __slots__ = ("body", "patterns", "terminator")

    def __init__(self, patterns: list[Word], body: list[Statement], terminator: str) -> None:
        self.patterns = patterns
        self.body = body
        self.terminator = terminator


class Case:
    __slots__ = ("items", "redirects", "subject")
    kind = "case"

    def __init__(self, subject: Word, items: list[CaseItem]) -> None:
        self.subject = subject
        self.items = items
        self.redirects: list[Redirect] = []


class FunctionDef:
    """A function definition. Its body runs only when called, but it is still analysed."""

    __slots__ = ("body", "name", "redirects")
    kind = "function"

    def __init__(self, name: str, body: Command) -> None:
        self.name = name
        self.body = body
        self.redirects: list[Redirect] = []


class Cond:
    """``[[ … ]]``: operands as words, operators (``&&``, ``==``…) as plain strings."""

    __slots__ = ("items", "redirects")
    kind = "cond"

    def __init__(self, items: list[Word | str]) -> None:
        self.items = items
        self.redirects: list[Redirect] = []


class ArithCommand:
    """``(( … ))``."""

    __slots__ = ("arith", "redirects")
    kind = "arith"

    def __init__(self, arith: ArithmeticExpansion) -> None:
        self.arith = arith
        self.redirects: list[Redirect] = []


class Coproc:
    __slots__ = ("command", "name", "redirects")
    kind = "coproc"

    def __init__(self, name: str | None, command: Command) -> None:
        self.name = name
        self.command = command
        self.redirects: list[Redirect] = []


if TYPE_CHECKING:
    Command: TypeAlias = (
        SimpleCommand
        | Subshell
        | BraceGroup
        | If
        | While
        | For
        | ArithFor
        | Case
        | FunctionDef
        | Cond
        | ArithCommand
        | Coproc
    )
