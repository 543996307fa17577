"""What the sandbox hides and what it keeps read-only, beyond "everything read-only but the
workspace".

- Secrets (the engine's ``secrets`` path set, matched by the same function the classifier
  uses): the home directory's credential locations (``~/.ssh``, ``~/.aws``, histories, …),
  the anchored system ones (``/etc/shadow``), every secret file or directory in the workspace
  (``.env``, ``*.pem``; not ``.env.example``), and the target of every link in the workspace
  that points at a secret outside it. One exception, read from the file: a ``.pem`` holding
  nothing but certificates (a CA bundle) stays visible. A directory is covered by an empty
  read-only tmpfs, a file by ``/dev/null``. A profile's ``expose`` patterns leave matching
  secrets visible.
- clearance's own state (ledgers and their MAC key, the policy cache and its key): hidden, so
  a test module cannot read the key and forge the audit trail.
- Read-only inside the writable workspace: the agents' and clearance's settings there (the
  engine's ``agent_config`` set: ``.claude``, ``.clearance``, ``.git/hooks``, …), and every
  regular file with more than one hard link, which may be the same inode as a file outside
  the workspace (a hard link is a door a read-only mount does not close).

The walk of the workspace is bounded (``MAX_ENTRIES``, ``MAX_MOUNTS``); beyond the bounds the
sandbox is not set up (``MountError``), rather than set up with holes.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import re
import stat
from dataclasses import dataclass, field

from clearance.engine.pathsets import PATH_SETS
from clearance.shellparse.globs import GlobSet
from clearance.shellparse.paths import is_secret

#: Entries of the workspace looked at, at most.
MAX_ENTRIES = 200_000
#: Masks and read-only binds, at most (each is a mount bwrap makes).
MAX_MOUNTS = 1024
#: Places the sandbox replaces wholesale (private, empty): nothing under them needs a mask.
FRESH = ("/tmp", "/var/tmp", "/run", "/var/run", "/dev", "/proc", "/dev/shm")


def _name_filter() -> re.Pattern[str] | None:
    """One regex over a file *name* that every secret name matches (a superset: the secret
    set's unanchored patterns, from the engine's own set). Names it rejects cannot be
    secrets; names it accepts are decided by ``is_secret`` itself. ``None`` when a pattern
    is not a plain name pattern (then every path is checked in full)."""
    names = [p for p in PATH_SETS["secrets"] if not p.startswith(("/", "~"))]
    if any("/" in p for p in names):
        return None
    return re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in names))


_NAMES = _name_filter()


def _secret_name(name: str, home: str) -> bool:
    if _NAMES is not None and _NAMES.match(name) is None:
        return False
    return is_secret("/" + name, home)


class MountError(Exception):
    """The workspace cannot be confined within the bounds (too many entries, links)."""


@dataclass
class Mounts:
    hide_dirs: list[str] = field(default_factory=list)
    hide_files: list[str] = field(default_factory=list)
    read_only: list[str] = field(default_factory=list)
    #: Secrets left visible by a profile's ``expose``.
    exposed: list[str] = field(default_factory=list)
    entries: int = 0

    def count(self) -> int:
        return len(self.hide_dirs) + len(self.hide_files) + len(self.read_only)


def state_dirs(env: dict[str, str] | os._Environ[str], home: str) -> list[str]:
    """clearance's own per-user state and cache (decision #2), hidden in the sandbox."""
    from clearance.engine.cache import cache_dir

    state = env.get("XDG_STATE_HOME") or os.path.join(home, ".local", "state")
    return [os.path.join(state, "clearance"), cache_dir(env)]


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


class _Collector:
    def __init__(
        self, home: str, workspace: str | None, visible: list[str], expose: GlobSet | None
    ) -> None:
        self.home = home
        self.workspace = workspace
        self.visible = visible
        self.expose = expose
        self.mounts = Mounts()
        self._seen: set[str] = set()

    def shown(self, path: str) -> bool:
        """Is ``path`` seen from inside (not under a fresh tmpfs, unless bound back)?"""
        if any(_under(path, root) for root in self.visible):
            return True
        return not any(_under(path, fresh) for fresh in FRESH)

    def hide(self, path: str) -> None:
        real = os.path.realpath(path)
        if real in self._seen or not self.shown(real):
            return
        if self.expose is not None and (self.expose.match(real) or self.expose.match(path)):
            self.mounts.exposed.append(real)
            return
        try:
            mode = os.stat(real).st_mode
        except OSError:
            return
        if any(_under(real, d) for d in self.mounts.hide_dirs):
            return  # already under a hidden directory: nothing of it is left to mask
        self._seen.add(real)
        if stat.S_ISDIR(mode):
            # masks below it would need mount points inside the fresh, empty directory
            self.mounts.hide_files[:] = [f for f in self.mounts.hide_files if not _under(f, real)]
            self.mounts.hide_dirs[:] = [d for d in self.mounts.hide_dirs if not _under(d, real)]
            self.mounts.hide_dirs.append(real)
        elif _public_certificates(real, mode):
            self.mounts.exposed.append(real)
        else:
            self.mounts.hide_files.append(real)

    def read_only(self, path: str) -> None:
        real = os.path.realpath(path)
        if real not in self._seen and os.path.lexists(real):
            self._seen.add(real)
            self.mounts.read_only.append(real)


