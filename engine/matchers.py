"""Compiled matchers: the ``when`` of a rule as small objects that test one part.

Built from the normalised (already validated) policy data, without pydantic, so that the hot
path can rebuild them from the cache. Every matcher can ``test`` a part (fast) and
``explain`` itself (for traces): what it requires and what the part has.

A rule with ``target: command`` tests the whole command line instead: each leaf holds when
*some* part satisfies it (``all: [{classes: [network]}, {classes: [code_exec]}]`` across a
pipe), ``regex`` reads the raw text.
"""

from __future__ import annotations

import re

from clearance.engine.pathsets import PATH_SETS
from clearance.shellparse.globs import GlobSet, GlobUnion, glob_regex_body, match_sequence
from clearance.shellparse.knowledge import lookup

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Final

    from clearance.engine.views import Context, PartView
    from clearance.shellparse.facts import PathFact

#: An atom of a matcher's necessary condition (``Matcher.needs``): ``(kind, name)``.
Need = tuple[str, str]


def _glob_regex(pattern: str, *, case: bool = True) -> re.Pattern[str]:
    """``*``, ``?``, ``[…]`` globs over a whole string (no path semantics)."""
    # DOTALL: an argument may hold a newline ($'a\nb'), and '*' must still cover it.
    flags = re.DOTALL if case else re.DOTALL | re.IGNORECASE
    return re.compile(glob_regex_body(pattern, ".*", ".") + r"\Z", flags)


def _is_glob(pattern: str) -> bool:
    return any(c in pattern for c in "*?[")


class NameSet:
    """Exact names plus globs, matched against one string."""

    __slots__ = ("exact", "globs", "patterns")

    def __init__(self, patterns: Sequence[str], *, case: bool = True) -> None:
        self.patterns = list(patterns)
        self.exact = frozenset(p if case else p.lower() for p in patterns if not _is_glob(p))
        self.globs = [_glob_regex(p, case=case) for p in patterns if _is_glob(p)]

    def match(self, value: str) -> bool:
        if value in self.exact:
            return True
        for glob in self.globs:
            if glob.match(value):
                return True
        return False


class Matcher:
    """Base: ``test`` a part, ``explain`` why (``(held, text)``)."""

    key = ""

    def test(self, part: PartView, ctx: Context) -> bool:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def observed(self, part: PartView, ctx: Context) -> str:
        return ""

    def explain(self, part: PartView, ctx: Context) -> tuple[bool, str]:
        held = self.test(part, ctx)
        seen = self.observed(part, ctx)
        return held, f"{self.describe()}: {'yes' if held else 'no'}" + (
            f" ({seen})" if seen else ""
        )

    # --- whole-command evaluation: a leaf holds if some part satisfies it ------------------

    def test_command(self, parts: Sequence[PartView], ctx: Context) -> bool:
        return any(self.test(part, ctx) for part in parts)

    def explain_command(self, parts: Sequence[PartView], ctx: Context) -> tuple[bool, str]:
        held = self.test_command(parts, ctx)
        return held, f"{self.describe()} in some part: {'yes' if held else 'no'}"

    # --- compile-time facts ---------------------------------------------------------------

    def programs(self) -> frozenset[str] | None:
        """Programs a part must have for this to hold (for the index), or None if any."""
        return None

    def required_classes(self) -> frozenset[str] | None:
        """Effect classes of which a part must have one for this to hold, or None."""
        return None

    def needs(self) -> frozenset[Need] | None:
        """A necessary condition of ``test``, for the index: atoms of which a part must
        satisfy one (``None``: no such condition is known). An atom is ``("program", name)``
        (the part runs it), ``("program_glob", glob)`` (it runs a program the glob matches),
        ``("class", name)`` (it has the effect class), ``("marker", name)`` (it carries the
        marker), ``("access", kind)`` (it has a path of that access; kind ``*``: any path),
        ``("host", "*")`` (it contacts a host) or ``("tool", name)`` (the tool's kind or
        name)."""
        programs = self.programs()
        if programs is not None:
            return frozenset(("program", name) for name in programs)
        classes = self.required_classes()
        if classes is not None:
            return frozenset(("class", name) for name in classes)
        return None

    def named_markers(self) -> set[str]:
        return set()

    def cost(self) -> int:
        """How dear ``test`` is, roughly (a set lookup 1, argument tokens 2, hosts 2, paths
        against globs 3, a regular expression 4): the conjunctions and disjunctions test
        their cheap children first. Every ``test`` is a pure function of the part and the
        context, so the order changes the time, never the answer; ``explain`` keeps the
        policy's order."""
        return 1

    def named_programs(self) -> set[str]:
        return set()


