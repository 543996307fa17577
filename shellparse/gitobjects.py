"""What a repository's commits hold at a path, read from its files without running git.

``git show`` prints what a commit changed, ``git diff --cached`` what the index holds that
the commit checked out does not, ``git diff A B`` what two commits hold differently. Whether
a tracked secret is among what they print is a fact of the repository's objects: the commit
and tree objects along the secret's path, loose (``objects/ab/cdef…``, zlib) or in a pack
(``objects/pack/*.idx`` and ``*.pack``, deltas applied). A ``Repository`` reads them, within
bounds; anything it cannot read or name (an unknown revision syntax, a missing or damaged
object, a bound met) is ``None`` -- not known -- for the caller to treat as such.

Revisions named: ``HEAD`` and ``@``, a full or abbreviated object name (4 to 40 hex digits,
unambiguous), a branch, tag or remote-tracking name, a full ``refs/…`` name, each followed by
any number of ``~N`` and ``^`` / ``^N``; annotated tags are peeled to their commit.
"""

from __future__ import annotations

import mmap
import os
import re
import zlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO, Final

#: The largest object read (bytes, inflated).
MAX_OBJECT: Final = 32 * 1024 * 1024
#: Deltas applied in a row for one object.
MAX_DELTA_CHAIN: Final = 64
#: Objects read for one question, in all.
MAX_READS: Final = 512
#: Bytes inflated for one question, in all (deltas and the objects they rebuild included):
#: what bounds its time, whatever the objects' sizes.
MAX_INFLATED: Final = 64 * 1024 * 1024
#: Pack object types.
_TYPES: Final = {1: "commit", 2: "tree", 3: "blob", 4: "tag"}
_REV: Final = re.compile(r"(?P<name>[^~^]+)(?P<steps>(?:~[0-9]*|\^[0-9]*)*)\Z")
_STEP: Final = re.compile(r"([~^])([0-9]*)")
_HEX: Final = re.compile(r"[0-9a-f]{4,40}\Z")
_SHA: Final = re.compile(r"[0-9a-f]{40}\Z")


class Unreadable(Exception):
    """The repository does not say (a bound, a damaged or missing object, an unknown name)."""


#: What reading a repository's files may raise, each a way of not knowing.
_FAILURES: Final = (Unreadable, OSError, ValueError, IndexError, zlib.error)


