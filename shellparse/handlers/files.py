"""Handlers of ``knowledge/files.yaml``: modes of ``chmod``, link targets, ``find`` expressions,
``sed`` scripts, ``awk`` programs, ``tar`` modes, ``dd`` operands, pagers.
"""

from __future__ import annotations

from clearance.shellparse import archives
from clearance.shellparse.expand import DYNAMIC
from clearance.shellparse.findexpr import (
    EXEC,
    TESTS,
    VALUE,
    WORDS,
    WRITE,
    action_bounds,
    found_paths,
    starting_points,
)
from clearance.shellparse.handlers.common import Lazy
from clearance.shellparse.handlers.interpreters import credential_variable, environment_read
from clearance.shellparse.paths import HARMLESS_DEVICES, resolve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.facts import HandlerCall, SimpleCommandFacts
    from clearance.shellparse.options import ParsedArgs

    Args = list[str]
    Flags = list[int]


_MODE_LIKE: Final = Lazy(r"-[rwxXst]+")


def chmod(call: HandlerCall) -> None:
    fact, parsed = call.fact, call.parsed
    operands = parsed.operands
    if not operands:
        return
    mode = operands[0]
    # ``chmod -x file``: a symbolic mode that starts with ``-`` reads as options; then every
    # operand is a file.
    dashed = [s for o, s, _ in parsed.options if o is None and _MODE_LIKE.rx.fullmatch(s)]
    if dashed and all(o is not None or s in dashed for o, s, _ in parsed.options):
        fact.markers.discard("unknown_option")  # the only "unknown options" are the mode
    if dashed and not call.has("--reference"):
        for value in operands[:1]:
            call.add_path(value, "write")
        mode = "".join(dashed)
        fact.options = [o for o in fact.options if o not in dashed]
    if ("s" in mode.split("=")[-1] and not mode.isdigit()) or (
        mode.isdigit() and len(mode) == 4 and mode[0] in "2467"
    ):
        fact.classes.add("privilege")


def ln(call: HandlerCall) -> None:
    """A symbolic link's target is relative to the link's directory, not to the cwd:
    ``ln -s ../README.md docs/README.md`` points at ``README.md``."""
    fact, operands = call.fact, call.parsed.operands
    if not call.has("--symbolic") or not operands:
        return
    directory = next(iter(call.values("--target-directory")), None)
    if directory is not None:
        targets, base = operands, directory
    elif len(operands) == 1:
        targets, base = operands, "."
    else:
        targets, link = operands[:-1], operands[-1]
        base = link if link.endswith("/") else (link.rsplit("/", 1)[0] if "/" in link else ".")
    where = resolve(base, call.env.cwd, call.classifier.home)
    for target in targets:
        fact.paths = [p for p in fact.paths if not (p.access == "read" and p.path == target)]
        call.add_path(target, "read", cwd=where)


def zip_program(call: HandlerCall) -> None:
    """``zip -TT CMD``: the command zip runs to test the archive (its two-letter option
    reads as two ``-T`` to a getopt parser)."""
    args = call.args
    for i, arg in enumerate(args):
        if arg.startswith("--unzip-command="):
            call.nest_shell("zip -TT", arg.partition("=")[2])
        elif arg in ("-TT", "--unzip-command") and i + 1 < len(args):
            call.nest_shell("zip -TT", args[i + 1])


def chown(call: HandlerCall) -> None:
    fact, parsed = call.fact, call.parsed
    if parsed.operands and parsed.operands[0].split(":")[0] in ("root", "0"):
        fact.classes.add("privilege")


#: Programs that take every argument as a name or a plain word, never as code to parse.
_NAMES_ONLY: Final = frozenset(
    (
        "basename",
        "bzip2",
        "cat",
        "chmod",
        "chown",
        "cp",
        "dirname",
        "du",
        "file",
        "gunzip",
        "gzip",
        "head",
        "ln",
        "ls",
        "md5sum",
        "mkdir",
        "mv",
        "readlink",
        "realpath",
        "rm",
        "rmdir",
        "sha1sum",
        "sha256sum",
        "stat",
        "tail",
        "touch",
        "wc",
        "xz",
        "zstd",
    )
)


