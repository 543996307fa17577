"""What the tables cannot say: sed scripts, awk programs, find expressions, tar modes, git
configuration that runs programs, the command lines hidden in wrappers' own syntax.

Each handler is named by a ``Spec`` (``handler="sed"``) and called after the table has been
applied, with the arguments of the program (or subcommand) it describes.
"""

from __future__ import annotations

import re

from clearance.shellparse.expand import DYNAMIC
from clearance.shellparse.knowledge import COMMAND_STRING_VARIABLES, DANGEROUS_VARIABLES
from clearance.shellparse.knowledge.packages import BUILD_SCRIPTS, TEST_SCRIPTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.classifier import Classifier, Nested
    from clearance.shellparse.expand import Env
    from clearance.shellparse.facts import SimpleCommandFacts
    from clearance.shellparse.options import ParsedArgs

    Args = list[str]
    Flags = list[int]

PLACEHOLDER = "{input}"


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

_EMBEDDED_CALL = re.compile(
    r"""(?:\b(?:system|popen|popen2|popen3|check_output|check_call|getoutput|getstatusoutput|
    run|call|Popen|spawn|spawnSync|exec|execSync|execFile|execFileSync|shell_exec|passthru|
    proc_open|qx|backticks)\s*\(\s*|`)\s*[rbuf]?(['"`])((?:\\.|(?!\1).)*)\1""",
    re.VERBOSE | re.DOTALL,
)
_EMBEDDED_LIST = re.compile(
    r"""\b(?:run|call|Popen|check_output|check_call|spawn|spawnSync|execFile|execFileSync|
    execv|execvp|execve|execl|execlp)\s*\(\s*\[((?:\s*['"][^'"]*['"]\s*,?)+)\s*\]""",
    re.VERBOSE,
)
_QUOTED_ITEM = re.compile(r"""['"]([^'"]*)['"]""")


def embedded_commands(code: str, label: str) -> list[Nested]:
    """Shell command lines written into interpreter code: ``os.system("…")``, backticks,
    ``subprocess.run(["rm", "-rf", …])``. Best effort: what is found is added, and the
    interpreter's own ``inline_code`` marker stays whatever is found."""
    found: list[Nested] = []
    for m in _EMBEDDED_CALL.finditer(code):
        text = m.group(2)
        if text.strip():
            found.append(_nested(label, shell=text.replace("\\n", "\n").replace('\\"', '"')))
    for m in _EMBEDDED_LIST.finditer(code):
        argv = _QUOTED_ITEM.findall(m.group(1))
        if argv:
            found.append(_nested(label, argv=argv, flags=[0] * len(argv)))
    return found[:16]


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
    for opt, _, value in parsed.options:
        if opt is not None and opt.role == "code" and value:
            nested.extend(embedded_commands(value, f"{fact.program} {opt.name}"))
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


