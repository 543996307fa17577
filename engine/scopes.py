"""Which policy files are in force at a directory: managed, user, project, session, default.

Managed: ``$CLEARANCE_MANAGED_POLICY``, else ``/etc/clearance/policy.yaml``. User:
``$XDG_CONFIG_HOME/clearance/policy.yaml`` (default ``~/.config``). Project: every
``.clearance/policy.yaml`` from the directory up to the repository root (outside a repository,
only the directory's own). The shipped default
pack sits under them all. A managed policy named by the environment but missing is an error,
not a silent absence.
"""

from __future__ import annotations

import os

from clearance.engine.errors import PolicyError, PolicyIssue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

MANAGED_DEFAULT = "/etc/clearance/policy.yaml"
PROJECT_FILE = os.path.join(".clearance", "policy.yaml")


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


def workspace_of(cwd: str) -> str:
    """The agent's workspace: the repository containing ``cwd``, else ``cwd`` itself."""
    return repository_root(cwd) or os.path.abspath(cwd)


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
    root = repository_root(cwd)
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
