"""The engine's tests, the service's and the CLI's audit and gate tests write the policy cache
into the test's own directory (``isolated_cache``, tests/conftest.py), never into the user's."""

from __future__ import annotations

import os
from pathlib import Path

from clearance.engine.api import load_policy
from clearance.engine.cache import cache_dir


def test_an_engine_test_caches_policies_in_its_own_directory(tmp_path: Path) -> None:
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    assert cache_dir() == str(tmp_path / "cache")
    load_policy(str(tmp_path / "repo"))
    assert os.listdir(tmp_path / "cache"), "nothing was cached where the fixture put the cache"


def test_the_fixture_names_the_directory_it_set(isolated_cache: Path, tmp_path: Path) -> None:
    assert isolated_cache == tmp_path / "cache"
    assert os.environ["CLEARANCE_CACHE_DIR"] == str(isolated_cache)
