"""Where a tool's path argument points, and which directories searches skip.

Relative paths are relative to the workspace: the same directory the policy engine judged
the call against, so the file decided on is the file touched. Searches skip the
directories that belong to tools rather than to the project (version control, the
runner's own logs, byte-code caches) and say so in their results.

Protected files -- the secrets (``clearance.shellparse.paths.SECRET_PATTERNS``: the one notion
the policy judges with) -- are never read, searched or listed by these tools, whatever the
pattern, as written or through a symbolic link: a search says how many it left out.
"""

from __future__ import annotations

import os
from pathlib import Path

#: Directory names `glob` and `grep` never descend into.
SKIPPED_DIRS = frozenset({".git", ".clearance", "__pycache__", ".hg", ".svn"})


def resolve(workspace: Path, path: str) -> Path:
    """`path` as an absolute, normalised path (`~` expanded; symlinks kept)."""
    expanded = os.path.expanduser(path)
    joined = expanded if os.path.isabs(expanded) else os.path.join(workspace, expanded)
    return Path(os.path.normpath(joined))


def display(workspace: Path, path: Path) -> str:
    """`path` relative to the workspace when it is inside it, else absolute."""
    try:
        relative = path.relative_to(workspace)
    except ValueError:
        return str(path)
    return str(relative) or "."


def protected(path: Path) -> bool:
    """Whether ``path``, as written or resolved through links, is a secret."""
    from clearance.shellparse.paths import is_secret

    home = os.path.expanduser("~")
    if is_secret(str(path), home):
        return True
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return True
    return real != str(path) and is_secret(real, home)


def skipped(relative: Path) -> bool:
    """Whether a path (relative to the search root) lies in a skipped directory."""
    return any(part in SKIPPED_DIRS for part in relative.parts)
