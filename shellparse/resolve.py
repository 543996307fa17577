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

Caches: the mount table and each file system's case sensitivity are read once per process;
everything else is read fresh for each command line (a long-lived runner sees files change).
"""

from __future__ import annotations

import os
import re
import stat
import time

MAX_ENTRIES = 50_000
MAX_MATCHES = 1_000
MAX_LINKS = 40
MAX_DEPTH = 32
DEADLINE = 0.3

#: File system types never walked into (``/proc/self/mounts`` names).
REMOTE_FS = frozenset(
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

_GLOB_CHARS = frozenset("*?[")
_mounts: list[list[tuple[str, str]]] = []
_case_cache: dict[int, bool] = {}


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


def has_glob(text: str) -> bool:
    return bool(_GLOB_CHARS.intersection(text)) or "@(" in text or "!(" in text or "+(" in text


class Resolver:
    """Reads the file system for one command line, within the bounds above."""

    __slots__ = ("deadline", "entries", "links", "problems")

    def __init__(self) -> None:
        self.deadline = time.monotonic() + DEADLINE
        self.entries = 0
        #: Links the command line creates before a later part uses them (``ln -s /etc x``):
        #: link path -> target as written.
        self.links: dict[str, str] = {}
        #: What went wrong, for the facts: (kind, path).
        self.problems: list[tuple[str, str]] = []

    # --- bounds -----------------------------------------------------------------------------

    def _tick(self, path: str, count: int = 1) -> None:
        self.entries += count
        if self.entries > MAX_ENTRIES:
            raise Problem("bound", f"{path} (more than {MAX_ENTRIES} directory entries)")
        if time.monotonic() > self.deadline:
            raise Problem("bound", f"{path} (more than {DEADLINE}s)")

    def _check_remote(self, path: str) -> None:
        for point, kind in remote_mounts():
            if path != point and path.startswith(point.rstrip("/") + "/"):
                raise Problem("remote", f"{path} (on {kind} at {point})")

    def _lstat(self, path: str) -> os.stat_result | None:
        self._check_remote(path)
        try:
            return os.lstat(path)
        except FileNotFoundError:
            return None
        except NotADirectoryError:
            return None
        except PermissionError:
            raise Problem("permission", path) from None
        except OSError as exc:
            if exc.errno == 40:  # ELOOP
                raise Problem("loop", path) from None
            raise Problem("permission", path) from None

    # --- links --------------------------------------------------------------------------------

    def real(self, path: str) -> str:
        """``path`` (absolute, normalised) with every existing link on it resolved -- and the
        links the line created earlier; the part that does not exist stays as written.
        Raises ``Problem``."""
        self._check_remote(path)
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

    def is_dir(self, path: str) -> bool:
        try:
            real = self.real(path)
            self._check_remote(real)
            return os.path.isdir(real)
        except Problem:
            return False

    # --- globs -------------------------------------------------------------------------------

    def _list(self, directory: str) -> list[os.DirEntry[str]]:
        self._check_remote(directory)
        try:
            with os.scandir(directory) as it:
                entries = list(it)
        except (FileNotFoundError, NotADirectoryError):
            return []
        except PermissionError:
            raise Problem("permission", directory) from None
        except OSError:
            raise Problem("permission", directory) from None
        self._tick(directory, len(entries) + 1)
        return entries

    def expand(
        self, pattern: str, *, globstar: bool = False, dotglob: bool = False, nocase: bool = False
    ) -> list[str]:
        """The paths an absolute glob expands to, as bash would (sorted; ``[]`` when nothing
        matches, nullglob being off the shell then passes the word as written). Raises
        ``Problem`` when a directory cannot be read or a bound is hit."""
        segments = [s for s in pattern.split("/") if s]
        current = ["/"]
        for k, segment in enumerate(segments):
            last = k == len(segments) - 1
            if not has_glob(segment):
                name = segment.replace("\\", "")
                current = [os.path.join(c, name) for c in current]
                continue
            if segment == "**" and globstar:
                current = self._globstar(current, last, dotglob)
            else:
                regex = segment_regex(segment, nocase)
                hidden_ok = dotglob or segment.startswith(".")
                matched: list[str] = []
                for directory in current:
                    for entry in self._list(directory):
                        name = entry.name
                        if name.startswith(".") and not hidden_ok:
                            continue
                        if regex.fullmatch(name) is None:
                            continue
                        if not last and not _entry_is_dir(entry):
                            continue
                        matched.append(os.path.join(directory, name))
                        if len(matched) > MAX_MATCHES:
                            raise Problem("bound", f"{pattern} (more than {MAX_MATCHES} matches)")
                current = matched
            if not current:
                return []
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
            for entry in self._list(directory):
                if entry.name.startswith(".") and not dotglob:
                    continue
                path = os.path.join(directory, entry.name)
                if entry.is_dir(follow_symlinks=False):
                    stack.append((path, depth + 1))
                elif last:
                    out.append(path)
            if len(out) > MAX_MATCHES:
                raise Problem("bound", f"{roots[0]}/** (more than {MAX_MATCHES} matches)")
        return out

    # --- trees -------------------------------------------------------------------------------

    def walk(self, root: str, *, follow: bool = False, skip_hidden: bool = False) -> list[str]:
        """Every path under ``root`` (directories included, ``root`` excluded), depth first,
        within the bounds. ``skip_hidden``: hidden names are neither listed nor entered."""
        out: list[str] = []
        stack = [(root, 0)]
        seen: set[tuple[int, int]] = set()
        while stack:
            directory, depth = stack.pop()
            if depth > MAX_DEPTH:
                raise Problem("bound", f"{directory} (deeper than {MAX_DEPTH} levels)")
            for entry in self._list(directory):
                if skip_hidden and entry.name.startswith("."):
                    continue
                path = os.path.join(directory, entry.name)
                out.append(path)
                try:
                    is_dir = entry.is_dir(follow_symlinks=follow)
                except OSError:
                    continue
                if is_dir:
                    if follow:
                        try:
                            info = os.stat(path)
                        except OSError:
                            continue
                        key = (info.st_dev, info.st_ino)
                        if key in seen:
                            continue
                        seen.add(key)
                    stack.append((path, depth + 1))
        return out


def _entry_is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


# --- bash patterns as regular expressions ---------------------------------------------------

_SEGMENT_CACHE: dict[tuple[str, bool], re.Pattern[str]] = {}


def segment_regex(segment: str, nocase: bool = False) -> re.Pattern[str]:
    """One path segment of a bash glob (``*``, ``?``, ``[…]`` with ``[:class:]``, extglob
    ``@( )``, ``*( )``, ``+( )``, ``?( )``, ``!( )``, backslash escapes) as a regex."""
    key = (segment, nocase)
    found = _SEGMENT_CACHE.get(key)
    if found is None:
        body, _ = _translate(segment, 0, None)
        found = _SEGMENT_CACHE[key] = re.compile(body, re.DOTALL | (re.I if nocase else 0))
    return found


def _translate(text: str, i: int, stop: str | None) -> tuple[str, int]:
    from clearance.shellparse.globs import _POSIX_CLASSES

    out: list[str] = []
    while i < len(text):
        c = text[i]
        if stop is not None and c in stop:
            return "".join(out), i
        if c in "@*+?!" and text[i + 1 : i + 2] == "(":
            alternatives: list[str] = []
            j = i + 2
            while True:
                inner, j = _translate(text, j, "|)")
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
    case swapped names the same file. Probed once per file system per process."""
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
