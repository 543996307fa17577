"""How program knowledge is written down: ``Spec`` (a program or subcommand) and ``Opt``.

The tables in ``clearance.shellparse.knowledge`` are built from these two classes; one generic
interpreter (``classify``) applies them, so adding a program is adding data, not code.

Roles say what an operand or an option value is:

``read`` / ``write`` / ``delete`` / ``exec``
    a path the command reads, writes, deletes, or runs as code;
``copy``
    operands are sources (read) and a final destination (write) -- ``cp``;
``move``
    like ``copy``, and the sources are removed -- ``mv``;
``url`` / ``host``
    something on the network;
``cwd``
    a directory the command works in (``git -C``, ``make -C``, ``tar -C``);
``code``
    program text for an interpreter (``python -c``); ``shell`` a shell command string;
``command``
    the rest of argv is a command to run (wrappers);
``none``
    not a path (``echo``'s words, a pattern, a mode).

``operands`` is a role for every operand, or a tuple of roles for the first ones followed by a
role for the rest: ``("none", "read")`` is grep's PATTERN then FILEs.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


class Opt:
    """One option under all its spellings (``-r -R --recursive``).

    ``value``: ``None`` (a flag), ``"required"`` or ``"optional"`` (``--color[=WHEN]``: only an
    attached ``=value`` counts). ``role`` is what the value is; ``adds`` are classes the option
    adds; ``operands`` overrides the operand role while the option is present (``sed -i``);
    ``ends``: the arguments after this option are all operands.
    """

    __slots__ = ("adds", "ends", "name", "names", "operands", "role", "value")

    def __init__(
        self,
        names: str,
        *,
        value: str | None = None,
        role: str = "none",
        adds: str = "",
        operands: str | tuple[str, ...] | None = None,
        ends: bool = False,
    ) -> None:
        self.names = tuple(names.split())
        long_names = [n for n in self.names if n.startswith("--")]
        #: Canonical spelling: the first long name, else the first name.
        self.name = long_names[0] if long_names else self.names[0]
        self.value = value
        self.role = role
        self.adds = frozenset(adds.split())
        self.operands = operands
        #: Everything after this option is operands (``python -c CODE args``, ``-m MOD``).
        self.ends = ends


class Spec:
    """What a program (or one of its subcommands) does.

    ``short``/``long`` list options that exist but change nothing a policy cares about, in
    getopt style (``"ab:c"``: ``-b`` takes a value; ``"color= verbose"``: ``--color`` takes one).
    ``abbrev``: the program accepts unambiguous prefixes of long options (GNU getopt_long, git).
    ``permute``: options may follow operands (GNU); otherwise the first operand ends options.
    ``subcommands`` are looked up on the first operand; ``default`` applies to one not listed.
    ``single_dash_long``: long options take one dash (``find -name``, ``java -jar``).
    """

    __slots__ = (
        "abbrev",
        "classes",
        "default",
        "handler",
        "name",
        "operands",
        "options",
        "permute",
        "single_dash_long",
        "subcommands",
    )

    def __init__(
        self,
        name: str,
        classes: str = "",
        *,
        operands: str | tuple[str, ...] = "none",
        options: Iterable[Opt] = (),
        short: str = "",
        long: str = "",
        abbrev: bool = False,
        permute: bool = True,
        subcommands: dict[str, Spec] | None = None,
        default: Spec | None = None,
        single_dash_long: bool = False,
        handler: str | None = None,
    ) -> None:
        self.name = name
        self.classes = frozenset(classes.split())
        self.operands = operands
        self.abbrev = abbrev
        self.permute = permute
        self.subcommands = subcommands
        self.default = default
        self.single_dash_long = single_dash_long
        #: Name of a function in ``clearance.shellparse.handlers`` for what tables cannot say
        #: (sed scripts, awk programs, find expressions…).
        self.handler = handler
        table: dict[str, Opt] = {}
        for opt in options:
            for spelling in opt.names:
                table[spelling] = opt
        i = 0
        while i < len(short):
            letter = short[i]
            takes = short[i + 1 : i + 2] == ":"
            table.setdefault("-" + letter, Opt("-" + letter, value="required" if takes else None))
            i += 2 if takes else 1
        for item in long.split():
            name, _, _ = item.partition("=")
            takes = item.endswith("=")
            table.setdefault("--" + name, Opt("--" + name, value="required" if takes else None))
        self.options = table


def sub(name: str, classes: str = "", **kwargs: object) -> Spec:
    """A subcommand spec (same fields as ``Spec``)."""
    return Spec(name, classes, **kwargs)  # type: ignore[arg-type]
