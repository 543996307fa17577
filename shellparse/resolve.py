"""Facts from the machine: globs expanded, links resolved, trees searched, file systems probed.

The hook, ``check`` and ``gate`` run on the machine the command will run on, right before it
runs, so what a path *is* can be read from the file system instead of guessed from its
spelling. ``Resolver`` does the reading, never runs anything and stays within bounds; what it
cannot establish becomes the ``unresolved_path`` marker, and what a bound cut short says so.

Bounds (one ``Resolver`` per command line or tool call):

- ``MAX_ENTRIES`` directory entries read in all (glob expansion and tree searches together);
- ``MAX_MATCHES`` paths one glob may expand to;
- ``MAX_LINKS`` symbolic links followed for one path (Linux's own limit; more is a loop);
- ``MAX_DEPTH`` directory levels a tree search descends;
- ``DEADLINE`` seconds of wall time for all of it;
- directories on network or user-space file systems (NFS, SMB, sshfs, FUSE…) are neither
  listed nor searched nor stat'ed below their mount point: a dead server would hang us.

Caches: the mount table and each file system's case sensitivity are read once per process.
Directory listings (and ``world``'s ignore files and git indexes) are kept per process but
reused only while one ``stat`` shows the same identity, size and times -- and never when those
times are less than ``RACY_NS`` old, since two changes within one tick of the clock look alike.
Links, ``lstat`` and resolved paths are kept for one command line only (one ``Resolver``):
a long-lived runner sees files change between calls.
"""

from __future__ import annotations

import os
import re
import stat
import time

from clearance.shellparse.paths import OWN_PROCESS, SecretNames

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

MAX_ENTRIES = 50_000
MAX_MATCHES = 1_000
MAX_LINKS: Final = 40
MAX_DEPTH: Final = 32
#: ``Resolver.real`` looks this many levels up for a directory the line already resolved;
#: further up, the kernel resolves the path at once (three system calls, whatever its depth).
MAX_ASCENT: Final = 3
DEADLINE: Final = 0.3
#: A cached listing or file is trusted only if it last changed longer ago than this.
RACY_NS: Final = 2_000_000_000

#: File system types never walked into (``/proc/self/mounts`` names).
REMOTE_FS: Final = frozenset(
    (
        "nfs",
        "nfs4",
        "cifs",
        "smb3",
        "smbfs",
        "afs",
        "9p",
        "ceph",
        "glusterfs",
        "lustre",
        "davfs",
        "fuse",
        "fuseblk",
        "fuse.sshfs",
        "fuse.rclone",
        "fuse.s3fs",
        "fuse.gcsfuse",
        "autofs",
    )
)

#: Directory listings kept per process (see ``Resolver._list``: from a directory's second
#: listing on), at most this many: more than a walk stopped at ``MAX_ENTRIES`` lists (about
#: 6,000 directories of ``/usr``), so that a search repeated in a batch reads a ``stat`` per
#: directory instead of listing each again (five system calls and an entry object per name).
#: Kept listings of 50,000 entries take about 10 MB; this many, some tens at most.
MAX_CACHED_LISTINGS: Final = 16384

_GLOB_CHARS: Final = frozenset("*?[")
#: (name, is a directory, is a link to a directory, is a link, inode number: the directory
#: entry's own, read with the listing -- what tells a hard link of a known file)
Entry = tuple[str, bool, bool, bool, int]
_LISTINGS: Final[dict[str, tuple[tuple[int, int, int, int], list[Entry]]]] = {}
#: Directories listed once in this process and not kept (``Resolver._list``), at most
#: ``MAX_CACHED_LISTINGS``.
_LISTED_ONCE: Final[set[str]] = set()
#: Per listing and name test: (the listing, names it finds secret, its subdirectories, its
#: links to files, its files named like git's configuration).
Summary = tuple[list[Entry], list[str], list[Entry], list[str], list[str]]
_SUMMARIES: Final[dict[tuple[str, int], Summary]] = {}
#: The names git's configuration has in a git directory (``.git``, ``.git/modules/NAME``).
GIT_CONFIG_NAMES: Final = frozenset(("config", "config.worktree"))
#: Tree walks that ran past a bound from a fresh budget, per process: (walk, root, follow,
#: skip_hidden, name test) -> the bound's text. The same walk again fails at once with the same
#: text instead of spending the bound again (0.3 s, or 50,000 entries, each time a batch meets
#: ``find /`` or ``grep -r x ~``). A bound only ever makes a path unresolved (a marker no rule
#: allows unless it names it), so a remembered one is never looser than a fresh walk.
_OVERSIZED: Final[dict[tuple[str, str, bool, bool, int], str]] = {}
_mounts: list[list[tuple[str, str]]] = []
_case_cache: Final[dict[int, bool]] = {}
_case_by_path: Final[dict[str, bool]] = {}
#: ``O_PATH`` where the platform has it (Linux): resolve a path in the kernel.
_O_PATH: Final = getattr(os, "O_PATH", 0) if os.path.isdir("/proc/self/fd") else 0
_O_NOFOLLOW: Final = getattr(os, "O_NOFOLLOW", 0)
#: What ``Resolver._states`` knows of a path (beside its resolution).
_UNKNOWN: Final = 0
_DIR: Final = 1
_OTHER: Final = 2
_MISSING: Final = 3


