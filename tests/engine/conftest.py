"""Fixtures of the engine tests: policies written to temporary files, an isolated cache."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from engine_support import Write


@pytest.fixture
def write_policy(tmp_path: Path) -> Write:
    counter = [0]

    def write(text: str, name: str | None = None) -> str:
        counter[0] += 1
        path = tmp_path / (name or f"policy{counter[0]}.yaml")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        return str(path)

    return write


@pytest.fixture(autouse=True)
def _own_policy_cache(isolated_cache: Path) -> None:
    """Every test here has a policy cache of its own (``isolated_cache``, tests/conftest.py)."""
