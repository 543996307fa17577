"""What every handler module shares: lazily compiled patterns, the ``Nested`` request
builder and option look-ups.
"""

from __future__ import annotations

import re

from clearance.shellparse.facts import Nested

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.facts import SimpleCommandFacts
    from clearance.shellparse.options import ParsedArgs


PLACEHOLDER = "{input}"


class _Lazy:
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


def _nested(label: str, **kwargs: object) -> Nested:
    return Nested(label, **kwargs)  # type: ignore[arg-type]


def _has(fact: SimpleCommandFacts, *names: str) -> bool:
    return any(name in fact.options for name in names)


def _option_values(parsed: ParsedArgs, *names: str) -> list[str]:
    return [
        value
        for opt, spelling, value in parsed.options
        if value is not None and (spelling in names or (opt is not None and opt.name in names))
    ]
