"""Effect classes, paths and hosts of one simple command, from the program tables.

``Classifier.classify`` normalises the program name, walks subcommands (``git -C d push``),
parses options against the program's ``Spec`` and gives every operand and option value its
role. Whatever runs another command (``sudo rm``, ``bash -c '…'``, ``xargs rm``) comes back as
a ``Nested`` request, which the extractor analyses as a command of its own.
"""

from __future__ import annotations

import posixpath
import re

from clearance.shellparse.expand import (
    DYNAMIC,
    GLOB,
    PROCESS_SUBSTITUTION_FILE,
    RESOLVED,
    TILDE_USER,
)
from clearance.shellparse.facts import SCP_TARGET, HandlerCall, Nested, PathFact
from clearance.shellparse.gitcredentials import file_holds_credentials, is_config_file
from clearance.shellparse.knowledge import lookup, lookup_module, system_program
from clearance.shellparse.options import parse_program_args
from clearance.shellparse.paths import (
    HARMLESS_DEVICES,
    RAW_MEMORY,
    RAW_STORAGE,
    SYSTEM_PREFIXES,
    holds_secrets,
    inside,
    is_secret,
    is_sensitive_write,
    resolve,
    secret_set,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.expand import Env
    from clearance.shellparse.facts import SimpleCommandFacts
    from clearance.shellparse.options import ParsedArgs
    from clearance.shellparse.spec import Spec
    from clearance.vocab import EffectClass

#: Directories whose programs are the system's own; a program run by a path elsewhere is a
#: file of the project or the user, i.e. code clearance cannot see.
SYSTEM_DIRS: Final = (
    "/bin/",
    "/sbin/",
    "/usr/bin/",
    "/usr/sbin/",
    "/usr/local/bin/",
    "/usr/local/sbin/",
    "/opt/homebrew/bin/",
    "/usr/libexec/",
)

#: Project-local tool paths, judged as the tool they are: the wrappers a build ships
#: (``./gradlew``), the bin directories of package managers and virtual environments, and
#: Rails' binstubs. Only inside the workspace: the same name elsewhere is a file nobody vouches
#: for. (That the file is agent-writable is the write-then-run rule's business.)
_PROJECT_TOOL: Final = re.compile(
    r"(?:.*/)?(?:(?P<wrapper>gradlew|mvnw)|"
    r"(?:node_modules/\.bin|\.?venv/bin|\.venv/Scripts|vendor/bin)/(?P<bin>[^/]+)|"
    r"bin/(?P<stub>rails|rake|rspec|rubocop|bundle|spring|setup|importmap))"
)
_PROJECT_WRAPPERS: Final = {"gradlew": "gradle", "mvnw": "mvn"}

_VERSIONED: Final = re.compile(r"(python|pip|pydoc|ruby|gem|perl|php|lua|node|idle)[0-9][0-9.]*")
#: The last characters a ``_VERSIONED`` name may have.
_VERSION_ENDS: Final = frozenset("0123456789.")
_URL: Final = re.compile(r"(?:[a-zA-Z][a-zA-Z0-9+.-]*)://(?:[^/?#@]*@)?(\[[^\]]+\]|[^/?#:]+)")

#: Roles that are a path, and how the path is accessed. ``read_tree``: everything under it
#: is read (``tar c``, ``grep -r``, ``rsync``), so it reads any secret it contains. ``meta``:
#: names and metadata only (``ls``, ``stat``, ``du``): not a read of the contents.
ROLE_ACCESS: Final = {
    "read": "read",
    "meta": "read",
    "read_tree": "read",
    "write": "write",
    "delete": "delete",
    "exec": "exec",
}
ACCESS_CLASS: Final[dict[str, EffectClass]] = {
    "write": "write",
    "delete": "delete",
    "exec": "code_exec",
}

#: A key in ``Env.vars`` once PATH was assigned on the line, even to an unknown value.
PATH_CHANGED: Final = "\0PATH changed"

#: Paths bash opens as network connections instead of files.
NETWORK_FILES: Final = ("/dev/tcp/", "/dev/udp/")

_PROCESS_MEMORY: Final = re.compile(r"/proc/(?:\d+|self|thread-self)/mem")

#: ``Nested.cwd`` for a wrapper that changes directory to a place the text does not give.
UNKNOWN_CWD: Final = "\0unknown"

#: An argument that, alone, makes a program print its usage or version and exit.
PRINT_ONLY: Final = frozenset(("--help", "-h", "-help", "--version", "-V", "-version", "--usage"))
#: Programs that put the file they copy in place of the destination (a new file renamed
#: over it, or the old one unlinked first) where ``cp`` writes into it.
REPLACE_DESTINATION: Final = frozenset(("install", "ginstall", "rsync"))
#: Operand roles that hand the rest of the line to another command.
_RUNS: Final = ("command", "shell_words", "remote_shell", "remote_command", "shell", "code", "exec")
#: Subcommands that print usage or version where a program's table does not list them.
PRINT_SUBCOMMANDS: Final = frozenset(("help", "version"))


def only_prints(spec: Spec, args: list[str]) -> bool:
    """Whether ``args`` only ask ``spec``'s program for its help or version.

    ``-h``/``-V`` count only where the table does not give them another meaning (``ls -h``
    is ``--human-readable``); ``help``/``version`` only where the program has subcommands,
    does not list those, and runs nothing for a subcommand it does not know (``make help``
    runs a target, ``yarn help`` a script if there is one).
    """
    if not spec.prints_help or not args or "unknown" in spec.classes:
        return False
    first = args[0]
    last = args[-1]
    if len(args) == 1 and first not in PRINT_ONLY and first.startswith("-"):
        # a spelling the table gives ``--help``/``--version`` (``git -v``, ``perl -v``)
        alone = spec.options.get(first)
        return alone is not None and alone.name in ("--help", "--version")
    if last in PRINT_ONLY and (len(args) == 1 or last in ("--help", "-h")):
        opt = spec.options.get(last)
        if opt is not None and opt.name not in ("--help", "--version", "-help", "-version"):
            return False
        if len(args) == 1:
            return True
        if spec.subcommands is not None or not spec.permute:
            # the words are subcommands (judged when the walk reaches them), or options end
            # at the first word and ``--help`` belongs to what follows (``docker run img``)
            return False
        # ``kubectl get pods --help``: words then a help request; not where the words are a
        # command that receives it (``docker run img --help``, ``timeout 5 x --help``)
        roles = (spec.operands,) if isinstance(spec.operands, str) else spec.operands
        return (
            len(args) <= 4
            and all(not a.startswith("-") and "/" not in a and "=" not in a for a in args[:-1])
            and not any(r in _RUNS for r in roles)
        )
    if (
        first in PRINT_SUBCOMMANDS
        and spec.subcommands is not None
        and first not in spec.subcommands
        and (spec.default is None or "unknown" in spec.default.classes)
    ):
        return all(not a.startswith("-") or a in PRINT_ONLY for a in args[1:3]) and len(args) <= 3
    return False


def _base(env: Env, cwd: str | None) -> str | None:
    """Where a relative path of a part is taken from: the directory the program's own options
    moved it to (``cwd``; ``None`` where none did, ``UNKNOWN_CWD`` where that is not known),
    else the shell's."""
    return env.cwd if cwd is None else (None if cwd == UNKNOWN_CWD else cwd)


def _raw_storage(resolved: str) -> bool:
    """Whether ``resolved`` is a raw disk or memory (``RAW_STORAGE``, ``RAW_MEMORY``)."""
    return (
        resolved.startswith(RAW_STORAGE)
        or resolved in RAW_MEMORY
        or (
            resolved.startswith("/proc/")  # (what ``_PROCESS_MEMORY`` needs, told in C)
            and resolved.endswith("/mem")
            and _PROCESS_MEMORY.fullmatch(resolved) is not None
        )
    )


def operand_roles(spec: Spec, parsed: ParsedArgs) -> str | tuple[str, ...]:
    """The roles of the operands: the table's, unless an option given overrides them
    (``sed -i`` writes its files; the last such option wins)."""
    roles = spec.operands
    for opt, _, _ in parsed.options:
        if opt is not None and opt.operands is not None:
            roles = opt.operands
    return roles


def normalize_program(raw: str) -> tuple[str, bool]:
    """``(name, invoked_by_path)``: ``/usr/bin/python3.11`` is ``("python3", True)``."""
    by_path = "/" in raw
    name = raw.rstrip("/").rsplit("/", 1)[-1] if by_path else raw
    # (``_VERSIONED`` ends in a digit or a dot: most names are told apart in C)
    m = _VERSIONED.fullmatch(name) if name[-1:] in _VERSION_ENDS else None
    if m is not None:
        base = m.group(1)
        name = base + "3" if name[len(base) :].startswith("3") else base
    return name, by_path


def network_direction(fact: SimpleCommandFacts) -> None:
    """Give a part that talks to the network exactly one of ``network_read`` and
    ``network_write`` (and ``network`` with either). A write anywhere in it wins; a direction
    the tables do not give is a write: only what is known to send nothing local is a read."""
    classes = fact.classes
    if "network_write" in classes:
        classes.discard("network_read")
        classes.add("network")
    elif "network_read" in classes:
        classes.add("network")
    elif "network" in classes:
        classes.add("network_write")


def hosts_in(value: str) -> list[str]:
    if "://" not in value:  # (what ``_URL`` needs, looked for in C before the regex runs)
        return []
    m = _URL.match(value)
    if m is not None:
        return [canonical_host(m.group(1))]
    return []


#: A git URL that names its remote helper: ``ext::sh -c …``, ``fd::3``, ``hg::https://…``.
_REMOTE_HELPER: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*::")

_IPV4_PART: Final = re.compile(r"0x[0-9a-f]+|0[0-7]*|[1-9][0-9]*")


def canonical_host(host: str) -> str:
    """The host a client contacts, one spelling for each: lower case, without brackets or a
    trailing dot, an IPv4 address in every form the C resolver takes (``2852039166``,
    ``0xa9fea9fe``, ``0251.0376.0251.0376``, ``169.254.43518``) as a dotted quad, an IPv6
    address compressed, an IPv4-mapped one (``::ffff:a9fe:a9fe``) as its IPv4 address."""
    name = host.strip("[]").lower().rstrip(".")
    if ":" in name:
        import ipaddress

        try:
            address = ipaddress.IPv6Address(name.split("%", 1)[0])
        except ValueError:
            return name
        mapped = address.ipv4_mapped
        return str(mapped) if mapped is not None else str(address)
    parts = name.split(".")
    if not 1 <= len(parts) <= 4 or not all(_IPV4_PART.fullmatch(p) for p in parts):
        return name
    values = [int(p, 16) if p[:2] == "0x" else int(p, 8) if p[:1] == "0" else int(p) for p in parts]
    if any(v > 255 for v in values[:-1]) or values[-1] >= 1 << 8 * (5 - len(values)):
        return name
    number = values[-1]
    for k, v in enumerate(values[:-1]):
        number |= v << 8 * (3 - k)
    return ".".join(str(number >> shift & 255) for shift in (24, 16, 8, 0))


def runs_later(resolved: str, workspace: str | None) -> bool:
    """Whether ``resolved`` is inside the workspace and a file tools execute without being
    asked (``knowledge.autorun``: build and test configuration, hooks, start-up files…)."""
    root = (workspace or "").rstrip("/")
    if not root or not resolved.startswith(root + "/"):
        return False
    relative = resolved[len(root) + 1 :]
    found = _RUNS_LATER.get(relative)
    if found is None:
        from clearance.shellparse.knowledge import autorun

        found = autorun.runs_later(relative)
        if len(_RUNS_LATER) >= 8192:
            _RUNS_LATER.clear()
        _RUNS_LATER[relative] = found
    return found


#: ``runs_later`` answers by workspace-relative path (the tables are fixed).
_RUNS_LATER: Final[dict[str, bool]] = {}


#: In ``Classifier.written``: a part ran that may write files its text does not name.
MAY_WRITE_ANYTHING: Final = "\0anything"

#: Classes of a part whose writes its text does not say: code that runs, a program not known,
#: a build or a test, an install.
_WRITES_UNSAID: Final = frozenset(
    ("code_exec", "remote_code_exec", "unknown", "build", "test", "package_install")
)

#: Markers of a part whose writes its text may not say (an option not known may name an
#: output file; a word or program not known may be anything).
_WRITES_UNSAID_MARKERS: Final = frozenset(
    (
        "unknown_option",
        "dynamic_program",
        "dynamic_argument",
        "dynamic_command",
        "env_code",
        "path_modified",
        "stdin_code",
    )
)


class Classifier:
    """Classifies commands for one run of the extractor (one cwd, home, workspace)."""

    def __init__(
        self, workspace: str | None, home: str, *, cwd: str | None = None, fold: bool = False
    ) -> None:
        #: The project root; ``None`` outside any project (then nothing is inside it).
        self.workspace = workspace
        #: Where ``{workspace}``-relative patterns are anchored: the workspace, else the cwd.
        self.root = workspace or cwd or "/"
        self.home = home
        self.cwd = cwd
        #: The workspace's file system ignores case: protected names compare in lower case.
        self.fold = fold
        #: While a handler runs: the directory its program works in when an option moved it
        #: (``git -C dir``, ``tar -C dir``), else ``None`` (the command's own cwd).
        self.current_cwd: str | None = None
        #: The arguments of the part being classified that are unquoted shell globs.
        self.glob_words: frozenset[str] = frozenset()
        #: ``shopt -s`` options set earlier on the line (globstar, dotglob, nocaseglob).
        self.shell_options: set[str] = set()
        #: (resolved, access) of each part's paths, by the part's id: grounding adds each once.
        self.seen_paths: dict[int, set[tuple[str | None, str]]] = {}
        #: The facts may come from this machine (the extractor resolves paths): a handler
        #: may then look at the file system (``python -c``: what the cwd would shadow).
        self.machine = False
        #: What the parts classified so far on the line may have written (resolved paths;
        #: ``MAY_WRITE_ANYTHING`` when one could write files its text does not name): a file
        #: in here is not as the machine has it now (``echo … >> x.sh && bash x.sh``).
        self.written: set[str] = set()
        #: Scripts read from the machine and judged by what they hold (``bash x.sh``): the
        #: part, and the script's path, settled against ``written`` when the line is done.
        self.scripts_read: list[tuple[SimpleCommandFacts, str]] = []

    # --- facts ---------------------------------------------------------------------------

    def add_path(
        self,
        fact: SimpleCommandFacts,
        value: str,
        access: str,
        env: Env,
        source: str = "argument",
        dynamic: bool = False,
        cwd: str | None = None,
        tree: bool = False,
        meta: bool = False,
    ) -> None:
        """Record a path ``fact`` touches, with the classes and markers it implies.

        ``tree``: everything under the path is read, so a directory that holds secrets
        (``~``, ``~/.ssh``) is a secret read. ``meta``: only its name and metadata are read.
        """
        if value in {"", "-"}:
            return
        if dynamic or ("$" in value and not value.startswith("/")):
            resolved = None
        else:
            resolved = resolve(value, _base(env, cwd), self.home)
        if resolved in HARMLESS_DEVICES and access != "delete":
            return  # opened, read or written: no file; its name removed is the device's
        if resolved == PROCESS_SUBSTITUTION_FILE and access == "read":
            # reading a process substitution's pipe reads what its script prints (judged as
            # a command of its own); anything else done to that name, or written as it by
            # hand, is judged as a path like any other
            return
        if resolved is None and value.startswith("/proc/") and value.endswith("/environ"):
            fact.classes.add("secret_read")  # ``/proc/$$/environ``: some process's environment
        if resolved is not None and resolved.startswith(NETWORK_FILES):
            # bash's network pseudo-files: ``>& /dev/tcp/host/port`` is a connection, not a file
            parts = resolved.split("/")
            self.add_host(fact, (parts[3] if len(parts) > 3 else "") + ":")
            return
        path = PathFact(
            value,
            resolved,
            access,
            inside(resolved, self.workspace),
            source,
            # a shell glob, or the files a filter picks (``find … -exec cat {}``: ``ROOT/{}/NAME``)
            pattern=resolved is not None and (value in self.glob_words or "/{}" in resolved),
            tree=tree,
        )
        path.fold = self.fold
        path.meta = meta
        fact.paths.append(path)
        if access in ACCESS_CLASS:
            fact.classes.add(ACCESS_CLASS[access])
        self.judge(fact, path)

    def note_writes(self, fact: SimpleCommandFacts) -> None:
        """Keep what a classified part may have written (``written``), for the parts after
        it: the paths it writes or touches in ways not known, and ``MAY_WRITE_ANYTHING``
        when it runs code, is not known, or writes a path not known."""
        if fact.classes & _WRITES_UNSAID or fact.markers & _WRITES_UNSAID_MARKERS:
            self.written.add(MAY_WRITE_ANYTHING)
        for path in fact.paths:
            if path.access in ("write", "unknown"):
                self.written.add(path.resolved if path.resolved is not None else MAY_WRITE_ANYTHING)

    def settle_scripts(self) -> None:
        """A script read from the machine (``scripts_read``) that something on the line may
        have written is code nobody saw after all."""
        written = self.written
        for fact, script in self.scripts_read:
            if MAY_WRITE_ANYTHING in written or script in written:
                fact.classes.add("code_exec")

    def protected(self, resolved: str) -> bool:
        """Whether reading the file at ``resolved`` reads a secret: by its name or place, as
        raw storage, or -- a git configuration file -- by what it holds on this machine."""
        return (
            is_secret(resolved, self.home, self.fold)
            or _raw_storage(resolved)
            or self._holds_token(resolved)
        )

    def _holds_token(self, resolved: str) -> bool:
        """A git configuration file holding a credential (a CI checkout's token): a fact of
        its content, read here."""
        return (
            self.machine
            and is_config_file(resolved)
            and file_holds_credentials(resolved, self.home)
        )

    def judge(self, fact: SimpleCommandFacts, path: PathFact) -> None:
        """The classes and markers ``path`` gives ``fact``: a secret read, a write to the
        system or where code runs later. A pattern counts for what it could match."""
        resolved = path.resolved
        if resolved is None:
            return  # a value not known before it runs: ``extract.unknown_reads`` judges it
        access = path.access
        if access in ("read", "unknown", "exec") and not path.meta:
            if path.pattern:
                secret = secret_set(self.home, self.fold).could_match(
                    resolved, tree=path.tree, globstar=True
                )
            elif path.tree:
                secret = holds_secrets(resolved, self.home) or self._holds_token(resolved)
            else:
                secret = self.protected(resolved)
            if secret or _raw_storage(resolved):
                fact.classes.add("secret_read")
        if access in ("write", "delete", "unknown"):
            if resolved.startswith(SYSTEM_PREFIXES) or resolved in ("/dev", "/sys", "/proc"):
                fact.classes.add("system")
            sensitive = access != "unknown" and is_sensitive_write(resolved, self.home, self.root)
            if sensitive or (
                access == "write"
                and fact.program != "touch"  # an empty file, or a timestamp: nothing to run
                and runs_later(resolved, self.workspace)
            ):
                fact.markers.add("sensitive_write")

    def add_host(self, fact: SimpleCommandFacts, value: str) -> None:
        found = hosts_in(value)
        if not found:
            m = SCP_TARGET.match(value)
            if m is not None:
                found = [canonical_host(m.group(1))]
        for host in found:
            if host not in fact.hosts:
                fact.hosts.append(host)
        fact.classes.add("network")

    # --- classification ------------------------------------------------------------------

    def classify(
        self,
        fact: SimpleCommandFacts,
        argv: list[str],
        flags: list[int],
        env: Env,
        module: bool = False,
    ) -> list[Nested]:
        """Fill ``fact`` for ``argv``; return the commands it runs in turn.

        ``module``: ``argv[0]`` is a Python module run with ``-m``.
        """
        if not argv:
            return []
        first = flags[0]
        raw = argv[0]
        if first & (DYNAMIC | GLOB | TILDE_USER):
            fact.program_raw = raw
            fact.markers.add("dynamic_program")
            fact.classes.add("unknown")
            return []
        if first & RESOLVED:
            fact.markers.add("resolved_variable")
        name, by_path = normalize_program(raw)
        project_tool = by_path and not module and self._project_tool(raw, env)
        if project_tool:
            name = _PROJECT_WRAPPERS.get(name, name)
            by_path = False
        fact.program = name
        fact.program_raw = raw
        if ("PATH" in env.vars or PATH_CHANGED in env.vars) and not by_path:
            fact.markers.add("path_modified")
        spec = lookup_module(raw) if module else lookup(name)
        by_path = by_path and not module
        if by_path and not raw.startswith(SYSTEM_DIRS):
            self.add_path(fact, raw, "exec", env, source="program")
        if spec is None:
            # by a path outside the system's directories it is code of the project or the user
            # (an exec path, above); anywhere else it is a program nothing is known about
            if not by_path or raw.startswith(SYSTEM_DIRS):
                fact.markers.add("unknown_program")
                fact.classes.add("unknown")
            self._unknown_arguments(fact, argv, flags, env)
            return []
        return self.apply(fact, spec, argv[1:], flags[1:], env)

    def _project_tool(self, raw: str, env: Env) -> bool:
        """Whether ``raw`` is a project-local path to a tool the tables know, in the
        workspace."""
        m = _PROJECT_TOOL.fullmatch(raw)
        if m is None or "$" in raw:
            return False
        name, _ = normalize_program(raw)
        if lookup(_PROJECT_WRAPPERS.get(name, name)) is None:
            return False
        if system_program(name):
            return False  # ``.venv/bin/ls`` is the project's code named like ls
        resolved = resolve(raw, env.cwd, self.home)
        return resolved is not None and inside(resolved, self.workspace) is True

    def _unknown_arguments(
        self, fact: SimpleCommandFacts, argv: list[str], flags: list[int], env: Env
    ) -> None:
        for value, flag in zip(argv[1:], flags[1:], strict=False):
            if flag & DYNAMIC:
                fact.markers.add("dynamic_argument")
            if hosts_in(value):
                self.add_host(fact, value)
            elif value.startswith("-"):
                fact.options.append(value.partition("=")[0])
                _, eq, attached = value.partition("=")
                if eq and ("/" in attached or attached.startswith(".")):
                    self.add_path(fact, attached, "unknown", env, source="option")
            elif "/" in value or "." in value or value.startswith("~"):
                self.add_path(fact, value, "unknown", env, dynamic=bool(flag & DYNAMIC))

    def apply(
        self,
        fact: SimpleCommandFacts,
        spec: Spec,
        args: list[str],
        flags: list[int],
        env: Env,
    ) -> list[Nested]:
        """Apply ``spec`` to the arguments: walk down the subcommands, then options and
        operands. The classes are those of the spec the walk ends at (``git stash list`` reads,
        whatever ``git stash`` alone does), plus what options and handlers add."""
        nested: list[Nested] = []
        dynamic = {a for a, f in zip(args, flags, strict=False) if f & DYNAMIC}
        cwd: list[str | None] = [None]
        current = spec
        while current.subcommands is not None:
            if only_prints(current, args):
                return self._prints(fact, args)
            parsed = parse_program_args(current, args, stop_at_operand=True)
            self.apply_options(fact, current, parsed, env, dynamic, nested, cwd)
            if current.handler is not None:
                self.current_cwd = cwd[0]
                current.handler(
                    HandlerCall(self, fact, args[: parsed.rest_index], flags, parsed, env, nested)
                )
            if parsed.rest_index >= len(args):
                fact.classes.update(current.classes)
                return nested
            name = args[parsed.rest_index]
            sub = current.subcommands.get(name)
            if sub is None:
                sub = current.default
            fact.subcommand = name if fact.subcommand is None else f"{fact.subcommand} {name}"
            args = args[parsed.rest_index + 1 :]
            flags = flags[parsed.rest_index + 1 :]
            if sub is None:
                fact.classes.add("unknown")
                fact.markers.add("unknown_program")
                return nested
            current = sub
            if "unknown" in current.classes:
                fact.markers.add("unknown_program")  # a subcommand the tables do not know
        if only_prints(current, args):
            return self._prints(fact, args)
        fact.classes.update(current.classes)
        parsed = parse_program_args(current, args)
        self.apply_options(fact, current, parsed, env, dynamic, nested, cwd)
        roles = operand_roles(current, parsed)
        self._operands(fact, current, roles, parsed, args, flags, env, cwd[0], nested)
        if current.handler is not None:
            self.current_cwd = cwd[0]
            current.handler(HandlerCall(self, fact, args, flags, parsed, env, nested))
        return nested

    def _prints(self, fact: SimpleCommandFacts, args: list[str]) -> list[Nested]:
        """``--help``, ``--version``, ``help [TOPIC]``: the program prints and exits."""
        fact.classes.add("read_only")
        fact.options.extend(a for a in args if a.startswith("-"))
        if args[0] in PRINT_SUBCOMMANDS and fact.subcommand is None:
            fact.subcommand = args[0]
        return []

    def apply_options(
        self,
        fact: SimpleCommandFacts,
        spec: Spec,
        parsed: ParsedArgs,
        env: Env,
        dynamic: set[str],
        nested: list[Nested],
        cwd: list[str | None] | None = None,
    ) -> str | None:
        """Apply the options of ``parsed``: their names and classes, and what their values are
        by role (paths, hosts, commands run). ``cwd`` holds the directory the program works in
        so far, which a ``cwd`` option moves; returns where it ends (``None``: not moved).

        ``apply`` calls it at each subcommand level with the line's ``cwd``; a handler that
        parsed a command line again (old-style ``tar``) calls it without."""
        if cwd is None:
            cwd = [None]
        for opt, spelling, value in parsed.options:
            if opt is None:
                fact.options.append(spelling)
                # closed world: what the table does not list is not known to be harmless
                if not spec.own_options and not spec.in_family(spelling):
                    fact.markers.add("unknown_option")
                if value is not None and ("/" in value or value.startswith(".")):
                    self.add_path(fact, value, "unknown", env, source="option")
                continue
            fact.options.append(opt.name)
            fact.classes.update(opt.adds)
            if value is None or opt.role == "none":
                continue
            self.role(fact, opt.role, value, env, value in dynamic, cwd, nested, "option", opt.name)
        return cwd[0]

    def role(
        self,
        fact: SimpleCommandFacts,
        role: str,
        value: str,
        env: Env,
        dynamic: bool,
        cwd: list[str | None],
        nested: list[Nested],
        source: str = "argument",
        option: str | None = None,
    ) -> None:
        """Record what ``value`` is, given its role (see ``spec``); ``option`` names the
        option it is the value of, for labels."""
        if dynamic:
            fact.markers.add("dynamic_argument")
        tree = role.endswith("_tree")
        if tree:
            role = role[: -len("_tree")]
        access = ROLE_ACCESS.get(role)
        if role == "meta":
            self.add_path(fact, value, "read", env, source, dynamic, cwd[0], meta=True)
            return
        if access == "exec" and hosts_in(value):
            # code fetched and run in one go: ``deno run https://…``, ``php -f http://…``
            self.add_host(fact, value)
            fact.classes.update(("code_exec", "remote_code_exec"))
        elif access is not None:
            self.add_path(fact, value, access, env, source, dynamic, cwd[0], tree)
        elif role in ("remote", "url_or_path") and _REMOTE_HELPER.match(value):
            # git's ``<transport>::<address>``: git runs ``git-remote-<transport>``, a program
            # of the URL's choosing (``ext::`` runs the command it names)
            fact.classes.add("code_exec")
        elif role == "remote":
            if hosts_in(value) or SCP_TARGET.match(value):
                self.add_host(fact, value)
        elif role == "url" and value.lower().startswith("file://"):
            # a URL that names a local file: reading it is reading that file
            self.add_path(fact, value[len("file://") :] or "/", "read", env, source, dynamic)
        elif role == "url":
            # a URL without a scheme is an HTTP one to curl, wget and the like
            self.add_host(fact, value if "://" in value else "http://" + value)
        elif role == "host":
            self.add_host(fact, value if "://" in value else value + ":")
        elif role == "url_or_path":
            if hosts_in(value) or SCP_TARGET.match(value):
                self.add_host(fact, value)
            else:
                self.add_path(fact, value, "read", env, source, dynamic, cwd[0], tree)
        elif role in ("cwd", "cwd_file"):
            # ``git -C DIR``, ``cargo --manifest-path DIR/Cargo.toml`` (``workdirs``): the
            # program works there from now on
            place = value
            if role == "cwd_file":
                self.add_path(fact, value, "read", env, source, dynamic, cwd[0])
                place = posixpath.dirname(value.rstrip("/")) or "."
            self.add_path(fact, place, "read", env, "cwd", dynamic, cwd[0], meta=True)
            where = None if dynamic else resolve(place, _base(env, cwd[0]), self.home)
            cwd[0] = UNKNOWN_CWD if where is None else where
        elif role == "code":
            fact.classes.add("code_exec")
            fact.markers.add("inline_code")
        elif role == "shell":
            label = f"{fact.program} {option}" if option else f"{fact.program}"
            if dynamic:
                # the calling shell expands ``$x`` into the text before it is parsed as
                # commands (``bash -c "echo $x"`` with x='; rm -rf ~'): code the line does
                # not show
                fact.classes.add("code_exec")
            nested.append(Nested(label, shell=value))
        elif role == "unknown":
            self.add_path(fact, value, "unknown", env, source, dynamic, cwd[0])
        # "module" is handled with the operands; "none" is not a path

    def _operands(
        self,
        fact: SimpleCommandFacts,
        spec: Spec,
        roles: str | tuple[str, ...],
        parsed: ParsedArgs,
        args: list[str],
        flags: list[int],
        env: Env,
        cwd: str | None,
        nested: list[Nested],
    ) -> None:
        operands = parsed.operands
        index = parsed.operand_index
        module = next(
            (v for o, _, v in parsed.options if o is not None and o.role == "module"), None
        )
        if module is not None:
            argv = [module, *operands]
            mflags = [0] + [flags[i] for i in index]
            nested.append(
                Nested(f"{fact.program} -m", argv=argv, flags=mflags, cwd=cwd, module=True)
            )
            return
        if isinstance(roles, str):
            roles = (roles,)
        target_dir = any(o is not None and o.role == "target_dir" for o, _, _ in parsed.options)
        for o, _, v in parsed.options:
            if o is not None and o.role == "target_dir" and v is not None:
                self.add_path(fact, v, "write", env, "option", cwd=cwd)
        cwd_box = [cwd]
        k = 0
        while k < len(operands):
            role = roles[k] if k < len(roles) - 1 else roles[-1]
            value = operands[k]
            dyn = bool(flags[index[k]] & DYNAMIC) if index[k] < len(flags) else False
            if role in ("command", "shell_words", "remote_shell", "remote_command"):
                rest = args[index[k] :]
                rest_flags = flags[index[k] :]
                self._rest(fact, role, rest, rest_flags, nested, cwd)
                return
            if role in ("copy", "move", "copy_tree"):
                last = len(operands) - 1
                if target_dir or k < last:
                    read = "read_tree" if role == "copy_tree" else "read"
                    self.role(fact, read, value, env, dyn, cwd_box, nested)
                    if role == "move":
                        self.role(fact, "delete", value, env, dyn, cwd_box, nested)
                else:
                    self.role(fact, "write", value, env, dyn, cwd_box, nested)
                    if role == "move" or fact.program in REPLACE_DESTINATION:
                        self._replaced_device(fact, value, env, dyn, cwd_box[0])
            else:
                self.role(fact, role, value, env, dyn, cwd_box, nested)
            k += 1

    def _replaced_device(
        self, fact: SimpleCommandFacts, value: str, env: Env, dyn: bool, cwd: str | None
    ) -> None:
        """A destination that a rename puts a new file in place of: where it is a device
        (``mv f /dev/null``), the device's name is removed -- not written through, as
        ``cp f /dev/null`` does."""
        if not dyn and resolve(value, _base(env, cwd), self.home) in HARMLESS_DEVICES:
            self.add_path(fact, value, "delete", env, cwd=cwd)

    def _rest(
        self,
        fact: SimpleCommandFacts,
        role: str,
        rest: list[str],
        rest_flags: list[int],
        nested: list[Nested],
        cwd: str | None = None,
    ) -> None:
        label = fact.program or "?"
        if role == "command":
            nested.append(Nested(label, argv=list(rest), flags=list(rest_flags), cwd=cwd))
        elif role == "shell_words":
            if any(f & DYNAMIC for f in rest_flags):
                # a value expanded into the words is parsed as commands (``eval echo $x``)
                fact.markers.add("dynamic_argument")
                fact.classes.add("code_exec")
            nested.append(Nested(label, shell=" ".join(rest), cwd=cwd))
        elif role == "remote_command":
            nested.append(Nested(label, argv=list(rest), flags=list(rest_flags), context="remote"))
        else:  # remote_shell: what ssh sends to the other machine
            fact.classes.add("remote_code_exec")
            nested.append(
                Nested(label, shell=" ".join(rest), context="remote:" + ",".join(fact.hosts))
            )
