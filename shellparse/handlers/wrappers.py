"""Handlers of ``knowledge/wrappers.yaml``: the command lines wrappers run in their own syntax
(``sudo``, ``env``, ``xargs``, ``parallel``, ``tmux send-keys``, ``at``, ``alias``…).
"""

from __future__ import annotations

from clearance.shellparse.expand import DYNAMIC
from clearance.shellparse.facts import Nested
from clearance.shellparse.handlers.common import MAX_EXPANDED, PLACEHOLDER
from clearance.shellparse.knowledge import COMMAND_STRING_VARIABLES
from clearance.shellparse.paths import inside, resolve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.facts import HandlerCall
    from clearance.shellparse.options import ParsedArgs


def wrapper(call: HandlerCall) -> None:
    fact = call.fact
    if fact.program in ("nohup", "setsid"):
        fact.markers.add("background")
    # ``strace -o '!cmd'`` / ``ltrace -o '|cmd'``: the trace is piped into a shell command
    for value in call.values("--output"):
        if value.startswith(("!", "|")) and value[1:].strip():
            fact.paths = [p for p in fact.paths if p.path != value]
            if not any(p.access == "write" for p in fact.paths):
                fact.classes.discard("write")
            fact.classes.add("code_exec")
            call.nest_shell(f"{fact.program} -o", value[1:].strip())


def su(call: HandlerCall) -> None:
    """Without ``-c``, su and runuser start an interactive shell as the other user."""
    fact, parsed = call.fact, call.parsed
    has_command = any(o is not None and o.role == "shell" for o, _, _ in parsed.options)
    if not has_command and not (fact.program == "runuser" and call.has("--user")):
        fact.classes.add("code_exec")


def sg(call: HandlerCall) -> None:
    """``sg GROUP -c 'cmd'`` and ``sg GROUP cmd``: the command runs as the group."""
    operands = call.parsed.operands
    if len(operands) >= 3 and operands[1] in ("-c", "--command"):
        call.nested.clear()
        call.nest_shell("sg -c", operands[2])
    elif len(operands) == 1:
        call.fact.classes.add("code_exec")


def capsh(call: HandlerCall) -> None:
    """``capsh [options] -- ARGS``: ARGS go to a shell (``capsh -- -c 'cmd'``)."""
    args, flags = call.args, call.flags
    if "--" in args:
        rest = args[args.index("--") + 1 :]
        rest_flags = flags[args.index("--") + 1 :]
        call.nest_argv("capsh --", ["bash", *rest], [0, *rest_flags])
    for value in args:
        if value.startswith("--shell="):
            call.add_path(value.split("=", 1)[1], "exec", source="option")


def flock(call: HandlerCall) -> None:
    """``flock FILE -c 'cmd'``: flock reads ``-c`` itself after the lock file."""
    operands = call.parsed.operands
    if len(operands) >= 3 and operands[1] in ("-c", "--command"):
        call.nested.clear()
        call.nest_shell("flock -c", operands[2])


def chroot(call: HandlerCall) -> None:
    """Without a command, chroot, nsenter and unshare start an interactive shell."""
    if not call.nested:
        call.fact.classes.add("code_exec")


def entr(call: HandlerCall) -> None:
    """``entr -s 'cmd'`` runs its operand with the shell."""
    operands = call.parsed.operands
    if call.has("-s") and operands:
        call.nested.clear()
        call.nest_shell("entr -s", " ".join(operands))


def start_stop_daemon(call: HandlerCall) -> None:
    """``start-stop-daemon --start --exec PROG -- ARGS`` runs PROG with ARGS."""
    programs = call.values("--exec", "--startas")
    if programs and call.has("--start"):
        argv = [programs[-1], *call.parsed.operands]
        call.nest_argv("start-stop-daemon", argv, [0] * len(argv))


def command_builtin(call: HandlerCall) -> None:
    if call.has("-v", "-V"):
        call.nested.clear()
        call.fact.classes.add("read_only")


def sudo(call: HandlerCall) -> None:
    if not call.parsed.operands and call.has("--shell", "--login", "-s", "-i"):
        call.fact.classes.add("code_exec")


def env(call: HandlerCall) -> None:
    c, fact, args, flags, parsed = call.classifier, call.fact, call.args, call.flags, call.parsed
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
            lambda path: inside(resolve(path, call.env.cwd, c.home), c.workspace),
        )
        if verdict == "unknown":
            fact.markers.add("unknown_env")
        elif verdict != "harmless":
            fact.markers.add("env_code")
            fact.classes.add("code_exec")
            runs = verdict == "command" or name in COMMAND_STRING_VARIABLES
            if runs and value and not dynamic:
                call.nest_shell(f"env {name}", value.strip().lstrip("|"))
        k += 1
    if k < len(operands):
        start = index[k]
        call.nest_argv("env", args[start:], flags[start:], cwd=call.cwd)
    elif not any(opt is not None and opt.role == "shell" for opt, _, _ in parsed.options):
        fact.classes.add("secret_read")  # prints the environment


def watch(call: HandlerCall) -> None:
    nested, index = call.nested, call.parsed.operand_index
    if call.has("--exec", "-x") and nested and index:
        start = index[0]
        nested[-1] = Nested("watch -x", argv=call.args[start:], flags=call.flags[start:])


