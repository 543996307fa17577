"""The built-in demo: a small failing project and a scripted model that fixes it.

`clearance run` with no script plays it, so the whole pipeline (validation, policy
decisions, denials, execution, observations) can be seen without a model or an API key.
The project is copied into a fresh temporary directory first: the run edits it, and a
second run must start from the same failing state.
"""

from __future__ import annotations

import tempfile
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from clearance.runner.providers.scripted import ScriptedProvider

DEMO_TASK = "The test suite fails (python3 -m unittest). Find the bug and fix it."


def demo_files() -> Traversable:
    """The demo as shipped in the package: `script.yaml` and `repo/` (a hidden directory,
    so that type checkers walking the package leave the demo project's code alone)."""
    return resources.files("clearance.runner") / ".demo"


def demo_provider() -> ScriptedProvider:
    """The scripted model of the demo."""
    script = demo_files() / "script.yaml"
    return ScriptedProvider.from_text(script.read_text(encoding="utf-8"), source="demo/script.yaml")


def prepare_workspace(parent: Path | None = None) -> Path:
    """A fresh copy of the demo project in a new temporary directory (kept afterwards, so
    its event log can be read and replayed)."""
    workspace = Path(tempfile.mkdtemp(prefix="clearance-demo-", dir=parent))
    _copy(demo_files() / "repo", workspace)
    return workspace


def _copy(source: Traversable, target: Path) -> None:
    for entry in source.iterdir():
        if entry.name == "__pycache__":
            continue
        if entry.is_dir():
            (target / entry.name).mkdir()
            _copy(entry, target / entry.name)
        else:
            (target / entry.name).write_bytes(entry.read_bytes())