def find(call: HandlerCall) -> None:
    fact, args, flags = call.fact, call.args, call.flags
    first, i = starting_points(args)
    # ``-L``/``-follow``: links to directories are descended, so what is found is wherever
    # they lead -- not known from the starting points
    follows = "-L" in args[:first] or "-follow" in args
    # ``-files0-from FILE``: the starting points are what FILE holds, not known here -- nor,
    # then, what is found under them
    follows = follows or "-files0-from" in args
    starts = [(args[k], flags[k]) for k in range(first, i)]
    if not starts:
        starts = [(".", 0)]
    fact.options = []
    deleting = False
    filtered = False
    # what reaches each action: a file under a starting point, named as the tests before it
    # allow (``find ~ -name id_rsa -exec cat {} \;``, ``! -name x`` or ``-o`` allow any name)
    bounds, _ = action_bounds(args, i)
    while i < len(args):
        token = args[i]
        if token in EXEC:
            j = i + 1
            while j < len(args) and args[j] not in (";", "+"):
                j += 1
            # a name spliced into a longer word given to a program that may parse it as code
            # (``sh -c 'cat {}'``, a sed script: a file named ``$(rm -rf ~)``) is not known;
            # to a program whose arguments are only names (``mkdir new/{}``, ``mv {}.gz {}``)
            # it is the found path, judged as one
            program = args[i + 1].rsplit("/", 1)[-1] if i + 1 < j else ""
            spliced = 0 if program in _NAMES_ONLY else DYNAMIC
            inner_flags = [
                flags[k]
                | (spliced if args[k] != "{}" and "{}" in args[k] else 0)
                | (DYNAMIC if follows and "{}" in args[k] else 0)
                for k in range(i + 1, j)
            ]
            # `{}` is each file found: unknown by name, but under one of the starting points
            for found in found_paths([s for s, _ in starts], bounds.get(i)):
                inner = [a.replace("{}", found) for a in args[i + 1 : j]]
                if inner:
                    call.nest_argv(
                        f"find {token}", inner, inner_flags, markers=("dynamic_argument",)
                    )
            fact.options.append(token)
            i = j + 1
            continue
        if token == "-delete":
            deleting = True
            fact.options.append(token)
        elif token in WRITE and i + 1 < len(args):
            call.add_path(args[i + 1], "write", source="option")
            fact.options.append(token)
            i += 2
            continue
        elif token in VALUE:
            if token == "-files0-from" and i + 1 < len(args):
                # the starting points are read from that file, and each one that does not exist
                # is printed back in an error: its text is read, not only its name
                value = args[i + 1]
                call.add_path(value, "read", source="option", dynamic=bool(flags[i + 1] & DYNAMIC))
            fact.options.append(token)
            filtered = filtered or token not in ("-maxdepth", "-mindepth", "-regextype")
            i += 2
            continue
        elif token in TESTS:
            fact.options.append(token)
            filtered = True
        elif token.startswith("-"):
            fact.options.append(token)
            if token not in WORDS and not (token.startswith("-newer") and i + 1 < len(args)):
                fact.markers.add("unknown_option")
            elif token.startswith("-newer"):
                i += 1
        i += 1
    for path, flag in starts:
        dynamic = bool(flag & DYNAMIC)
        if dynamic:
            fact.markers.add("dynamic_argument")
        # find itself reads names and metadata under its starting points, as ``ls -R`` does;
        # what it hands on (``-exec``, a pipe to ``xargs``) is judged where it is read
        call.add_path(path, "read", dynamic=dynamic, meta=True)
        if deleting:
            # with tests (``-name '*.pyc'``) what goes is under the start point; without,
            # everything there, the start point included
            target = f"{path.rstrip('/') or '/'}/{{}}" if filtered else path
            if target.startswith("//"):
                target = target[1:]
            call.add_path(target, "delete", dynamic=dynamic)


#: What fd replaces in the command it runs by the path found (or a part of it).
_FD_PLACEHOLDERS: Final = ("{}", "{/}", "{//}", "{.}", "{/.}")


def fd_exec(call: HandlerCall) -> None:
    args, flags = call.args, call.flags
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
                if not any(p in a for a in inner for p in _FD_PLACEHOLDERS):
                    # without a placeholder fd adds the path found at the end (``fd -x cat``)
                    inner, inner_flags = [*inner, "{}"], [*inner_flags, DYNAMIC]
                call.nest_argv("fd --exec", inner, inner_flags)
            break