def _cost(matcher: Matcher) -> int:
    return matcher.cost()


class All(Matcher):
    key = "all"

    def __init__(self, children: list[Matcher]) -> None:
        self.children = children
        self.cheap_first = sorted(children, key=_cost)

    def test(self, part: PartView, ctx: Context) -> bool:
        for child in self.cheap_first:
            if not child.test(part, ctx):
                return False
        return True

    def cost(self) -> int:
        return max((c.cost() for c in self.children), default=1)

    def test_command(self, parts: Sequence[PartView], ctx: Context) -> bool:
        return all(c.test_command(parts, ctx) for c in self.children)

    def describe(self) -> str:
        return "all of (" + "; ".join(c.describe() for c in self.children) + ")"

    def explain(self, part: PartView, ctx: Context) -> tuple[bool, str]:
        results = [c.explain(part, ctx) for c in self.children]
        failed = [text for held, text in results if not held]
        if failed:
            return False, failed[0]
        return True, "; ".join(text for _, text in results)

    def explain_command(self, parts: Sequence[PartView], ctx: Context) -> tuple[bool, str]:
        results = [c.explain_command(parts, ctx) for c in self.children]
        failed = [text for held, text in results if not held]
        if failed:
            return False, failed[0]
        return True, "; ".join(text for _, text in results)

    def programs(self) -> frozenset[str] | None:
        best: frozenset[str] | None = None
        for child in self.children:
            found = child.programs()
            if found is not None and (best is None or len(found) < len(best)):
                best = found
        return best

    def required_classes(self) -> frozenset[str] | None:
        best: frozenset[str] | None = None
        for child in self.children:
            found = child.required_classes()
            if found is not None and (best is None or len(found) < len(best)):
                best = found
        return best

    def needs(self) -> frozenset[Need] | None:
        # every child's condition is necessary: the narrowest serves best
        best: frozenset[Need] | None = None
        for child in self.children:
            found = child.needs()
            if found is not None and (best is None or len(found) < len(best)):
                best = found
        return best

    def named_markers(self) -> set[str]:
        return set().union(*(c.named_markers() for c in self.children))

    def named_programs(self) -> set[str]:
        return set().union(*(c.named_programs() for c in self.children))


