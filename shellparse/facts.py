"""CommandFacts: what a command line would do, in the terms a policy judges.

One ``SimpleCommandFacts`` per simple command that would run -- including those inside
substitutions, loops and functions, and those unwrapped from ``sudo``, ``bash -c``, ``xargs``,
``find -exec``… -- with its argv, effect classes, the paths it touches, the hosts it contacts,
and markers for whatever is not statically known.

Also the types the classifier and the handlers share (so that neither imports the other):
``Nested`` (a command another command runs), ``HandlerCall`` (what a handler is called with)
and the ``Handler`` type itself.
"""

from __future__ import annotations

import re

from clearance.shellparse.expand import DYNAMIC

#: Effect classes and markers (closed sets): ``clearance.vocab``, importable from here too.
from clearance.vocab import CLASSES, MARKERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

    from clearance.shellparse.classifier import Classifier
    from clearance.shellparse.errors import ParseError
    from clearance.shellparse.expand import Env
    from clearance.shellparse.options import ParsedArgs
    from clearance.vocab import EffectClass, Marker

    #: What a ``Spec`` names for what its table cannot say (``handler=files.sed``): called
    #: after the table is applied, it adds classes, paths, hosts, markers and ``Nested``
    #: requests to ``call.fact``/``call.nested``.
    Handler = Callable[["HandlerCall"], None]

__all__ = [
    "CLASSES",
    "MARKERS",
    "METADATA_WRITERS",
    "SCP_TARGET",
    "CommandFacts",
    "HandlerCall",
    "Nested",
    "PathFact",
    "RedirectFact",
    "SimpleCommandFacts",
]


class PathFact:
    """A path a command touches: as written, resolved, and where it lies.

    One path as written may give several facts: the glob itself (judged as a pattern), each
    file it expands to (``source: glob``), the target of a symbolic link on the way
    (``source: link``), a protected file inside a tree the command reads (``source: tree``).
    ``why`` says how a derived fact was found.
    """

    __slots__ = (
        "access",
        "fold",
        "inside_workspace",
        "meta",
        "path",
        "pattern",
        "resolved",
        "source",
        "tree",
        "why",
    )

    def __init__(
        self,
        path: str,
        resolved: str | None,
        access: str,
        inside_workspace: bool | None,
        source: str,
        *,
        pattern: bool = False,
        tree: bool = False,
        why: str | None = None,
    ) -> None:
        self.path = path
        #: Absolute, normalised; ``None`` when it cannot be known (dynamic, unknown cwd).
        #: ``{}`` in it stands for names only known when the command runs, under a known
        #: directory: ``find ~ -name id_rsa -exec cat {} ;`` reads ``/home/u/{}/id_rsa``.
        self.resolved = resolved
        #: ``read`` | ``write`` | ``delete`` | ``exec`` | ``unknown`` (an argument of a program
        #: clearance knows nothing about: it may be any of them)
        self.access = access
        #: ``None`` when unknown -- which policies treat as outside.
        self.inside_workspace = inside_workspace
        #: what put it here: ``argument``, ``redirect``, ``option``, ``cwd``, ``tool``; derived
        #: facts: ``glob``, ``link``, ``tree``, ``filter``
        self.source = source
        #: ``resolved`` is a shell glob: matchers ask whether it *could* match
        self.pattern = pattern
        #: the operation reaches everything under the path (``grep -r``, ``rm -r``, ``tar c``)
        self.tree = tree
        #: the file system here is case-insensitive: matchers compare in lower case
        self.fold = False
        #: only the name and metadata are read (``ls``, ``stat``, ``du``), not the contents
        self.meta = False
        self.why = why

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "resolved": self.resolved,
            "access": self.access,
            "inside_workspace": self.inside_workspace,
            "source": self.source,
            "pattern": self.pattern,
            "tree": self.tree,
            "case_insensitive": self.fold,
            "metadata_only": self.meta,
            "why": self.why,
        }


#: Programs whose writes change metadata or create empty files, not contents.
METADATA_WRITERS: Final = frozenset(
    ("chmod", "chown", "chgrp", "touch", "setfacl", "chattr", "xattr")
)


