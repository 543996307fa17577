"""The compiled-policy cache: validated pack data on disk, keyed by what was loaded.

Loading a policy costs YAML parsing, pydantic validation and the examples check -- far more
than a hook may spend. The result (plain pack data) is stored as JSON under
``$CLEARANCE_CACHE_DIR`` (else ``$XDG_CACHE_HOME/clearance``, else ``~/.cache/clearance``).
An entry is used only when every file it was built from still has the same sha256, so an
edit, an added ``extends`` target or a new clearance version all miss. Entries carry an HMAC
under a key kept beside them (mode 0600): a planted entry that allows more than the files say
does not verify. Writes are atomic (temporary file, then rename); an unwritable cache only
costs speed.
"""

from __future__ import annotations

import json
import os

from clearance import __version__
from clearance.engine.digest import compare_digest, hmac_sha256_hex, sha256_hex, sha256_stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


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
    try:
        with open(path, "rb") as fh:
            return sha256_hex(fh.read())
    except OSError:
        return None


def key_for(sources: list[tuple[str, str]], extra: str = "") -> str:
    h = sha256_stream()
    h.update(f"clearance {__version__}\n{extra}\n".encode())
    for scope, path in sources:
        h.update(f"{scope}\0{os.path.abspath(path)}\n".encode())
    return str(h.hexdigest())[:32]


def _secret(directory: str, create: bool) -> bytes | None:
    path = os.path.join(directory, "key")
    try:
        with open(path, "rb") as fh:
            secret = fh.read()
        if len(secret) == 32:
            return secret
    except OSError:
        pass
    if not create:
        return None
    secret = os.urandom(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return None
    with os.fdopen(fd, "wb") as fh:
        fh.write(secret)
    return secret


def _mac(secret: bytes, body: str) -> str:
    return hmac_sha256_hex(secret, body.encode())


def load(key: str, env: Mapping[str, str] | None = None) -> list[dict[str, object]] | None:
    directory = cache_dir(env)
    path = os.path.join(directory, f"policy-{key}.json")
    try:
        with open(path, encoding="utf-8") as fh:
            mac, _, body = fh.read().partition("\n")
    except OSError:
        return None
    secret = _secret(directory, create=False)
    if secret is None or not compare_digest(mac, _mac(secret, body)):
        return None
    try:
        entry = json.loads(body)
    except ValueError:
        return None
    if not isinstance(entry, dict) or entry.get("version") != __version__:
        return None
    files = entry.get("files")
    packs = entry.get("packs")
    if not isinstance(files, dict) or not isinstance(packs, list):
        return None
    for file_path, digest in files.items():
        if file_digest(file_path) != digest:
            return None
    return packs


def store(key: str, packs: list[dict[str, object]], env: Mapping[str, str] | None = None) -> None:
    files: dict[str, str] = {}
    for pack in packs:
        path = str(pack["path"])
        if os.path.isabs(path):
            files[path] = str(pack["digest"])
    entry = {"version": __version__, "files": files, "packs": packs}
    body = json.dumps(entry, separators=(",", ":"))
    directory = cache_dir(env)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        secret = _secret(directory, create=True)
        if secret is None:
            return
        target = os.path.join(directory, f"policy-{key}.json")
        temporary = f"{target}.{os.getpid()}.tmp"
        with open(temporary, "w", encoding="utf-8") as fh:
            fh.write(_mac(secret, body) + "\n" + body)
        os.replace(temporary, target)
    except OSError:
        return