class Any_(Matcher):
    key = "any"

    def __init__(self, children: list[Matcher]) -> None:
        self.children = children
        self.cheap_first = sorted(children, key=_cost)

    def test(self, part: PartView, ctx: Context) -> bool:
        for child in self.cheap_first:
            if child.test(part, ctx):
                return True
        return False

    def cost(self) -> int:
        return max((c.cost() for c in self.children), default=1)

    def test_command(self, parts: Sequence[PartView], ctx: Context) -> bool:
        return any(c.test_command(parts, ctx) for c in self.children)

    def describe(self) -> str:
        return "any of (" + "; ".join(c.describe() for c in self.children) + ")"

    def explain(self, part: PartView, ctx: Context) -> tuple[bool, str]:
        results = [c.explain(part, ctx) for c in self.children]
        passed = [text for held, text in results if held]
        if passed:
            return True, passed[0]
        return False, "none of (" + "; ".join(text for _, text in results) + ")"

    def programs(self) -> frozenset[str] | None:
        found: set[str] = set()
        for child in self.children:
            names = child.programs()
            if names is None:
                return None
            found |= names
        return frozenset(found)

    def required_classes(self) -> frozenset[str] | None:
        found: set[str] = set()
        for child in self.children:
            names = child.required_classes()
            if names is None:
                return None
            found |= names
        return frozenset(found)

    def needs(self) -> frozenset[Need] | None:
        # one child must hold: one of their conditions, when each has one
        found: set[Need] = set()
        for child in self.children:
            atoms = child.needs()
            if atoms is None:
                return None
            found |= atoms
        return frozenset(found)

    def named_markers(self) -> set[str]:
        return set().union(*(c.named_markers() for c in self.children))

    def named_programs(self) -> set[str]:
        return set().union(*(c.named_programs() for c in self.children))


class Not(Matcher):
    key = "not"

    def __init__(self, child: Matcher) -> None:
        self.child = child

    def test(self, part: PartView, ctx: Context) -> bool:
        return not self.child.test(part, ctx)

    def cost(self) -> int:
        return self.child.cost()

    def test_command(self, parts: Sequence[PartView], ctx: Context) -> bool:
        return not self.child.test_command(parts, ctx)

    def describe(self) -> str:
        return f"not ({self.child.describe()})"

    def explain(self, part: PartView, ctx: Context) -> tuple[bool, str]:
        held, text = self.child.explain(part, ctx)
        return not held, f"not ({text})"


class Program(Matcher):
    key = "program"

    def __init__(self, patterns: list[str]) -> None:
        self.names = NameSet(patterns)

    def test(self, part: PartView, ctx: Context) -> bool:
        return part.program is not None and self.names.match(part.program)

    def describe(self) -> str:
        return f"program in {self.names.patterns}"

    def observed(self, part: PartView, ctx: Context) -> str:
        return f"program is {part.program!r}"

    def programs(self) -> frozenset[str] | None:
        return None if self.names.globs else self.names.exact

    def needs(self) -> frozenset[Need] | None:
        # a name, or a glob the index matches each program against once (``mkfs.*``)
        return frozenset(
            [
                *(("program", name) for name in self.names.exact),
                *(("program_glob", p) for p in self.names.patterns if _is_glob(p)),
            ]
        )

    def named_programs(self) -> set[str]:
        return set(self.names.exact)


class Argv(Matcher):
    """Prefix patterns: ``git push **``; tokens are globs with ``a|b`` alternatives, ``**``
    any number of arguments, a final ``$`` means nothing may follow. The first token is
    matched against the normalised program name."""

    key = "argv"

    def cost(self) -> int:
        return 2

    def __init__(self, patterns: list[str]) -> None:
        self.patterns = patterns
        #: Each pattern as its tokens (``"**"`` or a ``NameSet``), and whether it matches a
        #: prefix of argv: a ``$`` ends it (what would follow could never match).
        self.compiled: list[tuple[list[NameSet | str], bool]] = []
        for pattern in patterns:
            tokens: list[NameSet | str] = []
            prefix = True
            for token in _split_words(pattern):
                if token == "$":
                    prefix = False
                    break
                tokens.append(token if token == "**" else NameSet(token.split("|")))
            self.compiled.append((tokens, prefix))
        #: Whether some pattern looks past the program (only then can the canonical form,
        #: which differs from argv after the program, change the answer).
        self.positional = any(
            (len(t) > 1 and t[1] != "**") or (len(t) == 1 and not prefix)
            for t, prefix in self.compiled
        )

    def test(self, part: PartView, ctx: Context) -> bool:
        if part.program is None:
            return False
        argv = [part.program, *part.argv[1:]]
        if any(_argv_match(tokens, argv, prefix) for tokens, prefix in self.compiled):
            return True
        if not self.positional:
            return False
        # the canonical form: global options before the subcommand taken out
        # (``terraform -chdir=x destroy`` is ``terraform destroy``)
        canonical = part.canonical()
        return canonical is not None and any(
            _argv_match(tokens, canonical, prefix) for tokens, prefix in self.compiled
        )

    def describe(self) -> str:
        return f"argv starts like {self.patterns}"

    def observed(self, part: PartView, ctx: Context) -> str:
        canonical = part.canonical()
        shown = f"argv is {[part.program, *part.argv[1:]]}"
        return shown + (f", canonically {canonical}" if canonical is not None else "")

    def programs(self) -> frozenset[str] | None:
        names: set[str] = set()
        for tokens, _ in self.compiled:
            first = tokens[0] if tokens else "**"
            if not isinstance(first, NameSet) or first.globs:
                return None
            names |= first.exact
        return frozenset(names)

    def named_programs(self) -> set[str]:
        return set(self.programs() or ())


