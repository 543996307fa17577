"""Credentials written into git's configuration, read from this machine.

A CI checkout keeps the job's token in ``.git/config`` (``http.<url>.extraheader =
AUTHORIZATION: basic …``), and a clone from a URL with a token in it keeps the URL
(``https://x-access-token:…@host/…``): ``cat .git/config``, ``git config --list`` and ``git
remote -v`` then print a secret, although by name they read nothing secret. Which of them
does is a fact of the files, so the files are read when the decision is made: the system,
global and repository files git would read from the working directory, and what they
``include``. What cannot be read, or a git told by its environment to read other files, is
not known, and counts as holding a credential.

A credential is an entry whose key names one (``extraheader``, ``password``, ``smtppass``,
``token``…) or whose value -- or subsection, for ``url.<base>.insteadOf`` -- is a URL with a
password, or an ``http(s)`` URL with any user part (a token given as the user).
"""

from __future__ import annotations

import os
import re

from clearance.shellparse.resolve import racy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: An entry: (``section[.subsection].key`` as written, in lower case but the subsection, value).
Entry = tuple[str, str]

#: Last key components whose value is a credential.
_SECRET_KEYS: Final = frozenset(
    ("extraheader", "password", "passwd", "smtppass", "token", "oauthtoken", "accesstoken")
)
#: A URL's user part: ``scheme://USER@`` (``USER`` may hold ``:password``).
_USERINFO: Final = re.compile(r"([a-z][a-z0-9+.-]*)://([^/\s@]+)@", re.IGNORECASE)
#: What git's environment may say that makes it read other configuration than the files here.
_MOVED_BY: Final = (
    "GIT_DIR",
    "GIT_CONFIG",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_PARAMETERS",
    "GIT_COMMON_DIR",
)
#: A configuration file larger than this is not read (not known).
MAX_BYTES: Final = 1 << 20
#: Includes followed from one file, at the most (git's own limit is 10).
MAX_INCLUDE_DEPTH: Final = 10
#: Files read, kept per process while one ``stat`` says they are unchanged.
_READ: Final[dict[str, tuple[tuple[int, int, int, int, int], list[Entry] | None]]] = {}


def is_credential(key: str, value: str) -> bool:
    """Whether one entry of git's configuration holds a credential."""
    name = key.rsplit(".", 1)[-1]
    if name in _SECRET_KEYS:
        return True
    for text in (value, key):
        for match in _USERINFO.finditer(text):
            scheme, user = match.group(1).lower(), match.group(2)
            if ":" in user or scheme in ("http", "https"):
                return True
    return False


def is_config_file(path: str) -> bool:
    """Whether ``path`` is named like one of git's configuration files."""
    name = path.rsplit("/", 1)[-1]
    if name in (".gitconfig", "gitconfig"):
        return True
    if name not in ("config", "config.worktree"):
        return False
    return "/.git/" in path or path.endswith("/git/config")


def file_holds_credentials(path: str, home: str) -> bool:
    """Whether the configuration file ``path`` holds a credential in its own text (what it
    includes is another file, read by what reads that); a file that exists but cannot be
    read counts as holding one."""
    found = _entries(path, home, 0, follow=False)
    return found is None or any(is_credential(k, v) for k, v in found)


def config_files(cwd: str, home: str) -> list[str] | None:
    """The files ``git config`` reads in ``cwd``, lowest precedence first (system, global,
    the repository's, its worktree's); ``None`` when git's environment moves them."""
    if any(name in os.environ for name in _MOVED_BY):
        return None
    files: list[str] = []
    if "GIT_CONFIG_NOSYSTEM" not in os.environ:
        files.append("/etc/gitconfig")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    files += [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]
    git_dir = _git_dir(cwd)
    if git_dir is not None:
        common = _common_dir(git_dir)
        files += [os.path.join(common, "config"), os.path.join(git_dir, "config.worktree")]
    return files


def entries(cwd: str, home: str) -> list[Entry] | None:
    """Every entry git's configuration has in ``cwd`` (``None``: not known)."""
    files = config_files(cwd, home)
    if files is None:
        return None
    out: list[Entry] = []
    for path in files:
        found = _entries(path, home, 0)
        if found is None:
            return None
        out += found
    return out


def holds_credentials(cwd: str, home: str, key: str | None = None) -> bool:
    """Whether the configuration git reads in ``cwd`` holds a credential (under ``key``
    alone, when given: ``git config --get KEY``); what is not known counts as holding one."""
    found = entries(cwd, home)
    if found is None:
        return True
    wanted = _normal_key(key) if key is not None else None
    return any(is_credential(k, v) for k, v in found if wanted is None or _normal_key(k) == wanted)


