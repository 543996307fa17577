"""Bash command lines to facts a policy can judge.

``classify(command, cwd=…, home=…, workspace=…)`` returns ``CommandFacts``: every simple
command that would run (substitutions, loops, functions, and commands unwrapped from
``sudo``, ``bash -c``, ``xargs``, ``find -exec``…), with argv, effect classes, paths, hosts
and markers for what is not statically known. ``parse(command)`` returns the typed AST.
Neither raises on any input: errors are values.

Imports are deferred: this package is on the start-up path of every hook call.

The file and web tools of the agents are judged as one part each: ``tools.file_tool_facts``,
``tools.web_tool_facts`` give their facts as ``classify`` gives a command's.

May import: nothing of clearance outside ``clearance.shellparse`` but ``clearance.vocab`` (the
closed vocabularies: classes, markers, pseudo-programs); Lark only when the grammar's table
is rebuilt. tests/test_architecture.py checks.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

    from clearance.shellparse.facts import CommandFacts
    from clearance.shellparse.parser import ParseResult

#: ``shellparse.api.classify`` once it is imported (on the first call, not at start-up).
_CLASSIFY: Final[list[Callable[..., CommandFacts]]] = []


def classify(
    command: str,
    *,
    cwd: str | None = None,
    home: str | None = None,
    workspace: str | None = None,
    resolve: bool = True,
) -> CommandFacts:
    if not _CLASSIFY:
        from clearance.shellparse.api import classify as _classify

        _CLASSIFY.append(_classify)
    return _CLASSIFY[0](command, cwd=cwd, home=home, workspace=workspace, resolve=resolve)


def parse(command: str) -> ParseResult:
    from clearance.shellparse.parser import parse as _parse

    return _parse(command)


__all__ = ["classify", "parse"]
