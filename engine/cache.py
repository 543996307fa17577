"""The compiled-policy cache: validated pack data on disk, keyed by what was loaded.

Loading a policy costs YAML parsing, pydantic validation and the examples check -- far more
than a hook may spend. The result (plain pack data) is stored as JSON under
``$CLEARANCE_CACHE_DIR`` (else ``$XDG_CACHE_HOME/clearance``, else ``~/.cache/clearance``).
An entry is used only when every file it was built from still has the same sha256, so an
edit, an added ``extends`` target or a new clearance version all miss. Entries carry an HMAC
under a key kept beside them (mode 0600): a planted entry that allows more than the files say
does not verify.

Nothing in the directory is trusted on sight. The directory must be this user's, not a link,
mode 0700; the key and every entry regular files of this user's, readable by nobody else,
opened without following links and without blocking (a FIFO is refused, never waited on).
Anything off is a miss -- slower, never wrong. A key of the wrong size or kind is replaced
(which invalidates every entry), never left to switch caching off for good. Writes go to a new
file with a random name (``O_EXCL``), then are renamed over the entry; an unwritable cache only
costs speed.

A policy that fails to load is cached too (``error-<key>.json``, the same checks and HMAC):
its issues are replayed while none of the files it names has changed, so a broken -- or
hostile -- project policy costs each later hook call a file hash, not another full load.
"""

from __future__ import annotations

import json
import os

from clearance import __version__
from clearance.engine.digest import compare_digest, hmac_sha256_hex, sha256_hex, sha256_stream
from clearance.engine.safefiles import (
    create_exclusive,
    private_dir,
    read_file,
    write_atomic,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Final

    from clearance.engine.types import PackData

KEY_BYTES: Final = 32
#: A cache entry larger than this is not one clearance wrote.
MAX_ENTRY_BYTES: Final = 32 * 1024 * 1024
#: A policy file larger than this is not hashed (and not loaded: see the loader's limit).
MAX_SOURCE_BYTES: Final = 8 * 1024 * 1024


def cache_dir(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    explicit = env.get("CLEARANCE_CACHE_DIR")
    if explicit:
        return explicit
    base = env.get("XDG_CACHE_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".cache"
    )
    return os.path.join(base, "clearance")


def file_digest(path: str) -> str | None:
    """sha256 of the regular file ``path`` (a link to one is followed), ``None`` when it is
    missing, unreadable, not a regular file, or too large."""
    try:
        return sha256_hex(read_file(path, limit=MAX_SOURCE_BYTES, owned=False, follow=True))
    except OSError:
        return None


def key_for(sources: list[tuple[str, str]], extra: str = "") -> str:
    h = sha256_stream()
    h.update(f"clearance {__version__}\n{extra}\n".encode())
    for scope, path in sources:
        h.update(f"{scope}\0{os.path.abspath(path)}\n".encode())
    return str(h.hexdigest())[:32]


def _usable_dir(directory: str) -> bool:
    """The cache directory exists and is this user's, not a link, mode 0700."""
    import stat

    try:
        info = os.lstat(directory)
    except OSError:
        return False
    return bool(
        stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o077
    )


def _secret(directory: str, create: bool) -> bytes | None:
    """The cache key, or ``None``. With ``create``, a missing key is made and a broken one
    (wrong size, wrong owner or mode, a link, a FIFO) is replaced."""
    path = os.path.join(directory, "key")
    try:
        secret = read_file(path, limit=4096, owned=True, private=True)
        if len(secret) == KEY_BYTES:
            return secret
    except FileNotFoundError:
        pass
    except OSError:
        if not create:
            return None
        try:  # a link, FIFO or foreign file: take it away (unlink never follows a link)
            os.unlink(path)
        except IsADirectoryError:
            return None
        except OSError:
            return None
    if not create:
        return None
    fresh = os.urandom(KEY_BYTES)
    try:
        if not create_exclusive(path, fresh):
            write_atomic(path, fresh)  # a broken key: replace it
        secret = read_file(path, limit=4096, owned=True, private=True)
    except OSError:
        return None
    return secret if len(secret) == KEY_BYTES else None


def _mac(secret: bytes, body: str) -> str:
    return hmac_sha256_hex(secret, body.encode())


def load(key: str, env: Mapping[str, str] | None = None) -> list[PackData] | None:
    directory = cache_dir(env)
    if not _usable_dir(directory):
        return None
    entry = _read_entry(os.path.join(directory, f"policy-{key}.json"), directory)
    packs = None if entry is None else entry.get("packs")
    return packs if isinstance(packs, list) else None


def store(key: str, packs: list[PackData], env: Mapping[str, str] | None = None) -> None:
    files: dict[str, str] = {}
    for pack in packs:
        path = str(pack["path"])
        if os.path.isabs(path):
            files[path] = str(pack["digest"])
    _write_entry(
        f"policy-{key}.json", {"version": __version__, "files": files, "packs": packs}, env
    )


def _write_entry(name: str, entry: dict[str, object], env: Mapping[str, str] | None) -> None:
    """Write ``entry`` as the cache file ``name``, under the cache's key (its MAC first);
    nothing when the cache directory or key cannot be had."""
    body = json.dumps(entry, separators=(",", ":"))
    directory = cache_dir(env)
    try:
        private_dir(directory)  # made 0700, or tightened if it is ours; refused otherwise
        secret = _secret(directory, create=True)
        if secret is None:
            return
        target = os.path.join(directory, name)
        write_atomic(target, (_mac(secret, body) + "\n" + body).encode("utf-8"))
    except (OSError, UnicodeEncodeError):
        return


def _read_entry(path: str, directory: str) -> dict[str, Any] | None:
    try:
        raw = read_file(path, limit=MAX_ENTRY_BYTES, owned=True, private=True)
        mac, _, body = raw.decode("utf-8").partition("\n")
    except (OSError, UnicodeDecodeError):
        return None
    secret = _secret(directory, create=False)
    if secret is None or not compare_digest(mac, _mac(secret, body)):
        return None
    try:
        entry = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("version") != __version__:
        return None
    files = entry.get("files")
    if not isinstance(files, dict):
        return None
    for file_path, digest in files.items():
        if file_digest(str(file_path)) != digest:
            return None
    return {str(k): v for k, v in entry.items()}


def load_error(key: str, env: Mapping[str, str] | None = None) -> list[dict[str, object]] | None:
    """The issues of a policy set that failed to load, while its files are unchanged."""
    directory = cache_dir(env)
    if not _usable_dir(directory):
        return None
    entry = _read_entry(os.path.join(directory, f"error-{key}.json"), directory)
    issues = entry.get("issues") if entry is not None else None
    if not isinstance(issues, list) or not issues:
        return None
    return [dict(i) for i in issues if isinstance(i, dict)] or None


def store_error(
    key: str,
    issues: list[dict[str, object]],
    paths: list[str],
    env: Mapping[str, str] | None = None,
) -> None:
    """Remember that the files ``paths`` (every file the failed load read, or that an issue
    names) did not load; a missing file is remembered as missing."""
    files: dict[str, str | None] = {}
    for path in paths:
        if os.path.isabs(path):
            files[path] = file_digest(path)
    _write_entry(
        f"error-{key}.json", {"version": __version__, "files": files, "issues": issues}, env
    )