def _sed_scripts(parsed: ParsedArgs) -> tuple[list[str], list[str]]:
    """The scripts and the files of a sed command line.

    BSD sed's ``-i`` takes its backup suffix as the next argument (``sed -i '' 's/a/b/' f``);
    GNU sed reads that empty word as the script. Both readings are kept: an empty first
    operand after ``-i`` is skipped, so the script that runs is the one analysed.
    """
    scripts = parsed.values("--expression")
    operands = list(parsed.operands)
    bare_in_place = any(
        o is not None and o.name == "--in-place" and v is None for o, _, v in parsed.options
    )
    if bare_in_place and len(operands) > 1 and operands[0] == "":
        operands = operands[1:]
    if not scripts and not parsed.values("--file") and operands:
        return [operands[0]], operands[1:]
    return scripts, operands


def sed(call: HandlerCall) -> None:
    fact = call.fact
    scripts, files = _sed_scripts(call.parsed)
    if call.has("--in-place"):
        written = {*files, *scripts}
        fact.paths = [p for p in fact.paths if p.access != "read" or p.path not in written]
        for value in files:
            call.add_path(value, "write")
    for script in scripts:
        for kind, value in sed_effects(script):
            if kind == "exec":
                fact.classes.add("code_exec")
                fact.markers.add("inline_code")
                if value:
                    call.nest_shell("sed e", value)
            elif kind == "write":
                call.add_path(value, "write", source="script")
            elif kind == "read":
                call.add_path(value, "read", source="script")


def _skip_delimited(text: str, i: int, delimiter: str, fields: int) -> int:
    """The index after ``fields`` fields of ``text`` from ``i``, each ended by ``delimiter``
    (a backslash escapes the next character): sed's ``s/A/B/`` and ``y/A/B/``."""
    n = len(text)
    for _ in range(fields):
        while i < n and text[i] != delimiter:
            i += 2 if text[i] == "\\" else 1
        i += 1
    return i


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
            i = _skip_delimited(script, i + 1, script[i], 2)
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
            i = _skip_delimited(script, i + 1, script[i], 2)
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


_AWK_SYSTEM: Final = Lazy(r"\bsystem\s*\(\s*\"((?:\\.|[^\"\\])*)\"")


_AWK_PIPE: Final = Lazy(r"\"((?:\\.|[^\"\\])*)\"\s*\|\s*getline|\|\s*&?\s*\"((?:\\.|[^\"\\])*)\"")


_AWK_WRITE: Final = Lazy(r"(?:print|printf)[^;}\n]*?>>?\s*\"((?:\\.|[^\"\\])*)\"")


#: ``getline [var] < FILE``: a file read by the program text (a name in quotes, or ``None`` for
#: an expression: a variable, a concatenation -- not known before it runs).
_AWK_READ: Final = Lazy(
    r"\bgetline\b[^;}\n<|]*<\s*(?:\"((?:\\.|[^\"\\])*)\"(?=\s*[;})\n]|\s*$)|(\S))"
)


_AWK_EXEC: Final = Lazy(r"\bsystem\s*\(|\|\s*getline|\|&|\|\s*\"|\|\s*[A-Za-z_]")


def _a_filter(fact: SimpleCommandFacts) -> None:
    """A program given no file to write is a filter: it reads its standard input and writes
    its standard output, and whatever those are is judged where they are (a redirection's
    write stays one)."""
    if not any(p.access in ("write", "delete", "unknown") for p in fact.paths):
        fact.classes.discard("write")
    fact.classes.add("read_only")


def tee(call: HandlerCall) -> None:
    """``tee`` to nothing but the terminal's streams (``| tee /dev/stderr |``, ``tee
    /dev/null``, or no file at all) copies its input to its output."""
    if all(o in HARMLESS_DEVICES for o in call.parsed.operands):
        _a_filter(call.fact)


def compressor(call: HandlerCall) -> None:
    """Without a file to work on (none, or only ``-``) a compressor is a filter (``tar -I
    zstd``, ``cat f | gzip | base64``)."""
    if all(o == "-" for o in call.parsed.operands) and not call.values("-o"):
        _a_filter(call.fact)