def xargs(call: HandlerCall) -> None:
    """The command xargs runs. Its input words are appended (or put in place of the ``-I``
    string): when standard input is known text (``echo a b | xargs rm``) they are those
    words; otherwise ``{input}`` stands for them, unknown, hence ``dynamic_argument``."""
    fact, args, flags, parsed = call.fact, call.args, call.flags, call.parsed
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
    items = _xargs_items(fact.stdin_text, parsed, replace is not None or call.has("-L"))
    if items is None:
        if replace:
            argv_flags = [
                f | (DYNAMIC if replace in a else 0) for a, f in zip(argv, argv_flags, strict=False)
            ]
        else:
            argv.append(PLACEHOLDER)
            argv_flags.append(DYNAMIC)
        call.nest_argv("xargs", argv, argv_flags)
        return
    if replace:
        for item in items[:MAX_EXPANDED]:
            call.nest_argv("xargs", [a.replace(replace, item) for a in argv], argv_flags)
    else:
        call.nest_argv("xargs", argv + items, argv_flags + [0] * len(items))


def _xargs_items(text: str | None, parsed: ParsedArgs, lines: bool) -> list[str] | None:
    """The words xargs reads from ``text``: NUL- or delimiter-separated, one per line with
    ``-I``/``-L``, else blank-separated with quotes taken off."""
    if text is None:
        return None
    delimiter = next(iter(parsed.values("--delimiter")), None)
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


def parallel(call: HandlerCall) -> None:
    """``parallel CMD ::: A B``: CMD runs once per argument (appended, or in place of
    ``{}``). Arguments given on the line are substituted; from a file or stdin they are not
    known, and the command carries ``dynamic_argument``."""
    fact, operands = call.fact, call.parsed.operands
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
                call.add_path(operands[k], "read")
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
    if values and not from_file and not call.values("--arg-file"):
        for value in values[:MAX_EXPANDED]:
            quoted = "'" + value.replace("'", "'\\''") + "'"
            line = template.replace("{}", quoted) if "{}" in template else f"{template} {quoted}"
            call.nest_shell("parallel", line)
        if len(values) > MAX_EXPANDED:
            fact.markers.add("truncated")
        return
    fact.markers.add("dynamic_argument")
    line = template if "{}" in template else template + " {}"
    call.nest_shell("parallel", line, markers=("dynamic_argument",))


def alias(call: HandlerCall) -> None:
    for value in call.args:
        name, eq, text = value.partition("=")
        if eq and text:
            call.nest_shell(f"alias {name}", text)


#: tmux key names: what send-keys presses rather than types.
_TMUX_KEYS: Final = frozenset(
    ("Enter", "C-m", "C-j", "KPEnter", "C-c", "C-d", "Escape", "Space", "Tab")
)


#: tmux commands that only list or print the server's state (not its environment:
#: ``show-environment`` prints the variables, credentials among them).
_TMUX_LISTS: Final = frozenset(
    (
        "ls",
        "list-sessions",
        "lsw",
        "list-windows",
        "lsp",
        "list-panes",
        "lsc",
        "list-clients",
        "lsk",
        "list-keys",
        "lscm",
        "list-commands",
        "has",
        "has-session",
        "info",
        "server-info",
        "show",
        "show-options",
        "showw",
        "show-window-options",
    )
)


def tmux(call: HandlerCall) -> None:
    fact, args = call.fact, call.args
    words = [a for a in args if not a.startswith("-")]
    if words and words[0] in _TMUX_LISTS and not any(a.endswith(";") for a in args):
        fact.classes.discard("process_control")  # one command, and it only prints
        fact.classes.add("read_only")
        return
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
                call.nest_shell(f"tmux {arg}", tail[-1])
            break
        if arg in ("send-keys", "send"):
            # typed into a shell in the pane: runs like a command line
            fact.classes.add("code_exec")
            fact.markers.add("inline_code")
            keys = [a for a in args[i + 1 :] if not a.startswith("-") and a not in _TMUX_KEYS]
            targets = {args[j + 1] for j in range(i + 1, len(args) - 1) if args[j] == "-t"}
            typed = " ".join(k for k in keys if k not in targets)
            if typed:
                call.nest_shell("tmux send-keys", typed)
            break
    if not args:
        fact.classes.add("code_exec")


def at(call: HandlerCall) -> None:
    """``at``/``batch`` run their standard input (or ``-f FILE``) later, as a shell script."""
    fact = call.fact
    fact.classes.add("code_exec")
    if call.has("-l", "-d", "-r", "-c", "-q") and not fact.stdin:
        return
    files = call.values("-f")
    for value in files:
        call.add_path(value, "exec", source="option")
    if files:
        return
    if fact.stdin_text is not None:
        call.nest_shell(f"{fact.program} (scheduled)", fact.stdin_text)
    else:
        fact.markers.add("stdin_code")


def screen(call: HandlerCall) -> None:
    """``screen -ls`` (``-list``) lists the sessions and starts none."""
    fact = call.fact
    if not call.parsed.operands and call.has("-ls", "-list") and len(call.args) == 1:
        fact.classes.discard("process_control")
        fact.classes.add("read_only")


#: The handlers the tables may name (``handler: wrappers.NAME``), by name: the registry
#: ``clearance.shellparse.handlers.resolve`` reads.
# fmt: off
HANDLERS: Final = {f.__name__: f for f in (
    alias, at, capsh, chroot, command_builtin, entr, env, flock, parallel, screen, sg,
    start_stop_daemon, su, sudo, tmux, watch, wrapper, xargs,
)}
# fmt: on