def _token_match(token: NameSet | str, word: str) -> bool:
    assert isinstance(token, NameSet)
    return token.match(word)


def _argv_match(tokens: list[NameSet | str], argv: list[str], prefix: bool) -> bool:
    return match_sequence(tokens, argv, _token_match, prefix)


def _split_words(pattern: str) -> list[str]:
    """Split on blanks, keeping quoted tokens together (``'a b'``)."""
    words: list[str] = []
    current: list[str] = []
    quote = ""
    started = False
    for c in pattern:
        if quote:
            if c == quote:
                quote = ""
            else:
                current.append(c)
        elif c in "'\"":
            quote = c
            started = True
        elif c in " \t":
            if started:
                words.append("".join(current))
                current = []
                started = False
        else:
            current.append(c)
            started = True
    if started:
        words.append("".join(current))
    return words


class Subcommand(Matcher):
    key = "subcommand"

    def __init__(self, patterns: list[str]) -> None:
        self.names = NameSet(patterns)

    def test(self, part: PartView, ctx: Context) -> bool:
        return part.subcommand is not None and self.names.match(part.subcommand)

    def describe(self) -> str:
        return f"subcommand in {self.names.patterns}"

    def observed(self, part: PartView, ctx: Context) -> str:
        return f"subcommand is {part.subcommand!r}"


class Flags(Matcher):
    """Options, in any spelling the program accepts: ``-f`` matches ``-rf``, ``--force``
    and ``--forc`` when the program's table says they are the same option."""

    key = "flags"

    def __init__(self, flags: list[str]) -> None:
        self.flags = flags
        self._canonical: dict[tuple[str | None, str | None], frozenset[str]] = {}

    def wanted(self, program: str | None, subcommand: str | None) -> frozenset[str]:
        key = (program, subcommand)
        found = self._canonical.get(key)
        if found is None:
            found = frozenset(
                set(self.flags) | {_canonical(program, subcommand, f) for f in self.flags}
            )
            self._canonical[key] = found
        return found

    def test(self, part: PartView, ctx: Context) -> bool:
        return not self.wanted(part.program, part.subcommand).isdisjoint(part.options)

    def describe(self) -> str:
        return f"flags include one of {self.flags}"

    def observed(self, part: PartView, ctx: Context) -> str:
        return f"options are {sorted(part.options)}"


class OnlyFlags(Flags):
    """Closed: every option the part has is one of these (``[]``: it has none). Session
    grants use it so that a grant for ``chmod 755 x`` is not one for ``chmod -R``."""

    key = "only_flags"

    def test(self, part: PartView, ctx: Context) -> bool:
        wanted = self.wanted(part.program, part.subcommand)
        return all(option in wanted for option in part.facts.options)

    def describe(self) -> str:
        return f"options only among {self.flags}" if self.flags else "no options"

    def observed(self, part: PartView, ctx: Context) -> str:
        return f"options are {list(part.facts.options)}"