class Repository:
    """The objects and references of the git directory ``git_dir``."""

    __slots__ = ("_packs", "_shallow", "budget", "common", "git_dir", "inflated", "reads")

    def __init__(self, git_dir: str, budget: int = MAX_INFLATED) -> None:
        self.git_dir = git_dir
        #: bytes it may inflate in all (``MAX_INFLATED``)
        self.budget = budget
        common = git_dir
        try:
            with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as handle:
                common = os.path.normpath(os.path.join(git_dir, handle.read().strip()))
        except OSError:
            pass
        #: where the objects and the shared references are (a worktree's ``commondir``)
        self.common = common
        self.reads = 0
        self.inflated = 0
        self._packs: list[tuple[str, mmap.mmap]] | None = None
        #: the commits a shallow clone holds without their parents (``shallow``): git takes
        #: them for roots, and so does this
        self._shallow: frozenset[str] | None = None

    # --- questions ---------------------------------------------------------------------------

    def commit(self, revision: str) -> str | None:
        """The commit ``revision`` names, as 40 hex digits; ``None``: not known."""
        try:
            return self._commit(revision)
        except _FAILURES:
            return None

    def unborn(self) -> bool:
        """Whether ``HEAD`` names a branch that has no commit yet (a repository just made):
        git compares the index with nothing then, and ``git show`` has nothing to show."""
        try:
            with open(os.path.join(self.git_dir, "HEAD"), encoding="utf-8") as handle:
                text = handle.read(4096).strip()
        except OSError:
            return False
        if not text.startswith("ref:"):
            return False
        try:
            self._ref(text[4:].strip(), 0)
        except (Unreadable, OSError, ValueError):
            return True
        return False

    def stash(self, name: str) -> str | None:
        """The commit of the stash ``stash@{N}`` (or ``N``): the last entry of the stash's
        log, or the N-th before it; ``None``: not known."""
        found = re.fullmatch(r"(?:stash@\{)?([0-9]+)\}?", name)
        if found is None or (name.startswith("stash@{") != name.endswith("}")):
            return None
        number = int(found.group(1))
        try:
            with open(os.path.join(self.common, "logs", "refs", "stash"), "rb") as handle:
                lines = handle.read(16 * 1024 * 1024).splitlines()
            if number >= len(lines):
                return None
            sha = lines[len(lines) - 1 - number].split(b" ", 2)[1].decode("ascii")
            if not _SHA.match(sha) or self._read(sha)[0] != "commit":
                return None
            return sha
        except _FAILURES:
            return None

    def blob_at(self, commit: str, path: str) -> str | None:
        """The object ``path`` (relative to the top, ``/``-separated) is in ``commit``'s tree:
        ``""`` when it is not there; ``None``: not known."""
        try:
            tree = self._parse_commit(commit)[0]
            return self._tree_path(tree, path)
        except _FAILURES:
            return None

    def changed(self, old: str | None, new: str) -> list[str] | None:
        """The paths (``/``-separated, from the top) whose content differs between the
        commits ``old`` (``None``: nothing, as before a root commit) and ``new``: added,
        removed or changed -- what ``git diff old new`` prints the lines of, whatever the
        index tracks now. Only trees whose names differ are read, as git compares them;
        ``None``: not known."""
        try:
            before = self._parse_commit(old)[0] if old is not None else None
            found: list[str] = []
            self._changed(before, self._parse_commit(new)[0], "", found)
            return found
        except _FAILURES:
            return None

    def _changed(self, old: str | None, new: str | None, prefix: str, out: list[str]) -> None:
        if old == new:
            return
        mine = self._tree_entries(old) if old is not None else {}
        theirs = self._tree_entries(new) if new is not None else {}
        for name in sorted(mine.keys() | theirs.keys()):
            a, b = mine.get(name), theirs.get(name)
            if a == b:
                continue
            path = prefix + name.decode("utf-8", "surrogateescape")
            a_tree = a is not None and a[0].startswith(b"4")
            b_tree = b is not None and b[0].startswith(b"4")
            if a_tree or b_tree:
                self._changed(
                    a[1] if a is not None and a_tree else None,
                    b[1] if b is not None and b_tree else None,
                    path + "/",
                    out,
                )
            if (a is not None and not a_tree) or (b is not None and not b_tree):
                out.append(path)  # a file (or a link) there on one side at least
            if len(out) > MAX_READS * 64:
                raise Unreadable("bound")

    def _tree_entries(self, tree: str) -> dict[bytes, tuple[bytes, str]]:
        kind, body = self._read(tree)
        if kind != "tree":
            raise Unreadable(tree)
        entries: dict[bytes, tuple[bytes, str]] = {}
        at = 0
        while at < len(body):
            space = body.index(b" ", at)
            nul = body.index(b"\0", space)
            entries[body[space + 1 : nul]] = (body[at:space], body[nul + 1 : nul + 21].hex())
            at = nul + 21
        return entries

    def parents(self, commit: str) -> list[str] | None:
        try:
            return self._parse_commit(commit)[1]
        except _FAILURES:
            return None

    # --- names ---------------------------------------------------------------------------------

    def _commit(self, revision: str) -> str:
        found = _REV.match(revision)
        if found is None:
            raise Unreadable(revision)
        sha = self._peel(self._name(found.group("name")))
        for kind, count in _STEP.findall(found.group("steps")):
            number = int(count) if count else 1
            if kind == "~":
                for _ in range(number):
                    parents = self._parse_commit(sha)[1]
                    if not parents:
                        raise Unreadable(revision)
                    sha = parents[0]
            elif number:
                parents = self._parse_commit(sha)[1]
                if len(parents) < number:
                    raise Unreadable(revision)
                sha = parents[number - 1]
        return sha

    def _name(self, name: str) -> str:
        if name in ("HEAD", "@"):
            return self._ref("HEAD", 0)
        candidates = [name] if name.startswith("refs/") else []
        candidates += [f"refs/heads/{name}", f"refs/tags/{name}", f"refs/remotes/{name}"]
        for candidate in candidates:
            try:
                return self._ref(candidate, 0)
            except Unreadable:
                continue
        if _HEX.match(name):
            return self._abbreviated(name)
        raise Unreadable(name)

    def _ref(self, name: str, depth: int) -> str:
        if depth > 5:
            raise Unreadable(name)
        for base in (self.git_dir, self.common):
            try:
                with open(os.path.join(base, name), encoding="utf-8") as handle:
                    text = handle.read(4096).strip()
            except OSError:
                continue
            if text.startswith("ref:"):
                return self._ref(text[4:].strip(), depth + 1)
            if _SHA.match(text):
                return text
            raise Unreadable(name)
        try:
            with open(os.path.join(self.common, "packed-refs"), encoding="utf-8") as handle:
                for line in handle:
                    sha, _, ref = line.rstrip("\n").partition(" ")
                    if ref == name and _SHA.match(sha):
                        return sha
        except OSError:
            pass
        raise Unreadable(name)

    def _abbreviated(self, prefix: str) -> str:
        found: set[str] = set()
        if len(prefix) == 40:
            return prefix
        loose = os.path.join(self.common, "objects", prefix[:2])
        try:
            for entry in os.listdir(loose):
                if (prefix[:2] + entry).startswith(prefix):
                    found.add(prefix[:2] + entry)
        except OSError:
            pass
        for _, index in self._pack_indexes():
            found.update(_index_prefix(index, prefix))
        if len(found) != 1:
            raise Unreadable(prefix)
        return found.pop()

    def _peel(self, sha: str) -> str:
        for _ in range(8):
            kind, body = self._read(sha)
            if kind == "commit":
                return sha
            if kind != "tag":
                raise Unreadable(sha)
            sha = body.split(b"\n", 1)[0].split(b" ", 1)[1].decode("ascii")
        raise Unreadable(sha)

    # --- commits and trees ---------------------------------------------------------------------

    def _parse_commit(self, sha: str) -> tuple[str, list[str]]:
        kind, body = self._read(sha)
        if kind != "commit":
            raise Unreadable(sha)
        tree = ""
        parents: list[str] = []
        for line in body.split(b"\n"):
            if not line:
                break
            key, _, value = line.partition(b" ")
            if key == b"tree":
                tree = value.decode("ascii")
            elif key == b"parent":
                parents.append(value.decode("ascii"))
        if not tree:
            raise Unreadable(sha)
        shallow = self._shallow
        if shallow is None:
            try:
                with open(os.path.join(self.common, "shallow"), encoding="ascii") as handle:
                    shallow = frozenset(line.strip() for line in handle)
            except (OSError, ValueError):
                shallow = frozenset()
            self._shallow = shallow
        return tree, [] if sha in shallow else parents

    def _tree_path(self, tree: str, path: str) -> str:
        sha = tree
        names = [part for part in path.split("/") if part]
        for k, name in enumerate(names):
            found = self._tree_entries(sha).get(name.encode("utf-8", "surrogateescape"))
            if found is None:
                return ""
            mode, sha = found
            if k < len(names) - 1 and not mode.startswith(b"4"):
                return ""  # a file where the path goes on: nothing there
        return sha

    # --- objects --------------------------------------------------------------------------------

    def _read(self, sha: str) -> tuple[str, bytes]:
        self.reads += 1
        if self.reads > MAX_READS:
            raise Unreadable("bound")
        loose = os.path.join(self.common, "objects", sha[:2], sha[2:])
        try:
            with open(loose, "rb") as handle:
                raw = handle.read(MAX_OBJECT + 1)
        except FileNotFoundError:
            return self._packed(bytes.fromhex(sha), 0)
        data = self._spent(_inflate(raw, MAX_OBJECT + 64))
        head, _, body = data.partition(b"\0")
        kind, _, size = head.partition(b" ")
        if int(size) != len(body):
            raise Unreadable(sha)
        return kind.decode("ascii"), body

    def _pack_indexes(self) -> list[tuple[str, mmap.mmap]]:
        if self._packs is None:
            packs: list[tuple[str, mmap.mmap]] = []
            directory = os.path.join(self.common, "objects", "pack")
            try:
                names = sorted(os.listdir(directory))
            except OSError:
                names = []
            for name in names:
                if name.endswith(".idx"):
                    # mapped, not read: a large repository's index is hundreds of megabytes,
                    # of which a lookup touches a few pages
                    with open(os.path.join(directory, name), "rb") as handle:
                        index = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
                    if index[:8] == b"\377tOc\0\0\0\2":
                        packs.append((os.path.join(directory, name[:-4] + ".pack"), index))
            self._packs = packs
        return self._packs

    def _packed(self, raw_sha: bytes, depth: int) -> tuple[str, bytes]:
        for pack, index in self._pack_indexes():
            offset = _index_offset(index, raw_sha)
            if offset is not None:
                return self._at(pack, offset, depth)
        raise Unreadable(raw_sha.hex())

    def _at(self, pack: str, offset: int, depth: int) -> tuple[str, bytes]:
        if depth > MAX_DELTA_CHAIN:
            raise Unreadable("delta chain")
        with open(pack, "rb") as handle:
            handle.seek(offset)
            head = handle.read(64)
            byte = head[0]
            kind = (byte >> 4) & 7
            size = byte & 15
            shift, at = 4, 1
            while byte & 0x80:
                byte = head[at]
                at += 1
                size |= (byte & 0x7F) << shift
                shift += 7
            if size > MAX_OBJECT:
                raise Unreadable("size")
            base: tuple[str, bytes] | None = None
            if kind == 6:  # a delta against the object so many bytes before
                byte = head[at]
                at += 1
                back = byte & 0x7F
                while byte & 0x80:
                    byte = head[at]
                    at += 1
                    back = ((back + 1) << 7) | (byte & 0x7F)
                base_offset = offset - back
                handle.seek(offset + at)
                delta = self._spent(_inflate_stream(handle, size))
                base = self._at(pack, base_offset, depth + 1)
            elif kind == 7:  # a delta against the object of that name
                base_sha = head[at : at + 20]
                handle.seek(offset + at + 20)
                delta = self._spent(_inflate_stream(handle, size))
                base = self._packed(base_sha, depth + 1)
            elif kind in _TYPES:
                handle.seek(offset + at)
                return _TYPES[kind], self._spent(_inflate_stream(handle, size))
            else:
                raise Unreadable("pack type")
        return base[0], self._spent(_apply_delta(base[1], delta))

    def _spent(self, data: bytes) -> bytes:
        """``data``, counted against the budget."""
        self.inflated += len(data)
        if self.inflated > self.budget:
            raise Unreadable("bound")
        return data


