"""clearance's own state as named path sets: what the default pack protects from every tool.

Three sets (see :data:`SETS`; DESIGN "the guard protects itself"):

* ``clearance_state`` -- everything clearance depends on: its per-user state directory
  (ledgers and heads, the user-level ledger, the ledger key), the policy cache and its key,
  project (``.clearance/``), user and managed policies, the agents' hook settings files, and
  the installed clearance itself (its package, its entry point, its venv's interpreter and the
  start-up hooks of that venv's ``site-packages``, and a ``clearance`` placed in any ``PATH``
  directory, where the hook's launcher would find it first). Writing, moving, truncating,
  re-linking or deleting any of it is denied.
* ``clearance_private`` -- the part whose *contents* are secret or evidence: the state
  directory (ledgers, the MAC key) and the cache (its HMAC key). Reading it is denied too.
  Policies and settings stay readable: they are meant to be legible.
* ``clearance_reach`` -- every directory above a protected path (exactly that directory: a
  recursive delete or move of ``.venv``, ``~/.local`` or the workspace root takes the state
  with it), and what a ``find`` below one of them would delete (``DIR/{}``, the classifier's
  spelling of "each file find matches").

Paths come from the environment clearance runs in (``$XDG_STATE_HOME``, ``$XDG_CACHE_HOME``,
``$CLEARANCE_CACHE_DIR``, ``$XDG_CONFIG_HOME``, ``$CLAUDE_CONFIG_DIR``, ``$CODEX_HOME``,
``$CLEARANCE_MANAGED_POLICY``, ``sys.prefix``, ``PATH``), read once at import, plus the
defaults spelled with ``~/`` so that a policy evaluated for another home (the pack's examples)
sees the same shape. An editable install's source checkout is *not* protected (it is where
clearance is developed); its ``.pth`` hook and entry point are.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: Hook settings files of the agents (DECISIONS #3), workspace and user level.
AGENT_SETTINGS: Final = (
    "{workspace}/.claude/settings.json",
    "{workspace}/.claude/settings.local.json",
    "~/.claude/settings.json",
    "~/.claude/settings.local.json",
    "{workspace}/.gemini/settings.json",
    "~/.gemini/settings.json",
    "~/.gemini/trustedFolders.json",
    "{workspace}/.codex",
    "~/.codex/config.toml",
    "/etc/claude-code",
    "/etc/gemini-cli",
    "/etc/codex",
)


def _absolute(path: str | None) -> str | None:
    return os.path.normpath(path) if path and os.path.isabs(path) else None


def _named_by(
    env: os._Environ[str] | dict[str, str], places: tuple[tuple[str, str], ...]
) -> list[str]:
    """For each ``(variable, name)``: ``name`` in the directory the environment variable names
    (the path it names itself when ``name`` is empty); unset or relative, nothing."""
    found: list[str] = []
    for variable, name in places:
        base = _absolute(env.get(variable))
        if base:
            found.append(os.path.join(base, name) if name else base)
    return found


def _private(env: os._Environ[str] | dict[str, str]) -> list[str]:
    return [
        "~/.local/state/clearance",
        "~/.cache/clearance",
        *_named_by(
            env,
            (
                ("XDG_STATE_HOME", "clearance"),
                ("XDG_CACHE_HOME", "clearance"),
                ("CLEARANCE_CACHE_DIR", ""),
            ),
        ),
    ]


def _installed(env: os._Environ[str] | dict[str, str]) -> list[str]:
    prefix = os.path.normpath(sys.prefix)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = os.path.join(prefix, "lib", version, "site-packages")
    found = [
        os.path.join(prefix, "bin", "clearance"),
        os.path.join(prefix, "bin", "python*"),
        os.path.join(prefix, "pyvenv.cfg"),
        os.path.join(site, "clearance"),
        os.path.join(site, "clearance-*"),
        os.path.join(site, "__editable__*clearance*"),
        os.path.join(site, "*.pth"),
        os.path.join(site, "sitecustomize.py"),
        os.path.join(site, "usercustomize.py"),
    ]
    package = os.path.dirname(os.path.abspath(__file__))  # .../clearance/engine
    package = os.path.dirname(package)
    if os.path.basename(os.path.dirname(package)) in ("site-packages", "dist-packages"):
        found.append(package)
    for directory in env.get("PATH", "").split(os.pathsep):
        if os.path.isabs(directory):
            found.append(os.path.join(os.path.normpath(directory), "clearance"))
    return found


def _state(env: os._Environ[str] | dict[str, str]) -> list[str]:
    return [
        *_private(env),
        "{workspace}/.clearance",
        "~/.config/clearance",
        "/etc/clearance",
        *AGENT_SETTINGS,
        *_named_by(
            env,
            (
                ("XDG_CONFIG_HOME", "clearance"),
                ("CLAUDE_CONFIG_DIR", "settings*.json"),
                ("CODEX_HOME", "config.toml"),
                ("CLEARANCE_MANAGED_POLICY", ""),
            ),
        ),
        *_installed(env),
    ]


def _parents(pattern: str) -> list[str]:
    """Every directory above ``pattern`` (exact), down from ``/``, ``~`` or ``{workspace}``."""
    for anchor in ("{workspace}", "~"):
        if pattern.startswith(anchor + "/"):
            head, rest = anchor, pattern[len(anchor) + 1 :]
            break
    else:
        head, rest = "", pattern.lstrip("/")
    segments = [s for s in rest.split("/") if s][:-1]
    out = [head or "/"]
    for segment in segments:
        if any(c in segment for c in "*?["):
            break
        out.append((out[-1].rstrip("/") + "/" + segment) if out[-1] != "/" else "/" + segment)
    return out


def sets(env: os._Environ[str] | dict[str, str] | None = None) -> dict[str, tuple[str, ...]]:
    """The three named sets for ``env`` (default: this process's environment)."""
    env = os.environ if env is None else env
    state = list(dict.fromkeys(_state(env)))
    reach: list[str] = []
    for pattern in state:
        for parent in _parents(pattern):
            reach.append(parent + "$")
            reach.append(parent.rstrip("/") + "/{}")
    # the root itself is the root_or_home set's; "/{}" would be every find on the machine
    reach = [p for p in dict.fromkeys(reach) if p not in ("/$", "/{}")]
    return {
        "clearance_state": tuple(state),
        "clearance_private": tuple(dict.fromkeys(_private(env))),
        "clearance_reach": tuple(reach),
    }


SETS: Final = sets()
