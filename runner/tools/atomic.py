"""Replace a file's content all at once.

The new content goes to a temporary file beside the target, which then takes the
target's place with one rename: an interrupted edit leaves the old file or the new one,
never half of each. The target's permissions are kept, and a symlink is followed so the
file it points at changes, not the link.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path


def write_atomically(path: Path, data: bytes) -> None:
    """Make `path` hold exactly `data`; parent directories are created as needed."""
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if target.exists():
            shutil.copymode(target, temporary)
        else:
            os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
