"""Handlers of ``knowledge/interpreters.yaml``: where an interpreter's program comes from, and
the command lines embedded in code strings (``os.system(…)``, ``subprocess.run([…])``).
"""

from __future__ import annotations

import os
import re
import stat

from clearance.shellparse.facts import Nested
from clearance.shellparse.handlers.common import Lazy
from clearance.shellparse.knowledge import system_program

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.facts import HandlerCall
    from clearance.shellparse.options import ParsedArgs


_EMBEDDED_CALL: Final = Lazy(
    r"""(?:\b(?:system|popen|popen2|popen3|check_output|check_call|getoutput|getstatusoutput|
    run|call|Popen|spawn|spawnSync|exec|execSync|execFile|execFileSync|shell_exec|passthru|
    proc_open|qx|backticks|execute|execl|execlp|execvp|startProcess|ProcessBuilder)\s*\(\s*|
    \b(?:system|exec|spawn)[ \t]+)\s*[rbuf]?(['"`])((?:\\.|(?!\1).)*)\1""",
    re.VERBOSE | re.DOTALL,
)


_EMBEDDED_LIST: Final = Lazy(
    r"""\b(?:run|call|Popen|check_output|check_call|spawn|spawnSync|execFile|execFileSync|
    execv|execvp|execve|execl|execlp)\s*\(\s*\[((?:\s*['"][^'"]*['"]\s*,?)+)\s*\]""",
    re.VERBOSE,
)


_QUOTED_ITEM: Final = Lazy(r"""['"]([^'"]*)['"]""")