def remote_mounts() -> list[tuple[str, str]]:
    """``(mount point, type)`` of remote and user-space file systems, longest first."""
    if not _mounts:
        found: list[tuple[str, str]] = []
        try:
            with open("/proc/self/mounts", encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    fields = line.split()
                    if len(fields) >= 3 and (
                        fields[2] in REMOTE_FS or fields[2].startswith("fuse.")
                    ):
                        point = fields[1].replace("\\040", " ")
                        found.append((point.rstrip("/") or "/", fields[2]))
        except OSError:
            pass
        _mounts.append(sorted(found, key=lambda m: -len(m[0])))
    return _mounts[0]


class Problem(Exception):
    """Why a path could not be resolved: ``permission``, ``loop``, ``remote``, ``bound``."""

    def __init__(self, kind: str, path: str) -> None:
        super().__init__(f"{kind}: {path}")
        self.kind = kind
        self.path = path


def racy(stamp_ns: int) -> bool:
    """Whether a file time is too recent to vouch for a cached reading: two changes within
    one tick of the file system's clock leave the same time (git's "racily clean" entries)."""
    return time.time_ns() - stamp_ns < RACY_NS


def has_glob(text: str) -> bool:
    return bool(_GLOB_CHARS.intersection(text)) or "@(" in text or "!(" in text or "+(" in text


class Resolver:
    """Reads the file system for one command line, within the bounds above."""

    __slots__ = (
        "_listed",
        "_plain",
        "_reals",
        "_seeded",
        "_states",
        "_stats",
        "deadline",
        "entries",
        "links",
        "problems",
        "watched",
    )

    def __init__(self) -> None:
        #: Paths known to hold no link (a listed entry that is no link, in a directory that
        #: resolves to itself): their resolution needs no system call.
        self._plain: set[str] = set()
        #: Listings this line read and the process did not keep (a first listing): a second
        #: search of the same tree in the line reads them from here.
        self._listed: dict[str, list[Entry]] = {}
        self._reals: dict[str, str] = {}
        #: What the kernel said of a path this line: (resolved, ``_DIR``/``_OTHER``/
        #: ``_MISSING``/``_UNKNOWN``) -- so that its entries need one ``lstat`` each.
        self._states: dict[str, tuple[str, int]] = {}
        #: Whether ``_states`` holds the process's working directory yet (``_seed``).
        self._seeded = False
        #: lstat results of this command line, by path (a path is read once per decision)
        self._stats: dict[str, os.stat_result | None] = {}
        self.deadline = time.monotonic() + DEADLINE
        self.entries = 0
        #: Links the command line creates before a later part uses them (``ln -s /etc x``):
        #: link path -> target as written.
        self.links: dict[str, str] = {}
        #: What went wrong, for the facts: (kind, path).
        self.problems: list[tuple[str, str]] = []
        #: The known files a tree search watches for other names of, by (device, inode): read
        #: once per line, when a search first needs them (``world``).
        self.watched: dict[tuple[int, int], str] | None = None

    # --- bounds -----------------------------------------------------------------------------

    def _tick(self, path: str, count: int = 1) -> None:
        self.entries += count
        if self.entries > MAX_ENTRIES:
            raise Problem("bound", f"{path} (more than {MAX_ENTRIES} directory entries)")
        if time.monotonic() > self.deadline:
            raise Problem("bound", f"{path} (more than {DEADLINE}s)")

    def _check_remote(self, path: str) -> None:
        mounts = _mounts[0] if _mounts else remote_mounts()
        if not mounts:
            return
        for point, kind in mounts:
            if path != point and path.startswith(point.rstrip("/") + "/"):
                raise Problem("remote", f"{path} (on {kind} at {point})")

    def _lstat(self, path: str) -> os.stat_result | None:
        if path in self._stats:
            return self._stats[path]
        self._check_remote(path)
        try:
            info: os.stat_result | None = os.lstat(path)
        except (FileNotFoundError, NotADirectoryError):
            info = None
        except PermissionError:
            raise Problem("permission", path) from None
        except OSError as exc:
            if exc.errno == 40:  # ELOOP
                raise Problem("loop", path) from None
            raise Problem("permission", path) from None
        self._stats[path] = info
        return info

    # --- links --------------------------------------------------------------------------------

    def add_link(self, link: str, target: str) -> None:
        """The line makes ``link`` point at ``target`` before its later parts run: what was
        read of the file system so far may no longer hold for paths through it."""
        self.links[link] = target
        self._plain.clear()
        self._reals.clear()
        self._states.clear()
        self._seeded = False
        self._stats.clear()

    def real(self, path: str) -> str:
        """``path`` (absolute, normalised) with every existing link on it resolved -- and the
        links the line created earlier; the part that does not exist stays as written.
        Raises ``Problem``."""
        if path in self._plain:
            return path
        if path.startswith(OWN_PROCESS):
            return path  # the command's own process, not this one (``/dev/fd/3``)
        known = self._reals.get(path)
        if known is not None:
            return known
        self._check_remote(path)
        if not self.links and _O_PATH:
            found = self._real_fast(path)
            if found is not None:
                self._reals[path] = found
                return found
        pending = [p for p in reversed(path.split("/")) if p]
        resolved = ""
        followed = 0
        while pending:
            name = pending.pop()
            if name == ".":
                continue
            if name == "..":
                resolved = resolved.rsplit("/", 1)[0]
                continue
            candidate = resolved + "/" + name
            target = self.links.get(candidate)
            if target is None:
                info = self._lstat(candidate)
                if info is None:
                    rest = "/".join(reversed(pending))
                    return os.path.normpath(candidate + ("/" + rest if rest else ""))
                if not stat.S_ISLNK(info.st_mode):
                    resolved = candidate
                    continue
                try:
                    target = os.readlink(candidate)
                except OSError:
                    raise Problem("permission", candidate) from None
            followed += 1
            if followed > MAX_LINKS:
                raise Problem("loop", path)
            if target.startswith("/"):
                resolved = ""
            pending.extend(p for p in reversed(target.split("/")) if p)
        return resolved or "/"

    def _real_fast(self, path: str) -> str | None:
        """``real`` by the kernel, reusing what this line already resolved: below the nearest
        directory it knows (a few levels up at most; the working directory from the start),
        one ``lstat`` per level, none below a level that does not exist. ``None``: ask the
        walk instead (a link that dangles, a file where a directory should be, no
        ``/proc``)."""
        known = self._states.get(path)
        if known is not None:
            return known[0]
        if not self._seeded:
            self._seed()
        below: list[str] = []
        at = path
        above: tuple[str, int] | None = None
        for _ in range(MAX_ASCENT):
            parent, _, name = at.rpartition("/")
            if name in ("", ".", ".."):
                break
            below.append(name)
            at = parent or "/"
            above = self._states.get(at)
            if above is not None or at == "/":
                break
        if above is None or above[1] not in (_DIR, _MISSING):
            return self._real_by_kernel(path)
        real_at, state = above
        walked = at
        for index in range(len(below) - 1, -1, -1):
            name = below[index]
            walked = ("" if walked == "/" else walked) + "/" + name
            real_at = real_at.rstrip("/") + "/" + name
            if state == _DIR:
                info = self._lstat(walked)
                if info is None:
                    state = _MISSING
                elif stat.S_ISLNK(info.st_mode):
                    return self._real_by_kernel(path)
                elif stat.S_ISDIR(info.st_mode):
                    state = _DIR
                elif index:
                    return self._real_by_kernel(path)  # a file where a directory should be
                else:
                    state = _OTHER
            self._states[walked] = (real_at, state)
        return real_at

    def _seed(self) -> None:
        """The working directory as the kernel names it (``getcwd``: its path without a link
        on it): a directory this line resolves paths below without asking the kernel for
        the directory itself again."""
        self._seeded = True
        try:
            here = os.getcwd()
        except OSError:  # deleted, or not reachable from this root
            return
        if here.startswith("/") and here not in self._states:
            self._states[here] = (here, _DIR)

    def _real_by_kernel(self, path: str) -> str | None:
        """The kernel's own resolution (``open(O_PATH)``, then the name of what it opened),
        of ``path`` or of its nearest existing ancestor: three system calls whatever the
        depth (two more per missing level). ``None`` when that cannot be asked (no
        ``/proc``): walk it instead. What it learns is kept for the line (``_states``)."""
        rest: list[str] = []
        probe = path
        while True:
            try:
                fd = os.open(probe, _O_PATH)
            except FileNotFoundError:
                try:
                    # a dangling link also says "not found": its target is walked to
                    link = os.open(probe, _O_PATH | _O_NOFOLLOW)
                except OSError:
                    pass
                else:
                    os.close(link)
                    return None
                parent, name = probe.rsplit("/", 1) if probe != "/" else ("", "")
                if not name:
                    return None
                rest.append(name)
                probe = parent or "/"
                continue
            except NotADirectoryError:
                return None  # a file in the way: let the walk say so
            except PermissionError:
                raise Problem("permission", probe) from None
            except OSError as exc:
                if exc.errno == 40:  # ELOOP
                    raise Problem("loop", probe) from None
                return None
            try:
                real = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                return None
            finally:
                os.close(fd)
            if not real.startswith("/") or real.endswith(" (deleted)"):
                return None
            if not rest:
                self._states[path] = (real, _UNKNOWN)
                return real
            # ``probe/name`` said "not found", not "not a directory": probe is a directory
            self._states[probe] = (real, _DIR)
            at = real.rstrip("/")
            walked = probe.rstrip("/")
            for name in reversed(rest):
                at += "/" + name
                walked += "/" + name
                self._states[walked] = (at, _MISSING)
            return os.path.normpath(at)

    def lstat(self, path: str) -> os.stat_result | None:
        """What the kernel says of ``path`` itself (a link is not followed), once per
        decision; ``None`` when it does not exist. Raises ``Problem``."""
        return self._lstat(path)

    def is_dir(self, path: str) -> bool:
        try:
            real = self.real(path)
            self._check_remote(real)
            return os.path.isdir(real)
        except Problem:
            return False

    # --- globs -------------------------------------------------------------------------------

    def _list(self, directory: str) -> list[Entry]:
        """The entries of ``directory``: ``(name, is a directory, is a directory through a
        link)``. A directory listed again in this process has its listing kept, checked
        against the directory's own identity and modification time before reuse: one
        ``stat`` instead of a listing when nothing was added, removed or renamed in it
        since. Its first listing is only read (``_LISTED_ONCE``), and kept for the line alone
        (``_listed``): most directories a batch searches are searched once (``find /`` reads
        6,000), and a ``stat`` of each to keep it would cost more than keeping saves."""
        self._check_remote(directory)
        cached = _LISTINGS.get(directory)
        mine = None if cached is not None else self._listed.get(directory)
        if mine is not None:
            entries = mine  # read by this line already (a second search of the tree)
        elif cached is None and directory not in _LISTED_ONCE:
            if len(_LISTED_ONCE) >= MAX_CACHED_LISTINGS:
                _LISTED_ONCE.clear()
            _LISTED_ONCE.add(directory)
            entries = _read_listing(directory)
            self._listed[directory] = entries
        else:
            try:
                info = os.stat(directory)
            except (FileNotFoundError, NotADirectoryError):
                return []
            except OSError:
                raise Problem("permission", directory) from None
            stamp = (info.st_dev, info.st_ino, info.st_mtime_ns, info.st_ctime_ns)
            if cached is not None and cached[0] == stamp:
                entries = cached[1]
            else:
                entries = _read_listing(directory)
                if len(_LISTINGS) >= MAX_CACHED_LISTINGS:
                    _LISTINGS.clear()
                if not racy(info.st_mtime_ns) and not racy(info.st_ctime_ns):
                    _LISTINGS[directory] = (stamp, entries)
        self._tick(directory, len(entries) + 1)
        return entries

    def listing(self, directory: str) -> list[Entry]:
        """The entries of ``directory`` (``(name, is a directory, is a directory through a
        link, is a link)``), within the bounds; ``[]`` when it does not exist."""
        return self._list(directory)

    def expand(
        self, pattern: str, *, globstar: bool = False, dotglob: bool = False, nocase: bool = False
    ) -> list[str]:
        """The paths an absolute glob expands to, as bash would (sorted; ``[]`` when nothing
        matches, nullglob being off the shell then passes the word as written). Raises
        ``Problem`` when a directory cannot be read or a bound is hit."""
        segments = [s for s in pattern.split("/") if s]
        current = ["/"]
        listed = False  # whether the current paths came from a listing (so they exist)
        for k, segment in enumerate(segments):
            last = k == len(segments) - 1
            if not has_glob(segment):
                name = segment.replace("\\", "")
                current = [("" if c == "/" else c) + "/" + name for c in current]
                listed = False
                continue
            if segment == "**" and globstar:
                current = self._globstar(current, last, dotglob)
            else:
                hidden_ok = dotglob or segment.startswith(".")
                matched: list[str] = []
                for directory in current:
                    base = "" if directory == "/" else directory
                    try:
                        plain = self.real(directory) == directory
                    except Problem:
                        plain = False
                    for name, is_dir, via_link, is_link, _ in self._list(directory):
                        if name.startswith(".") and not hidden_ok:
                            continue
                        if not segment_matches(segment, name, nocase):
                            continue
                        if not last and not (is_dir or via_link):
                            continue
                        matched.append(base + "/" + name)
                        if plain and not is_link and name not in (".", ".."):
                            self._plain.add(matched[-1])
                        if len(matched) > MAX_MATCHES:
                            raise Problem("bound", f"{pattern} (more than {MAX_MATCHES} matches)")
                current = matched
            listed = True
            if not current:
                return []
        if listed:
            return sorted(set(current))
        out = []
        for path in current:
            try:
                if self._lstat(path) is not None:
                    out.append(path)
            except Problem:
                out.append(path)
        return sorted(set(out))

    def _globstar(self, roots: list[str], last: bool, dotglob: bool) -> list[str]:
        """``**``: the directories themselves and everything below (files too when last);
        links to directories are not followed, as bash does."""
        out: list[str] = []
        stack = [(r, 0) for r in roots]
        while stack:
            directory, depth = stack.pop()
            out.append(directory)
            if depth >= MAX_DEPTH:
                raise Problem("bound", f"{directory} (deeper than {MAX_DEPTH} levels)")
            base = "" if directory == "/" else directory
            for name, is_dir, _, _, _ in self._list(directory):
                if name.startswith(".") and not dotglob:
                    continue
                path = base + "/" + name
                if is_dir:
                    stack.append((path, depth + 1))
                elif last:
                    out.append(path)
            if len(out) > MAX_MATCHES:
                raise Problem("bound", f"{roots[0]}/** (more than {MAX_MATCHES} matches)")
        return out

    # --- trees -------------------------------------------------------------------------------

    def _walk_memo(self, memo: tuple[str, str, bool, bool, int]) -> bool:
        """Raise the bound a walk met before (``_OVERSIZED``); whether this walk starts with
        a fresh budget (so that a bound it meets is the tree's, worth remembering)."""
        known = _OVERSIZED.get(memo)
        if known is not None:
            raise Problem("bound", known)
        return (
            self.entries <= MAX_ENTRIES // 100
            and self.deadline - time.monotonic() >= DEADLINE * 0.9
        )

    def _remember(self, memo: tuple[str, str, bool, bool, int], problem: Problem) -> None:
        if problem.kind == "bound":
            if len(_OVERSIZED) >= MAX_CACHED_LISTINGS:
                _OVERSIZED.clear()
            _OVERSIZED[memo] = problem.path

    def secret_walk(
        self,
        root: str,
        names: SecretNames,
        *,
        follow: bool = False,
        skip_hidden: bool = False,
        links: list[str] | None = None,
        git_configs: list[str] | None = None,
        twins: Twins | None = None,
    ) -> list[str]:
        """The paths under ``root`` whose *name* is a secret's (``names``), not descending
        into them: ``walk`` filtered, with each listing's answer kept per process beside the
        listing (a search repeated over an unchanged tree reads one ``stat`` per directory),
        under the test's identity (``names`` is made once per process and case). ``links``
        collects the links to files met on the way (whatever their names: a reader that
        follows them reads their targets); ``git_configs`` the configuration files of the
        git directories met (``.git/config`` of every repository below, whose remote URLs
        and headers may hold a token); ``twins`` the files that are other names of the
        files it watches."""
        memo = ("secret", root, follow, skip_hidden, id(names))
        fresh = self._walk_memo(memo)
        try:
            return self._secret_walk(root, names, follow, skip_hidden, links, git_configs, twins)
        except Problem as problem:
            if fresh:
                self._remember(memo, problem)
            raise

    def _secret_walk(
        self,
        root: str,
        names: SecretNames,
        follow: bool,
        skip_hidden: bool,
        links: list[str] | None,
        git_configs: list[str] | None = None,
        twins: Twins | None = None,
    ) -> list[str]:
        # Two passes: the tree is read first (listings, and the test of each subdirectory's
        # name, which says where the walk goes), every other entry only once the walk is
        # known to stay within its bounds. A walk its bounds stop (``find /``, ``grep -r x
        # /usr``: 50,000 entries read) answers with the bound alone, its entries untested.
        key_of = id(names)  # names the test: the same test gives the same answers
        #: each directory read, its listing, and its summary when one is kept for it
        visited: list[tuple[str, list[Entry], Summary | None]] = []
        stack = [(root, 0)]
        seen: set[tuple[int, int]] = set()
        while stack:
            directory, depth = stack.pop()
            if depth > MAX_DEPTH:
                raise Problem("bound", f"{directory} (deeper than {MAX_DEPTH} levels)")
            entries = self._list(directory)
            summary = _SUMMARIES.get((directory, key_of))
            if summary is not None and summary[0] is not entries:
                summary = None  # made for an earlier listing
            visited.append((directory, entries, summary))
            chosen = None if summary is None else set(summary[1])
            subdirs = [e for e in entries if e[1] or e[2]] if summary is None else summary[2]
            base = "" if directory == "/" else directory
            for entry in subdirs:
                name = entry[0]
                if (skip_hidden and name.startswith(".")) or (not entry[1] and not follow):
                    continue
                if names.match(name) if chosen is None else name in chosen:
                    continue
                _enter(stack, base + "/" + name, depth + 1, follow, seen)
        out: list[str] = []
        for directory, entries, kept in visited:
            self._tick(directory, 0)  # (the deadline holds for this pass too)
            summary = kept
            if summary is None:
                summary = _summary(entries, names)
                listed = _LISTINGS.get(directory)
                if listed is not None and listed[1] is entries:  # (a kept listing's only)
                    if len(_SUMMARIES) >= MAX_CACHED_LISTINGS:
                        _SUMMARIES.clear()
                    _SUMMARIES[(directory, key_of)] = summary
            _, secret, _, linked, configs = summary
            base = "" if directory == "/" else directory
            hidden = skip_hidden
            out.extend(base + "/" + n for n in secret if not (hidden and n.startswith(".")))
            if links is not None:
                links.extend(base + "/" + n for n in linked if not (hidden and n.startswith(".")))
            if git_configs is not None and configs and "/.git/" in base + "/":
                git_configs.extend(base + "/" + n for n in configs)
            if twins is not None:
                twins.look(base, entries, hidden)
        return out

    def walk(
        self,
        root: str,
        *,
        follow: bool = False,
        skip_hidden: bool = False,
        links: list[str] | None = None,
        twins: Twins | None = None,
    ) -> list[str]:
        """Every path under ``root`` (directories included, ``root`` excluded), depth first,
        within the bounds. ``skip_hidden``: hidden names are neither listed nor entered.
        ``links`` collects the paths walked that are links to files (as ``secret_walk``'s),
        told by the listing, without a ``stat`` of each; ``twins`` the files that are other
        names of the files it watches."""
        memo = ("walk", root, follow, skip_hidden, 0)
        fresh = self._walk_memo(memo)
        try:
            return self._walk(root, follow, skip_hidden, links, twins)
        except Problem as problem:
            if fresh:
                self._remember(memo, problem)
            raise

    def _walk(
        self,
        root: str,
        follow: bool,
        skip_hidden: bool,
        links: list[str] | None,
        twins: Twins | None = None,
    ) -> list[str]:
        # Two passes, as ``_secret_walk``'s: the directories first, the paths once the walk
        # is known to stay within its bounds.
        visited: list[tuple[str, list[Entry]]] = []
        stack = [(root, 0)]
        seen: set[tuple[int, int]] = set()
        while stack:
            directory, depth = stack.pop()
            if depth > MAX_DEPTH:
                raise Problem("bound", f"{directory} (deeper than {MAX_DEPTH} levels)")
            base = "" if directory == "/" else directory
            entries = self._list(directory)
            visited.append((base, entries))
            for name, is_dir, via_link, _, _ in entries:
                if not (is_dir or (follow and via_link)):
                    continue
                if skip_hidden and name.startswith("."):
                    continue
                _enter(stack, base + "/" + name, depth + 1, follow, seen)
        out: list[str] = []
        for base, entries in visited:
            self._tick(base or "/", 0)  # (the deadline holds for this pass too)
            if twins is not None:
                twins.look(base, entries, skip_hidden)
            for name, _, via_link, is_link, _ in entries:
                if skip_hidden and name.startswith("."):
                    continue
                path = base + "/" + name
                out.append(path)
                if links is not None and is_link and not via_link:
                    links.append(path)
        return out


class Twins:
    """Hard links of known files met by a walk: the regular files whose inode number is one
    of ``inodes`` (a directory entry carries it: no ``stat`` per file), in ``met`` by path.
    An inode number is unique per file system only: what is met is a candidate, for the
    caller to confirm with a ``stat`` (device and inode)."""

    __slots__ = ("inodes", "met")

    def __init__(self, inodes: frozenset[int]) -> None:
        self.inodes = inodes
        self.met: list[str] = []

    def look(self, base: str, entries: list[Entry], skip_hidden: bool) -> None:
        inodes = self.inodes
        for name, is_dir, _, is_link, inode in entries:
            if inode in inodes and not (is_dir or is_link or (skip_hidden and name[:1] == ".")):
                self.met.append(base + "/" + name)


def _summary(entries: list[Entry], names: SecretNames) -> Summary:
    """What a secret walk asks of one listing (``_SUMMARIES``): the listing, the names it
    finds secret, its subdirectories, its links to files, its files named like git's
    configuration -- in one pass (a listing may hold thousands)."""
    secret: list[str] = []
    subdirs: list[Entry] = []
    linked: list[str] = []
    configs: list[str] = []
    for entry in entries:
        name, is_dir, via_link, is_link, _ = entry
        if names.match(name):  # (a native call, once per entry)
            secret.append(name)
        if is_dir or via_link:
            subdirs.append(entry)
        elif is_link:
            linked.append(name)
        if not is_dir and name in GIT_CONFIG_NAMES:
            configs.append(name)
    return (entries, secret, subdirs, linked, configs)


def _enter(
    stack: list[tuple[str, int]], path: str, depth: int, follow: bool, seen: set[tuple[int, int]]
) -> None:
    """A walk goes into the directory ``path`` next (at ``depth``): unless it follows links
    and was there already (``_first_visit``)."""
    if follow and not _first_visit(path, seen):
        return
    stack.append((path, depth))


def _first_visit(path: str, seen: set[tuple[int, int]]) -> bool:
    """Whether a walk that follows links enters the directory ``path``: not when it cannot be
    stat'ed, nor when the walk was there already (a link loop, a second link to it)."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    ident = (info.st_dev, info.st_ino)
    if ident in seen:
        return False
    seen.add(ident)
    return True


def _read_listing(directory: str) -> list[Entry]:
    """The entries of ``directory`` as read now (``[]``: it does not exist, or is no
    directory). Raises ``Problem``."""
    try:
        with os.scandir(directory) as it:
            return [_entry(e) for e in it]
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError:
        raise Problem("permission", directory) from None


def _entry(entry: os.DirEntry[str]) -> Entry:
    try:
        # (no keyword arguments: a call with one costs more than the test; for an entry that
        # is not a link, following links reads the same mode)
        is_link = entry.is_symlink()
        if is_link:
            is_dir = False
            via_link = entry.is_dir()
        else:
            is_dir = entry.is_dir()
            via_link = False
        inode = entry.inode()
    except OSError:
        return (entry.name, False, False, True, 0)
    return (entry.name, is_dir, via_link, is_link, inode)


# --- bash patterns as regular expressions ---------------------------------------------------

_SEGMENT_CACHE: Final[dict[tuple[str, bool], re.Pattern[str]]] = {}


def segment_regex(segment: str, nocase: bool = False) -> re.Pattern[str]:
    """One path segment of a bash glob (``*``, ``?``, ``[…]`` with ``[:class:]``, extglob
    ``@( )``, ``*( )``, ``+( )``, ``?( )``, ``!( )``, backslash escapes) as a regex."""
    key = (segment, nocase)
    found = _SEGMENT_CACHE.get(key)
    if found is None:
        body, _ = _translate(segment, 0, None, 0)
        found = _SEGMENT_CACHE[key] = re.compile(body, re.DOTALL | (re.I if nocase else 0))
    return found


#: A glob segment's literal pieces around its ``*``s, where ``*`` is its only wildcard (no
#: ``?``, bracket, extglob group or backslash; ``None``: another one, for ``segment_regex``).
_STAR_PIECES: Final[dict[str, tuple[str, ...] | None]] = {}


def segment_matches(segment: str, name: str, nocase: bool = False) -> bool:
    """Whether ``name`` matches the glob segment: ``segment_regex(segment, nocase)``'s
    ``fullmatch``, told by string tests where ``*`` is the segment's only wildcard (``*.mp3``,
    ``foo*``, ``a*b*c``: most of the segments a batch meets, each once -- a compile is about
    a hundred microseconds of Python)."""
    pieces = None if nocase else star_pieces(segment)
    if pieces is None:
        return segment_regex(segment, nocase).fullmatch(name) is not None
    return pieces_match(pieces, name)


def pieces_match(pieces: tuple[str, ...], name: str) -> bool:
    """Whether ``name`` is the literal ``pieces`` with anything but ``/`` between each two
    (a glob segment whose only wildcard is ``*``, cut at its ``*``s: ``star_pieces``)."""
    if "/" in name:
        return False  # (no piece holds one, and ``*`` is ``[^/]*``)
    if len(pieces) == 1:
        return name == pieces[0]
    first = pieces[0]
    last = pieces[-1]
    if len(name) < len(first) + len(last) or not name.startswith(first):
        return False
    if not name.endswith(last):
        return False
    pos = len(first)
    end = len(name) - len(last)
    for k in range(1, len(pieces) - 1):
        piece = pieces[k]
        at = name.find(piece, pos, end)
        if at < 0:
            return False
        pos = at + len(piece)
    return True


def star_pieces(segment: str) -> tuple[str, ...] | None:
    """The literal pieces of a glob segment around its ``*``s, when ``*`` is its only
    wildcard; ``None`` otherwise (see ``_STAR_PIECES``)."""
    if segment in _STAR_PIECES:
        return _STAR_PIECES[segment]
    plain = not ("?" in segment or "[" in segment or "(" in segment or "\\" in segment)
    found = tuple(segment.split("*")) if plain and "/" not in segment else None
    if len(_STAR_PIECES) >= MAX_CACHED_LISTINGS:
        _STAR_PIECES.clear()
    _STAR_PIECES[segment] = found
    return found


#: Extglob groups nested deeper than this match any name (more matches, never fewer: what a
#: command might touch is judged wider, not narrower).
MAX_EXTGLOB_DEPTH: Final = 16


def _group_end(text: str, i: int) -> int:
    """The index of the ``)`` closing the group opened at ``text[i]`` (``(``), or the end."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text)


def _translate(text: str, i: int, stop: str | None, depth: int) -> tuple[str, int]:
    from clearance.shellparse.globs import _POSIX_CLASSES

    out: list[str] = []
    while i < len(text):
        c = text[i]
        if stop is not None and c in stop:
            return "".join(out), i
        if c in "@*+?!" and text[i + 1 : i + 2] == "(" and depth >= MAX_EXTGLOB_DEPTH:
            out.append("[^/]*")
            i = _group_end(text, i + 1) + 1
            continue
        if c in "@*+?!" and text[i + 1 : i + 2] == "(":
            alternatives: list[str] = []
            j = i + 2
            while True:
                inner, j = _translate(text, j, "|)", depth + 1)
                alternatives.append(inner)
                if j >= len(text) or text[j] == ")":
                    break
                j += 1
            group = "(?:" + "|".join(alternatives) + ")"
            out.append(
                {
                    "@": group,
                    "*": group + "*",
                    "+": group + "+",
                    "?": group + "?",
                    "!": f"(?:(?!{group}$)[^/]*)",
                }[c]
            )
            i = j + 1
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "\\" and i + 1 < len(text):
            out.append(re.escape(text[i + 1]))
            i += 1
        elif c == "[":
            end = i + 1
            if end < len(text) and text[end] in "!^":
                end += 1
            if end < len(text) and text[end] == "]":
                end += 1
            while end < len(text) and text[end] != "]":
                if text.startswith("[:", end):
                    close = text.find(":]", end + 2)
                    end = close + 2 if close > 0 else end + 1
                else:
                    end += 1
            if end >= len(text):
                out.append(re.escape(c))
            else:
                body = text[i + 1 : end]
                negated = body[:1] in ("!", "^")
                if negated:
                    body = body[1:]
                pieces: list[str] = []
                k = 0
                while k < len(body):
                    if body.startswith("[:", k):
                        close = body.find(":]", k + 2)
                        if close > 0:
                            pieces.append(re.escape(_POSIX_CLASSES.get(body[k + 2 : close], "")))
                            k = close + 2
                            continue
                    ch = body[k]
                    pieces.append("\\" + ch if ch in "\\]^[" else ("\\-" if ch == "-" else ch))
                    if ch == "-" and 0 < k < len(body) - 1:
                        pieces[-1] = "-"
                    k += 1
                out.append("[" + ("^" if negated else "") + "".join(pieces) + "]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out), i


# --- case sensitivity -----------------------------------------------------------------------


def case_insensitive(path: str) -> bool:
    """Whether the file system holding ``path`` (an existing directory, or one above it)
    ignores case, as macOS's and Windows' defaults do: the same name with its letters'
    case swapped names the same file. Probed once per directory and per file system per
    process."""
    known = _case_by_path.get(path)
    if known is not None:
        return known
    answer = _probe_case(path)
    if len(_case_by_path) > 1024:
        _case_by_path.clear()
    _case_by_path[path] = answer
    return answer


def _probe_case(path: str) -> bool:
    probe = path
    while True:
        try:
            info = os.stat(probe)
            break
        except OSError:
            parent = os.path.dirname(probe)
            if parent == probe:
                return False
            probe = parent
    found = _case_cache.get(info.st_dev)
    if found is not None:
        return found
    answer = False
    walk = probe
    while walk not in ("/", ""):
        name = os.path.basename(walk)
        if name.swapcase() != name:
            other = os.path.join(os.path.dirname(walk), name.swapcase())
            try:
                mine = os.stat(walk)
                twin = os.stat(other)
                answer = (twin.st_dev, twin.st_ino) == (mine.st_dev, mine.st_ino)
            except OSError:
                answer = False
            break
        walk = os.path.dirname(walk)
    _case_cache[info.st_dev] = answer
    return answer