def awk(call: HandlerCall) -> None:
    """The program text: the first operand, or gawk's ``-e``/``--source`` texts (every
    operand is then a file); a program from a file (``-f``) is not seen."""
    fact, parsed = call.fact, call.parsed
    sources = call.values("--source")
    if call.values("--file"):
        fact.classes.add("code_exec")
        if not sources:
            return
    if sources:
        programs, files = list(sources), parsed.operands
    elif parsed.operands:
        programs, files = parsed.operands[:1], parsed.operands[1:]
    else:
        return
    for program in programs:
        if environment_read(program):
            fact.classes.add("secret_read")
        if _AWK_EXEC.rx.search(program):
            fact.classes.add("code_exec")
            fact.markers.add("inline_code")
        for m in _AWK_SYSTEM.rx.finditer(program):
            call.nest_shell("awk system()", m.group(1).replace('\\"', '"'))
        for m in _AWK_PIPE.rx.finditer(program):
            text = m.group(1) or m.group(2)
            if text:
                call.nest_shell("awk pipe", text.replace('\\"', '"'))
        for m in _AWK_WRITE.rx.finditer(program):
            call.add_path(m.group(1), "write", source="script")
        for m in _AWK_READ.rx.finditer(program):
            if m.group(1) is not None:
                call.add_path(m.group(1).replace('\\"', '"'), "read", source="script")
            else:
                fact.markers.add("unresolved_path")  # ``getline < f``: a name made at run time
    if "inplace" in call.values("--include"):
        for value in files:
            call.add_path(value, "write")


_TAR_VALUE_LETTERS: Final = "fCTXIbHKLNVgF"


