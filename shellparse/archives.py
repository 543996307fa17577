"""What an extraction writes: the members of a tar or zip archive, read at decision time.

``tar -x`` and ``unzip`` write the archive's members under their destination, over files
that are there. The member names are facts of the machine: read here (bounded by size, count
and format), each member is a path the command writes, so the rules on write-then-run files,
clearance's own state and places outside the workspace apply to it like to any write. A member
that would land outside the destination -- an absolute name, a ``..`` component, a link whose
target leaves it -- is the ``archive_escape`` marker (GNU tar and unzip strip such names by
default, ``tar -P`` and other extractors do not; nothing about it is routine).

An archive that is not there, not readable, too large or not understood is not listed: the
destination directory alone is the write, as without this module.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.classifier import Classifier
    from clearance.shellparse.expand import Env
    from clearance.shellparse.facts import SimpleCommandFacts

#: Bounds on what is read: the archive's size on disk (a compressed tar is read through to
#: list it) and the number of members listed.
MAX_ARCHIVE_BYTES: Final = 32 * 1024 * 1024
MAX_MEMBERS: Final = 4096
#: Members recorded as write paths, at most (beyond, only those that matter to a rule: hidden
#: or autorun files, and every escape).
MAX_WRITE_PATHS: Final = 256


class Member:
    """One member: its name, and the target of a link member (``None`` for files)."""

    __slots__ = ("link", "name")

    def __init__(self, name: str, link: str | None = None) -> None:
        self.name = name
        self.link = link


def _errors() -> tuple[type[BaseException], ...]:
    """What reading an archive raises when it is not understood (the decompressors' own
    errors included)."""
    import lzma
    import tarfile
    import zipfile
    import zlib

    return (
        tarfile.TarError,
        zipfile.BadZipFile,
        lzma.LZMAError,
        zlib.error,
        OSError,
        EOFError,
        ValueError,
        RuntimeError,
        NotImplementedError,
        UnicodeError,
    )


def _tar_members(path: str) -> list[Member] | None:
    import tarfile

    out: list[Member] = []
    try:
        with tarfile.open(path, "r:*") as archive:
            while True:
                info = archive.next()
                if info is None:
                    return out
                link = info.linkname if (info.issym() or info.islnk()) else None
                out.append(Member(info.name, link))
                if len(out) > MAX_MEMBERS:
                    return None
    except _errors():
        return None


def _zip_members(path: str) -> list[Member] | None:
    import zipfile

    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_MEMBERS:
                return None
            out = []
            for info in infos:
                # a zip symlink: Unix mode S_IFLNK in the external attributes, target as content
                link = None
                if (info.external_attr >> 16) & 0o170000 == 0o120000 and info.file_size < 4096:
                    link = archive.read(info).decode("utf-8", "replace")
                out.append(Member(info.filename, link))
            return out
    except _errors():
        return None


def members(path: str | None, kind: str) -> list[Member] | None:
    """The members of the archive at ``path`` (resolved), ``kind`` ``"tar"`` or ``"zip"``;
    ``None`` when it is not there, not a regular file, too large or not understood."""
    if not path:
        return None
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > MAX_ARCHIVE_BYTES:
            return None
    except OSError:
        return None
    return _tar_members(path) if kind == "tar" else _zip_members(path)


def escapes(name: str, link: str | None = None) -> bool:
    """Whether a member named ``name`` (or the link target it holds) lands outside the
    directory it is extracted into."""
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return True
    depth = 0
    for part in name.replace("\\", "/").split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part not in ("", "."):
            depth += 1
    if link is None:
        return False
    if link.startswith("/"):
        return True
    # a link's target is relative to the directory holding the link
    base = name.replace("\\", "/").rstrip("/").split("/")[:-1]
    return escapes("/".join([*base, link]))


def stripped(name: str) -> str:
    """The name an extractor writes by default: leading ``/`` and ``./`` removed."""
    while name.startswith(("/", "./")):
        name = name[1:] if name.startswith("/") else name[2:]
    return name


def worth_recording(name: str) -> bool:
    """Whether a member matters to a rule by its name even among many: a hidden component
    (``.git``, ``.claude``, ``.clearance``, ``.envrc``…) or a file tools run later."""
    from clearance.shellparse.knowledge.autorun import runs_later

    parts = [p for p in name.split("/") if p not in ("", ".")]
    return any(p.startswith(".") for p in parts) or runs_later("/".join(parts))


def record(
    c: Classifier,
    fact: SimpleCommandFacts,
    archive: str | None,
    destination: str | None,
    env: Env,
    kind: str,
    cwd: str | None = None,
    archive_cwd: str | None = None,
) -> None:
    """The writes of extracting ``archive`` (as written) into ``destination`` (``None``:
    the working directory): every member under the destination (all of them up to
    ``MAX_WRITE_PATHS``, beyond that the hidden and autorun ones), and ``archive_escape`` for
    a member that lands outside it. ``cwd``: where the members land relative to (default: the
    working directory); ``archive_cwd``: where ``archive`` is opened from, when the program
    changed directory only for its members (``tar -C``: the archive is opened first)."""
    from clearance.shellparse.paths import resolve

    if not archive or "$" in archive:
        return
    base = env.cwd if cwd is None else cwd
    found = members(resolve(archive, archive_cwd or base, c.home), kind)
    if not found:
        return
    where = (destination or ".").rstrip("/") or "/"
    many = len(found) > MAX_WRITE_PATHS
    for member in found:
        if escapes(member.name, member.link):
            fact.markers.add("archive_escape")
            continue
        name = stripped(member.name)
        if not name or (many and not worth_recording(name)):
            continue
        c.add_path(fact, f"{where}/{name}", "write", env, cwd=cwd)
