"""What the handler modules share, and nothing else:

- ``Lazy``: a regular expression compiled on first use (the handlers' patterns, and the
  classifier's, cost nothing at start-up);
- ``PLACEHOLDER``: the word that stands for input only known when the command runs
  (``xargs`` without known standard input; the classifier's filters look for it too);
- ``MAX_EXPANDED``: how many commands one line is expanded into for analysis at most
  (``parallel … ::: A B C``, ``crontab`` lines, ``xargs -I`` items);
- ``word_set``: a set of words written as the tables write them, separated by spaces.

What a handler does with its ``HandlerCall`` (record paths and hosts, nest commands, read
options and their values) is a method of ``HandlerCall`` itself (``clearance.shellparse.facts``).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: Input only known when the command runs (``xargs rm`` reading a pipe it cannot see).
PLACEHOLDER: Final = "{input}"

#: Most commands one command line is expanded into for analysis (``parallel … ::: A B C``).
MAX_EXPANDED: Final = 16


def word_set(text: str) -> frozenset[str]:
    """The words of ``text`` (separated by spaces), as a set: a handler's word lists are
    written like the tables' (``word_set("rm remove remove_directory")``)."""
    return frozenset(text.split())


class Lazy:
    """A regular expression compiled on first use: most processes never need most of these,
    and compiling them all would cost a hook call milliseconds at start-up."""

    __slots__ = ("_compiled", "_flags", "_pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def rx(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._pattern, self._flags)
        return compiled
