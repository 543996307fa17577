"""The whole suite runs on this checkout: ``clearance`` imports from the repository root (its
``clearance/`` folder links the top-level packages), in this process and in every subprocess a
test starts (``python -m clearance``, the ``clearance`` script, agent CLIs running the hook).

``CLEARANCE_TEST_INSTALLED=compiled`` (or ``=pure``) runs it against the installed copy instead
(the venv's site-packages: ``pip install .``, compiled by default): the checkout is taken off
``sys.path`` here and kept off every subprocess's path (``PYTHONSAFEPATH``: no current directory
first); ``tests/test_build.py`` proves which copy was imported and that it is the build named.
Run it with ``python -P`` so that the checkout is not on the path before this file runs. Every
test runs in both builds: none replaces a function of a compiled module (compiled callers call
the original directly); they test behaviour through arguments, files, ``sys.modules`` and
audit hooks instead. The tests themselves stay in the
checkout (they read its README, policies and benchmarks as files)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The suite runs against the installed copy of clearance, not this checkout.
INSTALLED = os.environ.get("CLEARANCE_TEST_INSTALLED", "") not in ("", "0")


def _is_root(entry: str) -> bool:
    return os.path.realpath(entry or os.getcwd()) == str(ROOT)


if INSTALLED:
    sys.path[:] = [entry for entry in sys.path if not _is_root(entry)]
    _kept = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and not _is_root(p)]
    os.environ["PYTHONPATH"] = os.pathsep.join(_kept)
    os.environ["PYTHONSAFEPATH"] = "1"
    _early = sys.modules.get("clearance")
    if _early is not None and _is_root(os.path.dirname(os.path.dirname(_early.__file__ or ""))):
        raise SystemExit(
            "CLEARANCE_TEST_INSTALLED: clearance was already imported from the checkout"
        )
else:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    _prior = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(ROOT) if not _prior else os.pathsep.join((str(ROOT), _prior))


import pytest  # noqa: E402


@pytest.fixture
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The policy cache in the test's own directory (``CLEARANCE_CACHE_DIR``), never the
    user's. Not for every test (some test where the cache is by default): a directory's
    conftest or a module asks for it (``pytestmark = pytest.mark.usefixtures(...)``)."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("CLEARANCE_CACHE_DIR", str(cache))
    return cache


@pytest.fixture(autouse=True)
def _private_state_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """clearance's own state (ledgers, the ledger key) goes to a fresh directory per test,
    never to the real ``~/.local/state/clearance`` (tests that need their own set it again)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("xdg-state")))


#: Tests between two settlings of the suite's heap (``_settle_heap``).
SETTLE_EVERY = 200
_run: list[int] = [0]


def _settle_heap() -> None:
    """Collect, then put what survived out of the cyclic collector's sight (``gc.freeze``),
    between two tests. The suite's process keeps hundreds of thousands of objects (collected
    items, reports, per-process caches); without this, a full collection walks them all and
    may fall inside a test -- up to 0.3 s here, the time bound of a decision's walks, which
    turned a walking test's answer into ``unresolved`` on a loaded machine."""
    import gc

    gc.collect()
    gc.freeze()


def pytest_collection_finish(session: pytest.Session) -> None:
    _settle_heap()


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    _run[0] += 1
    if _run[0] % SETTLE_EVERY == 0:
        _settle_heap()