_TAR_MODES: Final = {
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


def tar(call: HandlerCall) -> None:
    c, fact, parsed, env = call.classifier, call.fact, call.parsed, call.env
    from clearance.shellparse.knowledge import lookup
    from clearance.shellparse.options import parse_program_args

    spec = lookup("tar")
    assert spec is not None
    words, word_flags = _tar_words(call.args, call.flags)
    if words is not call.args:
        parsed = parse_program_args(spec, words)
        fact.paths = []
        fact.options = []
        fact.classes.difference_update(("delete", "secret_read", "code_exec"))
        dynamic = {a for a, f in zip(words, word_flags, strict=False) if f & DYNAMIC}
        c.current_cwd = c.apply_options(fact, spec, parsed, env, dynamic, call.nested)
    names = {o.name for o, _, _ in parsed.options if o is not None}
    mode = next((_TAR_MODES[n] for n in _TAR_MODES if n in names), "")
    # ``parsed``, not ``call.parsed``: old-style letters were parsed again above
    archive = next(iter(parsed.values("--file")), None)
    directory = next(iter(parsed.values("--directory")), None)
    cwd = c.current_cwd  # -C/--directory moved it already (role ``cwd``, see ``workdirs``)
    for value in parsed.values("--use-compress-program"):
        argv = value.split()
        call.nest_argv("tar --use-compress-program", argv, [0] * len(argv))
    for value in parsed.values("--checkpoint-action"):
        if value.startswith("exec="):
            call.nest_shell("tar --checkpoint-action", value[5:])
    remote = archive is not None and (
        "://" in archive or (":" in archive.split("/")[0] and "--force-local" not in names)
    )
    if remote and archive is not None:
        call.add_host(archive)
    if mode == "create":
        fact.classes.add("write")
        if archive is not None and not remote:
            call.add_path(archive, "write", source="option")
        for value in parsed.operands:
            call.add_path(value, "read", cwd=cwd, tree=True)
            if "--remove-files" in names:
                call.add_path(value, "delete", cwd=cwd)
    elif mode == "extract":
        fact.classes.add("write")
        if archive is not None and not remote:
            call.add_path(archive, "read", source="option")
        if "--to-stdout" not in names:
            call.add_path(directory or ".", "write", source="option")
            # -C/--directory already moved the cwd (role ``cwd``): the members land there, and
            # tar opens the archive from where it started
            archives.record(c, fact, archive, None, env, "tar", c.current_cwd, env.cwd)
        if "--absolute-names" in names:
            fact.classes.add("system")
    elif archive is not None and not remote:
        call.add_path(archive, "read", source="option")


def unzip(call: HandlerCall) -> None:
    """unzip: listing, testing and printing (``-l -t -v -Z -p``) write nothing; extracting
    writes the archive's members under ``-d`` (``shellparse.archives``)."""
    c, fact, parsed = call.classifier, call.fact, call.parsed
    names = {opt.name for opt, _, _ in parsed.options if opt is not None}
    if names & {"-l", "-t", "-v", "-Z", "-p"}:
        fact.classes.discard("write")
        return
    archive = parsed.operands[0] if parsed.operands else None
    destination = next((v for o, _, v in parsed.options if o is not None and o.name == "-d"), None)
    archives.record(c, fact, archive, destination, call.env, "zip", c.current_cwd)


def dd(call: HandlerCall) -> None:
    for arg in call.args:
        key, eq, value = arg.partition("=")
        if not eq:
            continue
        if key == "if":
            call.add_path(value, "read")
        elif key == "of":
            call.add_path(value, "write")


def pager(call: HandlerCall) -> None:
    """``less +CMD``: CMD is a less command run at start; ``!cmd`` and ``|cmd`` in it run a
    shell command."""
    fact = call.fact
    for value in call.parsed.operands:
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
                call.nest_shell(f"{fact.program} +!", command)


#: The environment in a jq program (``env``, ``$ENV``) and what follows it: ``.NAME`` or
#: ``["NAME"]`` reads one variable, anything else the whole environment.
_JQ_ENV: Final = Lazy(
    r"(?<![\w$.])(?:\$ENV|env)\b(?:\s*(?:\.|\[\s*\"?)\s*([A-Za-z_][A-Za-z0-9_]*))?"
)
#: yq's environment operators: ``env(NAME)``, ``strenv(NAME)``, and ``envsubst`` (every
#: ``${NAME}`` in the data, which clearance does not see).
_YQ_ENV: Final = Lazy(r"\b(?:str)?env\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)?|\b(envsubst)\b")
#: yq's file operators (``load("f")``, ``load_str``, ``load_xml``, ``load_props``,
#: ``load_base64``): a file the program reads, named in quotes or by an expression.
_YQ_LOAD: Final = Lazy(r"\bload(?:_[a-z0-9]+)?\s*\(\s*(?:\"((?:\\.|[^\"\\])*)\"\s*\)|(\S))")


def jq(call: HandlerCall) -> None:
    """A jq program that reads the environment (``env``, ``$ENV``, yq's ``env(NAME)``) prints
    it: the whole of it, or a variable whose name looks like a credential, is a secret read.
    A program from a file (``-f``) is not seen: a filter cannot run programs, but it can
    print the environment, so it is not read-only."""
    fact, parsed = call.fact, call.parsed
    if call.values("--from-file"):
        fact.classes.add("unknown")
        return
    if not parsed.operands:
        return
    program = parsed.operands[0]
    if fact.program == "yq":
        for m in _YQ_ENV.rx.finditer(program):
            if m.group(2) or not m.group(1) or credential_variable(m.group(1)):
                fact.classes.add("secret_read")
        for m in _YQ_LOAD.rx.finditer(program):
            if m.group(1) is not None:
                call.add_path(m.group(1), "read", source="script")
            else:
                fact.markers.add("unresolved_path")  # ``load(.file)``: a name from the data
        return
    for m in _JQ_ENV.rx.finditer(program):
        if not m.group(1) or credential_variable(m.group(1)):
            fact.classes.add("secret_read")


def mktemp(call: HandlerCall) -> None:
    """``mktemp`` makes a new empty file (``-d``: directory) of a unique name in the temporary
    directory and prints the name: nothing that exists is changed, so it is read-only. Made
    where a template says (relative to the working directory unless ``-t`` or ``--tmpdir``),
    or where ``-p``/``--tmpdir=DIR`` says, it is a write there like any other."""
    fact, parsed = call.fact, call.parsed
    if call.has("--dry-run"):
        # ``-u`` only prints a name that is free: the directory is looked at, nothing made
        for path in fact.paths:
            path.access, path.meta = "read", True
        fact.classes.difference_update(("write", "system"))
        fact.markers.discard("sensitive_write")
        fact.classes.add("read_only")
        return
    in_temp = call.has("-t", "--tmpdir", "-p")
    placed = [v for v in parsed.operands if "/" in v or not in_temp]
    for value in placed:
        call.add_path(value, "write")
    if not placed and not any(p.access == "write" for p in fact.paths):
        fact.classes.discard("write")
        fact.classes.add("read_only")


#: The handlers the tables may name (``handler: files.NAME``), by name: the registry
#: ``clearance.shellparse.handlers.resolve`` reads.
# fmt: off
HANDLERS: Final = {f.__name__: f for f in (
    awk, chmod, chown, compressor, dd, fd_exec, find, jq, ln, mktemp, pager, sed, tar, tee,
    unzip, zip_program,
)}
# fmt: on