# --- formats -----------------------------------------------------------------------------------


def _inflate(raw: bytes, limit: int) -> bytes:
    inflater = zlib.decompressobj()
    data = inflater.decompress(raw, limit)
    if inflater.unconsumed_tail or not inflater.eof:
        raise Unreadable("inflate")
    return data


def _inflate_stream(handle: BinaryIO, size: int) -> bytes:
    """``size`` bytes inflated from the zlib stream at the handle's position."""
    inflater = zlib.decompressobj()
    out = bytearray()
    while not inflater.eof:
        chunk = handle.read(65536)
        if not chunk:
            raise Unreadable("truncated")
        out += inflater.decompress(chunk, size + 1 - len(out))
        if len(out) > size:
            raise Unreadable("size")
    if len(out) != size:
        raise Unreadable("size")
    return bytes(out)


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def _apply_delta(base: bytes, delta: bytes) -> bytes:
    source, at = _varint(delta, 0)
    target, at = _varint(delta, at)
    if source != len(base) or target > MAX_OBJECT:
        raise Unreadable("delta")
    out = bytearray()
    while at < len(delta):
        op = delta[at]
        at += 1
        if op & 0x80:
            offset = length = 0
            for k in range(4):
                if op & (1 << k):
                    offset |= delta[at] << (8 * k)
                    at += 1
            for k in range(3):
                if op & (0x10 << k):
                    length |= delta[at] << (8 * k)
                    at += 1
            length = length or 0x10000
            if offset + length > len(base):
                raise Unreadable("delta")
            out += base[offset : offset + length]
        elif op:
            out += delta[at : at + op]
            at += op
        else:
            raise Unreadable("delta")
    if len(out) != target:
        raise Unreadable("delta")
    return bytes(out)


