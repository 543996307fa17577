"""How program knowledge is written down: ``Spec`` (a program or subcommand) and ``Opt``.

The tables of ``clearance.shellparse.knowledge`` (YAML compiled to JSON: ``knowledge/generate.py``
says how they are written) load as these two classes; one generic interpreter (``classify``)
applies them, so adding a program is adding data, not code.

Roles say what an operand or an option value is:

``read`` / ``write`` / ``delete`` / ``exec``
    a path the command reads, writes, deletes, or runs as code (an ``exec`` URL is code
    fetched and run: ``deno run https://…``);
``meta``
    a path whose name and metadata only are read (``ls``, ``stat``, ``du``): listing ``.env``
    is not reading it;
``read_tree``
    a path whose whole content is read (``tar c``, ``grep -r``): a directory that holds
    secrets (``~``, ``~/.ssh``) makes it a secret read;
``unknown``
    a path accessed in a way not known (an argument of a program without a spec);
``copy`` / ``copy_tree``
    operands are sources (read; whole trees with ``copy_tree``) and a final destination
    (write) -- ``cp``, ``cp -r``;
``move``
    like ``copy``, and the sources are removed -- ``mv``;
``target_dir``
    the destination directory of ``cp -t`` / ``mv -t``: every operand is then a source;
``url`` / ``host`` / ``remote`` / ``url_or_path``
    something on the network (``remote``: a git remote, a host only when it looks like one;
    ``url_or_path``: a ``host:path`` or URL, else a local path read);
``cwd``
    a directory the command works in (``git -C``, ``make -C``, ``sudo -D``); later relative
    paths, and a wrapped command, resolve from it; ``cwd_file``: a file read, the command
    working in its directory (``cargo --manifest-path``); ``workdirs`` lists them all;
``code``
    program text for an interpreter (``python -c``); ``shell`` a shell command string;
``module``
    ``python -m MODULE``: the module runs with the remaining operands;
``command`` / ``shell_words``
    the rest of argv is a command to run (wrappers), or is joined into a shell string
    (``eval``, ``watch``);
``remote_shell`` / ``remote_command``
    like ``shell_words`` / ``command``, run on another machine (ssh, kubectl exec);
``none``
    not a path (``echo``'s words, a pattern, a mode).

``operands`` is a role for every operand, or a tuple of roles for the first ones followed by a
role for the rest: ``("none", "read")`` is grep's PATTERN then FILEs.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from clearance.vocab import CLASSES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Final

    from clearance.shellparse.facts import Handler
    from clearance.vocab import EffectClass

#: A table's word for an effect class -> the class (a word that names none is not in it).
_EFFECT_CLASSES: Final[dict[str, EffectClass]] = {name: name for name in CLASSES}


#: An option or a program that adds no effect class.
_NO_CLASSES: Final[frozenset[EffectClass]] = frozenset()


def effect_classes(words: str) -> frozenset[EffectClass]:
    """The effect classes a table names, space-separated (``"write delete"``); a word that is
    no class of ``clearance.vocab`` (a typo in a table) stops the table from loading."""
    try:
        return frozenset([_EFFECT_CLASSES[word] for word in words.split()])
    except KeyError as exc:
        raise ValueError(f"{exc.args[0]!r} is not an effect class (clearance.vocab)") from None


#: Options no family may match: a pattern matching one of them stands for "anything goes".
_ARBITRARY: Final = ("-", "--", "-x", "-X", "--x", "--X", "--anything", "-anything", "--=x")


def _checked_family(pattern: str) -> str:
    """``pattern`` if it names a bounded option family, else ``ValueError``."""
    if not pattern.startswith("-") or any(fnmatchcase(o, pattern) for o in _ARBITRARY):
        raise ValueError(f"option family {pattern!r} would match any option")
    return pattern


def _split_families(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The families of ``text``, checked: ``(prefixes of the PREFIX* ones, other patterns)``."""
    prefixes: list[str] = []
    others: list[str] = []
    for pattern in text.split():
        _checked_family(pattern)
        head = pattern[:-1]
        if pattern.endswith("*") and not any(c in head for c in "*?[\\"):
            prefixes.append(head)
        else:
            others.append(pattern)
    return tuple(prefixes), tuple(others)


class Opt:
    """One option under all its spellings (``-r -R --recursive``, or ``-r/-R/--recursive``).

    ``value``: ``None`` (a flag), ``"required"`` or ``"optional"`` (``--color[=WHEN]``: only an
    attached ``=value`` counts). ``role`` is what the value is; ``adds`` are classes the option
    adds; ``operands`` overrides the operand role while the option is present (``sed -i``);
    ``ends``: the arguments after this option are all operands. ``nargs``: how many arguments a
    required value spans (``jq --arg NAME VALUE``); the last one is the value the role applies
    to.
    """

    __slots__ = ("adds", "ends", "name", "names", "nargs", "operands", "role", "value")

    def __init__(
        self,
        names: str,
        *,
        value: str | None = None,
        role: str = "none",
        adds: str = "",
        operands: str | tuple[str, ...] | None = None,
        ends: bool = False,
        nargs: int = 1,
    ) -> None:
        spellings = tuple(names.replace("/", " ").split())
        self.names = spellings
        #: Canonical spelling: the first long name, else the first name (made on the spot:
        #: a program's table is hundreds of these, built the first time a line runs it).
        canonical = spellings[0]
        for spelling in spellings:
            if spelling.startswith("--"):
                canonical = spelling
                break
        self.name = canonical
        self.value = value
        self.role = role
        self.adds = effect_classes(adds) if adds else _NO_CLASSES
        self.operands = operands
        #: Everything after this option is operands (``python -c CODE args``, ``-m MOD``).
        self.ends = ends
        self.nargs = nargs


