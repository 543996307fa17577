"""Where a tool's path argument points, and which directories searches skip.

Relative paths are relative to the workspace: the same directory the policy engine judged
the call against, so the file decided on is the file touched. Searches skip the
directories that belong to tools rather than to the project (version control, the
runner's own logs, byte-code caches) and say so in their results.
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


def skipped(relative: Path) -> bool:
    """Whether a path (relative to the search root) lies in a skipped directory."""
    return any(part in SKIPPED_DIRS for part in relative.parts)
