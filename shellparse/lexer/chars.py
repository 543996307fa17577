"""Limits and character classes more than one module of the lexer needs."""

from __future__ import annotations

import re

#: Deepest nesting of substitutions (``$(…)``, backquotes, ``<(…)``) the lexer follows.
MAX_DEPTH = 48
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
WORD_END = frozenset(" \t\n;&|()<>")
