"""Limits and character classes more than one module of the lexer needs."""

from __future__ import annotations

import re

#: Deepest nesting of substitutions (``$(…)``, backquotes, ``<(…)``) the lexer follows.
MAX_DEPTH = 48
#: ``$…`` expansions (``${x:-${y…}}``, ``$(( $(( …``, ``"$(…)"``, substitutions included) open
#: inside each other at one time, across every lexer of a text: the explicit bound of the
#: recursion that reads them (compiled code has no recursion limit to stop it).
MAX_NESTING = 64
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
WORD_END = frozenset(" \t\n;&|()<>")
