"""argv to a shell command line: each argument quoted so that bash splits it back as given."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_SAFE: Final = frozenset("@%+=:,./-_")


def join_argv(argv: list[str]) -> str:
    """``["echo", "a b"]`` is ``echo 'a b'``; plain arguments stay bare."""
    out = []
    for arg in argv:
        if arg and all(c.isalnum() or c in _SAFE for c in arg):
            out.append(arg)
        else:
            out.append("'" + arg.replace("'", "'\"'\"'") + "'")
    return " ".join(out)
