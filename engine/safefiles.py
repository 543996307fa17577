"""Files clearance reads and writes, opened so that a planted link or FIFO cannot redirect them.

Every file clearance writes (the ledger, its head, its key, the policy cache and its key) is
opened with ``O_NOFOLLOW`` (a symbolic link as the last component is refused, never followed)
and ``O_NONBLOCK`` (a FIFO cannot hang the open), then checked with ``fstat``: a regular file,
owned by this user. Files are created with mode 0600, temporary files exclusively (``O_EXCL``,
random names) beside their target, then renamed over it. Directories clearance owns are
created 0700 and checked the same way (not a link, a directory, owned by this user).

Everything wrong is an :class:`UnsafeFile` -- an ``OSError``, so callers that already treat an
unreadable file as "fail closed" (the ledger) or "miss" (the cache) do so here too -- whose
message says what was found, for the reason a blocked call shows.

Stdlib only, cheap imports: this is on the hook's path.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat

#: Nothing clearance reads back is ever larger than this by default (a policy cache entry,
#: a head file, a key): a bigger file is not one clearance wrote.
DEFAULT_READ_LIMIT = 64 * 1024 * 1024


class UnsafeFile(OSError):
    """A file or directory that is not what clearance would have created there."""


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def check_stat(path: str, info: os.stat_result, *, owned: bool, private: bool) -> None:
    """Raise :class:`UnsafeFile` unless ``info`` is a regular file (owned by this user, and
    with ``private`` readable by nobody else)."""
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeFile(f"{path} is {_kind(info.st_mode)}: refused")
    if owned and info.st_uid != os.geteuid():
        raise UnsafeFile(f"{path} is owned by uid {info.st_uid}, not by this user: refused")
    if private and info.st_mode & 0o077:
        raise UnsafeFile(
            f"{path} has mode {stat.S_IMODE(info.st_mode):04o}; it must be readable by its "
            "owner only (0600): refused",
        )


def open_file(
    path: str,
    flags: int,
    *,
    create: bool = False,
    mode: int = 0o600,
    owned: bool = True,
    private: bool = False,
    follow: bool = False,
) -> int:
    """A descriptor on the regular file ``path`` (blocking again once checked).

    ``create`` makes it (exclusively, with ``mode``) when it does not exist. Without
    ``follow``, a symbolic link at ``path`` is refused; a FIFO, device, directory or a file of
    another user (``owned``) always is.
    """
    base = flags | os.O_CLOEXEC | os.O_NONBLOCK | (0 if follow else os.O_NOFOLLOW)
    fd = -1
    for _attempt in range(3):
        try:
            fd = os.open(path, base)
            break
        except FileNotFoundError:
            if not create:
                raise
        except OSError as exc:
            raise _explain(path, exc) from None
        try:
            fd = os.open(path, base | os.O_CREAT | os.O_EXCL, mode)
            break
        except FileExistsError:
            continue  # another writer created it first: open that one
        except OSError as exc:
            raise _explain(path, exc) from None
    if fd < 0:
        raise UnsafeFile(f"{path} keeps appearing and disappearing: refused")
    try:
        check_stat(path, os.fstat(fd), owned=owned, private=private)
        status = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, status & ~os.O_NONBLOCK)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _explain(path: str, exc: OSError) -> OSError:
    if exc.errno == errno.ELOOP:
        return UnsafeFile(f"{path} is a symbolic link: refused (not followed)")
    if exc.errno == errno.ENXIO:
        return UnsafeFile(f"{path} is a FIFO or socket: refused")
    return exc


def read_file(
    path: str,
    *,
    limit: int = DEFAULT_READ_LIMIT,
    owned: bool = True,
    private: bool = False,
    follow: bool = False,
) -> bytes:
    """The bytes of the regular file ``path``; :class:`UnsafeFile` when it holds more than
    ``limit`` bytes (it is then not a file clearance wrote, or not one it should read whole)."""
    fd = open_file(path, os.O_RDONLY, owned=owned, private=private, follow=follow)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise UnsafeFile(f"{path} is {size} bytes, over the limit of {limit}")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise UnsafeFile(f"{path} grew over the limit of {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _new_beside(path: str, mode: int) -> tuple[str, int]:
    """A new file with a random name beside ``path`` (``O_EXCL``: never an existing file or
    link), open for writing: its name and descriptor."""
    directory, name = os.path.split(path)
    temporary = os.path.join(directory, f".{name}.{os.urandom(8).hex()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    return temporary, os.open(temporary, flags, mode)


def write_atomic(path: str, data: bytes, *, mode: int = 0o600, durable: bool = False) -> None:
    """Replace ``path`` by a file holding ``data``: written to a new file with a random name
    beside it (``O_EXCL``: never an existing file or link), then renamed over ``path`` (a link
    at ``path`` is replaced, never followed)."""
    temporary, fd = _new_beside(path, mode)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if durable:
            os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(temporary, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:  # noqa: SIM105 -- keep contextlib off the hook's import path
            os.unlink(temporary)
        except OSError:
            pass
        raise


def create_exclusive(path: str, data: bytes, *, mode: int = 0o600) -> bool:
    """Create ``path`` holding ``data`` only if nothing is there yet, all at once (a reader
    never sees it half written): ``True`` if this call created it, ``False`` if it existed."""
    temporary, fd = _new_beside(path, mode)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(temporary, path)
        return True
    except FileExistsError:
        return False
    finally:
        try:  # noqa: SIM105
            os.unlink(temporary)
        except OSError:
            pass


def private_dir(path: str, *, tighten: bool = True) -> str:
    """``path`` as a directory of this user's, not a link, mode 0700: created (with its
    parents) when missing; an existing one of ours that others can enter is tightened (or,
    without ``tighten``, refused)."""
    parent = os.path.dirname(path)
    if parent and not os.path.isdir(parent):
        os.makedirs(parent, exist_ok=True)  # ~/.local/state: the usual modes, not ours to narrow
    try:  # noqa: SIM105
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeFile(f"{path} is {_kind(info.st_mode)}, not a directory: refused")
    if info.st_uid != os.geteuid():
        raise UnsafeFile(f"{path} is owned by uid {info.st_uid}, not by this user: refused")
    if info.st_mode & 0o077:
        if not tighten:
            raise UnsafeFile(
                f"{path} has mode {stat.S_IMODE(info.st_mode):04o}; it must be 0700: refused",
            )
        os.chmod(path, 0o700)
    return path


def fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory or ".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EBADF):
            raise
    finally:
        os.close(fd)