class RedirectFact:
    """A redirection: ``mode`` is read, write, append, duplicate, close, heredoc or herestring."""

    __slots__ = ("fd", "mode", "op", "target")

    def __init__(self, op: str, fd: str | None, mode: str, target: str | None) -> None:
        self.op = op
        self.fd = fd
        self.mode = mode
        self.target = target

    def to_dict(self) -> dict[str, object]:
        return {"op": self.op, "fd": self.fd, "mode": self.mode, "target": self.target}


class SimpleCommandFacts:
    """One simple command that would run."""

    __slots__ = (
        "argv",
        "assignments",
        "classes",
        "context",
        "depth",
        "end",
        "excluded",
        "hosts",
        "markers",
        "options",
        "paths",
        "program",
        "program_raw",
        "redirects",
        "start",
        "stdin",
        "stdin_text",
        "subcommand",
        "text",
        "via",
    )

    def __init__(self, argv: list[str], text: str, start: int, end: int) -> None:
        self.argv = argv
        #: Normalised program name (``/bin/rm``, ``\\rm``, ``"r"m`` are all ``rm``);
        #: ``None`` for a command that is only assignments or redirections.
        self.program: str | None = None
        #: argv[0] exactly as the shell would pass it.
        self.program_raw: str | None = None
        #: The source text of the command (of its outermost enclosing construct when the
        #: command comes from an inner text such as ``bash -c '…'``).
        self.text = text
        self.start = start
        self.end = end
        self.classes: set[EffectClass] = set()
        self.markers: set[Marker] = set()
        self.redirects: list[RedirectFact] = []
        self.paths: list[PathFact] = []
        self.hosts: list[str] = []
        #: Wrappers this command was unwrapped from, outermost first (``sudo``, ``bash -c``).
        self.via: list[str] = []
        #: Where it stands: ``substitution``, ``pipeline``, ``condition``, ``loop``, …
        self.context: list[str] = []
        #: Names of variables assigned for this command only (``FOO=1 cmd``).
        self.assignments: list[str] = []
        self.subcommand: str | None = None
        #: Options in canonical spelling (``-rf`` gives ``--recursive``, ``--force`` for rm).
        self.options: list[str] = []
        #: Where standard input comes from: ``pipe``, ``heredoc``, ``herestring``, ``file``.
        self.stdin: str | None = None
        #: The text on standard input when the analysis knows it (not serialised).
        self.stdin_text: str | None = None
        self.depth = 0
        #: Protected files a tree operation would have reached but that the program's own
        #: defaults or options leave out: ``(path, why)`` (``rg`` skips hidden files…).
        self.excluded: list[tuple[str, str]] = []

    def to_dict(self) -> dict[str, object]:
        out = self._dict()
        if self.excluded:
            out["excluded"] = [{"path": p, "why": w} for p, w in self.excluded]
        return out

    def _dict(self) -> dict[str, object]:
        return {
            "argv": self.argv,
            "program": self.program,
            "program_raw": self.program_raw,
            "subcommand": self.subcommand,
            "options": self.options,
            "classes": sorted(self.classes),
            "markers": sorted(self.markers),
            "paths": [p.to_dict() for p in self.paths],
            "hosts": self.hosts,
            "redirects": [r.to_dict() for r in self.redirects],
            "via": self.via,
            "context": self.context,
            "assignments": self.assignments,
            "stdin": self.stdin,
            "text": self.text,
            "span": [self.start, self.end],
        }


class CommandFacts:
    """Everything ``classify`` learned about one command line."""

    __slots__ = ("commands", "cwd", "error", "markers", "text", "workspace")

    def __init__(
        self,
        text: str,
        commands: list[SimpleCommandFacts],
        error: ParseError | None,
        cwd: str,
        workspace: str | None,
    ) -> None:
        self.text = text
        self.commands = commands
        self.error = error
        self.cwd = cwd
        self.workspace = workspace
        #: Markers of the whole line (``parse_error``…), besides those of each command.
        self.markers: set[Marker] = set()

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "error": None if self.error is None else self.error.to_dict(),
            "markers": sorted(self.markers),
            "commands": [c.to_dict() for c in self.commands],
        }


#: ``[user@]host:path``: an scp-style remote operand (``scp f host:``, ``rsync d u@h:d``).
SCP_TARGET: Final = re.compile(r"(?:[^@/:\s]+@)?([A-Za-z0-9][A-Za-z0-9.-]*):(?!//)")


