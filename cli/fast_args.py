"""A small argv reader for the commands that run once per agent tool call.

Typer (and click beneath it) costs more to import than a hook may take in all, so ``parse``,
``check`` and ``hook`` first go through this reader. It knows the same options as the typer
definitions in ``clearance.cli.app``; on anything else (``--help``, an unknown option, a
malformed value) it gives up and the typer app handles the call, with its usual messages.
"""

from __future__ import annotations


class FastArgs:
    __slots__ = ("flags", "positional", "repeated", "values")

    def __init__(self) -> None:
        self.flags: set[str] = set()
        self.values: dict[str, str] = {}
        self.repeated: dict[str, list[str]] = {}
        self.positional: list[str] = []


#: The options of each command this reader serves, as the typer app defines them: flags,
#: options that take a value, options that take a value and may be repeated.
FAST_OPTIONS: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    "parse": (
        frozenset(("--json",)),
        frozenset(("--cwd", "--batch", "--workspace")),
        frozenset(),
    ),
    "check": (
        frozenset(("--json", "--no-ledger")),
        frozenset(("--cwd", "--tool", "--input", "--ledger")),
        frozenset(("--policy",)),
    ),
    "gate": (
        frozenset(("--json", "--summary", "--no-ledger")),
        frozenset(("--format", "--cwd", "--ledger", "--jobs")),
        frozenset(("--policy",)),
    ),
}
FAST_OPTIONS["explain"] = FAST_OPTIONS["check"]


def read_fast_args(
    args: list[str],
    *,
    flags: frozenset[str] = frozenset(),
    values: frozenset[str] = frozenset(),
    repeated: frozenset[str] = frozenset(),
) -> FastArgs | None:
    """Options and positionals of ``args``, or ``None`` if typer should take over."""
    out = FastArgs()
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            out.positional.extend(args[i + 1 :])
            break
        if arg.startswith("--") and "=" in arg:
            name, _, value = arg.partition("=")
            if name in values:
                out.values[name] = value
            elif name in repeated:
                out.repeated.setdefault(name, []).append(value)
            else:
                return None
        elif arg in flags:
            out.flags.add(arg)
        elif arg in values or arg in repeated:
            if i + 1 >= len(args):
                return None
            if arg in values:
                out.values[arg] = args[i + 1]
            else:
                out.repeated.setdefault(arg, []).append(args[i + 1])
            i += 1
        elif arg.startswith("-") and arg != "-":
            return None
        else:
            out.positional.append(arg)
        i += 1
    return out


def read_command_args(name: str, args: list[str]) -> FastArgs | None:
    """``read_fast_args`` with the options of command ``name`` (:data:`FAST_OPTIONS`)."""
    flags, values, repeated = FAST_OPTIONS[name]
    return read_fast_args(args, flags=flags, values=values, repeated=repeated)


def command_line(words: list[str] | None) -> str | None:
    """The command line given as words (:func:`shell_join`), or ``None`` when none is."""
    return shell_join(words) if words else None


def shell_join(argv: list[str]) -> str:
    """argv as one shell command line (``check -- echo "a b"`` keeps its quoting); a single
    argument is already the whole command line (``check 'ls -la | wc'``)."""
    from clearance.shellparse.quoting import join_argv

    return argv[0] if len(argv) == 1 else join_argv(argv)
