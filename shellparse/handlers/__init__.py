"""Handlers: what the program tables cannot say -- sed scripts, awk programs, find
expressions, tar modes, git configuration that runs programs, the command lines hidden in
wrappers' own syntax.

One module per family of ``knowledge/`` (``handlers/files.py`` beside ``knowledge/files.yaml``,
``handlers/vcs.py`` beside ``knowledge/vcs.yaml``…), plus ``common`` for what they share. A table
names its handler as ``family.function`` (``handler: files.sed``), resolved through the one
registry: the module's ``HANDLERS`` (``resolve``; a name it does not list is an error when the
table is generated and when it loads). The classifier calls it after the table has been
applied, with one ``HandlerCall`` (``clearance.shellparse.facts``): ``handler(call) -> None``,
the type ``facts.Handler``.

May import: ``clearance.shellparse`` below the classifier (facts, expand, paths, options,
knowledge, sql); never the classifier itself, whose types the handlers need are in ``facts``.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.facts import Handler

#: The modules a table may name a handler of (``handler: files.sed``): each lists the
#: handlers tables may name in its ``HANDLERS`` (the one registry; no other name resolves).
FAMILIES: Final = frozenset(
    (
        "build",
        "crypto",
        "files",
        "interpreters",
        "network",
        "packages",
        "system",
        "system_packages",
        "vcs",
        "wrappers",
    )
)


def resolve(name: str) -> Handler | None:
    """The handler a table names ``family.function``, or ``None`` when ``family`` is no
    handler module or its ``HANDLERS`` does not list ``function``."""
    family, _, function = name.partition(".")
    if family not in FAMILIES:
        return None
    module = f"clearance.shellparse.handlers.{family}"
    if module not in sys.modules:
        __import__(module)
    registry: dict[str, Handler] = sys.modules[module].HANDLERS
    return registry.get(function)