def _index_bounds(index: mmap.mmap, first: int) -> tuple[int, int, int]:
    """(count, start, end) of a version 2 pack index's names starting with the byte
    ``first``."""
    count = int.from_bytes(index[8 + 255 * 4 : 8 + 256 * 4], "big")
    end = int.from_bytes(index[8 + first * 4 : 12 + first * 4], "big")
    start = int.from_bytes(index[4 + first * 4 : 8 + first * 4], "big") if first else 0
    return count, start, end


def _index_offset(index: mmap.mmap, raw_sha: bytes) -> int | None:
    count, low, high = _index_bounds(index, raw_sha[0])
    names = 8 + 256 * 4
    while low < high:
        middle = (low + high) // 2
        at = names + middle * 20
        here = index[at : at + 20]
        if here == raw_sha:
            offsets = names + count * 24
            value = int.from_bytes(index[offsets + middle * 4 : offsets + middle * 4 + 4], "big")
            if value & 0x80000000:
                large = offsets + count * 4 + (value & 0x7FFFFFFF) * 8
                value = int.from_bytes(index[large : large + 8], "big")
            return value
        if here < raw_sha:
            low = middle + 1
        else:
            high = middle
    return None


def _index_prefix(index: mmap.mmap, prefix: str) -> set[str]:
    """The names in a pack index that start with the hex ``prefix`` (at most two: more is
    ambiguous all the same)."""
    _, low, high = _index_bounds(index, int(prefix[:2], 16))
    names = 8 + 256 * 4
    found: set[str] = set()
    for k in range(low, high):
        name = index[names + k * 20 : names + k * 20 + 20].hex()
        if name.startswith(prefix):
            found.add(name)
            if len(found) > 1:
                break
    return found
