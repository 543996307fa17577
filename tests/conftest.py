"""The whole suite runs on this checkout: ``clearance`` imports from the repository root (its
``clearance/`` folder links the top-level packages), in this process and in every subprocess a
test starts (``python -m clearance``, the ``clearance`` script, agent CLIs running the hook)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
_prior = os.environ.get("PYTHONPATH")
os.environ["PYTHONPATH"] = str(ROOT) if not _prior else os.pathsep.join((str(ROOT), _prior))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_state_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """clearance's own state (ledgers, the ledger key) goes to a fresh directory per test,
    never to the real ``~/.local/state/clearance`` (tests that need their own set it again)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("xdg-state")))
