"""The whole suite runs on this checkout: ``clearance`` imports from the repository root (its
``clearance/`` folder links the top-level packages), in this process and in every subprocess a
test starts (``python -m clearance``, the ``clearance`` script, agent CLIs running the hook).

``CLEARANCE_TEST_INSTALLED=1`` runs it against the installed copy instead (the venv's
site-packages: the compiled build of ``pip install .``): the checkout is taken off ``sys.path``
here and kept off every subprocess's path (``PYTHONSAFEPATH``: no current directory first);
``tests/test_build.py`` proves which copy was imported. The tests themselves stay in the
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


@pytest.fixture(autouse=True)
def _private_state_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """clearance's own state (ledgers, the ledger key) goes to a fresh directory per test,
    never to the real ``~/.local/state/clearance`` (tests that need their own set it again)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("xdg-state")))


#: Tests that replace a function inside a compiled module (``monkeypatch.setattr(api,
#: "load_policy", …)``): compiled callers call the original directly, so against the compiled
#: build they test nothing. Skipped there, named here, until each is rewritten to test
#: behaviour (issue 16); the pure runs keep them.
PATCHES_COMPILED_INTERNALS = frozenset(
    {
        "tests/hooks/test_hook_protocols.py::test_a_bug_inside_the_hook_blocks",
        "tests/hooks/test_hook_protocols.py::test_a_protocol_that_cannot_load_still_blocks",
        "tests/hooks/test_hook_deadline.py::test_an_embedding_process_gets_its_signal_handlers_back",
        "tests/engine/test_replay_ledger.py::test_scopes_at_each_records_directory_are_used_without_files",
        "tests/engine/test_ledger_evidence.py::test_outside_any_project_the_user_ledger",
        "tests/shellparse/test_parser_errors.py::test_recursion_error_is_a_depth_limit",
        "tests/cli/test_gate.py::test_policy_is_loaded_once",
        "tests/cli/test_gate.py::test_scopes_are_loaded_once_per_directory",
        "tests/cli/test_gate.py::test_a_bug_on_one_line_denies_that_line_only",
    }
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("CLEARANCE_TEST_INSTALLED") != "compiled":
        return
    skip = pytest.mark.skip(reason="patches a function of a compiled module (to be rewritten)")
    for item in items:
        if item.nodeid.split("[")[0] in PATCHES_COMPILED_INTERNALS:
            item.add_marker(skip)