def _canonical(program: str | None, subcommand: str | None, flag: str) -> str:
    if program is None:
        return flag
    spec = lookup(program)
    specs = []
    while spec is not None:
        specs.append(spec)
        if not subcommand or spec.subcommands is None:
            break
        head, _, subcommand = subcommand.partition(" ")
        spec = spec.subcommands.get(head) or spec.default
    for spec in reversed(specs):
        opt = spec.options.get(flag)
        if opt is not None:
            return opt.name
    return flag


class Classes(Matcher):
    key = "classes"

    def __init__(self, classes: list[str]) -> None:
        self.classes = frozenset(classes)

    def test(self, part: PartView, ctx: Context) -> bool:
        return not self.classes.isdisjoint(part.class_key)

    def describe(self) -> str:
        return f"classes include one of {sorted(self.classes)}"

    def required_classes(self) -> frozenset[str] | None:
        return self.classes

    def observed(self, part: PartView, ctx: Context) -> str:
        return f"classes are {sorted(part.classes)}"


class Markers(Matcher):
    key = "markers"

    def __init__(self, markers: list[str]) -> None:
        self.markers = frozenset(markers)

    def test(self, part: PartView, ctx: Context) -> bool:
        return not self.markers.isdisjoint(part.markers)

    def describe(self) -> str:
        return f"markers include one of {sorted(self.markers)}"

    def observed(self, part: PartView, ctx: Context) -> str:
        return f"markers are {sorted(part.markers)}"

    def named_markers(self) -> set[str]:
        return set(self.markers)

    def needs(self) -> frozenset[Need] | None:
        return frozenset(("marker", name) for name in self.markers)


class PathGlobs:
    """Globs over absolute paths, compiled for one workspace and home at a time (and in
    lower case for a case-insensitive file system). Each named set keeps its own ``!``
    exceptions."""

    def __init__(self, patterns: list[str], sets: list[str]) -> None:
        self.patterns = list(patterns)
        for name in sets:
            self.patterns.append("@" + name)
        self._compiled: dict[tuple[str, str, bool], GlobUnion] = {}
        #: the last answer and what it was for (a batch asks for one workspace and home,
        #: rule after rule, line after line)
        self._last: tuple[str, str, bool, GlobUnion] | None = None

    def compiled(self, workspace: str, home: str, fold: bool = False) -> GlobUnion:
        last = self._last
        if last is not None and last[0] == workspace and last[1] == home and last[2] == fold:
            return last[3]
        key = (workspace, home, fold)
        found = self._compiled.get(key)
        if found is None:
            loose = [p for p in self.patterns if not p.startswith("@")]
            groups = [GlobSet(loose, home, workspace, fold=fold)] if loose else []
            groups.extend(
                GlobSet(PATH_SETS[p[1:]], home, workspace, fold=fold)
                for p in self.patterns
                if p.startswith("@")
            )
            found = self._compiled[key] = GlobUnion(groups)
        self._last = (workspace, home, fold, found)
        return found


