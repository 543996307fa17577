"""Fixtures for the end-to-end tests that drive the real agent CLIs.

Every test here is marked ``e2e`` (select with ``-m e2e``, leave out with ``-m "not e2e"``). When
the harness, an agent CLI or the ``clearance`` binary is missing the tests FAIL with what to
install: a silently skipped end-to-end test proves nothing. ``CLEARANCE_SKIP_E2E=1`` turns those
failures into skips for machines that deliberately cannot run them.
"""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import pytest

from .harness import SKIP_ENV, E2ESession, E2EUnavailable, skip_requested


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "e2e: runs a real agent CLI (Claude Code, Gemini CLI, Codex) against a fake model server",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark everything under tests/e2e, so ``-m "not e2e"`` can leave the slow tests out."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.e2e)


def unavailable(exc: E2EUnavailable) -> NoReturn:
    """Fail (or, when explicitly asked, skip) a test that cannot reach the real agents."""
    if skip_requested():
        pytest.skip(f"{exc} ({SKIP_ENV}=1)")
    pytest.fail(f"{exc}\n(set {SKIP_ENV}=1 to skip the e2e tests on purpose)", pytrace=False)


@pytest.fixture
def e2e() -> E2ESession:
    """Entry point of every e2e test; lookups happen in the test body, so absence FAILS it."""
    return E2ESession(on_unavailable=unavailable)
