"""What matchers look at: one part (a simple command, or the action of a file or web tool)
and the context of the decision (tool, workspace, home, the whole text)."""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

    from clearance.shellparse.facts import PathFact, SimpleCommandFacts
    from clearance.vocab import Marker, ToolKind

_BUNDLE: Final = re.compile(r"-[A-Za-z0-9]{2,}\Z")
_NO_ACCESS: Final[frozenset[str]] = frozenset()


_CANONICAL: Final[list[Callable[[str | None, list[str]], list[str] | None]]] = []


def _canonical_argv() -> Callable[[str | None, list[str]], list[str] | None]:
    """``canonical.canonical_argv``, imported when first needed (it loads option tables)."""
    if not _CANONICAL:
        from clearance.engine.canonical import canonical_argv

        _CANONICAL.append(canonical_argv)
    return _CANONICAL[0]


class Context:
    __slots__ = ("cwd", "home", "text", "tool", "tool_kind", "workspace")

    def __init__(
        self, tool: str, tool_kind: ToolKind, workspace: str | None, home: str, cwd: str, text: str
    ) -> None:
        self.tool = tool
        self.tool_kind = tool_kind
        #: The project root; ``None`` when the cwd belongs to no project.
        self.workspace = workspace
        self.home = home
        self.cwd = cwd
        #: The whole command line (or the subject of a file/web tool).
        self.text = text


class PartView:
    """A part with what matchers need precomputed once."""

    __slots__ = (
        "_canonical",
        "_normalized",
        "_options",
        "accesses",
        "argv",
        "class_key",
        "classes",
        "context",
        "facts",
        "hosts",
        "marker_key",
        "markers",
        "paths",
        "program",
        "subcommand",
        "via",
    )

    def __init__(self, facts: SimpleCommandFacts, extra_markers: frozenset[Marker]) -> None:
        self.facts = facts
        self.program = facts.program
        self.argv = facts.argv
        self.subcommand = facts.subcommand
        self.classes = facts.classes
        self.class_key = frozenset(facts.classes)
        self.markers = facts.markers | extra_markers if extra_markers else facts.markers
        self.marker_key = frozenset(self.markers)
        self.paths: list[PathFact] = facts.paths
        #: The accesses of its paths, ``*`` among them when it has any (for the rule index).
        self.accesses = (
            frozenset([*(p.access for p in facts.paths), "*"]) if facts.paths else _NO_ACCESS
        )
        self.hosts = facts.hosts
        self.via = facts.via
        self.context = facts.context
        self._options: frozenset[str] | None = None
        self._normalized: str | None = None
        self._canonical: list[str] | bool | None = False

    @property
    def options(self) -> frozenset[str]:
        """Its options, bundles also letter by letter (``-rf``: ``-r``, ``-f``); made when
        a rule first asks (most parts meet no rule about options)."""
        found = self._options
        if found is None:
            options = set(self.facts.options)
            for option in self.facts.options:
                if _BUNDLE.match(option):
                    options.update("-" + letter for letter in option[1:])
            found = self._options = frozenset(options)
        return found

    @property
    def normalized(self) -> str:
        """The program's name then its arguments, one string (for ``regex``)."""
        found = self._normalized
        if found is None:
            facts = self.facts
            head = [facts.program] if facts.program is not None else facts.argv[:1]
            found = self._normalized = " ".join([*head, *facts.argv[1:]])
        return found

    def canonical(self) -> list[str] | None:
        """argv without the global options before the subcommand words (``None``: the same
        as written); see ``clearance.engine.canonical``. Computed once, when first asked."""
        found = self._canonical
        if found is False:
            found = self._canonical = _canonical_argv()(self.program, self.argv)
        assert found is not True
        return found
