"""Which policy files are in force at a directory: managed, user, project, session, default.

Managed: ``$CLEARANCE_MANAGED_POLICY``, else ``/etc/clearance/policy.yaml``. User:
``$XDG_CONFIG_HOME/clearance/policy.yaml`` (default ``~/.config``). Project: every
``.clearance/policy.yaml`` from the directory up to the project root (outside any project,
only the directory's own). The shipped default
pack sits under them all. A managed policy named by the environment but missing is an error,
not a silent absence.

The project root -- the workspace -- is anchored, never guessed (``workspace_of``): the
outermost directory at or above the cwd that holds ``.git`` (a directory, or a ``gitdir:``
file) or the project's ``.clearance/``, whichever is higher. A ``.git`` planted further down
starts no new workspace. Never ``/``, a home directory itself or a system directory: a cwd
that belongs to no project has no workspace at all.
"""

from __future__ import annotations

import os

from clearance.engine.errors import PolicyError, PolicyIssue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

MANAGED_DEFAULT: Final = "/etc/clearance/policy.yaml"
PROJECT_FILE: Final = os.path.join(".clearance", "policy.yaml")


def repository_root(cwd: str) -> str | None:
    """The nearest directory at or above ``cwd`` that holds ``.git``."""
    path = os.path.abspath(cwd)
    while True:
        if os.path.exists(os.path.join(path, ".git")):
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


#: Directories that are never a workspace, whatever they hold: the root, the homes, the
#: system's own trees.
NEVER_WORKSPACE: Final = frozenset(
    (
        "/",
        "/home",
        "/Users",
        "/root",
        "/tmp",
        "/var/tmp",
        "/private",
        "/private/tmp",
        "/private/var",
        "/etc",
        "/usr",
        "/usr/local",
        "/bin",
        "/sbin",
        "/lib",
        "/lib32",
        "/lib64",
        "/boot",
        "/dev",
        "/proc",
        "/sys",
        "/run",
        "/var",
        "/opt",
        "/srv",
        "/mnt",
        "/media",
        "/snap",
        "/System",
        "/Library",
        "/Applications",
        "/Volumes",
    )
)


def _never(path: str, home: str | None) -> bool:
    if path in NEVER_WORKSPACE or (home and path == home):
        return True
    parent = os.path.dirname(path)
    return parent in ("/home", "/Users")  # someone's home directory itself


def _marks_project(path: str) -> bool:
    git = os.path.join(path, ".git")
    if os.path.isdir(git):
        return True
    if os.path.isfile(git):
        try:
            with open(git, encoding="utf-8", errors="replace") as handle:
                return handle.read(4096).lstrip().startswith("gitdir:")
        except OSError:
            return False
    return os.path.isdir(os.path.join(path, ".clearance"))


def workspace_of(cwd: str, home: str | None = None) -> str | None:
    """The project root holding ``cwd`` (see the module docstring); ``None`` when ``cwd``
    belongs to no project."""
    home = os.path.normpath(home or os.path.expanduser("~"))
    path = os.path.normpath(os.path.abspath(cwd))
    found: str | None = None
    while True:
        if not _never(path, home) and _marks_project(path):
            found = path
        parent = os.path.dirname(path)
        if parent == path:
            return found
        path = parent


def user_policy_path(env: Mapping[str, str]) -> str:
    base = env.get("XDG_CONFIG_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".config"
    )
    return os.path.join(base, "clearance", "policy.yaml")


def discover(cwd: str, env: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """``(scope, path)`` of each policy file in force at ``cwd``, most binding first."""
    env = os.environ if env is None else env
    found: list[tuple[str, str]] = []
    named = env.get("CLEARANCE_MANAGED_POLICY")
    if named:
        if not os.path.isfile(named):
            raise PolicyError(
                [PolicyIssue(named, 0, 0, None, "CLEARANCE_MANAGED_POLICY names no file")]
            )
        found.append(("managed", named))
    elif os.path.isfile(MANAGED_DEFAULT):
        found.append(("managed", MANAGED_DEFAULT))
    user = user_policy_path(env)
    if os.path.isfile(user):
        found.append(("user", user))
    root = workspace_of(cwd, env.get("HOME"))
    path = os.path.abspath(cwd)
    projects: list[str] = []
    while True:
        candidate = os.path.join(path, PROJECT_FILE)
        if os.path.isfile(candidate) and candidate != user:
            projects.append(candidate)
        if path == root or root is None:
            break  # outside a repository only the directory's own policy counts
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    found.extend(("project", p) for p in reversed(projects))
    return found
