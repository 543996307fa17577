"""The bearer token a server and its clients share, read from a file (``--token-file`` of
``clearance serve`` and of ``clearance audit ship``)."""

from __future__ import annotations


def read_token_file(path: str) -> str:
    """The token in ``path`` (surrounding whitespace stripped); raises ``ValueError`` when the
    file cannot be read or holds none."""
    try:
        with open(path, encoding="utf-8") as fh:
            token = fh.read().strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read token file {path}: {exc}") from None
    if not token:
        raise ValueError(f"token file {path} is empty")
    return token