#: Largest ``.pem`` read to tell a certificate bundle from a key.
_PEM_LIMIT = 4 * 1024 * 1024


def _public_certificates(path: str, mode: int) -> bool:
    """A ``.pem`` that holds only certificates (a CA bundle such as certifi's ``cacert.pem``)
    is public: hiding it would break TLS for every command given network. Read from the
    file itself; a key anywhere in it, or anything unreadable, keeps it hidden."""
    if not path.endswith(".pem") or not stat.S_ISREG(mode):
        return False
    try:
        with open(path, "rb") as handle:
            data = handle.read(_PEM_LIMIT + 1)
    except OSError:
        return False
    if len(data) > _PEM_LIMIT or b"-----BEGIN CERTIFICATE-----" not in data:
        return False
    headers = set(re.findall(rb"-----BEGIN ([A-Z0-9 ]+)-----", data))
    return headers == {b"CERTIFICATE"}


def plan_mounts(
    *,
    home: str,
    workspace: str | None,
    writable: list[str],
    expose: list[str],
    env: dict[str, str] | os._Environ[str],
) -> Mounts:
    """Every mask and read-only bind for a sandbox over ``workspace``."""
    visible = [p for p in [workspace, *writable] if p]
    exposed = GlobSet(expose, home, workspace or "/") if expose else None
    collect = _Collector(home, workspace, visible, exposed)
    # $HOME and the account's home directory: a command run with another $HOME (an agent's
    # own, a test's) must not find the user's keys at the real one either.
    homes = list(dict.fromkeys([home, _account_home()]))
    for each in homes:
        if not each or each == "/":
            continue
        for pattern in PATH_SETS["secrets"]:
            if not pattern.startswith(("/", "~/")):
                continue
            path = each.rstrip("/") + pattern[1:] if pattern.startswith("~/") else pattern
            if _under(path, "/proc"):
                continue  # the sandbox's /proc shows only its own processes
            if any(c in path for c in "*?["):
                for found in glob.glob(path, include_hidden=True):
                    collect.hide(found)
            elif os.path.lexists(path):
                collect.hide(path)
        for path in state_dirs(env if each == home else {"HOME": each}, each):
            if os.path.isdir(path):
                collect.hide(path)
        _shallow(collect, each, depth=2)
    if workspace is not None:
        for raw in PATH_SETS["agent_config"]:
            if raw.startswith("{workspace}/"):
                collect.read_only(workspace + raw[len("{workspace}") :])
        _walk(collect, workspace)
    if collect.mounts.count() > MAX_MOUNTS:
        raise MountError(
            f"{collect.mounts.count()} secret, linked or protected paths to cover, more than "
            f"the {MAX_MOUNTS} the sandbox sets up"
        )
    return collect.mounts


def _account_home() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError):
        return ""


def _shallow(collect: _Collector, root: str, depth: int) -> None:
    """Secrets named anywhere (``.netrc``, ``*.pem``) among the home directory's first levels."""
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in entries:
        path = entry.path
        if is_secret(path, collect.home):
            collect.hide(path)
        elif depth > 1 and entry.is_dir(follow_symlinks=False):
            _shallow(collect, path, depth - 1)


def _walk(collect: _Collector, workspace: str) -> None:
    home = collect.home
    stack = [workspace]
    while stack:
        directory = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            collect.mounts.entries += 1
            if collect.mounts.entries > MAX_ENTRIES:
                raise MountError(
                    f"the workspace has more than {MAX_ENTRIES} entries to check for secrets "
                    "and hard links"
                )
            path = entry.path
            # Names decide in the workspace: the anchored patterns (``~/.ssh``) are covered
            # above, and matching the name alone is ~10x cheaper than the whole path.
            named = _secret_name(entry.name, home)
            try:  # the entry's type comes with the directory listing: no syscall
                is_link = entry.is_symlink()
                is_dir = not is_link and entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_link:
                target = os.path.realpath(path)
                if named or (not _under(target, workspace) and is_secret(target, home)):
                    collect.hide(target)
                continue
            if named:
                collect.hide(path)
                continue
            if is_dir:
                stack.append(path)
                continue
            try:  # the link count needs the inode (only files can have hard links)
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
                collect.read_only(path)