class Nested:
    """A command another command runs: argv, a shell string, or interpreter code."""

    __slots__ = ("argv", "context", "cwd", "flags", "label", "markers", "module", "shell")

    def __init__(
        self,
        label: str,
        *,
        argv: list[str] | None = None,
        flags: list[int] | None = None,
        shell: str | None = None,
        context: str | None = None,
        markers: tuple[Marker, ...] = (),
        cwd: str | None = None,
        module: bool = False,
    ) -> None:
        self.label = label
        #: Markers the inner command gets (``dynamic_argument`` for find's ``{}``…).
        self.markers = markers
        self.argv = argv
        self.flags = flags
        self.shell = shell
        self.context = context
        #: The directory the inner command runs in when the wrapper changes it (``sudo -D /``,
        #: ``env -C dir``); ``classifier.UNKNOWN_CWD`` when that place is not in the text.
        self.cwd = cwd
        #: ``argv[0]`` names a Python module (``python -m http.server``), not a program.
        self.module = module


class HandlerCall:
    """What a handler (``Spec.handler``) is called with: the classifier (its workspace, home
    and path helpers), the facts of the command so far, the arguments of the program or
    subcommand the spec describes with their expansion flags, the arguments parsed against
    the spec, the shell environment, and the list of ``Nested`` requests to extend.

    What every handler does with them is written here once: record a path or a host of the
    command (``add_path``, ``add_host``), ask for a command it runs to be judged (``nest_argv``,
    ``nest_shell``),
    and ask which options were given (``has``) and with what values (``values``)."""

    __slots__ = ("args", "classifier", "env", "fact", "flags", "nested", "parsed")

    def __init__(
        self,
        classifier: Classifier,
        fact: SimpleCommandFacts,
        args: list[str],
        flags: list[int],
        parsed: ParsedArgs,
        env: Env,
        nested: list[Nested],
    ) -> None:
        self.classifier = classifier
        self.fact = fact
        self.args = args
        self.flags = flags
        self.parsed = parsed
        self.env = env
        self.nested = nested

    @property
    def cwd(self) -> str | None:
        """The directory the command works in after its own options moved it (``git -C``,
        ``tar -C``: the ``cwd`` role), ``None`` where no option moved it."""
        return self.classifier.current_cwd

    def add_path(
        self,
        value: str,
        access: str,
        *,
        source: str = "argument",
        dynamic: bool = False,
        cwd: str | None = None,
        tree: bool = False,
        meta: bool = False,
    ) -> None:
        """Record a path the command touches (``Classifier.add_path`` for this command, in
        this environment)."""
        self.classifier.add_path(
            self.fact, value, access, self.env, source, dynamic, cwd, tree, meta
        )

    def add_host(self, value: str) -> None:
        """Record a host the command contacts (a URL, ``host:``, ``user@host:path``)."""
        self.classifier.add_host(self.fact, value)

    def nest_shell(self, label: str, command: str, markers: tuple[Marker, ...] = ()) -> None:
        """Ask for a shell command line this command runs to be judged (``Nested``)."""
        self.nested.append(Nested(label, shell=command, markers=markers))

    def nest_argv(
        self,
        label: str,
        argv: list[str],
        flags: list[int],
        *,
        context: str | None = None,
        markers: tuple[Marker, ...] = (),
        cwd: str | None = None,
    ) -> None:
        """Ask for a command this command runs to be judged: its ``argv`` with their
        expansion ``flags`` (``Nested``)."""
        self.nested.append(
            Nested(label, argv=argv, flags=flags, context=context, markers=markers, cwd=cwd)
        )

    def has(self, *names: str) -> bool:
        """Whether one of the options ``names`` (canonical spellings) was given."""
        options = self.fact.options
        return any(name in options for name in names)

    def values(self, *names: str) -> list[str]:
        """The values given to the options ``names`` (``ParsedArgs.values``)."""
        return self.parsed.values(*names)

    def operands(self) -> list[tuple[str, bool]]:
        """Each operand, with whether its value is not in the text (an expansion made it:
        ``DYNAMIC`` among its flags)."""
        flags = self.flags
        return [
            (value, index < len(flags) and bool(flags[index] & DYNAMIC))
            for value, index in zip(self.parsed.operands, self.parsed.operand_index, strict=False)
        ]