def remotes_hold_credentials(cwd: str, home: str) -> bool:
    """Whether what ``git remote -v`` prints in ``cwd`` could hold a credential: a remote's
    URL with one, or a ``url.<base>.insteadOf`` whose base has one (it rewrites the URLs
    shown)."""
    found = entries(cwd, home)
    if found is None:
        return True
    for key, value in found:
        name = key.rsplit(".", 1)[-1]
        if key.startswith("remote.") and name in ("url", "pushurl") and is_credential(key, value):
            return True
        rewrite = key.startswith("url.") and name in ("insteadof", "pushinsteadof")
        if rewrite and is_credential(key.rsplit(".", 1)[0], ""):
            return True
    return False


# --- reading ---------------------------------------------------------------------------------


def _normal_key(key: str) -> str:
    """A key compared as git does: section and name in any case, the subsection as is."""
    section, dot, rest = key.partition(".")
    if not dot:
        return key.lower()
    middle, dot2, name = rest.rpartition(".")
    return (
        f"{section.lower()}.{middle}.{name.lower()}"
        if dot2
        else f"{section.lower()}.{rest.lower()}"
    )


def repository_top(cwd: str) -> str | None:
    """The directory git takes for the repository's top from ``cwd``: the nearest one at or
    above it that holds a ``.git`` (``None``: none up to ``/``)."""
    directory = os.path.abspath(cwd)
    while not os.path.lexists(os.path.join(directory, ".git")):
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent
    return directory


def _git_dir(cwd: str) -> str | None:
    """The repository's git directory for ``cwd``: the nearest ``.git`` above it (a
    directory, or a ``gitdir:`` file followed)."""
    directory = repository_top(cwd)
    if directory is None:
        return None
    dot_git = os.path.join(directory, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    pointer = _first_line(dot_git) or ""
    if not pointer.startswith("gitdir:"):
        return None
    return os.path.join(directory, pointer[len("gitdir:") :].strip())


def _first_line(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.readline().strip()
    except OSError:
        return None


def _common_dir(git_dir: str) -> str:
    """Where a worktree's shared configuration lives (its ``commondir``), else itself."""
    common = _first_line(os.path.join(git_dir, "commondir"))
    return os.path.normpath(os.path.join(git_dir, common)) if common else git_dir


def _entries(path: str, home: str, depth: int, follow: bool = True) -> list[Entry] | None:
    """The entries of one file and (``follow``) of what it includes; ``[]`` when it does
    not exist, ``None`` when it cannot be read or is too large or includes too deep."""
    if depth > MAX_INCLUDE_DEPTH:
        return None
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError:
        return None
    stamp = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    cached = _READ.get(path)
    if cached is not None and cached[0] == stamp:
        own = cached[1]
    else:
        own = _parse(path, info.st_size)
        if len(_READ) >= 256:
            _READ.clear()
        # (a file changed within one tick of its clock may change again unseen: not kept)
        if not racy(info.st_mtime_ns) and not racy(info.st_ctime_ns):
            _READ[path] = (stamp, own)
    if own is None:
        return None
    out: list[Entry] = []
    for key, value in own:
        out.append((key, value))
        if not follow:
            continue
        if key == "include.path" or (key.startswith("includeif.") and key.endswith(".path")):
            included = _include_path(value, path, home)
            found = _entries(included, home, depth + 1)
            if found is None:
                return None
            out += found
    return out


def _include_path(value: str, including: str, home: str) -> str:
    if value.startswith("~/"):
        return os.path.join(home, value[2:])
    return os.path.normpath(os.path.join(os.path.dirname(including), value))


def _parse(path: str, size: int) -> list[Entry] | None:
    if size > MAX_BYTES:
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read(MAX_BYTES + 1)
    except OSError:
        return None
    out: list[Entry] = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            head, _, rest = line[1:].partition("]")
            section = _section(head)
            line = rest.strip()
            if not line or line[0] in "#;":
                continue
        name, eq, value = line.partition("=")
        key = name.strip().lower()
        if not key:
            continue
        out.append((f"{section}.{key}" if section else key, value.strip() if eq else "true"))
    return out


def _section(head: str) -> str:
    """``core`` -> ``core``; ``remote "origin"`` -> ``remote.origin``; ``http.https://x/``
    (the old form) -> ``http.https://x/``."""
    name, _, sub = head.strip().partition(" ")
    sub = sub.strip()
    if sub.startswith('"') and sub.endswith('"') and len(sub) >= 2:
        sub = sub[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if sub:
        return f"{name.lower()}.{sub}"
    first, dot, rest = name.partition(".")
    return f"{first.lower()}.{rest}" if dot else name.lower()
