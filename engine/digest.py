"""sha256 and HMAC-SHA256 from CPython's built-in hash module.

``hashlib`` loads OpenSSL on import, which costs a hook process about 3 ms of its 50 ms; the
built-in ``_sha256`` (``_sha2`` on newer Pythons) computes the same digests. HMAC is the RFC
2104 construction over it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final


def _constructor() -> Any:
    for name in ("_sha256", "_sha2"):  # the built-in module's name varies by version
        try:
            return __import__(name).sha256
        except (ImportError, AttributeError):
            continue
    import hashlib

    return hashlib.sha256


_sha256: Any = _constructor()
compare_digest = __import__("_operator")._compare_digest

_BLOCK: Final = 64
_INNER: Final = bytes(range(256)).translate(bytes(b ^ 0x36 for b in range(256)))
_OUTER: Final = bytes(range(256)).translate(bytes(b ^ 0x5C for b in range(256)))


def sha256_hex(data: bytes) -> str:
    return str(_sha256(data).hexdigest())


def sha256_stream() -> Any:
    """A hash object to feed with ``update``."""
    return _sha256()


def hmac_sha256_hex(key: bytes, message: bytes) -> str:
    if len(key) > _BLOCK:
        key = _sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    inner = _sha256(key.translate(_INNER) + message).digest()
    return str(_sha256(key.translate(_OUTER) + inner).hexdigest())


__all__ = ["compare_digest", "hmac_sha256_hex", "sha256_hex", "sha256_stream"]
