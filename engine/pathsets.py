"""Named path sets a policy can refer to as ``@name`` (or under ``sets:``).

Patterns are gitignore-style (a pattern also covers everything under what it names; a final
``$`` means exactly that path); ``~/`` is the user's home and ``{workspace}`` the workspace
root, both filled in when the policy is evaluated.
"""

from __future__ import annotations

from clearance.engine.selfprotect import SETS as SELF_PROTECTION
from clearance.shellparse.paths import (
    RAW_MEMORY,
    RAW_STORAGE,
    SECRET_PATTERNS,
    USER_SHELL_STARTUP,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: Where other users' homes lie (``~user`` is resolved to its home on the machine; a path
#: may also spell one out): a start-up file or a login key is persistence in any home.
OTHER_HOMES: Final = ("/root/", "/home/*/", "/Users/*/", "/var/root/")


def every_home(patterns: tuple[str, ...]) -> tuple[str, ...]:
    """``patterns`` in the user's home and in every other one (``OTHER_HOMES``)."""
    out = list(patterns)
    for pattern in patterns:
        if pattern.startswith("~/"):
            out.extend(home + pattern[2:] for home in OTHER_HOMES)
    return tuple(out)


PATH_SETS: Final[dict[str, tuple[str, ...]]] = {
    # credentials and keys
    "secrets": SECRET_PATTERNS,
    # files a shell runs at start-up: writing one is persistence
    "shell_startup": (
        *every_home(USER_SHELL_STARTUP),
        "/etc/profile",
        "/etc/profile.d",
        "/etc/bash.bashrc",
        "/etc/bashrc",
        "/etc/zshrc",
        "/etc/zsh",
        "/etc/environment",
    ),
    # the configuration of coding agents and of clearance itself
    "agent_config": (
        "~/.claude",
        "~/.claude.json",
        "{workspace}/.claude",
        "~/.gemini",
        "{workspace}/.gemini",
        "~/.codex",
        "{workspace}/.codex",
        "~/.cursor",
        "{workspace}/.cursor",
        "{workspace}/.mcp.json",
        "~/.config/clearance",
        "~/.cache/clearance",
        "/etc/clearance",
        "{workspace}/.clearance",
        "~/.aider*",
        "~/.continue",
        "{workspace}/.git/hooks",
        "{workspace}/.git/config",
        "{workspace}/.envrc",
        "{workspace}/.vscode/settings.json",
        "~/.gitconfig",
        "~/.config/git",
    ),
    # where scheduled and start-up jobs live
    "persistence": (
        "/etc/cron*",
        "/etc/crontab",
        "/var/spool/cron",
        "/etc/systemd",
        "/lib/systemd",
        "/usr/lib/systemd",
        "~/.config/systemd",
        "/etc/init.d",
        "/etc/rc.local",
        "~/.config/autostart",
        "/etc/xdg/autostart",
        "~/Library/LaunchAgents",
        "/Library/LaunchAgents",
        "/Library/LaunchDaemons",
        *every_home(("~/.ssh/authorized_keys", "~/.ssh/authorized_keys2", "~/.ssh/rc")),
        "/etc/ld.so.preload",
        "/etc/sudoers",
        "/etc/sudoers.d",
    ),
    # the operating system
    "system": (
        "/etc",
        "/usr",
        "/bin",
        "/sbin",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/boot",
        "/dev",
        "/proc",
        "/sys",
        "/var",
        "/opt",
        "/srv",
        "/snap",
        "/System",
        "/Library",
        "/Applications",
        "/private",
    ),
    # block devices and raw memory (a prefix ``/dev/sd`` is ``/dev/sd*``)
    "devices": (
        *(p.rstrip("/") if p.endswith("/") else p + "*" for p in RAW_STORAGE),
        *sorted(RAW_MEMORY),
    ),
    # the roots of everything
    "root_or_home": ("/$", "~$", "/home$", "/Users$", "/root$"),
    "home": ("~",),
    "workspace_root": ("{workspace}$", "{workspace}/[*]$"),
    "temp": ("/tmp", "/var/tmp", "/private/tmp", "/private/var/folders"),
    # version control metadata
    "git_internals": ("{workspace}/.git",),
    # clearance's own state, what only it may touch, and every directory above it
    # (engine/selfprotect.py: clearance_state, clearance_private, clearance_reach)
    **SELF_PROTECTION,
}
