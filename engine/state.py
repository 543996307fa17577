"""Where clearance keeps its own state: per user, outside every workspace.

``$XDG_STATE_HOME/clearance/`` (default ``~/.local/state/clearance/``, mode 0700) holds

- ``ledgers/<basename>-<sha256(root)[:16]>.jsonl`` (and ``.head``): one audit ledger per
  project root, the root being :func:`clearance.engine.scopes.workspace_of` of the directory a
  call was made in -- so a call from any subdirectory lands in its project's ledger;
- ``ledgers/user.jsonl``: the user-level ledger, for calls made outside any project;
- ``key``: the ledger MAC key (32 random bytes, mode 0600).

Why outside the workspace: the agent being recorded works *in* the workspace, and every tool it
has (``git stash -u``, ``git clean``, ``find -delete``, an editor) reaches files there; a
ledger under ``PROJECT/.clearance/`` is also one ``git add`` away from being committed, and a
repository can commit a link in its place. The state directory is out of reach of the
workspace's git commands and is one protected path set for the default pack.

The policy cache (and its own key) stays under ``$XDG_CACHE_HOME/clearance/``
(:mod:`clearance.engine.cache`): it may be deleted at any time, the state may not.

Stdlib only: on the hook's path.
"""

from __future__ import annotations

import os

from clearance.engine.digest import sha256_hex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

LEDGERS: Final = "ledgers"
USER_LEDGER: Final = "user.jsonl"
KEY: Final = "key"


def state_dir(env: Mapping[str, str] | None = None) -> str:
    """``$XDG_STATE_HOME/clearance`` (default ``~/.local/state/clearance``); an
    ``XDG_STATE_HOME`` that is not absolute is ignored, as the XDG spec says."""
    env = os.environ if env is None else env
    base = env.get("XDG_STATE_HOME") or ""
    if not os.path.isabs(base):
        home = env.get("HOME") or os.path.expanduser("~")
        base = os.path.join(home, ".local", "state")
    return os.path.join(base, "clearance")


def ledgers_dir(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(state_dir(env), LEDGERS)


def ledger_key_path(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(state_dir(env), KEY)


def project_ledger_name(root: str) -> str:
    """``<basename>-<sha256(real root)[:16]>.jsonl``: readable, and unique per root."""
    real = os.path.realpath(root)
    base = os.path.basename(real.rstrip("/")) or "root"
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in base)[:64].lstrip(".")
    return f"{safe or 'project'}-{sha256_hex(real.encode('utf-8', 'surrogateescape'))[:16]}.jsonl"


def ledger_path_for(cwd: str, env: Mapping[str, str] | None = None) -> str:
    """The ledger of the project ``cwd`` is in, or the user-level ledger outside any project."""
    from clearance.engine.scopes import workspace_of

    root: str | None = workspace_of(cwd)
    if root is None:
        return os.path.join(ledgers_dir(env), USER_LEDGER)
    return os.path.join(ledgers_dir(env), project_ledger_name(root))
