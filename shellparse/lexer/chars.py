"""Limits and character classes more than one module of the lexer needs."""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: Deepest nesting of substitutions (``$(…)``, backquotes, ``<(…)``) the lexer follows.
MAX_DEPTH: Final = 48
#: ``$…`` expansions (``${x:-${y…}}``, ``$(( $(( …``, ``"$(…)"``, substitutions included) open
#: inside each other at one time, across every lexer of a text: the explicit bound of the
#: recursion that reads them (compiled code has no recursion limit to stop it).
MAX_NESTING: Final = 64
NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
WORD_END: Final = frozenset(" \t\n;&|()<>")
