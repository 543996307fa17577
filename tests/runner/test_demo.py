"""The demo: a failing project, fixed by the scripted model under the default policy.

These run under the shipped default pack, so they also hold the default rules to what
the demo needs: the tests and the edit are allowed, `git reset --hard` and `rm -rf ~` are
denied by the rules named in the README.
"""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from clearance.cli.commands.run import RunArgs, run_run
from clearance.engine.ledger import default_ledger_path
from clearance.runner.bundled_demo import demo_files, prepare_workspace
from clearance.runner.events import read_events

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "demo"


@pytest.fixture(autouse=True)
def private_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


def _tree(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_the_packaged_demo_is_the_example() -> None:
    packaged = Path(str(demo_files()))
    assert (packaged / "script.yaml").read_bytes() == (EXAMPLE / "script.yaml").read_bytes()
    assert _tree(packaged / "repo") == _tree(EXAMPLE / "repo")


def _unittest(workspace: Path) -> int:
    return subprocess.run(
        [sys.executable, "-m", "unittest", "-q"], cwd=workspace, capture_output=True, check=False
    ).returncode


def test_the_demo_project_fails_its_tests_until_fixed() -> None:
    assert _unittest(prepare_workspace()) == 1


def test_the_demo_fixes_the_bug_and_survives_two_denials() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_run(RunArgs(), out=out, err=err) == 0, err.getvalue()
    text = out.getvalue()
    workspace = Path(text.split("demo: a fresh copy of the demo project in ", 1)[1].split()[0])
    assert _unittest(workspace) == 0
    log = Path(text.split("log: ", 1)[1].split()[0])
    events = read_events(log).events
    decisions = {
        str(event["decision"]["subject"]): (event["outcome"], event["decision"]["policy_id"])  # type: ignore[index]
        for event in events
        if event["type"] == "tool.approval"
    }
    assert decisions["git reset --hard"] == ("deny", "default/no-git-history-rewrite")
    assert decisions["rm -rf ~"] == ("deny", "default/no-delete-root-or-home")
    assert decisions["python3 -m unittest"][0] == "allow"
    assert decisions["python3 -m unittest -v"][0] == "allow"
    assert decisions["cart.py"][0] == "allow"  # the read and the edit
    assert events[-1]["reason"] == "final_answer"
    assert "DENY  default/no-git-history-rewrite" in text
    assert "run finished: final_answer after 8 turn(s), 8 tool call(s)" in text
    ledger = Path(default_ledger_path(str(workspace)))
    assert len(ledger.read_text().splitlines()) == 8


def test_the_demo_runs_again_from_the_same_failing_state() -> None:
    first, second = io.StringIO(), io.StringIO()
    assert run_run(RunArgs(max_turns=1), out=first, err=io.StringIO()) == 3
    assert run_run(RunArgs(max_turns=1), out=second, err=io.StringIO()) == 3
    for out in (first, second):
        assert "nonzero_exit: FAILED (failures=1)" in out.getvalue()
