"""Does a failed command look like the sandbox refusing? Then the model should ask for the
permission (a profile with network, a writable path), not guess at a workaround.

The signs are the messages programs print for the errors the sandbox causes: a read-only file
system (EROFS) or permission denied (EACCES) on a path outside the writable ones, and a
network that is unreachable, a name that does not resolve, a connection refused.
"""

from __future__ import annotations

import re

_PATH = r"['\"‘’`]?(/[^\s'\"‘’`:]*)"
_WRITE = re.compile(
    r"(?:" + _PATH + r"['\"‘’`]?:?[^\n]{0,80}?)?(Read-only file system|Permission denied)",
)
_NETWORK = re.compile(
    r"Network is unreachable|Temporary failure in name resolution|Name or service not known"
    r"|Could not resolve host|Connection refused|getaddrinfo failed|No address associated"
    r"|nodename nor servname|ENETUNREACH|EAI_AGAIN|ECONNREFUSED",
)


def refusals(stderr: str, *, network: bool, writable: list[str]) -> list[str]:
    """What in ``stderr`` looks like the sandbox refusing, one note per kind (at most two)."""
    notes: list[str] = []
    for match in _WRITE.finditer(stderr):
        path = match.group(1)
        if path and any(path == w or path.startswith(w.rstrip("/") + "/") for w in writable):
            continue
        where = f" ({path})" if path else ""
        notes.append(
            f"'{match.group(2)}'{where}: the sandbox makes everything outside the workspace "
            "and /tmp read-only; a write there needs a sandbox profile naming the path"
        )
        break
    if not network and _NETWORK.search(stderr):
        notes.append(
            "the network is unreachable: the sandbox has no network for this command (only "
            "commands the policy allows as network actions get it, or a profile with network)"
        )
    return notes