def opts(names: str, **kwargs: object) -> list[Opt]:
    """Several distinct options sharing everything but their names.

    Whitespace separates the options and ``/`` joins the spellings of one:
    ``opts("-u/--user -g/--group", value="required")`` is two options, ``--user`` and ``--group``
    (writing them as one ``Opt`` would report ``-g`` as ``--user``).
    """
    return [Opt(token, **kwargs) for token in names.split()]  # type: ignore[arg-type]


#: The options of the compact notation made so far, by their text (``-v``, ``--help``,
#: ``-o/--output=``: the same few hundred recur across programs). An ``Opt`` is never changed
#: once made, so programs share one; at most ``MAX_COMPACT_OPTS`` kept.
_COMPACT_OPTS: Final[dict[str, Opt]] = {}
MAX_COMPACT_OPTS: Final = 16384


def _compact(text: str) -> list[Opt]:
    """Options in the compact notation of ``Spec(flags=…)``: ``-n/--lines= --color=? -v``."""
    out: list[Opt] = []
    made = _COMPACT_OPTS
    for token in text.split():
        opt = made.get(token)
        if opt is None:
            if token.endswith("=?"):
                opt = Opt(token[:-2], value="optional")
            elif token.endswith("="):
                opt = Opt(token[:-1], value="required")
            else:
                opt = Opt(token)
            if len(made) < MAX_COMPACT_OPTS:
                made[token] = opt
        out.append(opt)
    return out


class Spec:
    """What a program (or one of its subcommands) does.

    Options that change nothing a policy cares about are listed compactly:

    ``flags``
        whitespace-separated options, ``/`` joining the spellings of one, ``=`` after an option
        that takes a value and ``=?`` after one whose value is optional:
        ``"-a/--all -n/--lines= --color=?"``;
    ``short`` / ``long``
        getopt style (``"ab:c"``: ``-b`` takes a value; ``"color= verbose"``: ``--color``
        takes one), for options without a second spelling.

    ``options`` holds ``Opt`` objects for those with a role, classes or an operand override.
    ``abbrev``: the program accepts unambiguous prefixes of long options (GNU getopt_long, git).
    ``permute``: options may follow operands (GNU); otherwise the first operand ends options.
    ``subcommands`` are looked up on the first operand; ``default`` applies to one not listed.
    ``single_dash_long``: long options take one dash (``find -name``, ``java -jar``).
    ``number``: the option a bare ``-NUM`` stands for (``head -20`` is ``--lines 20``).

    The tables are closed-world: an option a spec does not list is reported as the marker
    ``unknown_option``, which no rule turns into an allow unless it names it. ``families``
    declares harmless option families by pattern (``"--color* --no-color*"``): an option whose
    name matches one is known and changes nothing. A family may never stand for "anything goes"
    (``-*``, ``--*``): ``Spec`` refuses a pattern that matches an arbitrary option.
    ``own_options``: the handler reads the arguments itself (``find``'s expression) and reports
    the options it does not know; the generic parse of them is not judged.
    ``prints_help``: ``--help``, ``-h``, ``--version``, ``-V`` given alone (and ``help`` /
    ``version`` where the program has subcommands and its table does not list them) only print;
    ``False`` for the few programs where they act (``shutdown -h`` halts, ``fsck -V`` checks).

    The option table is built on first use: most programs in the tables are never looked at in
    a process, and a hook call must start fast.
    """

    __slots__ = (
        "_source",
        "_table",
        "abbrev",
        "classes",
        "default",
        "families",
        "handler",
        "name",
        "number",
        "operands",
        "own_options",
        "permute",
        "prints_help",
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
        flags: str = "",
        short: str = "",
        long: str = "",
        abbrev: bool = False,
        permute: bool = True,
        subcommands: dict[str, Spec] | None = None,
        default: Spec | None = None,
        single_dash_long: bool = False,
        number: str | None = None,
        handler: Handler | None = None,
        families: str = "",
        own_options: bool = False,
        prints_help: bool = True,
    ) -> None:
        self.name = name
        #: Checked (and compiled) on first use, not at import: tables load on the hook path.
        self.families: tuple[tuple[str, ...], tuple[str, ...]] | str = families
        self.own_options = own_options
        self.prints_help = prints_help
        self.classes = effect_classes(classes) if classes else _NO_CLASSES
        self.operands = operands
        self.abbrev = abbrev
        self.permute = permute
        self.subcommands = subcommands
        self.default = default
        self.single_dash_long = single_dash_long
        self.number = number
        #: What tables cannot say (sed scripts, awk programs, find expressions…): a function of
        #: ``clearance.shellparse.handlers.<family>``, beside the family's table.
        self.handler = handler
        self._source = (options, flags, short, long)
        self._table: dict[str, Opt] | None = None

    def in_family(self, spelling: str) -> bool:
        """Whether ``spelling`` (an option's name, without ``=value``) belongs to a harmless
        family of this spec. The patterns are checked and split on first use: a ``PREFIX*``
        family is a ``startswith`` over one tuple, only the others are matched as globs."""
        families = self.families
        if isinstance(families, str):
            families = self.families = _split_families(families)
        prefixes, others = families
        if prefixes and spelling.startswith(prefixes):
            return True
        return bool(others) and any(fnmatchcase(spelling, pattern) for pattern in others)

    @property
    def options(self) -> dict[str, Opt]:
        """Every spelling of every option, to its ``Opt``."""
        table = self._table
        if table is None:
            table = self._table = self._build()
        return table

    def _build(self) -> dict[str, Opt]:
        options, flags, short, long = self._source
        table: dict[str, Opt] = {}
        for opt in (*options, *_compact(flags)):
            for spelling in opt.names:
                table.setdefault(spelling, opt)
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
        return table
