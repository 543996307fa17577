"""Read baselines: what a file looked like when the model last saw it.

An edit is only safe if it is based on the file as it is now. So reading a file records
its content hash and modification time, and a later edit or overwrite is refused when
there is no baseline (the model never looked) or when the content has changed since
(someone, or some command, changed it under the model's feet).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from .status import Status


@dataclass(frozen=True)
class Baseline:
    """The file's content hash, modification time and size at the moment it was read."""

    sha256: str
    mtime_ns: int
    size: int

    def to_dict(self) -> dict[str, object]:
        return {"sha256": self.sha256, "mtime_ns": self.mtime_ns, "size": self.size}


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class ReadBaselines:
    """Baselines by real path, for one run; the run's tools share one instance."""

    def __init__(self) -> None:
        self._by_path: dict[str, Baseline] = {}

    @staticmethod
    def _key(path: Path) -> str:
        return os.path.realpath(path)

    def record(self, path: Path, data: bytes) -> Baseline:
        """Remember `data` as what the model now knows `path` to contain."""
        stat = path.stat()
        baseline = Baseline(digest(data), stat.st_mtime_ns, len(data))
        self._by_path[self._key(path)] = baseline
        return baseline

    def get(self, path: Path) -> Baseline | None:
        return self._by_path.get(self._key(path))

    def check(self, path: Path) -> tuple[Status, str] | None:
        """`None` if `path` may be changed now; else the status and the reason why not.

        The content hash decides: a touched but identical file is still the file the model
        read, while a changed one is not, whatever its modification time says.
        """
        baseline = self.get(path)
        if baseline is None:
            return Status.NOT_READ_FIRST, "read the file with read_file before changing it"
        try:
            current = path.read_bytes()
        except FileNotFoundError:
            return Status.CHANGED_SINCE_READ, "the file was deleted after it was read"
        if digest(current) != baseline.sha256:
            return (
                Status.CHANGED_SINCE_READ,
                "the file changed after it was last read; read it again before changing it",
            )
        return None
