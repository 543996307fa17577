"""What a credential looks like as text: the one matcher of credential-shaped strings.

A query or URL carrying one sends the secret out (``tools.carries_secret``); a file whose
name is not a secret's but that shares its content with another name (a hard link: what it
is cannot be told from this name) is judged by what it holds (``world``).
"""

from __future__ import annotations

import os
import re
import stat

from clearance.shellparse.handlers.common import Lazy
from clearance.shellparse.resolve import racy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: Tokens of the common services, private keys and JWTs, by their shape.
_TOKENS: Final = (
    r"AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|glpat-[A-Za-z0-9_-]{20,}"
    r"|sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}"
    r"|AIza[0-9A-Za-z_-]{35}|ya29\.[0-9A-Za-z_-]{20,}|npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,}"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----"
    r"|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"
)

#: Credential-shaped strings in a query or URL: a token, or a secret-named parameter with a
#: value (``?api_key=…``, ``password:…``).
CREDENTIAL: Final = Lazy(
    _TOKENS + r"|(?:password|passwd|secret|token|api[_-]?key)[=:]\s*[^\s&]{8,}",
    re.IGNORECASE,
)

#: Credential-shaped text in a file: a token, or a line of a credential file's own format --
#: dotenv (``DB_PASSWORD=…``, ``export API_TOKEN=…``: upper case, no space around ``=``, so
#: not a program's constant), AWS's INI (``aws_secret_access_key = …``), ``.netrc``
#: (``machine H login U password P``). Code that merely names a password is none of these.
_IN_FILE: Final = Lazy(
    r"(?i:" + _TOKENS + r")"
    r"|^(?:export[ \t]+)?[A-Z0-9_]*"
    r"(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?)"
    r"[A-Z0-9_]*=[^\s=]"
    r"|^[ \t]*(?i:aws_secret_access_key|aws_session_token)[ \t]*=[ \t]*\S"
    r"|^[ \t]*(?:machine[ \t]+\S+|default)\b.*\bpassword[ \t]+\S",
    re.MULTILINE,
)

#: The literal runs one of which every match of ``_IN_FILE`` holds, by branch: a token (case
#: insensitive: in lower case, after ``_ASCII_FOLDS``) or AWS's key names (the same), a dotenv
#: line's key word (upper case, and an ``=``), ``.netrc``'s ``password``. Looking for them is
#: a few scans in C; the expression tries every branch at every position (10 ms for 64 KB of
#: an executable, and 4 ms to compile it first).
_FOLDED_RUNS: Final = (
    "akia",
    "asia",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "sk-",
    "xox",
    "aiza",
    "ya29.",
    "npm_",
    "pypi-",
    "-----begin ",
    "eyj",
    "aws_secret_access_key",
    "aws_session_token",
)
_DOTENV_RUNS: Final = (
    "SECRET",
    "TOKEN",
    "PASSWORD",
    "PASSWD",
    "APIKEY",
    "API_KEY",
    "ACCESSKEY",
    "ACCESS_KEY",
    "PRIVATEKEY",
    "PRIVATE_KEY",
    "CREDENTIAL",
)
#: The characters other than ASCII that ``re`` matches case-insensitively with an ASCII
#: letter (dotted and dotless I, the long s, the Kelvin sign), as that letter.
_ASCII_FOLDS: Final = {0x130: "i", 0x131: "i", 0x17F: "s", 0x212A: "k"}


def _may_hold(text: str) -> bool:
    """Whether ``text`` holds one of the literal runs a match of ``_IN_FILE`` needs (never
    ``False`` where it matches: ``tests/shellparse/test_credentials.py`` checks both)."""
    if not text.isascii() and any(chr(c) in text for c in _ASCII_FOLDS):
        folded = text.translate(_ASCII_FOLDS).lower()
    else:
        folded = text.lower()
    if any(run in folded for run in _FOLDED_RUNS):
        return True
    if "password" in text:
        return True
    return "=" in text and any(run in text for run in _DOTENV_RUNS)


#: How much of a file is looked at: a credential file is small, and its secret near the top.
SNIFF_BYTES: Final = 64 * 1024


def credential_shaped(text: str) -> bool:
    return CREDENTIAL.rx.search(text) is not None


def holds_credential(path: str) -> bool:
    """Whether the regular file ``path`` holds credential-shaped text in its first
    ``SNIFF_BYTES`` (a token, a private key, a credential file's line). ``False`` when
    it is not a regular file or cannot be read (the command could not read it either)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return False
        # the answer for this content, if a decision of this process read it before
        key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        known = _SNIFFED.get(key)
        if known is not None:
            return known
        data = os.read(fd, SNIFF_BYTES)
    except OSError:
        return False
    finally:
        os.close(fd)
    text = data.decode("utf-8", "replace")
    found = _may_hold(text) and _IN_FILE.rx.search(text) is not None
    if not racy(info.st_mtime_ns) and not racy(info.st_ctime_ns):
        if len(_SNIFFED) >= MAX_SNIFFED:
            _SNIFFED.clear()
        _SNIFFED[key] = found
    return found


#: What ``holds_credential`` found, by the file's identity, size and times (``fstat`` of the
#: file it opened): the same content is read once per process -- an executable with other
#: names (``/bin/bash``, ``perl``) costs a 64 KB regex search each time a line names it. An
#: entry is kept only when the file last changed longer ago than ``resolve.RACY_NS``, since
#: two writes within one tick of the clock leave the same times.
_SNIFFED: Final[dict[tuple[int, int, int, int, int], bool]] = {}
MAX_SNIFFED: Final = 4096


__all__ = ["CREDENTIAL", "SNIFF_BYTES", "credential_shaped", "holds_credential"]