class Paths(Matcher):
    key = "paths"

    def cost(self) -> int:
        return 3

    def __init__(self, spec: dict[str, object]) -> None:
        match = spec.get("match") or []
        sets = spec.get("sets") or []
        assert isinstance(match, list) and isinstance(sets, list)
        self.globs = PathGlobs([str(m) for m in match], [str(s) for s in sets])
        access = spec.get("access")
        self.access = frozenset(access) if isinstance(access, list) else None
        #: whether an ``unknown`` access may be one of ``access`` (any but a delete)
        self.unknown_may = self.access is not None and bool(self.access - {"delete"})
        self.location = str(spec.get("location") or "any")
        source = spec.get("source")
        self.source = frozenset(source) if isinstance(source, list) else None
        self.every = bool(spec.get("every"))
        self.spec = spec

    def test(self, part: PartView, ctx: Context) -> bool:
        if self.every:
            return self._test_every(part, ctx)
        if not part.paths:
            return False
        for path in part.paths:
            if self._one(path, part, ctx):  # (a native call: no bound method)
                return True
        return False

    def needs(self) -> frozenset[Need] | None:
        # a part holds only through one of its paths whose access passes (``_one``)
        if self.every:
            return None
        if self.access is None:
            return frozenset({("access", "*")})
        atoms = {("access", kind) for kind in self.access}
        if self.access - {"delete"}:
            atoms.add(("access", "unknown"))
        return frozenset(atoms)

    def _test_every(self, part: PartView, ctx: Context) -> bool:
        """Every path satisfies the matcher (a part without paths does when no glob is
        required: ``location`` alone says nothing about a part that touches nothing)."""
        if not part.paths:
            return not self.globs.patterns
        return all(self._one(path, part, ctx) for path in part.paths)

    def _one(self, path: PathFact, part: PartView, ctx: Context) -> bool:
        """Whether this one path satisfies access, source, location and globs."""
        # ``unknown`` (an argument of a program nothing is known about) may be any access but
        # a delete: an unknown program is never judged a deleter because an argument looks
        # like ``/``
        if (
            self.access is not None
            and path.access not in self.access
            and (path.access != "unknown" or not self.unknown_may)
        ):
            return False
        if self.source is not None and path.source not in self.source:
            return False
        location = self.location
        if location != "any":
            where = path.inside_workspace
            if location == "inside" and where is not True:
                return False
            if location == "outside" and where is not False:
                return False
            if location == "unknown" and where is not None:
                return False
            if location == "not_inside" and where is True:
                return False
        if not self.globs.patterns:
            return True
        globs = self.globs.compiled(ctx.workspace or ctx.cwd, ctx.home, path.fold)
        target = path.resolved if path.resolved is not None else path.path
        if path.pattern and path.resolved is not None:
            # a glob: what it could match on any day, not only today's files
            return globs.could_match(target, tree=path.tree, globstar=True)
        if path.tree and path.resolved is not None:
            # an operation on everything below: the directory, or what lies under it
            return globs.match_tree(target)
        return globs.match(target)

    def describe(self) -> str:
        bits = ["every path"] if self.every else []
        if self.globs.patterns:
            bits.append(f"matching {self.globs.patterns}")
        if self.access is not None:
            bits.append(f"access {sorted(self.access)}")
        if self.location != "any":
            bits.append(f"{self.location} the workspace")
        if self.source is not None:
            bits.append(f"from {sorted(self.source)}")
        if self.every:
            return " ".join(bits)
        return "a path " + ", ".join(bits or ["of any kind"])

    def observed(self, part: PartView, ctx: Context) -> str:
        return "paths are " + (
            ", ".join(f"{p.access} {p.resolved or p.path}" for p in part.paths) or "none"
        )


class Redirects(Paths):
    key = "redirects"

    def __init__(self, patterns: list[str]) -> None:
        super().__init__({"match": patterns, "access": ["write"], "source": ["redirect"]})

    def describe(self) -> str:
        return f"a redirection writes to {self.globs.patterns}"


class Hosts(Matcher):
    key = "hosts"

    def cost(self) -> int:
        return 2

    def __init__(self, patterns: list[str]) -> None:
        self.names = NameSet([p.lower() for p in patterns], case=False)

    def test(self, part: PartView, ctx: Context) -> bool:
        return any(self.names.match(host) for host in part.hosts)

    def describe(self) -> str:
        return f"a host in {self.names.patterns}"

    def observed(self, part: PartView, ctx: Context) -> str:
        return f"hosts are {part.hosts}"

    def needs(self) -> frozenset[Need] | None:
        return frozenset({("host", "*")})  # (a part with no host has none in the list)