def chmod(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    if not parsed.operands:
        return
    mode = parsed.operands[0]
    if ("s" in mode.split("=")[-1] and not mode.isdigit()) or (
        mode.isdigit() and len(mode) == 4 and mode[0] in "2467"
    ):
        fact.classes.add("privilege")


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
    while i < len(args):
        token = args[i]
        if token in _FIND_EXEC:
            j = i + 1
            while j < len(args) and args[j] not in (";", "+"):
                j += 1
            # `{}` is each file found: unknown by name, but under the starting points.
            base = starts[0][0].rstrip("/") or "/"
            inner = [a.replace("{}", f"{base}/{{}}") for a in args[i + 1 : j]]
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
            fact.options.append(token)
            i += 2
            continue
        elif token.startswith("-"):
            fact.options.append(token)
        i += 1
    for path, flag in starts:
        dynamic = bool(flag & DYNAMIC)
        if dynamic:
            fact.markers.add("dynamic_argument")
        c.add_path(fact, path, "delete" if deleting else "read", env, dynamic=dynamic)


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


def _sed_scripts(parsed: ParsedArgs) -> list[str]:
    scripts = _option_values(parsed, "--expression")
    if not scripts and not _option_values(parsed, "--file") and parsed.operands:
        scripts = [parsed.operands[0]]
    return scripts


def sed(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    scripts = _sed_scripts(parsed)
    in_place = _has(fact, "--in-place")
    if in_place:
        files = parsed.operands[0 if _option_values(parsed, "--expression", "--file") else 1 :]
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


_AWK_SYSTEM = re.compile(r"\bsystem\s*\(\s*\"((?:\\.|[^\"\\])*)\"")
_AWK_PIPE = re.compile(r"\"((?:\\.|[^\"\\])*)\"\s*\|\s*getline|\|\s*&?\s*\"((?:\\.|[^\"\\])*)\"")
_AWK_WRITE = re.compile(r"(?:print|printf)[^;}\n]*?>>?\s*\"((?:\\.|[^\"\\])*)\"")
_AWK_EXEC = re.compile(r"\bsystem\s*\(|\|\s*getline|\|&|\|\s*\"|\|\s*[A-Za-z_]")


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
    if _AWK_EXEC.search(program):
        fact.classes.add("code_exec")
        fact.markers.add("inline_code")
    for m in _AWK_SYSTEM.finditer(program):
        nested.append(_nested("awk system()", shell=m.group(1).replace('\\"', '"')))
    for m in _AWK_PIPE.finditer(program):
        text = m.group(1) or m.group(2)
        if text:
            nested.append(_nested("awk pipe", shell=text.replace('\\"', '"')))
    for m in _AWK_WRITE.finditer(program):
        c.add_path(fact, m.group(1), "write", env, source="script")
    if "inplace" in _option_values(parsed, "--include"):
        for value in parsed.operands[1:]:
            c.add_path(fact, value, "write", env)


def tar(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    mode = ""
    archive: str | None = None
    directory: str | None = None
    operands: list[str] = []
    pending_value: list[str] = []
    i = 0
    letters_taking_value = "fCbHIKLNTVX"
    options: list[str] = []
    while i < len(args):
        arg = args[i]
        if pending_value:
            letter = pending_value.pop(0)
            if letter == "f":
                archive = arg
            elif letter == "C":
                directory = arg
            elif letter == "I":
                nested.append(_nested("tar -I", argv=arg.split(), flags=[0] * len(arg.split())))
            elif letter == "T":
                c.add_path(fact, arg, "read", env, source="option")
            i += 1
            continue
        if arg.startswith("--"):
            name, _, value = arg.partition("=")
            options.append(name)
            long_mode = {
                "--create": "c",
                "--extract": "x",
                "--get": "x",
                "--list": "t",
                "--append": "r",
                "--update": "u",
                "--delete": "D",
                "--concatenate": "A",
                "--catenate": "A",
                "--diff": "d",
                "--compare": "d",
            }.get(name)
            if long_mode:
                mode += long_mode
            if name == "--file":
                archive = value or (args[i + 1] if i + 1 < len(args) else None)
                i += 0 if value else 1
            elif name == "--directory":
                directory = value or (args[i + 1] if i + 1 < len(args) else None)
                i += 0 if value else 1
            elif name in ("--to-command", "--info-script", "--new-volume-script"):
                command = value or (args[i + 1] if i + 1 < len(args) else "")
                i += 0 if value else 1
                nested.append(_nested(f"tar {name}", shell=command))
            elif name == "--checkpoint-action" and value.startswith("exec="):
                nested.append(_nested("tar --checkpoint-action", shell=value[5:]))
            elif name == "--use-compress-program":
                command = value or (args[i + 1] if i + 1 < len(args) else "")
                i += 0 if value else 1
                nested.append(_nested("tar -I", shell=command))
            elif name == "--remove-files":
                fact.classes.add("delete")
            i += 1
            continue
        if (i == 0 and not arg.startswith("-")) or (arg.startswith("-") and len(arg) > 1):
            letters = arg.lstrip("-")
            for j, letter in enumerate(letters):
                options.append("-" + letter)
                if letter in "cxtruAd":
                    mode += letter
                if letter in letters_taking_value:
                    if arg.startswith("-") and j + 1 < len(letters):
                        rest = letters[j + 1 :]
                        if letter == "f":
                            archive = rest
                        elif letter == "C":
                            directory = rest
                        break
                    pending_value.append(letter)
            i += 1
            continue
        operands.append(arg)
        i += 1
    fact.options = options
    if "c" in mode or "r" in mode or "u" in mode or "A" in mode or "D" in mode:
        fact.classes.add("write")
        if archive:
            c.add_path(fact, archive, "write", env, source="option")
        for value in operands:
            c.add_path(fact, value, "read", env)
            if "--remove-files" in options:
                c.add_path(fact, value, "delete", env)
    elif "x" in mode:
        fact.classes.add("write")
        if archive:
            c.add_path(fact, archive, "read", env, source="option")
        c.add_path(fact, directory or ".", "write", env, source="option")
        if "-P" in options or "--absolute-names" in options:
            fact.classes.add("system")
    elif archive:
        c.add_path(fact, archive, "read", env, source="option")
    if archive and (archive.startswith(("http://", "https://")) or ":" in archive.split("/")[0]):
        c.add_host(fact, archive)


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


def check_only(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    if _has(fact, "--check", "--diff", "-d", "-l", "--list", "-n", "--dry-run"):
        fact.classes.discard("write")
        for path in fact.paths:
            if path.access == "write" and path.source == "argument":
                path.access = "read"


# --- version control ----------------------------------------------------------------------

#: git configuration keys whose value is a program git runs, or that load more configuration.
GIT_CODE_KEYS = re.compile(
    r"""(core\.(pager|editor|sshcommand|hookspath|fsmonitor|gitproxy|askpass|
    attributesfile|excludesfile)|diff\..*\.(textconv|command)|diff\.external|
    merge\..*\.driver|filter\..*\.(clean|smudge|process)|alias\..*|credential\..*helper|
    sequence\.editor|gpg\.(.*\.)?program|pager\..*|man\..*\.(cmd|path)|web\.browser|
    browser\..*\.(cmd|path)|uploadpack\.packobjectshook|remote\..*\.(uploadpack|receivepack)|
    include\.path|includeif\..*\.path|init\.templatedir|sendemail\..*|
    interactive\.difffilter|submodule\..*\.update|protocol\..*\.allow|url\..*\.insteadof|
    core\.sshcommand|ssh\.variant|http\..*proxy.*|notes\.displayref)""",
    re.VERBOSE,
)
_GIT_SHELL_KEYS = re.compile(
    r"(core\.(pager|editor|sshcommand|fsmonitor|gitproxy|askpass)|sequence\.editor|"
    r"diff\.external|diff\..*\.(textconv|command)|merge\..*\.driver|"
    r"filter\..*\.(clean|smudge|process)|credential\..*helper|pager\..*|"
    r"uploadpack\.packobjectshook|interactive\.difffilter)"
)


def _git_config_value(key: str, value: str, fact: SimpleCommandFacts, nested: list[Nested]) -> None:
    key = key.lower()
    if not GIT_CODE_KEYS.fullmatch(key):
        return
    fact.classes.add("code_exec")
    fact.markers.add("env_code")
    command = None
    if key.startswith("alias."):
        if value.startswith("!"):
            command = value[1:]
    elif key.startswith(("submodule.", "credential")) and value.startswith("!"):
        command = value[1:]
    elif _GIT_SHELL_KEYS.fullmatch(key):
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
    if method == "DELETE":
        fact.classes.add("vcs_destructive")


# --- packages -------------------------------------------------------------------------------


def _script_classes(fact: SimpleCommandFacts, name: str) -> None:
    base = name.split(":", maxsplit=1)[0]
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
    """Options before the subcommand: ``-g`` makes any install system-wide."""
    if _has(fact, "-g", "--global"):
        fact.classes.add("system")


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


def curl(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    for opt, _, value in parsed.options:
        if opt is None or value is None or opt.name not in _CURL_FILE_OPTIONS:
            continue
        _, at, path = value.rpartition("@")
        if at and path and not path.startswith("-"):
            if (
                opt.name in ("--form",)
                and "=" in value
                and not value.split("=", 1)[1].startswith(("@", "<"))
            ):
                continue
            c.add_path(fact, path.split(";")[0], "read", env, source="option")
        elif value.startswith("<") and opt.name == "--form":
            c.add_path(fact, value[1:], "read", env, source="option")


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
            key, _, setting = value.replace(" ", "=", 1).partition("=")
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
    fact.paths = [p for p in fact.paths if p.path not in parsed.operands]
    operands = parsed.operands
    for k, value in enumerate(operands):
        from clearance.shellparse.classifier import _SCP

        if _SCP.match(value) or "://" in value:
            c.add_host(fact, value)
        else:
            c.add_path(fact, value, "write" if k == len(operands) - 1 else "read", env)


def rsync(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    ssh_transfer(c, fact, args, flags, parsed, env, nested)
    if fact.hosts:
        fact.classes.add("network")


def netcat(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    fact.paths = []
    for i, arg in enumerate(args):
        if arg in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") and i + 1 < len(args):
            fact.classes.update(("code_exec", "remote_code_exec"))
            nested.append(_nested(f"{fact.program} {arg}", shell=args[i + 1]))
        elif arg in ("-l", "--listen", "-lp", "-lvp", "-lnvp", "-nlvp"):
            fact.classes.add("process_control")
        upper = arg.upper()
        for prefix in ("EXEC:", "SYSTEM:"):
            if upper.startswith(prefix):
                fact.classes.update(("code_exec", "remote_code_exec"))
                nested.append(_nested(f"{fact.program} {prefix}", shell=arg[len(prefix) :]))


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
    while k < len(operands) and "=" in operands[k] and not operands[k].startswith("="):
        name, _, value = operands[k].partition("=")
        if not name.replace("_", "a").isalnum():
            break
        fact.assignments.append(name)
        if name == "PATH":
            fact.markers.add("path_modified")
        if name in DANGEROUS_VARIABLES:
            fact.markers.add("env_code")
            fact.classes.add("code_exec")
            if name in COMMAND_STRING_VARIABLES and value:
                nested.append(_nested(f"env {name}", shell=value))
        k += 1
    if k < len(operands):
        start = index[k]
        nested.append(_nested("env", argv=args[start:], flags=flags[start:]))
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
    replace = None
    for opt, spelling, value in parsed.options:
        if opt is not None and opt.name in ("-I", "--replace"):
            replace = value or "{}"
        elif spelling == "-i":
            replace = "{}"
    if parsed.operand_index:
        start = parsed.operand_index[0]
        argv = list(args[start:])
        argv_flags = list(flags[start:])
    else:
        argv, argv_flags = ["echo"], [0]
    if replace:
        argv_flags = [
            f | (DYNAMIC if replace in a else 0) for a, f in zip(argv, argv_flags, strict=False)
        ]
    else:
        argv.append(PLACEHOLDER)
        argv_flags.append(DYNAMIC)
    nested.append(_nested("xargs", argv=argv, flags=argv_flags))


def parallel(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    operands = parsed.operands
    command: list[str] = []
    for value in operands:
        if value in (":::", "::::", ":::+", "::::+"):
            break
        command.append(value)
    if command:
        fact.markers.add("dynamic_argument")
        nested.append(_nested("parallel", shell=" ".join(command)))
    else:
        fact.classes.add("code_exec")
        fact.markers.add("stdin_code")


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
            fact.classes.add("code_exec")
            fact.markers.add("inline_code")
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
    fact.classes.add("code_exec")
    fact.markers.add("stdin_code")


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
    for opt, _spelling, value in parsed.options:
        if value and opt is not None and opt.name in ("-v", "--volume", "--mount"):
            source = value.split(":")[0] if opt.name != "--mount" else ""
            if opt.name == "--mount":
                for item in value.split(","):
                    if item.startswith(("source=", "src=")):
                        source = item.split("=", 1)[1]
            if source in (
                "/",
                "/etc",
                "/root",
                "/var/run/docker.sock",
                "/run/docker.sock",
                "/home",
                "/proc",
                "/sys",
                "/dev",
            ) or source.startswith("/var/run"):
                fact.classes.add("privilege")
            if source.startswith(("/", ".", "~")):
                c.add_path(fact, source, "write", env, source="option")
    if len(parsed.operands) > 1:
        start = parsed.operand_index[1]
        nested.append(
            _nested(
                f"docker run {parsed.operands[0]}",
                argv=args[start:],
                flags=flags[start:],
                context="container",
            )
        )


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


_CLOUD_SECRET = re.compile(
    r"get-secret-value|get-parameters?$|print-access-token|print-identity-token|"
    r"get-access-token|get-session-token|get-login-password|assume-role|"
    r"export-credentials|configure$|credentials|secrets$|keys$|access-secret"
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
_CLOUD_DELETE = re.compile(r"^(delete|remove|rm|destroy|terminate|purge|rb|deregister)")


def cloud_cli(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    words = [a for a in parsed.operands if not a.startswith("-")]
    if any(_CLOUD_SECRET.search(w) for w in words) or "--with-decryption" in args:
        fact.classes.add("secret_read")
        return
    if any(_CLOUD_DELETE.match(w) for w in words[:3]):
        fact.classes.add("delete")
        return
    if any(w.split("-")[0] in _CLOUD_READ for w in words[:3]):
        fact.classes.discard("system")
        fact.classes.add("read_only")
