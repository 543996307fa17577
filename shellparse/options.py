"""Option parsing against a ``Spec``: bundles (``-rf``), values (``-ofile``, ``-o file``,
``--output=f``), ``--``, and unambiguous abbreviations (``git push --forc``) where the program
accepts them."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.spec import Opt, Spec


class ParsedArgs:
    """Options found (``Opt`` or ``None`` when unknown, spelling, value) and operands."""

    __slots__ = ("operand_index", "operands", "options", "rest_index")

    def __init__(self) -> None:
        self.options: list[tuple[Opt | None, str, str | None]] = []
        self.operands: list[str] = []
        #: Index in the parsed argument list of each operand (to find its dynamic flags).
        self.operand_index: list[int] = []
        #: With ``stop_at_operand``: index of the first operand (what follows is not parsed).
        self.rest_index = -1

    def values(self, *names: str) -> list[str]:
        """The values given to the options ``names`` (a canonical name or a spelling), in
        order: ``values("--expression")`` of ``sed -e a --expression=b`` is ``["a", "b"]``."""
        return [
            value
            for opt, spelling, value in self.options
            if value is not None and (spelling in names or (opt is not None and opt.name in names))
        ]

    def canonical(self) -> list[str]:
        """Option names as policies match them: the canonical spelling of known options."""
        return [opt.name if opt is not None else spelling for opt, spelling, _ in self.options]


def _abbreviation(spec: Spec, name: str) -> Opt | None:
    """The option ``name`` abbreviates, or ``None`` when it abbreviates none or several.

    Between an option and its own longer variants (``--forc``: ``--force``,
    ``--force-with-lease``, ``--force-if-includes``) the shortest is taken: it is the one
    the text most likely means, and what all of them share is what a policy must see.
    """
    found: dict[int, tuple[str, Opt]] = {}
    for spelling, opt in spec.options.items():
        if spelling.startswith("--") and spelling.startswith(name):
            found.setdefault(id(opt), (spelling, opt))
    if len(found) == 1:
        return next(iter(found.values()))[1]
    if not found:
        return None
    shortest, opt = min(found.values(), key=lambda item: len(item[0]))
    if all(other.startswith(shortest) for other, _ in found.values()):
        return opt
    return None  # ambiguous: the program refuses it too


def parse_program_args(spec: Spec, args: list[str], *, stop_at_operand: bool = False) -> ParsedArgs:
    """Split ``args`` (argv without the program) into options and operands.

    An unknown option is kept under its spelling and taken as a flag: if it really took a
    value, that value is read as an operand -- a path or a command looked at on its own, which
    errs towards more facts, never fewer.
    """
    parsed = ParsedArgs()
    options = spec.options
    permute = spec.permute and not stop_at_operand
    n = len(args)
    i = 0
    only_operands = False
    while i < n:
        arg = args[i]
        if only_operands or len(arg) < 2 or arg[0] != "-":
            if stop_at_operand:
                parsed.rest_index = i
                return parsed
            parsed.operands.append(arg)
            parsed.operand_index.append(i)
            if not permute:
                only_operands = True
            i += 1
            continue
        if arg == "--":
            only_operands = True
            i += 1
            continue
        if spec.number is not None and arg[1:].isdigit():
            parsed.options.append((options.get(spec.number), arg, arg[1:]))
            i += 1
            continue
        if arg.startswith("--") or (spec.single_dash_long and len(arg) > 2 and arg[1] != "-"):
            name, eq, value = arg.partition("=")
            opt = options.get(name)
            if opt is None and spec.abbrev and name.startswith("--"):
                opt = _abbreviation(spec, name)
            if opt is None:
                parsed.options.append((None, name, value if eq else None))
                i += 1
                continue
            if opt.value == "required":
                extra = opt.nargs - (1 if eq else 0)
                if extra > 0:
                    i += extra
                    value = args[i] if i < n else ""
            parsed.options.append((opt, name, value if (eq or opt.value == "required") else None))
            i += 1
            if opt.ends:
                only_operands = True
            continue
        whole = options.get(arg) if len(arg) > 2 else None
        if whole is not None:
            # a multi-letter spelling listed whole (``wget -nv``, ``kill -KILL``)
            whole_value: str | None = None
            if whole.value == "required":
                i += whole.nargs
                whole_value = args[i] if i < n else ""
            parsed.options.append((whole, arg, whole_value))
            i += 1
            if whole.ends:
                only_operands = True
            continue
        j = 1
        while j < len(arg):
            spelling = "-" + arg[j]
            opt = options.get(spelling)
            if opt is None:
                parsed.options.append((None, spelling, None))
                j += 1
                continue
            if opt.value is not None:
                attached = arg[j + 1 :]
                if attached:
                    parsed.options.append((opt, spelling, attached))
                elif opt.value == "required":
                    i += opt.nargs
                    parsed.options.append((opt, spelling, args[i] if i < n else ""))
                else:
                    parsed.options.append((opt, spelling, None))
                if opt.ends:
                    only_operands = True
                break
            parsed.options.append((opt, spelling, None))
            if opt.ends:
                only_operands = True
                break
            j += 1
        i += 1
    if stop_at_operand:
        parsed.rest_index = n
    return parsed