class OnlyHosts(Hosts):
    """Closed: every host the part contacts is one of these (``[]``: it contacts none)."""

    key = "only_hosts"

    def needs(self) -> frozenset[Need] | None:
        return None  # (a part with no host has only these: none)

    def test(self, part: PartView, ctx: Context) -> bool:
        return all(self.names.match(host) for host in part.hosts)

    def describe(self) -> str:
        return f"hosts only among {self.names.patterns}" if self.names.patterns else "no hosts"


class Regex(Matcher):
    key = "regex"

    def cost(self) -> int:
        return 4

    def __init__(self, pattern: str) -> None:
        from clearance.engine.regex import compile_regex

        self.pattern = pattern
        self.regex = compile_regex(pattern)  # RE2: linear time, imported only when used

    def test(self, part: PartView, ctx: Context) -> bool:
        return self.regex.search(part.normalized) is not None

    def test_command(self, parts: Sequence[PartView], ctx: Context) -> bool:
        return self.regex.search(ctx.text) is not None or super().test_command(parts, ctx)

    def describe(self) -> str:
        return f"matches /{self.pattern}/"


class Via(Matcher):
    key = "via"

    def __init__(self, patterns: list[str]) -> None:
        self.names = NameSet(patterns)

    def test(self, part: PartView, ctx: Context) -> bool:
        return any(self.names.match(label) for label in part.via)

    def describe(self) -> str:
        return f"run through one of {self.names.patterns}"

    def observed(self, part: PartView, ctx: Context) -> str:
        return f"via {part.via}"


class ContextLabel(Matcher):
    key = "context"

    def __init__(self, patterns: list[str]) -> None:
        self.names = NameSet(patterns)

    def test(self, part: PartView, ctx: Context) -> bool:
        return any(self.names.match(label) for label in part.context)

    def describe(self) -> str:
        return f"in a context like {self.names.patterns}"


class Tool(Matcher):
    """The tool that proposed the action: our kind (``shell``, ``read``…) or its own name."""

    key = "tool"

    def __init__(self, patterns: list[str]) -> None:
        self.names = NameSet(patterns)

    def test(self, part: PartView, ctx: Context) -> bool:
        return self.names.match(ctx.tool_kind) or self.names.match(ctx.tool)

    def describe(self) -> str:
        return f"tool in {self.names.patterns}"

    def observed(self, part: PartView, ctx: Context) -> str:
        return f"tool is {ctx.tool!r} ({ctx.tool_kind})"

    def needs(self) -> frozenset[Need] | None:
        return None if self.names.globs else frozenset(("tool", n) for n in self.names.exact)


_LEAVES: Final[dict[str, type[Matcher]]] = {
    "program": Program,
    "argv": Argv,
    "subcommand": Subcommand,
    "flags": Flags,
    "classes": Classes,
    "markers": Markers,
    "hosts": Hosts,
    "only_flags": OnlyFlags,
    "only_hosts": OnlyHosts,
    "redirects": Redirects,
    "via": Via,
    "context": ContextLabel,
    "tool": Tool,
}


def compile_when(when: dict[str, object]) -> Matcher:
    """Build the matcher of a validated ``when`` mapping (several keys: all must hold)."""
    children: list[Matcher] = []
    for key, value in when.items():
        if value is None:
            continue
        if key == "all":
            assert isinstance(value, list)
            children.append(All([compile_when(v) for v in value]))
        elif key == "any":
            assert isinstance(value, list)
            children.append(Any_([compile_when(v) for v in value]))
        elif key == "not":
            assert isinstance(value, dict)
            children.append(Not(compile_when(value)))
        elif key == "paths":
            assert isinstance(value, dict)
            children.append(Paths(value))
        elif key == "regex":
            children.append(Regex(str(value)))
        else:
            assert isinstance(value, list)
            children.append(_LEAVES[key]([str(v) for v in value]))  # type: ignore[call-arg]
    if len(children) == 1:
        return children[0]
    return All(children)
