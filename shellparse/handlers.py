"""What the tables cannot say: sed scripts, awk programs, find expressions, tar modes, git
configuration that runs programs, the command lines hidden in wrappers' own syntax.

Each handler is named by a ``Spec`` (``handler="sed"``) and called after the table has been
applied, with the arguments of the program (or subcommand) it describes.
"""

from __future__ import annotations

import re

from clearance.shellparse import archives
from clearance.shellparse.expand import DYNAMIC
from clearance.shellparse.knowledge import COMMAND_STRING_VARIABLES
from clearance.shellparse.paths import inside, resolve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.classifier import Classifier, Nested
    from clearance.shellparse.expand import Env
    from clearance.shellparse.facts import SimpleCommandFacts
    from clearance.shellparse.options import ParsedArgs

    Args = list[str]
    Flags = list[int]

PLACEHOLDER = "{input}"


class _Lazy:
    """A regular expression compiled on first use: most processes never need most of these,
    and compiling them all would cost a hook call milliseconds at start-up."""

    __slots__ = ("_compiled", "_flags", "_pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def rx(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._pattern, self._flags)
        return compiled


def _nested(label: str, **kwargs: object) -> Nested:
    from clearance.shellparse.classifier import Nested

    return Nested(label, **kwargs)  # type: ignore[arg-type]


def _has(fact: SimpleCommandFacts, *names: str) -> bool:
    return any(name in fact.options for name in names)


def _option_values(parsed: ParsedArgs, *names: str) -> list[str]:
    return [
        value
        for opt, spelling, value in parsed.options
        if value is not None and (spelling in names or (opt is not None and opt.name in names))
    ]


# --- interpreters ---------------------------------------------------------------------------

_EMBEDDED_CALL = _Lazy(
    r"""(?:\b(?:system|popen|popen2|popen3|check_output|check_call|getoutput|getstatusoutput|
    run|call|Popen|spawn|spawnSync|exec|execSync|execFile|execFileSync|shell_exec|passthru|
    proc_open|qx|backticks|execute|execl|execlp|execvp|startProcess|ProcessBuilder)\s*\(\s*)\s*[rbuf]?(['"`])((?:\\.|(?!\1).)*)\1""",
    re.VERBOSE | re.DOTALL,
)
_EMBEDDED_LIST = _Lazy(
    r"""\b(?:run|call|Popen|check_output|check_call|spawn|spawnSync|execFile|execFileSync|
    execv|execvp|execve|execl|execlp)\s*\(\s*\[((?:\s*['"][^'"]*['"]\s*,?)+)\s*\]""",
    re.VERBOSE,
)
_QUOTED_ITEM = _Lazy(r"""['"]([^'"]*)['"]""")
# Backticks and %x{} (ruby, perl), qx{} / qx() (perl): a shell command as a string literal.
_EMBEDDED_QUOTED = _Lazy(
    r"""`([^`]+)`|%x\{([^}]*)\}|%x\(([^)]*)\)|%x\[([^\]]*)\]|\bqx\s*\{([^}]*)\}|\bqx\s*\(([^)]*)\)"""
)


def embedded_commands(code: str, label: str) -> list[Nested]:
    """Shell command lines written into interpreter code: ``os.system("…")``, backticks,
    ``subprocess.run(["rm", "-rf", …])``. Best effort: what is found is added, and the
    interpreter's own ``inline_code`` marker stays whatever is found."""
    found: list[Nested] = []
    for m in _EMBEDDED_CALL.rx.finditer(code):
        text = m.group(2)
        if text.strip():
            found.append(_nested(label, shell=text.replace("\\n", "\n").replace('\\"', '"')))
    for m in _EMBEDDED_LIST.rx.finditer(code):
        argv = _QUOTED_ITEM.rx.findall(m.group(1))
        if argv:
            found.append(_nested(label, argv=argv, flags=[0] * len(argv)))
    for m in _EMBEDDED_QUOTED.rx.finditer(code):
        text = next((g for g in m.groups() if g), "")
        if text.strip() and not any(n.shell == text for n in found):
            found.append(_nested(label, shell=text))
    return found[:16]


#: Names of variables that hold credentials by the look of them (``AWS_SECRET_ACCESS_KEY``,
#: ``GITHUB_TOKEN``, ``DATABASE_URL``); printing one is reading a secret.
CREDENTIAL_NAME = _Lazy(
    r"(?i).*(secret|token|passw|passphrase|api_?key|access_?key|private|credential|auth|"
    r"session|cookie|_key$|^key$|dsn$|database_url|conn(ection)?_?str|_pat$|^pat$|webhook).*"
)
#: Interpreter code that dumps the whole environment (``print(os.environ)``, ``ENVIRON`` in
#: awk, ``process.env`` in node, ``%ENV`` in perl, ``ENV`` in ruby, ``getenv()`` in php).
_ENV_DUMP = _Lazy(
    r"os\.environ\b(?!\s*(?:\.get\s*\(|\[|\.setdefault|\.pop))|os\.getenvb?\b\s*\(\s*\)|"
    r"\bENVIRON\b(?!\s*\[)|process\.env\b(?!\s*(?:\.|\[))|%ENV\b|\bkeys\s+%ENV|"
    r"\bENV\b(?!\s*\[)(?:\s*\.\s*(?:to_h|to_a|each|inspect|keys|values|map|select)|\s*$|\s*\))|"
    r"\bgetenv\s*\(\s*\)|\$_ENV\b(?!\s*\[)|System\.getenv\s*\(\s*\)|Deno\.env\.toObject"
)
#: A single variable read out of the environment in code: ``os.environ['GITHUB_TOKEN']``.
_ENV_ONE = _Lazy(
    r"(?:environ|ENVIRON|process\.env|ENV|getenv|\$_ENV|Deno\.env\.get)\s*"
    r"(?:\.get\s*)?[\[(.]\s*['\"]?([A-Za-z_][A-Za-z0-9_]*)"
)


def environment_read(code: str) -> bool:
    """Whether interpreter code prints the environment or a credential-looking variable."""
    if _ENV_DUMP.rx.search(code):
        return True
    return any(CREDENTIAL_NAME.rx.fullmatch(m.group(1)) for m in _ENV_ONE.rx.finditer(code))


def credential_variable(name: str) -> bool:
    """``GITHUB_TOKEN`` is one; ``PWD``, ``OLDPWD`` and ``PATH`` are not."""
    return name not in ("PWD", "OLDPWD", "PATH") and bool(CREDENTIAL_NAME.rx.fullmatch(name))


def printenv(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``printenv`` prints everything; ``printenv PATH`` one variable, a secret only when its
    name looks like one (or is not known)."""
    operands = parsed.operands
    dynamic = any(f & DYNAMIC for f in flags)
    if not operands or dynamic or any(credential_variable(name) for name in operands):
        fact.classes.add("secret_read")


_SHELLS_NOEXEC = frozenset(("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash"))


def _noexec(parsed: ParsedArgs) -> bool:
    """``-n``, ``-o noexec`` (also inside a bundle such as ``-nv``)."""
    for opt, spelling, value in parsed.options:
        if spelling == "-n" or (opt is not None and opt.name == "-o" and value == "noexec"):
            return True
    return False


def interpreter(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    has_code = any(
        opt is not None and opt.role in ("code", "shell", "module") for opt, _, _ in parsed.options
    )
    if not has_code and not parsed.operands and _has(fact, "--version", "--help"):
        fact.classes.add("read_only")  # prints and exits: no program is read
        return
    if fact.program in _SHELLS_NOEXEC and _noexec(parsed) and not _has(fact, "-i", "-s"):
        # ``bash -n script.sh``: a syntax check reads the script and runs none of it (bash
        # ignores noexec only in an interactive shell); neither does a ``-c`` string run
        nested[:] = [n for n in nested if not n.label.startswith(f"{fact.program} ")]
        for path in fact.paths:
            if path.access == "exec" and path.source == "argument":
                path.access = "read"
        fact.classes.discard("code_exec")
        fact.classes.add("read_only")
        return
    for opt, _, value in parsed.options:
        if opt is not None and opt.role == "code" and value:
            nested.extend(embedded_commands(value, f"{fact.program} {opt.name}"))
            if environment_read(value):
                fact.classes.add("secret_read")
    reads_stdin = (
        "-s" in fact.options
        or (not has_code and not parsed.operands)
        or (parsed.operands[:1] == ["-"])
    )
    if reads_stdin:
        fact.classes.add("code_exec")
        if fact.stdin is not None:
            fact.markers.add("stdin_code")
    if parsed.operands and not has_code and "-s" not in fact.options:
        fact.classes.add("code_exec")


# --- files ------------------------------------------------------------------------------------


_MODE_LIKE = _Lazy(r"-[rwxXst]+")


def chmod(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    operands = parsed.operands
    if not operands:
        return
    mode = operands[0]
    # ``chmod -x file``: a symbolic mode that starts with ``-`` reads as options; then every
    # operand is a file.
    dashed = [s for o, s, _ in parsed.options if o is None and _MODE_LIKE.rx.fullmatch(s)]
    if dashed and all(o is not None or s in dashed for o, s, _ in parsed.options):
        fact.markers.discard("unknown_option")  # the only "unknown options" are the mode
    if dashed and not _has(fact, "--reference"):
        for value in operands[:1]:
            c.add_path(fact, value, "write", env)
        mode = "".join(dashed)
        fact.options = [o for o in fact.options if o not in dashed]
    if ("s" in mode.split("=")[-1] and not mode.isdigit()) or (
        mode.isdigit() and len(mode) == 4 and mode[0] in "2467"
    ):
        fact.classes.add("privilege")


def ln(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """A symbolic link's target is relative to the link's directory, not to the cwd:
    ``ln -s ../README.md docs/README.md`` points at ``README.md``."""
    operands = parsed.operands
    if not _has(fact, "--symbolic") or not operands:
        return
    directory = next(iter(_option_values(parsed, "--target-directory")), None)
    if directory is not None:
        targets, base = operands, directory
    elif len(operands) == 1:
        targets, base = operands, "."
    else:
        targets, link = operands[:-1], operands[-1]
        base = link if link.endswith("/") else (link.rsplit("/", 1)[0] if "/" in link else ".")
    where = resolve(base, env.cwd, c.home)
    for target in targets:
        fact.paths = [p for p in fact.paths if not (p.access == "read" and p.path == target)]
        c.add_path(fact, target, "read", env, cwd=where)


def zip_program(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``zip -TT CMD``: the command zip runs to test the archive (its two-letter option
    reads as two ``-T`` to a getopt parser)."""
    for i, arg in enumerate(args[:-1]):
        if arg in ("-TT", "--unzip-command"):
            nested.append(_nested("zip -TT", shell=args[i + 1]))


def chown(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    if parsed.operands and parsed.operands[0].split(":")[0] in ("root", "0"):
        fact.classes.add("privilege")


_FIND_EXEC = ("-exec", "-execdir", "-ok", "-okdir")
_FIND_WRITE = ("-fprint", "-fprint0", "-fprintf", "-fls")
_FIND_VALUE = frozenset(
    (
        "-name",
        "-iname",
        "-path",
        "-ipath",
        "-wholename",
        "-iwholename",
        "-regex",
        "-iregex",
        "-type",
        "-xtype",
        "-size",
        "-mtime",
        "-atime",
        "-ctime",
        "-mmin",
        "-amin",
        "-cmin",
        "-newer",
        "-anewer",
        "-cnewer",
        "-perm",
        "-user",
        "-group",
        "-uid",
        "-gid",
        "-maxdepth",
        "-mindepth",
        "-links",
        "-inum",
        "-samefile",
        "-lname",
        "-ilname",
        "-fstype",
        "-used",
        "-printf",
        "-regextype",
        "-context",
        "-newerXY",
        "-files0-from",
    )
)


#: find tests without a value: they select, so ``-delete`` removes only what matches.
_FIND_TESTS = frozenset(("-empty", "-executable", "-readable", "-writable", "-nouser", "-nogroup"))
#: The rest of find's expression words that take no value (options, operators, actions that
#: only print or stop); any other ``-word`` is an ``unknown_option``.
_FIND_WORDS = frozenset(
    (
        "-print",
        "-print0",
        "-ls",
        "-prune",
        "-quit",
        "-true",
        "-false",
        "-not",
        "-and",
        "-or",
        "-a",
        "-o",
        "-depth",
        "-d",
        "-mount",
        "-xdev",
        "-follow",
        "-noleaf",
        "-daystart",
        "-ignore_readdir_race",
        "-noignore_readdir_race",
        "-nowarn",
        "-warn",
        "-help",
        "--help",
        "-version",
        "--version",
        "-s",
        "-x",
        "-E",
        "-X",
    )
)


def find(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    i = 0
    while (i < len(args) and args[i] in ("-H", "-L", "-P", "-D", "-O")) or (
        i < len(args) and args[i].startswith("-O")
    ):
        i += 2 if args[i] == "-D" else 1
    starts: list[tuple[str, int]] = []
    while i < len(args) and not (args[i].startswith("-") or args[i] in ("(", "!", ")", ",")):
        starts.append((args[i], flags[i]))
        i += 1
    if not starts:
        starts = [(".", 0)]
    fact.options = []
    deleting = False
    filtered = False
    names: list[str] = []
    while i < len(args):
        token = args[i]
        if token in _FIND_EXEC:
            j = i + 1
            while j < len(args) and args[j] not in (";", "+"):
                j += 1
            # `{}` is each file found: unknown by name, but under the starting points, and
            # named as the ``-name`` test says (``find ~ -name id_rsa -exec cat {} \;``)
            base = starts[0][0].rstrip("/") or "/"
            found = ("" if base == "/" else base) + "/{}" + (f"/{names[-1]}" if names else "")
            inner = [a.replace("{}", found) for a in args[i + 1 : j]]
            inner_flags = [flags[k] for k in range(i + 1, j)]
            if inner:
                nested.append(
                    _nested(
                        f"find {token}",
                        argv=inner,
                        flags=inner_flags,
                        markers=("dynamic_argument",),
                    )
                )
            fact.options.append(token)
            i = j + 1
            continue
        if token == "-delete":
            deleting = True
            fact.options.append(token)
        elif token in _FIND_WRITE and i + 1 < len(args):
            c.add_path(fact, args[i + 1], "write", env, source="option")
            fact.options.append(token)
            i += 2
            continue
        elif token in _FIND_VALUE:
            if token in ("-name", "-iname") and i + 1 < len(args) and "/" not in args[i + 1]:
                names.append(args[i + 1])
            fact.options.append(token)
            filtered = filtered or token not in ("-maxdepth", "-mindepth", "-regextype")
            i += 2
            continue
        elif token in _FIND_TESTS:
            fact.options.append(token)
            filtered = True
        elif token.startswith("-"):
            fact.options.append(token)
            if token not in _FIND_WORDS and not (token.startswith("-newer") and i + 1 < len(args)):
                fact.markers.add("unknown_option")
            elif token.startswith("-newer"):
                i += 1
        i += 1
    for path, flag in starts:
        dynamic = bool(flag & DYNAMIC)
        if dynamic:
            fact.markers.add("dynamic_argument")
        c.add_path(fact, path, "read", env, dynamic=dynamic)
        if deleting:
            # with tests (``-name '*.pyc'``) what goes is under the start point; without,
            # everything there, the start point included
            target = f"{path.rstrip('/') or '/'}/{{}}" if filtered else path
            if target.startswith("//"):
                target = target[1:]
            c.add_path(fact, target, "delete", env, dynamic=dynamic)


def fd_exec(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    for i, arg in enumerate(args):
        if arg in ("-x", "--exec", "-X", "--exec-batch"):
            j = i + 1
            while j < len(args) and args[j] != ";":
                j += 1
            inner = args[i + 1 : j]
            if inner:
                inner_flags = [
                    flags[k] | (DYNAMIC if "{" in args[k] else 0) for k in range(i + 1, j)
                ]
                nested.append(_nested("fd --exec", argv=inner, flags=inner_flags))
            break


def _sed_scripts(parsed: ParsedArgs) -> tuple[list[str], list[str]]:
    """The scripts and the files of a sed command line.

    BSD sed's ``-i`` takes its backup suffix as the next argument (``sed -i '' 's/a/b/' f``);
    GNU sed reads that empty word as the script. Both readings are kept: an empty first
    operand after ``-i`` is skipped, so the script that runs is the one analysed.
    """
    scripts = _option_values(parsed, "--expression")
    operands = list(parsed.operands)
    bare_in_place = any(
        o is not None and o.name == "--in-place" and v is None for o, _, v in parsed.options
    )
    if bare_in_place and len(operands) > 1 and operands[0] == "":
        operands = operands[1:]
    if not scripts and not _option_values(parsed, "--file") and operands:
        return [operands[0]], operands[1:]
    return scripts, operands


def sed(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    scripts, files = _sed_scripts(parsed)
    if _has(fact, "--in-place"):
        written = {*files, *scripts}
        fact.paths = [p for p in fact.paths if p.access != "read" or p.path not in written]
        for value in files:
            c.add_path(fact, value, "write", env)
    for script in scripts:
        for kind, value in sed_effects(script):
            if kind == "exec":
                fact.classes.add("code_exec")
                fact.markers.add("inline_code")
                if value:
                    nested.append(_nested("sed e", shell=value))
            elif kind == "write":
                c.add_path(fact, value, "write", env, source="script")
            elif kind == "read":
                c.add_path(fact, value, "read", env, source="script")


def sed_effects(script: str) -> list[tuple[str, str]]:
    """(kind, value) for each ``e`` command or ``s///e`` flag (exec), ``w``/``W`` (write) and
    ``r``/``R`` (read) in a sed script."""
    effects: list[tuple[str, str]] = []
    i = 0
    n = len(script)
    while i < n:
        ch = script[i]
        if ch in " \t\n;{}!":
            i += 1
            continue
        if ch == "#":
            end = script.find("\n", i)
            i = n if end < 0 else end + 1
            continue
        # addresses: numbers, $, /re/, \cREc, ranges, steps
        while i < n and (script[i].isdigit() or script[i] in "$,~+ \t"):
            i += 1
        if i < n and script[i] in "/\\":
            delim = script[i]
            if delim == "\\" and i + 1 < n:
                i += 1
                delim = script[i]
            i += 1
            while i < n and script[i] != delim:
                i += 2 if script[i] == "\\" else 1
            i += 1
            continue
        if i >= n:
            break
        cmd = script[i]
        i += 1
        if cmd in "s" and i < n:
            delim = script[i]
            i += 1
            for _ in range(2):
                while i < n and script[i] != delim:
                    i += 2 if script[i] == "\\" else 1
                i += 1
            start = i
            while i < n and script[i] not in ";\n}":
                if script[i] in "wW":
                    break
                i += 1
            flags = script[start:i]
            if "e" in flags:
                effects.append(("exec", ""))
            if i < n and script[i] in "wW":
                end = script.find("\n", i)
                end = n if end < 0 else end
                effects.append(("write", script[i + 1 : end].strip()))
                i = end
        elif cmd == "y" and i < n:
            delim = script[i]
            i += 1
            for _ in range(2):
                while i < n and script[i] != delim:
                    i += 2 if script[i] == "\\" else 1
                i += 1
        elif cmd in "aic":
            end = script.find("\n", i)
            i = n if end < 0 else end + 1
        elif cmd in "ewWrR":
            end = script.find("\n", i)
            end = n if end < 0 else end
            if cmd in "wWrR":
                value = script[i:end].strip()
                # GNU sed also ends these at ';' only for 'e'; file names run to the newline
                effects.append(("write" if cmd in "wW" else "read", value))
            else:
                line = script[i:end]
                effects.append(("exec", line.split(";")[0].strip() if line else ""))
            i = end + 1
        elif cmd in ":btT":
            while i < n and script[i] not in ";\n}":
                i += 1
        # everything else (p, d, n, q, h, g, x, =, l, …) has no effect outside sed
    return effects


_AWK_SYSTEM = _Lazy(r"\bsystem\s*\(\s*\"((?:\\.|[^\"\\])*)\"")
_AWK_PIPE = _Lazy(r"\"((?:\\.|[^\"\\])*)\"\s*\|\s*getline|\|\s*&?\s*\"((?:\\.|[^\"\\])*)\"")
_AWK_WRITE = _Lazy(r"(?:print|printf)[^;}\n]*?>>?\s*\"((?:\\.|[^\"\\])*)\"")
_AWK_EXEC = _Lazy(r"\bsystem\s*\(|\|\s*getline|\|&|\|\s*\"|\|\s*[A-Za-z_]")


def awk(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    if _option_values(parsed, "--file") or not parsed.operands:
        if _option_values(parsed, "--file"):
            fact.classes.add("code_exec")
        return
    program = parsed.operands[0]
    if environment_read(program):
        fact.classes.add("secret_read")
    if _AWK_EXEC.rx.search(program):
        fact.classes.add("code_exec")
        fact.markers.add("inline_code")
    for m in _AWK_SYSTEM.rx.finditer(program):
        nested.append(_nested("awk system()", shell=m.group(1).replace('\\"', '"')))
    for m in _AWK_PIPE.rx.finditer(program):
        text = m.group(1) or m.group(2)
        if text:
            nested.append(_nested("awk pipe", shell=text.replace('\\"', '"')))
    for m in _AWK_WRITE.rx.finditer(program):
        c.add_path(fact, m.group(1), "write", env, source="script")
    if "inplace" in _option_values(parsed, "--include"):
        for value in parsed.operands[1:]:
            c.add_path(fact, value, "write", env)


_TAR_VALUE_LETTERS = "fCTXIbHKLNVgF"
_TAR_MODES = {
    "--create": "create",
    "--append": "create",
    "--update": "create",
    "--catenate": "create",
    "--delete": "create",
    "--extract": "extract",
    "--list": "list",
    "--diff": "list",
    "--test-label": "list",
}


def _tar_words(args: Args, flags: Flags) -> tuple[Args, Flags]:
    """Old-style tar (``tar czf a.tgz dir``): the first word is letters without a dash, and
    the letters that take values take the next words in order. Rewritten as ``-c -z -f a.tgz``
    so the table parses it like any other command line."""
    if not args or args[0].startswith("-"):
        return args, flags
    letters = args[0]
    out: Args = []
    out_flags: Flags = []
    rest = 1
    for letter in letters:
        out.append("-" + letter)
        out_flags.append(flags[0])
        if letter in _TAR_VALUE_LETTERS and rest < len(args):
            out.append(args[rest])
            out_flags.append(flags[rest])
            rest += 1
    return out + args[rest:], out_flags + flags[rest:]


def tar(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    from clearance.shellparse.knowledge import lookup
    from clearance.shellparse.options import parse_args

    spec = lookup("tar")
    assert spec is not None
    words, word_flags = _tar_words(args, flags)
    if words is not args:
        parsed = parse_args(spec, words)
        fact.paths = []
        fact.options = []
        fact.classes.difference_update(("delete", "secret_read", "code_exec"))
        dynamic = {a for a, f in zip(words, word_flags, strict=False) if f & DYNAMIC}
        c.current_cwd = c.apply_options(fact, spec, parsed, env, dynamic, nested)
    names = {o.name for o, _, _ in parsed.options if o is not None}
    mode = next((_TAR_MODES[n] for n in _TAR_MODES if n in names), "")
    archive = next(iter(_option_values(parsed, "--file")), None)
    directory = next(iter(_option_values(parsed, "--directory")), None)
    cwd = c.current_cwd
    if directory is not None:
        cwd = resolve(directory, env.cwd if cwd is None else cwd, c.home) or cwd
    for value in _option_values(parsed, "--use-compress-program"):
        argv = value.split()
        nested.append(_nested("tar --use-compress-program", argv=argv, flags=[0] * len(argv)))
    for value in _option_values(parsed, "--checkpoint-action"):
        if value.startswith("exec="):
            nested.append(_nested("tar --checkpoint-action", shell=value[5:]))
    remote = archive is not None and (
        "://" in archive or (":" in archive.split("/")[0] and "--force-local" not in names)
    )
    if remote and archive is not None:
        c.add_host(fact, archive)
    if mode == "create":
        fact.classes.add("write")
        if archive is not None and not remote:
            c.add_path(fact, archive, "write", env, source="option")
        for value in parsed.operands:
            c.add_path(fact, value, "read", env, cwd=cwd, tree=True)
            if "--remove-files" in names:
                c.add_path(fact, value, "delete", env, cwd=cwd)
    elif mode == "extract":
        fact.classes.add("write")
        if archive is not None and not remote:
            c.add_path(fact, archive, "read", env, source="option")
        if "--to-stdout" not in names:
            c.add_path(fact, directory or ".", "write", env, source="option")
            archives.record(c, fact, archive, directory, env, "tar", c.current_cwd)
        if "--absolute-names" in names:
            fact.classes.add("system")
    elif archive is not None and not remote:
        c.add_path(fact, archive, "read", env, source="option")


def dd(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    for arg in args:
        key, eq, value = arg.partition("=")
        if not eq:
            continue
        if key == "if":
            c.add_path(fact, value, "read", env)
        elif key == "of":
            c.add_path(fact, value, "write", env)


#: Options that make a formatter report instead of rewriting (canonical spellings).
_CHECK_OPTIONS = (
    "--check",
    "--check-only",
    "--diff",
    "-d",
    "-l",
    "--list",
    "-n",
    "--dry-run",
    "--list-different",
    "--lint",
    "--verify",
)


def check_only(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    if _has(fact, *_CHECK_OPTIONS):
        fact.classes.discard("write")
        for path in fact.paths:
            if path.access == "write" and path.source == "argument":
                path.access = "read"


# --- version control ----------------------------------------------------------------------

#: git configuration keys whose value is a program git runs, or that load more configuration.
GIT_CODE_KEYS = _Lazy(
    r"""(core\.(pager|editor|sshcommand|hookspath|fsmonitor|gitproxy|askpass|
    attributesfile|excludesfile)|diff\..*\.(textconv|command)|diff\.external|
    merge\..*\.driver|filter\..*\.(clean|smudge|process)|alias\..*|credential\..*helper|
    sequence\.editor|gpg\.(.*\.)?program|pager\..*|man\..*\.(cmd|path)|web\.browser|
    browser\..*\.(cmd|path)|uploadpack\.packobjectshook|remote\..*\.(uploadpack|receivepack)|
    include\.path|includeif\..*\.path|init\.templatedir|sendemail\..*|
    interactive\.difffilter|submodule\..*\.update|protocol\..*\.allow|url\..*\.insteadof|
    core\.sshcommand|ssh\.variant|http\..*proxy.*|notes\.displayref|core\.worktree|
    safe\.directory|(merge|diff)tool\..*\.(cmd|path)|remote\..*\.vcs|
    core\.alternaterefscommand|gpg\..*(program|command)|imap\.tunnel|
    lfs\.customtransfer\..*\.path|lfs\.standalonetransferagent|help\.browser|
    instaweb\..*|core\.hookspath|uploadarchive\.allowunreachable|receive\.procreceiverefs)""",
    re.VERBOSE,
)
#: Keys that send the repository (or its credentials) somewhere else: the next push, fetch
#: or pull talks to whatever they name.
GIT_REDIRECT_KEYS = _Lazy(
    r"remote\..*\.(url|pushurl|proxy|mirror)|url\..*\.(insteadof|pushinsteadof)|"
    r"branch\..*\.(remote|pushremote|merge)|remote\.pushdefault|http\.(.*\.)?(proxy|sslcainfo)|"
    r"credential\..*\.(username|usehttppath)|push\.default"
)
_GIT_SHELL_KEYS = _Lazy(
    r"(core\.(pager|editor|sshcommand|fsmonitor|gitproxy|askpass)|sequence\.editor|"
    r"diff\.external|diff\..*\.(textconv|command)|merge\..*\.driver|"
    r"filter\..*\.(clean|smudge|process)|credential\..*helper|pager\..*|"
    r"uploadpack\.packobjectshook|interactive\.difffilter)"
)


def _git_config_value(key: str, value: str, fact: SimpleCommandFacts, nested: list[Nested]) -> None:
    key = key.lower()
    if GIT_REDIRECT_KEYS.rx.fullmatch(key):
        fact.classes.add("network")  # where the next push or fetch goes
    if not GIT_CODE_KEYS.rx.fullmatch(key):
        return
    fact.classes.add("code_exec")
    fact.markers.add("env_code")
    command = None
    if key.startswith("alias."):
        if value.startswith("!"):
            command = value[1:]
    elif key.startswith(("submodule.", "credential")) and value.startswith("!"):
        command = value[1:]
    elif _GIT_SHELL_KEYS.rx.fullmatch(key):
        command = value
    if command:
        nested.append(_nested(f"git config {key}", shell=command))


def git_global(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``git -c key=value …``: configuration given on the command line, before the
    subcommand; keys that name programs make git run them."""
    for opt, spelling, value in parsed.options:
        if opt is not None and opt.name == "-c" and value:
            key, _, setting = value.partition("=")
            _git_config_value(key, setting, fact, nested)
        elif spelling.startswith("--config-env"):
            fact.classes.add("code_exec")
        elif opt is not None and opt.name == "--git-dir" and value:
            # the repository's configuration (pager, hooks, fsmonitor…) is read from there
            where = resolve(value, env.cwd, c.home)
            own = c.workspace is not None and where == c.workspace.rstrip("/") + "/.git"
            if not own and not plain_git_dir(where):  # a bare repository read from disk
                fact.classes.add("code_exec")
                fact.markers.add("env_code")
    cwd = env.cwd if c.current_cwd is None else c.current_cwd
    if cwd and c.workspace and _embedded_repository(cwd, c.workspace):
        fact.classes.add("code_exec")
        fact.markers.add("env_code")


def _embedded_repository(cwd: str, workspace: str) -> bool:
    """Whether git run in ``cwd`` would take its configuration from a repository inside the
    workspace other than the workspace's own: a ``.git`` directory below the root (a repository
    written or unpacked by the agent, whose config may name a pager, hooks or an fsmonitor), or
    a ``gitdir:`` file pointing anywhere but the root repository's submodules."""
    import os

    root = workspace.rstrip("/")
    if not root or not cwd.startswith(root + "/"):
        return False
    here = cwd.rstrip("/")
    for _ in range(64):
        if here == root or not here.startswith(root + "/"):
            return False
        marker = here + "/.git"
        try:
            if os.path.isdir(marker):
                return True
            if os.path.isfile(marker):
                with open(marker, encoding="utf-8", errors="replace") as handle:
                    line = handle.readline(4096).strip()
                target = line[len("gitdir:") :].strip() if line.startswith("gitdir:") else ""
                where = resolve(target, here, "/") if target else None
                return where is None or not where.startswith(root + "/.git/modules/")
        except OSError:
            return True
        here = here.rsplit("/", 1)[0]
    return True


def git_config(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    reading = _has(
        fact,
        "--get",
        "--get-all",
        "--get-regexp",
        "--list",
        "-l",
        "--show-origin",
        "--get-urlmatch",
        "--name-only",
        "--show-scope",
    )
    operands = list(parsed.operands)
    if operands and operands[0] in ("get", "list"):
        reading = True
    if operands and operands[0] in ("set", "unset", "rename-section", "remove-section", "edit"):
        operands = operands[1:]
        reading = False
    if reading or (
        len(operands) < 2
        and not _has(fact, "--unset", "--unset-all", "--edit", "-e", "--add", "--replace-all")
    ):
        return
    fact.classes.add("vcs_write")
    if _has(fact, "--global", "--system", "--file", "-f"):
        fact.classes.add("system")
    if len(operands) >= 2:
        _git_config_value(operands[0], operands[1], fact, nested)


def git_clean(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """Without pathspecs, ``git clean`` works on the whole directory it runs in."""
    if not parsed.operands:
        c.add_path(fact, ".", "delete", env, cwd=c.current_cwd)
    if _has(fact, "--dry-run"):
        fact.classes.discard("delete")
        fact.classes.discard("vcs_destructive")
        for path in fact.paths:
            if path.access == "delete":
                path.access = "read"


def git_replace(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``git replace A B`` makes every command see B where A is; ``-l`` or nothing lists."""
    if _has(fact, "--list") or not parsed.operands:
        fact.classes.difference_update(("vcs_write", "vcs_destructive"))
        fact.classes.add("vcs_read")


def git_grep(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``git grep PATTERN PATH…``: paths are searched inside the repository, except with
    ``--no-index`` (or outside a repository), where any file or tree is read."""
    operands = parsed.operands
    patterns = _option_values(parsed, "-e", "-f")
    paths = operands if patterns else operands[1:]
    for value in paths:
        c.add_path(fact, value, "read", env, cwd=c.current_cwd, tree=True)


def git_symbolic_ref(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``git symbolic-ref HEAD refs/heads/x`` points HEAD elsewhere (one operand reads)."""
    if len(parsed.operands) >= 2:
        fact.classes.update(("vcs_write", "vcs_destructive"))


def git_revision_paths(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """Files read out of the repository: ``REV:PATH`` operands (``git show HEAD:.env``) and
    paths after ``--`` -- a secret committed once is still a secret."""
    after_dashes = args[args.index("--") + 1 :] if "--" in args else []
    if _has(fact, "--no-index"):
        # ``git diff --no-index A B`` compares two files anywhere: it reads them both
        for value in parsed.operands:
            c.add_path(fact, value, "read", env, cwd=c.current_cwd)
        return
    for value in parsed.operands:
        rev, colon, path = value.partition(":")
        if colon and path and not rev.startswith(("http", "git@")) and "/" not in rev:
            c.add_path(fact, path, "read", env, source="revision", cwd=c.current_cwd)
        elif value in after_dashes:
            c.add_path(fact, value, "read", env, cwd=c.current_cwd)


def git_checkout(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    discards = "--" in args or "." in parsed.operands or _has(fact, "-f", "--force")
    if fact.subcommand and fact.subcommand.endswith("restore"):
        discards = bool(parsed.operands) and not (
            _has(fact, "--staged", "-S") and not _has(fact, "--worktree", "-W")
        )
    if discards:
        fact.classes.add("vcs_destructive")


def git_push(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    for refspec in parsed.operands[1:]:
        if refspec.startswith(("+", ":")):
            fact.classes.add("vcs_destructive")


def git_clone(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    for value in _option_values(parsed, "--config", "-c"):
        key, _, setting = value.partition("=")
        _git_config_value(key, setting, fact, nested)
    if len(parsed.operands) == 1:
        url = parsed.operands[0].rstrip("/")
        name = url.rsplit("/", 1)[-1].rsplit(":", 1)[-1]
        name = name[:-4] if name.endswith(".git") else name
        if name:
            c.add_path(fact, name, "write", env)


def gh_api(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    method = "GET"
    for i, arg in enumerate(args):
        if arg in ("-X", "--method") and i + 1 < len(args):
            method = args[i + 1].upper()
        elif arg.startswith("--method="):
            method = arg.split("=", 1)[1].upper()
        elif arg in ("-f", "-F", "--field", "--raw-field", "--input") and method == "GET":
            method = "POST"
    fact.classes.add("vcs_read" if method == "GET" else "vcs_write")
    fact.classes.add("network_read" if method in ("GET", "HEAD") else "network_write")
    for value in _option_values(parsed, "--field"):
        if "=@" in value:  # ``-F body=@file``: the file is sent
            c.add_path(fact, value.split("=@", 1)[1], "read", env, source="option")
    if method == "DELETE":
        fact.classes.add("vcs_destructive")


# --- builds and packages --------------------------------------------------------------------

#: make variables whose value is the program that runs every recipe line.
_MAKE_SHELL_VARIABLES = frozenset(("SHELL", "MAKESHELL", ".SHELLFLAGS", "MAKEFLAGS"))


def make(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``make VAR=value`` overrides the Makefile; ``SHELL=prog`` runs every recipe with it.
    A target named for publishing (``deploy``, ``release``) is a network write."""
    if not _has(fact, "--just-print"):
        publishes(fact, parsed.operands)
    for value in parsed.operands:
        name, eq, setting = value.partition("=")
        if eq and name.strip() in _MAKE_SHELL_VARIABLES:
            fact.markers.add("env_code")
            fact.classes.add("code_exec")
            if name.strip() in ("SHELL", "MAKESHELL") and setting:
                c.add_path(fact, setting, "exec", env, source="argument")


#: Maven goals that run a program or the application (``exec:exec``, ``spring-boot:run``) and
#: those that publish.
_MAVEN_RUNS = _Lazy(r"^(?:exec|antrun|groovy|gplus|jshell):|:(?:run|dev|start|exec|execute)$")
_MAVEN_PUBLISHES = _Lazy(r"^(?:deploy|release:|site-deploy|jib:build$|deploy:|gpg:sign-and-deploy)")


def maven(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """Goals and phases: plugins that run programs are code; deploy/release publish.
    ``-Dexec.executable=…`` / ``-Dexec.args`` name the program ``exec:exec`` runs."""
    for goal in parsed.operands:
        if _MAVEN_RUNS.rx.search(goal):
            fact.classes.add("code_exec")
        if _MAVEN_PUBLISHES.rx.match(goal):
            fact.classes.update(("network", "network_write"))
    for value in _option_values(parsed, "--define"):
        if value.startswith(("exec.", "maven.repo", "altDeploymentRepository")):
            fact.classes.add("code_exec")


_GRADLE_RUNS = _Lazy(r"(?:^|:)(?:run|bootRun|exec|javaExec|runShadow|appRun|jettyRun|quarkusDev)$")
_GRADLE_PUBLISHES = _Lazy(r"(?:^|:)(?:publish\w*|uploadArchives|deploy\w*|release\w*|jib)$")


def gradle(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """Tasks that run the application are code; publishing tasks are network writes; a dry
    run (``-m``) only lists the tasks."""
    for task in parsed.operands:
        if _GRADLE_RUNS.rx.search(task):
            fact.classes.add("code_exec")
        if _GRADLE_PUBLISHES.rx.search(task):
            fact.classes.update(("network", "network_write"))


#: ``cmake -E`` commands: what each does to its operands.
_CMAKE_E_DELETE = frozenset(("rm", "remove", "remove_directory"))
_CMAKE_E_WRITE = frozenset(
    ("make_directory", "touch", "touch_nocreate", "create_symlink", "create_hardlink")
)
_CMAKE_E_READ = frozenset(
    (
        "echo",
        "echo_append",
        "cat",
        "compare_files",
        "md5sum",
        "sha1sum",
        "sha256sum",
        "sha512sum",
        "capabilities",
        "environment",
        "sleep",
        "true",
        "false",
        "help",
    )
)


def cmake_tool(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``cmake -E CMD …``: a portable command set. ``env``/``chdir``/``time`` run a command
    (unwrapped); ``rm``/``copy``/``tar``… act on their operands; one not known is code."""
    if "-E" not in args:
        return
    at = args.index("-E") + 1
    if at >= len(args):
        return
    command, rest, rest_flags = args[at], args[at + 1 :], flags[at + 1 :]
    words = [(a, f) for a, f in zip(rest, rest_flags, strict=False) if not a.startswith("-")]
    if command == "env":
        k = 0
        while k < len(rest) and (rest[k].startswith("-") or "=" in rest[k]):
            k += 1
        if k < len(rest):
            nested.append(_nested("cmake -E env", argv=rest[k:], flags=rest_flags[k:]))
    elif command in ("chdir", "time") and rest:
        start = 1 if command == "chdir" else 0
        if command == "chdir":
            c.add_path(fact, rest[0], "read", env)
        if start < len(rest):
            nested.append(
                _nested(f"cmake -E {command}", argv=rest[start:], flags=rest_flags[start:])
            )
    elif command in _CMAKE_E_DELETE:
        for value, flag in words:
            c.add_path(fact, value, "delete", env, dynamic=bool(flag & DYNAMIC))
    elif command in _CMAKE_E_WRITE:
        for value, flag in words:
            c.add_path(fact, value, "write", env, dynamic=bool(flag & DYNAMIC))
    elif command.startswith(("copy", "rename")) and words:
        for value, flag in words[:-1]:
            c.add_path(fact, value, "read", env, dynamic=bool(flag & DYNAMIC))
            if command == "rename":
                c.add_path(fact, value, "delete", env, dynamic=bool(flag & DYNAMIC))
        c.add_path(fact, words[-1][0], "write", env, dynamic=bool(words[-1][1] & DYNAMIC))
    elif command in _CMAKE_E_READ:
        for value, flag in words:
            if "/" in value or "." in value:
                c.add_path(fact, value, "read", env, dynamic=bool(flag & DYNAMIC))
    else:
        # tar, server, a command not listed: what it does is not known
        fact.classes.add("code_exec")


def pip_install(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """Requirements given as URLs or paths (``pip install git+https://…``, ``pip install
    ./pkg``) fetch from those hosts or build that directory's code."""
    for value in parsed.operands:
        spec = value.split("@", 1)[1].strip() if " @ " in value or "@ " in value else value
        target = spec.split("+", 1)[1] if spec.startswith(("git+", "hg+", "svn+", "bzr+")) else spec
        if "://" in target:
            c.add_host(fact, target)
        elif target.startswith((".", "/", "~")) or target.endswith((".whl", ".tar.gz", ".zip")):
            c.add_path(fact, target, "read", env)


def _script_classes(fact: SimpleCommandFacts, name: str) -> None:
    base = name.split(":", maxsplit=1)[0]
    from clearance.shellparse.knowledge.packages import BUILD_SCRIPTS, TEST_SCRIPTS

    if name in TEST_SCRIPTS or base == "test":
        fact.classes.add("test")
    elif name in BUILD_SCRIPTS or base in ("build", "lint", "format", "typecheck"):
        fact.classes.add("build")
    else:
        fact.classes.add("code_exec")


def npm_run(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    fact.classes.discard("code_exec")
    if not parsed.operands:
        fact.classes.add("read_only")  # lists the scripts
        return
    _script_classes(fact, parsed.operands[0])


def npm_run_implicit(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    fact.classes.discard("code_exec")
    name = (fact.subcommand or "").split(" ")[-1]
    _script_classes(fact, name)


def npm_global(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """Options before the subcommand: ``-g`` makes any install system-wide; a bare ``yarn``
    installs the dependencies."""
    if _has(fact, "--global"):
        fact.classes.add("system")
    # called with the arguments before the subcommand; ``flags`` covers all of them, so a
    # parse that used them all means there is no subcommand
    if fact.program == "yarn" and parsed.rest_index >= len(flags):
        fact.classes.update(("package_install", "network"))


def npx(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    for opt, _, value in parsed.options:
        if opt is not None and opt.name in ("-c", "--call") and value:
            nested.append(_nested("npx -c", shell=value))


def pager(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``less +CMD``: CMD is a less command run at start; ``!cmd`` and ``|cmd`` in it run a
    shell command."""
    for value in parsed.operands:
        if not value.startswith("+"):
            continue
        fact.paths = [p for p in fact.paths if p.path != value]
        shell_at = min((i for i in (value.find("!"), value.find("|")) if i >= 0), default=-1)
        if shell_at >= 0:
            fact.classes.add("code_exec")
            fact.markers.add("inline_code")
            command = value[shell_at + 1 :].lstrip("!").strip()
            if value[shell_at] == "|" and command[:1].isalpha() is False:
                command = command[1:].strip()  # ``|m cmd``: a mark, then the command
            if command:
                nested.append(_nested(f"{fact.program} +!", shell=command))


def database(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """Database clients: where they connect, and what the statements they are given do.

    SQL and meta-commands given on the command line, or on a standard input whose text is
    known, are read (``clearance.shellparse.sql``): reads are reads, writes and DDL writes,
    meta-commands that run programs code, files they write or read paths. SQL from a file or
    from an input nobody has seen is ``unknown``; so is an interactive session."""
    from clearance.shellparse import sql

    for value in _option_values(parsed, "--host", "-h"):
        c.add_host(fact, value + ":")
    program = fact.program or ""
    found: dict[str, list[str]] = {}
    if program == "redis-cli":
        words = [w.lower() for w in parsed.operands]
        if _option_values(parsed, "--eval"):
            found["code"] = []
        elif words:
            first = words[0]
            name = (
                f"{first}-{words[1]}"
                if len(words) > 1 and first in ("client", "cluster")
                else first
            )
            if name in sql.REDIS_READS or (first == "config" and words[1:2] == ["get"]):
                found["read"] = []
            elif first in ("eval", "evalsha", "fcall", "function", "module", "script", "debug") or (
                first == "config" and words[1:2] == ["set"]  # dir + dbfilename: a file anywhere
            ):
                found["code"] = []
            else:
                found["write"] = []
        else:
            found["unknown"] = []
    elif program in ("mongo", "mongosh"):
        code = _option_values(parsed, "--eval")
        if code and all(_MONGO_READ.rx.fullmatch(x.strip().rstrip(";")) for x in code):
            found["read"] = []
        elif code or parsed.operands[1:]:
            found["code"] = []
        else:
            found["unknown"] = []
    else:
        client = "sqlite3" if program == "sqlite3" else program
        if program == "sqlite3":
            texts = [*_option_values(parsed, "-cmd"), *parsed.operands[1:]]
            files = _option_values(parsed, "-init")
        elif program == "psql":
            texts = _option_values(parsed, "--command")
            files = _option_values(parsed, "--file")
        else:
            texts = _option_values(parsed, "--execute")
            files = []
        for text in texts:
            for effect, names in sql.effects(text, client).items():
                found.setdefault(effect, []).extend(names)
        if files:
            found.setdefault("unknown", [])
        if not texts and not files:
            if fact.stdin_text is not None:
                found.update(sql.effects(fact.stdin_text, client))
            elif fact.stdin is not None:
                found["unknown"] = []  # SQL on an input the analysis cannot see
            elif _has(fact, "--list", "-V", "--version"):
                found["read"] = []
            else:
                found["unknown"] = []  # an interactive session: whatever is typed
    network = "network" in fact.classes
    if "code" in found:
        fact.classes.add("code_exec")
    for name in found.get("file_write", []):
        c.add_path(fact, name, "write", env)
    for name in found.get("file_read", []):
        c.add_path(fact, name, "read", env)
    if "unknown" in found:
        fact.classes.add("unknown")
    writes = bool(found.keys() & {"write", "drop", "code", "file_write", "unknown"})
    if "drop" in found:
        fact.classes.add("delete")
    if writes:
        fact.classes.add("write" if "unknown" not in found else "unknown")
        if found.keys() - {"read", "unknown", "file_read"}:
            # statements given inline that change the database or run programs: code on the
            # command line, never allowed unless a rule names it
            fact.markers.add("inline_code")
        if network:
            fact.classes.add("network_write")
    elif found:
        fact.classes.add("read_only")
        if network:
            fact.classes.add("network_read")
        if program == "sqlite3" and parsed.operands:
            # only read: the database file is read, not written
            db = parsed.operands[0]
            for path in fact.paths:
                if path.path == db and path.access == "write":
                    path.access = "read"
            if not any(p.access == "write" for p in fact.paths):
                fact.classes.discard("write")


#: mongosh ``--eval`` code that only reads: ``db.users.find({…})``, ``show dbs``…
_MONGO_READ = _Lazy(
    r"(?:db\.(?:getCollectionNames|getName|stats|version|serverStatus|hostInfo|listCollections)"
    r"\(\s*\)|db\.(?:getCollection\(['\"][\w.-]+['\"]\)|[\w]+)\.(?:find|findOne|countDocuments|"
    r"estimatedDocumentCount|count|distinct|getIndexes|stats)\([^;]*\)(?:\.(?:limit|sort|skip|"
    r"count|toArray|pretty|explain)\([^;]*\))*|show (?:dbs|databases|collections|users|roles))"
)


# --- network --------------------------------------------------------------------------------

_CURL_FILE_OPTIONS = frozenset(
    (
        "--data",
        "--data-binary",
        "--data-ascii",
        "--data-urlencode",
        "--form",
        "--json",
    )
)


#: curl options that send something besides the request line (data, files, cookies, mail).
_CURL_SENDS = frozenset(
    (
        *_CURL_FILE_OPTIONS,
        "--data-raw",
        "--form-string",
        "--upload-file",
        "--config",
        "--cookie",
        "--mail-rcpt",
        "--mail-from",
        "--quote",
        "--telnet-option",
        "--variable",
    )
)
_READ_SCHEMES = ("http://", "https://", "ftp://", "ftps://", "file://")


def curl(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """Files curl sends: ``-d @file`` (``@-`` is stdin), ``-F name=@file`` / ``name=<file``,
    ``--json @file``, ``--data-urlencode name@file``. A plain GET / HEAD of http(s) or ftp
    URLs is a network read; data, uploads, another method or scheme, an option not known, a
    config file are writes."""
    urls = [*parsed.operands, *_option_values(parsed, "--url")]
    sends = any(opt is None or opt.name in _CURL_SENDS for opt, _, _ in parsed.options)
    sends = sends or any(
        m.upper() not in ("GET", "HEAD", "OPTIONS") for m in _option_values(parsed, "--request")
    )
    sends = sends or any("://" in u and not u.lower().startswith(_READ_SCHEMES) for u in urls)
    fact.classes.add("network_write" if sends else "network_read")
    for opt, _, value in parsed.options:
        if opt is None or value is None or opt.name not in _CURL_FILE_OPTIONS:
            continue
        path: str | None = None
        if opt.name in ("--form", "--form-string"):
            content = value.split("=", 1)[1] if "=" in value else value
            if opt.name == "--form" and content.startswith(("@", "<")):
                path = content[1:].split(";")[0]
        elif opt.name == "--data-urlencode":
            _, at, rest = value.partition("@")
            path = rest if at and "=" not in value.split("@", 1)[0] else None
        elif value.startswith("@"):
            path = value[1:]
        if path and path != "-":
            c.add_path(fact, path, "read", env, source="option")


_SSH_OPTION = _Lazy(r"\s*([^=\s]*)(\s*=\s*|\s+|)(.*)", re.DOTALL)


def ssh(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    for _opt, spelling, value in parsed.options:
        if value is None:
            continue
        if spelling == "-o":
            # ``-o Key=value`` or ``-o 'Key value'``: whichever separator comes first
            key, _, setting = _SSH_OPTION.rx.match(value).groups()  # type: ignore[union-attr]
            if key.lower() in (
                "proxycommand",
                "localcommand",
                "knownhostscommand",
                "remotecommand",
                "match",
            ):
                fact.classes.add("code_exec")
                nested.append(_nested(f"ssh -o {key}", shell=setting))
        elif spelling in ("-L", "-R", "-D", "-W", "-w"):
            fact.classes.add("process_control")
    if len(parsed.operands) == 1:
        fact.classes.add("remote_code_exec")  # an interactive shell over there


def ssh_transfer(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """scp/sftp: every operand but the last is a source; ``host:path`` operands are remote."""
    operands = parsed.operands
    fact.paths = [p for p in fact.paths if p.path not in operands]
    tree = _has(fact, "-r")
    for k, value in enumerate(operands):
        if _remote_operand(value):
            c.add_host(fact, value)
        elif k == len(operands) - 1 and len(operands) > 1:
            c.add_path(fact, value, "write", env)
        else:
            c.add_path(fact, value, "read", env, tree=tree)


def _remote_operand(value: str) -> bool:
    from clearance.shellparse.classifier import _SCP

    return "://" in value or (_SCP.match(value) is not None and not value.startswith(("/", ".")))


def rsync(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """rsync: like scp (``host:path`` is remote), reading whole trees."""
    operands = parsed.operands
    fact.paths = [p for p in fact.paths if p.path not in operands or p.source != "argument"]
    for k, value in enumerate(operands):
        if _remote_operand(value):
            c.add_host(fact, value)
        elif k == len(operands) - 1 and len(operands) > 1:
            c.add_path(fact, value, "write", env)
            if "delete" in fact.classes:
                c.add_path(fact, value, "delete", env)
        else:
            c.add_path(fact, value, "read", env, tree=True)
            if _has(fact, "--remove-source-files"):
                c.add_path(fact, value, "delete", env)
    if fact.hosts:
        fact.classes.add("network")
        # to a remote destination is an upload; from remote sources only, a fetch
        upload = len(operands) > 1 and _remote_operand(operands[-1])
        fact.classes.add("network_write" if upload else "network_read")
    if _has(fact, "--dry-run"):
        # ``rsync -n``: lists what it would do; nothing is written or deleted (the remote
        # shell and --rsync-path still run, and were judged as commands of their own)
        for path in fact.paths:
            if path.access in ("write", "delete"):
                path.access = "read"
        fact.classes.difference_update(("write", "delete"))


def netcat(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """nc/ncat/socat: ``-e``/``-c`` and socat's ``EXEC:``/``SYSTEM:`` hand the connection to a
    program -- a remote shell."""
    fact.paths = [p for p in fact.paths if p.source != "argument"]
    for i, arg in enumerate(args):
        if arg in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") and i + 1 < len(args):
            fact.classes.update(("code_exec", "remote_code_exec"))
            nested.append(_nested(f"{fact.program} {arg}", shell=args[i + 1]))
        upper = arg.upper()
        for prefix in ("EXEC:", "SYSTEM:"):
            if upper.startswith(prefix):
                fact.classes.update(("code_exec", "remote_code_exec"))
                command = arg[len(prefix) :].split(",")[0]
                nested.append(_nested(f"{fact.program} {prefix}", shell=command))
        if upper.startswith(("TCP-LISTEN:", "UDP-LISTEN:", "OPENSSL-LISTEN:", "UNIX-LISTEN:")):
            fact.classes.add("process_control")
        elif fact.program == "socat" and upper.startswith(("OPEN:", "FILE:", "CREATE:")):
            c.add_path(fact, arg.split(":", 1)[1].split(",")[0], "unknown", env)


# --- wrappers ------------------------------------------------------------------------------


def wrapper(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    if fact.program in ("nohup", "setsid"):
        fact.markers.add("background")
    # ``strace -o '!cmd'`` / ``ltrace -o '|cmd'``: the trace is piped into a shell command
    for value in _option_values(parsed, "--output"):
        if value.startswith(("!", "|")) and value[1:].strip():
            fact.paths = [p for p in fact.paths if p.path != value]
            if not any(p.access == "write" for p in fact.paths):
                fact.classes.discard("write")
            fact.classes.add("code_exec")
            nested.append(_nested(f"{fact.program} -o", shell=value[1:].strip()))


def su(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """Without ``-c``, su and runuser start an interactive shell as the other user."""
    has_command = any(o is not None and o.role == "shell" for o, _, _ in parsed.options)
    if not has_command and not (fact.program == "runuser" and _has(fact, "--user")):
        fact.classes.add("code_exec")


def sg(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``sg GROUP -c 'cmd'`` and ``sg GROUP cmd``: the command runs as the group."""
    operands = parsed.operands
    if len(operands) >= 3 and operands[1] in ("-c", "--command"):
        nested.clear()
        nested.append(_nested("sg -c", shell=operands[2]))
    elif len(operands) == 1:
        fact.classes.add("code_exec")


def capsh(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``capsh [options] -- ARGS``: ARGS go to a shell (``capsh -- -c 'cmd'``)."""
    if "--" in args:
        rest = args[args.index("--") + 1 :]
        rest_flags = flags[args.index("--") + 1 :]
        nested.append(_nested("capsh --", argv=["bash", *rest], flags=[0, *rest_flags]))
    for value in args:
        if value.startswith("--shell="):
            c.add_path(fact, value.split("=", 1)[1], "exec", env, source="option")


def flock(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``flock FILE -c 'cmd'``: flock reads ``-c`` itself after the lock file."""
    operands = parsed.operands
    if len(operands) >= 3 and operands[1] in ("-c", "--command"):
        nested.clear()
        nested.append(_nested("flock -c", shell=operands[2]))


def chroot(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """Without a command, chroot, nsenter and unshare start an interactive shell."""
    if not nested:
        fact.classes.add("code_exec")


def entr(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``entr -s 'cmd'`` runs its operand with the shell."""
    if _has(fact, "-s") and parsed.operands:
        nested.clear()
        nested.append(_nested("entr -s", shell=" ".join(parsed.operands)))


def start_stop_daemon(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``start-stop-daemon --start --exec PROG -- ARGS`` runs PROG with ARGS."""
    programs = _option_values(parsed, "--exec", "--startas")
    if programs and _has(fact, "--start"):
        argv = [programs[-1], *parsed.operands]
        nested.append(_nested("start-stop-daemon", argv=argv, flags=[0] * len(argv)))


def command_builtin(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    if _has(fact, "-v", "-V"):
        nested.clear()
        fact.classes.add("read_only")


def sudo(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    if not parsed.operands and _has(fact, "--shell", "--login", "-s", "-i"):
        fact.classes.add("code_exec")


def env(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    operands = parsed.operands
    index = parsed.operand_index
    k = 0
    if operands[:1] == ["-"]:  # ``env - cmd``: the same as ``env -i cmd``
        k = 1
    while k < len(operands) and "=" in operands[k] and not operands[k].startswith("="):
        name, _, value = operands[k].partition("=")
        if not name.replace("_", "a").isalnum():
            break
        fact.assignments.append(name)
        if name == "PATH":
            fact.markers.add("path_modified")
            k += 1
            continue
        from clearance.shellparse.knowledge import environment

        dynamic = bool(flags[index[k]] & DYNAMIC) if index[k] < len(flags) else False
        verdict = environment.judge(
            name,
            value,
            dynamic,
            lambda path: inside(resolve(path, env.cwd, c.home), c.workspace),
        )
        if verdict == "unknown":
            fact.markers.add("unknown_env")
        elif verdict != "harmless":
            fact.markers.add("env_code")
            fact.classes.add("code_exec")
            runs = verdict == "command" or name in COMMAND_STRING_VARIABLES
            if runs and value and not dynamic:
                nested.append(_nested(f"env {name}", shell=value.strip().lstrip("|")))
        k += 1
    if k < len(operands):
        start = index[k]
        nested.append(_nested("env", argv=args[start:], flags=flags[start:], cwd=c.current_cwd))
    elif not any(opt is not None and opt.role == "shell" for opt, _, _ in parsed.options):
        fact.classes.add("secret_read")  # prints the environment


def watch(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    if _has(fact, "--exec", "-x") and nested and parsed.operand_index:
        start = parsed.operand_index[0]
        nested[-1] = _nested("watch -x", argv=args[start:], flags=flags[start:])


def xargs(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """The command xargs runs. Its input words are appended (or put in place of the ``-I``
    string): when standard input is known text (``echo a b | xargs rm``) they are those
    words; otherwise ``{input}`` stands for them, unknown, hence ``dynamic_argument``."""
    replace = None
    for opt, _spelling, value in parsed.options:
        if opt is not None and opt.name in ("-I", "--replace"):
            replace = value or "{}"
    if parsed.operand_index:
        start = parsed.operand_index[0]
        argv = list(args[start:])
        argv_flags = list(flags[start:])
    else:
        argv, argv_flags = ["echo"], [0]
    items = _xargs_items(fact.stdin_text, parsed, replace is not None or _has(fact, "-L"))
    if items is None:
        if replace:
            argv_flags = [
                f | (DYNAMIC if replace in a else 0) for a, f in zip(argv, argv_flags, strict=False)
            ]
        else:
            argv.append(PLACEHOLDER)
            argv_flags.append(DYNAMIC)
        nested.append(_nested("xargs", argv=argv, flags=argv_flags))
        return
    if replace:
        for item in items[:_MAX_EXPANDED]:
            nested.append(
                _nested("xargs", argv=[a.replace(replace, item) for a in argv], flags=argv_flags)
            )
    else:
        nested.append(_nested("xargs", argv=argv + items, flags=argv_flags + [0] * len(items)))


def _xargs_items(text: str | None, parsed: ParsedArgs, lines: bool) -> list[str] | None:
    """The words xargs reads from ``text``: NUL- or delimiter-separated, one per line with
    ``-I``/``-L``, else blank-separated with quotes taken off."""
    if text is None:
        return None
    delimiter = next(iter(_option_values(parsed, "--delimiter")), None)
    if any(o is not None and o.name == "--null" for o, _, _ in parsed.options):
        items = text.split("\0")
    elif delimiter is not None:
        items = text.split(delimiter.replace("\\n", "\n").replace("\\t", "\t"))
    elif lines:
        items = text.splitlines()
    else:
        import shlex

        try:
            items = shlex.split(text)
        except ValueError:
            return None
    return [item for item in (i.strip() if lines else i for i in items) if item]


def parallel(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``parallel CMD ::: A B``: CMD runs once per argument (appended, or in place of
    ``{}``). Arguments given on the line are substituted; from a file or stdin they are not
    known, and the command carries ``dynamic_argument``."""
    operands = parsed.operands
    command: list[str] = []
    values: list[str] = []
    from_file = False
    k = 0
    while k < len(operands) and operands[k] not in (":::", "::::", ":::+", "::::+"):
        command.append(operands[k])
        k += 1
    while k < len(operands):
        if operands[k] in ("::::", "::::+"):
            from_file = True
            k += 1
            if k < len(operands):
                c.add_path(fact, operands[k], "read", env)
        elif operands[k] in (":::", ":::+"):
            pass
        else:
            values.append(operands[k])
        k += 1
    if not command:
        fact.classes.add("code_exec")
        fact.markers.add("stdin_code")
        return
    template = " ".join(command)
    if values and not from_file and not _option_values(parsed, "--arg-file"):
        for value in values[:_MAX_EXPANDED]:
            quoted = "'" + value.replace("'", "'\\''") + "'"
            line = template.replace("{}", quoted) if "{}" in template else f"{template} {quoted}"
            nested.append(_nested("parallel", shell=line))
        if len(values) > _MAX_EXPANDED:
            fact.markers.add("truncated")
        return
    fact.markers.add("dynamic_argument")
    line = template if "{}" in template else template + " {}"
    nested.append(_nested("parallel", shell=line, markers=("dynamic_argument",)))


#: Most commands one ``parallel … ::: A B C`` line is expanded into for analysis.
_MAX_EXPANDED = 16


def alias(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    for value in args:
        name, eq, text = value.partition("=")
        if eq and text:
            nested.append(_nested(f"alias {name}", shell=text))


#: tmux key names: what send-keys presses rather than types.
_TMUX_KEYS = frozenset(("Enter", "C-m", "C-j", "KPEnter", "C-c", "C-d", "Escape", "Space", "Tab"))


def tmux(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    runs = (
        "new-session",
        "new",
        "new-window",
        "neww",
        "split-window",
        "splitw",
        "respawn-pane",
        "respawn-window",
        "run-shell",
        "run",
        "display-popup",
        "popup",
    )
    for i, arg in enumerate(args):
        if arg in runs:
            tail = [a for a in args[i + 1 :] if not a.startswith("-")]
            if tail:
                nested.append(_nested(f"tmux {arg}", shell=tail[-1]))
            break
        if arg in ("send-keys", "send"):
            # typed into a shell in the pane: runs like a command line
            fact.classes.add("code_exec")
            fact.markers.add("inline_code")
            keys = [a for a in args[i + 1 :] if not a.startswith("-") and a not in _TMUX_KEYS]
            targets = {args[j + 1] for j in range(i + 1, len(args) - 1) if args[j] == "-t"}
            typed = " ".join(k for k in keys if k not in targets)
            if typed:
                nested.append(_nested("tmux send-keys", shell=typed))
            break
    if not args:
        fact.classes.add("code_exec")


def at(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``at``/``batch`` run their standard input (or ``-f FILE``) later, as a shell script."""
    fact.classes.add("code_exec")
    if _has(fact, "-l", "-d", "-r", "-c", "-q") and not fact.stdin:
        return
    files = _option_values(parsed, "-f")
    for value in files:
        c.add_path(fact, value, "exec", env, source="option")
    if files:
        return
    if fact.stdin_text is not None:
        nested.append(_nested(f"{fact.program} (scheduled)", shell=fact.stdin_text))
    else:
        fact.markers.add("stdin_code")


_CRON_TIME = _Lazy(r"\s*(?:@\w+|(?:\S+\s+){4}\S+)\s+(.*)")


def crontab(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """crontab installs a table of commands that run later: each line is analysed when the
    table is on the command line's standard input; from a file it is code not seen."""
    if _has(fact, "-l"):
        fact.classes.discard("system")
        fact.classes.add("read_only")
        return
    if _has(fact, "-r"):
        fact.classes.add("delete")
        return
    fact.classes.add("code_exec")
    operands = parsed.operands
    if operands and operands[0] != "-":
        return  # the file operand is an exec path: code not seen
    if fact.stdin_text is None:
        fact.markers.add("stdin_code")
        return
    for raw in fact.stdin_text.splitlines()[:_MAX_EXPANDED]:
        line = raw.strip()
        if not line or line.startswith("#") or "=" in line.split(None, 1)[0]:
            continue
        m = _CRON_TIME.rx.match(line)
        if m is not None and m.group(1).strip():
            nested.append(_nested("crontab (scheduled)", shell=m.group(1)))


# --- system ------------------------------------------------------------------------------


def variables_dump(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    if not parsed.operands and (not args or all(a in ("-p", "-x", "-px") for a in args)):
        fact.classes.add("secret_read")


def docker_run(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """docker run/create: mounts and namespaces that reach the host, and the command the
    container runs."""
    for opt, _spelling, value in parsed.options:
        if opt is None or value is None:
            continue
        name = opt.name
        if name in ("--volume", "--mount"):
            source = value.split(":")[0] if name == "--volume" else ""
            if name == "--mount":
                for item in value.split(","):
                    if item.startswith(("source=", "src=")):
                        source = item.split("=", 1)[1]
            resolved = (
                resolve(source, env.cwd, c.home) if source.startswith(("/", ".", "~")) else None
            )
            if resolved is not None and (
                resolved in _DOCKER_HOST_PATHS or resolved.startswith(("/var/run", "/run"))
            ):
                fact.classes.add("privilege")
            if resolved is not None:
                read_only = ":ro" in value or ",readonly" in value or ",ro" in value
                c.add_path(fact, source, "read" if read_only else "write", env, source="option")
        elif (
            (name in _DOCKER_NAMESPACES and (value == "host" or value.startswith("container:")))
            or name in ("--cap-add", "--device", "--device-cgroup-rule")
            or (name == "--security-opt" and ("unconfined" in value or "disable" in value))
        ):
            fact.classes.add("privilege")
    entrypoint = _option_values(parsed, "--entrypoint")
    if len(parsed.operands) > 1 or entrypoint:
        start = parsed.operand_index[1] if len(parsed.operands) > 1 else len(args)
        argv = [*entrypoint[-1:], *args[start:]]
        argv_flags = [0] * len(entrypoint[-1:]) + list(flags[start:])
        image = parsed.operands[0] if parsed.operands else "?"
        nested.append(
            _nested(f"docker run {image}", argv=argv, flags=argv_flags, context="container")
        )


#: Host directories whose mount gives a container the machine.
_DOCKER_HOST_PATHS = frozenset(
    ("/", "/etc", "/root", "/home", "/proc", "/sys", "/dev", "/boot", "/usr", "/var", "/lib")
)
_DOCKER_NAMESPACES = frozenset(("--pid", "--ipc", "--uts", "--userns", "--cgroupns", "--network"))


def kubectl_exec(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    if "--" in args:
        start = args.index("--") + 1
        if start < len(args):
            nested.append(
                _nested(
                    "kubectl exec", argv=args[start:], flags=flags[start:], context="remote:pod"
                )
            )


def dry_run(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``kubectl apply --dry-run=client``, ``helm upgrade --dry-run``: a plan, not a change.
    A client-side dry run only reads the cluster; a server-side one sends the manifests (a
    network write) but changes nothing. ``--dry-run=none`` is the real thing."""
    given = [(v or "client").lower() for o, _, v in parsed.options if o and o.name == "--dry-run"]
    if not given or given[-1] in ("none", "false"):
        return
    fact.classes.difference_update(("system", "delete"))
    if given[-1] != "server":
        # a client-side dry run (``npm publish --dry-run``) sends nothing
        fact.classes.difference_update(("network_write", "vcs_write"))
    fact.classes.add("read_only")
    fact.classes.add("network_write" if given[-1] == "server" else "network_read")


def kubectl_secrets(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    if any(a.startswith(("secret", "secrets")) for a in parsed.operands):
        fact.classes.add("secret_read")


#: Cloud CLI words that fetch a secret's value (not its metadata: ``list-secrets``,
#: ``describe-secret``, ``secrets list`` only name them).
_CLOUD_SECRET = _Lazy(
    r"get-secret-value|^get-parameters?$|print-access-token|print-identity-token|"
    r"get-access-token|get-session-token|get-login-password|^get-login$|assume-role|"
    r"export-credentials|^configure$|credentials$|^keys$|list-keys|access-secret|"
    r"get-credentials|^decrypt$|get-password-data|connection-string|generate-sas|"
    r"get-authorization-token|get-federation-token|^create-access-key$"
)
#: Cloud CLI options that send the request elsewhere or weaken its transport.
_CLOUD_REDIRECT = frozenset(
    ("--endpoint-url", "--endpoint", "--api-endpoint", "--no-verify-ssl", "--ca-bundle")
)
_CLOUD_READ = frozenset(
    (
        "describe",
        "list",
        "ls",
        "get",
        "show",
        "info",
        "status",
        "logs",
        "whoami",
        "version",
        "help",
        "--version",
        "config-list",
        "tail",
    )
)
_CLOUD_DELETE = _Lazy(r"^(delete|remove|rm|destroy|terminate|purge|rb|deregister)")


def cloud_cli(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """Cloud CLIs: reads (describe/list/get…), secret fetches, deletes; the rest asks.

    Their service options run into the thousands and select what a call is about; what
    matters is what a value sends: ``file://`` / ``fileb://`` values are local files sent up
    (a read of the file and a network write), and an endpoint override sends the signed
    request elsewhere (``unknown_option``)."""
    words = [a for a in parsed.operands if not a.startswith("-")]
    for value in args:
        local = value.partition("=")[2] if value.startswith("-") else value
        if local.startswith(("file://", "fileb://")):
            c.add_path(fact, local.split("://", 1)[1], "read", env, source="option")
            fact.classes.add("network_write")
    if any(spelling in _CLOUD_REDIRECT for _, spelling, _ in parsed.options):
        fact.markers.add("unknown_option")
    secret = any(_CLOUD_SECRET.rx.search(w) for w in words) or "--with-decryption" in args
    # ``az keyvault secret show``, ``gcloud secrets versions access``: the value itself
    secret = secret or (
        bool({"secret", "secrets"} & set(words[:3]))
        and bool({"show", "download", "access", "get"} & set(words[:4]))
    )
    if secret:
        # a secret fetched over the network: a read of the service, and a secret read
        fact.classes.update(("secret_read", "network_read"))
        return
    if any(_CLOUD_DELETE.rx.match(w) for w in words[:3]):
        fact.classes.update(("delete", "network_write"))
        return
    if any(w.split("-")[0] in _CLOUD_READ for w in words[:3]):
        fact.classes.discard("system")
        fact.classes.update(("read_only", "network_read"))


# handlers kept beside the knowledge they serve (this module is being split by family)
from clearance.shellparse.knowledge_handlers import (  # noqa: E402, F401
    apt_option,
    gpg,
    plain_git_dir,
    publishes,
    task_runner,
    unzip,
    uv_version,
)
