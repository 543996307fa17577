"""Output too long to show: cut it for the model, keep all of it on disk.

The model sees the head and the tail of a long output (a failing test run's summary is at
the end, the first error at the start) with the cut said out loud, and the whole output
is saved as an artifact under the run's directory so nothing is lost, only not shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Capped:
    """Text as shown, and how much of the original was left out."""

    shown: str
    omitted_chars: int

    @property
    def truncated(self) -> bool:
        return self.omitted_chars > 0


def cap_text(text: str, limit: int) -> Capped:
    """At most `limit` characters of `text`: its head and its tail around a marker line."""
    if len(text) <= limit:
        return Capped(text, 0)
    head = limit * 2 // 5
    tail = limit - head
    omitted = len(text) - head - tail
    marker = f"\n[... {omitted} characters omitted ...]\n"
    return Capped(text[:head] + marker + text[len(text) - tail :], omitted)


def save_artifact(directory: Path, name: str, data: bytes) -> Path:
    """Write `data` to `directory/name` (creating the directory) and return the path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_bytes(data)
    return path