# Backticks and %x{} (ruby, perl), qx{} / qx() (perl): a shell command as a string literal.
_EMBEDDED_QUOTED: Final = Lazy(
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
            found.append(Nested(label, shell=text.replace("\\n", "\n").replace('\\"', '"')))
    for m in _EMBEDDED_LIST.rx.finditer(code):
        argv = _QUOTED_ITEM.rx.findall(m.group(1))
        if argv:
            found.append(Nested(label, argv=argv, flags=[0] * len(argv)))
    for m in _EMBEDDED_QUOTED.rx.finditer(code):
        text = next((g for g in m.groups() if g), "")
        if text.strip() and not any(n.shell == text for n in found):
            found.append(Nested(label, shell=text))
    return found[:16]


#: A string literal (groups 1 and 2: its quote, its text) and a call's first argument as one.
_QUOTED: Final = r"""[rbuf]?(['"`])((?:\\.|(?!\1).)+)\1"""
_LITERAL: Final = r"\s*\(\s*" + _QUOTED

#: File operations of interpreter code (python, node, ruby, perl, php) on a literal path, by
#: what they do to it: (access, everything below it too, the calls' pattern).
_FILE_CALLS: Final = (
    (
        "delete",
        True,
        Lazy(
            r"\b(?:rmtree|remove_tree|rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmSync|"
            r"rmdirSync|rimraf(?:\.sync)?|removedirs|rmdir|fs\.rm|promises\.rm)" + _LITERAL
        ),
    ),
    (
        "delete",
        False,
        Lazy(r"\b(?:os\.remove|unlinkSync|unlink|File\.delete|FileUtils\.rm)" + _LITERAL),
    ),
    (
        "write",
        False,
        Lazy(
            r"\b(?:writeFileSync|appendFileSync|writeFile|appendFile|file_put_contents|"
            r"File\.write|IO\.write|createWriteStream)" + _LITERAL
        ),
    ),
    (
        "read",
        False,
        Lazy(
            r"\b(?:readFileSync|readFile|file_get_contents|File\.read|File\.readlines|IO\.read|"
            r"IO\.readlines|File\.foreach|createReadStream|readfile)" + _LITERAL
        ),
    ),
)

#: ``Path("…").unlink()`` and its kin: the method says what is done to the path.
_PATH_METHOD_ACCESS: Final = {
    "unlink": "delete",
    "rmdir": "delete",
    "write_text": "write",
    "write_bytes": "write",
    "touch": "write",
    "read_text": "read",
    "read_bytes": "read",
    "open": "read",
}
_PATH_METHOD: Final = Lazy(
    r"\bPath" + _LITERAL + r"\s*\)\s*\.\s*(" + "|".join(_PATH_METHOD_ACCESS) + r")\b"
)


#: ``open("…")`` and ``open("…", "w")`` (python, ruby's ``File.open``, php's ``fopen``): the
#: mode says which.
_OPEN_CALL: Final = Lazy(
    r"\b(?:open|File\.open|fopen)"
    + _LITERAL
    + r"""(?:\s*,\s*(?:mode\s*=\s*)?[rbuf]?(['"])([^'"]*)\3)?"""
)


def embedded_paths(code: str) -> list[tuple[str, str, bool]]:
    """Files interpreter code names with a literal path in a call that deletes, writes or
    reads it (``shutil.rmtree("/home")``, ``fs.rmSync("/", …)``, ``File.read(".env")``):
    ``(path, access, the whole tree below it)``. Best effort, as ``embedded_commands``: what
    is found is judged beside the code, which stays code that runs."""
    found: list[tuple[str, str, bool]] = []
    for access, tree, pattern in _FILE_CALLS:
        for m in pattern.rx.finditer(code):
            found.append((m.group(2), access, tree))
    for m in _OPEN_CALL.rx.finditer(code):
        mode = m.group(4) or "r"
        found.append((m.group(2), "write" if set(mode) & set("waxc+") else "read", False))
    for m in _PATH_METHOD.rx.finditer(code):
        found.append((m.group(2), _PATH_METHOD_ACCESS[m.group(3)], False))
    return found[:32]


#: Names of variables that hold credentials by the look of them (``AWS_SECRET_ACCESS_KEY``,
#: ``GITHUB_TOKEN``, ``DATABASE_URL``); printing one is reading a secret.
CREDENTIAL_NAME: Final = Lazy(
    r"(?i).*(secret|token|passw|passphrase|api_?key|access_?key|private|credential|auth|"
    r"session|cookie|_key$|^key$|dsn$|database_url|conn(ection)?_?str|_pat$|^pat$|webhook).*"
)


#: Interpreter code that dumps the whole environment (``print(os.environ)``, ``ENVIRON`` in
#: awk, ``process.env`` in node, ``%ENV`` in perl, ``ENV`` in ruby, ``getenv()`` in php).
_ENV_DUMP: Final = Lazy(
    r"os\.environ\b(?!\s*(?:\.get\s*\(|\[|\.setdefault|\.pop))|os\.getenvb?\b\s*\(\s*\)|"
    r"\bENVIRON\b(?!\s*\[)|process\.env\b(?!\s*(?:\.|\[))|%ENV\b|\bkeys\s+%ENV|"
    r"\bENV\b(?!\s*\[)(?:\s*\.\s*(?:to_h|to_a|each|inspect|keys|values|map|select)|\s*$|\s*\))|"
    r"\bgetenv\s*\(\s*\)|\$_ENV\b(?!\s*\[)|System\.getenv\s*\(\s*\)|Deno\.env\.toObject"
)


#: A single variable read out of the environment in code: ``os.environ['GITHUB_TOKEN']``.
_ENV_ONE: Final = Lazy(
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


_SHELLS_NOEXEC: Final = frozenset(("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash"))


def _noexec(parsed: ParsedArgs) -> bool:
    """``-n``, ``-o noexec`` (also inside a bundle such as ``-nv``)."""
    for opt, spelling, value in parsed.options:
        if spelling == "-n" or (opt is not None and opt.name == "-o" and value == "noexec"):
            return True
    return False


def interpreter(call: HandlerCall) -> None:
    fact, parsed, nested = call.fact, call.parsed, call.nested
    has_code = any(
        opt is not None and opt.role in ("code", "shell", "module") for opt, _, _ in parsed.options
    )
    if not has_code and not parsed.operands and call.has("--version", "--help"):
        fact.classes.add("read_only")  # prints and exits: no program is read
        return
    if fact.program in _SHELLS_NOEXEC and _noexec(parsed) and not call.has("-i", "-s"):
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
    if has_code:
        codes = [v for opt, _, v in parsed.options if opt is not None and opt.role == "code"]
        if len(codes) == 1 and codes[0] and _computes_only(call, codes[0]):
            return
        # code that runs: the files it names in calls that delete, write or read them are
        # judged beside it (``shutil.rmtree("/home")`` is a delete of /home, whatever else)
        for code in codes:
            for named, access, tree in embedded_paths(code or ""):
                call.add_path(named, access, source="option", tree=tree)
    elif reads_stdin and fact.stdin_text is not None and _computes_only(call, fact.stdin_text):
        return  # ``python3 - <<'EOF'``: a program given whole on stdin, read like ``-c``'s
    if reads_stdin:
        fact.classes.add("code_exec")
        if fact.stdin is not None:
            fact.markers.add("stdin_code")
    if parsed.operands and not has_code and "-s" not in fact.options:
        if _script_read(call):
            return
        fact.classes.add("code_exec")


#: Shells whose script operand is read from the machine and judged by what it holds.
_SCRIPT_SHELLS: Final = frozenset(("bash", "sh", "dash"))
#: Their options that leave a script's meaning alone (errexit, nounset, xtrace, verbose).
_SCRIPT_PLAIN_OPTIONS: Final = frozenset(("-e", "-u", "-x", "-v"))
#: The largest script read, in bytes; a larger one stays code nobody saw.
MAX_SCRIPT_BYTES: Final = 64 * 1024


def _script_read(call: HandlerCall) -> bool:
    """``bash x.sh`` (``sh``, ``dash``): the script, read from this machine, is judged as
    the commands it holds, as ``bash -c`` judges its string. Only with the file system in
    view, plain options, a script named by a known word, a regular UTF-8 text file of at
    most ``MAX_SCRIPT_BYTES``; and only if nothing on the whole line may write it, the
    script itself included (``Classifier.settle_scripts`` decides once the line is done:
    else it is code nobody saw, as before). Its arguments are not known to it (``$1``)."""
    fact, parsed, c = call.fact, call.parsed, call.classifier
    if not c.machine or fact.program not in _SCRIPT_SHELLS:
        return False
    if "dynamic_argument" in fact.markers or fact.stdin is not None:
        return False
    if any(spelling not in _SCRIPT_PLAIN_OPTIONS for _, spelling, _ in parsed.options):
        return False
    scripts = [p for p in fact.paths if p.access == "exec" and p.source == "argument"]
    if len(scripts) != 1 or scripts[0].pattern or scripts[0].resolved is None:
        return False
    script = scripts[0].resolved
    if "{}" in script:
        return False
    from clearance.shellparse.resolve import remote_mounts

    # a network file system's server may not answer within the deadline: not read
    remote = tuple(point.rstrip("/") + "/" for point, _ in remote_mounts())
    if remote and script.startswith(remote):
        return False
    real = os.path.realpath(script)
    if remote and real.startswith(remote):
        return False
    try:
        info = os.stat(real)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SCRIPT_BYTES:
            return False
        with open(real, "rb") as handle:
            data = handle.read(MAX_SCRIPT_BYTES + 1)
    except OSError:
        return False
    if len(data) > MAX_SCRIPT_BYTES or b"\0" in data:
        return False
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    scripts[0].access = "read"
    if any(p.access == "exec" for p in fact.paths):
        scripts[0].access = "exec"
        return False
    # the shell only reads its script; what the script runs is judged part by part
    fact.classes.discard("code_exec")  # (the script's path, taken for one to run, added it)
    fact.classes.add("read_only")
    call.nest_shell(f"{fact.program} {parsed.operands[0]}", text)
    c.scripts_read.append((fact, script))
    if real != script:
        c.scripts_read.append((fact, real))
    return True


_PYTHONS: Final = Lazy(r"python(?:[23](?:\.\d+)?)?")

#: Options of python that leave a ``-c`` program's meaning alone.
_PYTHON_PLAIN_OPTIONS: Final = frozenset(
    ("-c", "-u", "-B", "-E", "-s", "-S", "-I", "-P", "-O", "-OO", "-q")
)

#: Variables of python's environment that do not change what a program imports or runs.
_PYTHON_PLAIN_VARIABLES: Final = frozenset(
    (
        "PYTHONUNBUFFERED",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONIOENCODING",
        "PYTHONHASHSEED",
        "PYTHONWARNINGS",
        "PYTHONUTF8",
        "PYTHONFAULTHANDLER",
        "PYTHONNOUSERSITE",
        "PYTHONSAFEPATH",
    )
)


def _computes_only(call: HandlerCall, code: str) -> bool:
    """``python3 -c CODE`` (or a program on stdin, ``code``, written out on the line: a
    heredoc, a here-string) that only computes, prints and opens literal paths
    (``pysnippet``): it is judged by those paths, not as code that runs. Only with the file
    system in view (the cwd and the entries of ``PYTHONPATH``, searched before the standard
    library, must hold nothing that shadows a standard module), a known cwd, python's plain
    options, and no other variable of the environment or assignment of the line that moves
    its imports (``PYTHONHOME``, ``PYTHONUSERBASE``, ``PYTHONINSPECT``…)."""
    fact, parsed = call.fact, call.parsed
    if not call.classifier.machine or not _PYTHONS.rx.fullmatch(fact.program or ""):
        return False
    # deferred: ``ast`` costs a hook call about 2 ms, and only python programs need it
    from clearance.shellparse import pysnippet

    if "dynamic_argument" in fact.markers or fact.via:
        return False
    if any(spelling not in _PYTHON_PLAIN_OPTIONS for _, spelling, _ in parsed.options):
        return False
    if any(a.startswith("PYTHON") for a in fact.assignments):
        return False
    if any(
        name.startswith("PYTHON") and value and name not in _PYTHON_PLAIN_VARIABLES
        for name, value in os.environ.items()
        if name != "PYTHONPATH"
    ):
        return False
    cwd = call.cwd or call.env.cwd
    snippet = pysnippet.analyse(code)
    if cwd is None or snippet is None:
        return False
    # the directories searched before the standard library: the cwd, then PYTHONPATH's
    # entries; each must be known to hold nothing that shadows. The cwd must exist on this
    # machine (one that does not is a directory whose contents are not known: the command
    # runs elsewhere, or later); a PYTHONPATH entry that does not exist holds nothing; one
    # that cannot be listed, or is too large to list, is not known
    if not os.path.isdir(cwd) or pysnippet.shadowing_files(cwd) != []:
        return False
    for entry in os.environ.get("PYTHONPATH", "").split(":"):
        if entry and pysnippet.shadowing_files(os.path.join(cwd, entry)) != []:
            return False
    fact.classes.discard("code_exec")
    fact.markers.discard("inline_code")
    for path, access in snippet.paths:
        call.add_path(path, access)
    fact.classes.add("write" if any(a == "write" for _, a in snippet.paths) else "read_only")
    return True


def sourced(call: HandlerCall) -> None:
    """``source .venv/bin/activate``: a Python virtual environment's activation script sets
    variables (``PATH``, ``VIRTUAL_ENV``, the prompt) and defines ``deactivate``; it is
    judged as a read of the script, as running ``.venv/bin/pytest`` is judged as pytest. A
    fact of this machine: the script is ``DIR/bin/activate`` beside ``DIR/pyvenv.cfg`` (what
    ``python -m venv`` writes), a regular file, given without arguments. Any other script
    sourced stays code that runs."""
    fact = call.fact
    if not call.classifier.machine or len(call.parsed.operands) != 1:
        return
    scripts = [p for p in fact.paths if p.access == "exec" and p.source == "argument"]
    if len(scripts) != 1 or scripts[0].resolved is None or "{}" in scripts[0].resolved:
        return
    script = scripts[0].resolved
    bindir = os.path.dirname(script)
    if os.path.basename(script) != "activate" or os.path.basename(bindir) != "bin":
        return
    if os.path.islink(script) or not os.path.isfile(script):
        return
    if not os.path.isfile(os.path.join(os.path.dirname(bindir), "pyvenv.cfg")):
        return
    # the activated PATH finds DIR/bin first: a file there named like a system program (a
    # planted ``ls``) would run in place of it for the rest of the line
    try:
        if any(system_program(name) for name in os.listdir(bindir)):
            return
    except OSError:
        return
    scripts[0].access = "read"
    fact.classes.discard("code_exec")
    fact.classes.add("read_only")


#: The handlers the tables may name (``handler: interpreters.NAME``), by name: the registry
#: ``clearance.shellparse.handlers.resolve`` reads.
# fmt: off
HANDLERS: Final = {f.__name__: f for f in (
    interpreter, sourced,
)}
# fmt: on
