"""`clearance run`: options, exit statuses, and replay from the command line."""

from __future__ import annotations

import io
import tempfile
import textwrap
from pathlib import Path

import pytest

from clearance.cli.app import run_app
from clearance.cli.commands.run import RunArgs, run_run
from clearance.engine.ledger import default_ledger_path

SCRIPT = """
turns:
  - tool_calls: [{tool: bash, input: {command: "echo from-the-script"}}]
  - text: "Finished."
"""


@pytest.fixture(autouse=True)
def private_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


@pytest.fixture
def script_file(tmp_path: Path) -> str:
    path = tmp_path / "script.yaml"
    path.write_text(textwrap.dedent(SCRIPT))
    return str(path)


def _run(args: RunArgs) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_run(args, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_a_scripted_run_in_a_workspace_shows_each_stage(
    script_file: str, workspace: Path, policy_file: str
) -> None:
    log = workspace.parent / "run.jsonl"
    code, out, _ = _run(
        RunArgs(
            task="say something",
            script=script_file,
            workspace=str(workspace),
            policies=[policy_file],
            log=str(log),
            no_ledger=True,
        )
    )
    assert code == 0
    assert "  [1] bash: echo from-the-script" in out
    assert "  [1]   decision  ALLOW  test/allow-harmless" in out
    assert "  [1]   ran       exit 0" in out
    assert "  [1]   observed  ok: from-the-script" in out
    assert "answer: Finished." in out
    assert f"log: {log}" in out
    assert not Path(default_ledger_path(str(workspace))).exists()
    assert not (workspace / ".clearance" / "ledger.jsonl").exists()


def test_usage_mistakes_exit_2_with_a_message(script_file: str, workspace: Path) -> None:
    cases = [
        (RunArgs(workspace=str(workspace)), "fresh copy of its own project"),
        (RunArgs(script=script_file), "give the TASK"),
        (RunArgs(task="t", on_ask="maybe"), "--on-ask"),
        (RunArgs(task="t", provider="gemini"), "--provider"),
        (RunArgs(task="t", script=str(workspace / "none.yaml")), "cannot read script"),
        (RunArgs(task="t", provider="openai"), "needs `model`"),
        (RunArgs(task="t", script=script_file, workspace=str(workspace / "x")), "not a directory"),
        (RunArgs(task="t", max_turns=0), "--max-turns"),
    ]
    for args, message in cases:
        code, _, err = _run(args)
        assert (code, message in err) == (2, True), (args, err)


def test_a_broken_policy_refuses_to_start_with_file_and_line(
    script_file: str, workspace: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "bad.yaml"
    broken.write_text("version: 1\nid: b\nrules:\n  - id: r\n    decision: perhaps\n")
    code, out, err = _run(
        RunArgs(task="t", script=script_file, workspace=str(workspace), policies=[str(broken)])
    )
    assert code == 2
    assert f"{broken}:5" in out
    assert "the run did not start" in err


def test_limits_have_their_own_exit_statuses(
    script_file: str, workspace: Path, policy_file: str
) -> None:
    common = {"script": script_file, "workspace": str(workspace), "policies": [policy_file]}
    assert _run(RunArgs(task="t", max_turns=1, **common))[0] == 3  # type: ignore[arg-type]
    assert _run(RunArgs(task="t", max_tool_calls=0, **common))[0] == 4  # type: ignore[arg-type]


def test_replay_from_the_command_line(script_file: str, workspace: Path, policy_file: str) -> None:
    log = workspace.parent / "run.jsonl"
    base = RunArgs(
        task="t", script=script_file, workspace=str(workspace), policies=[policy_file], log=str(log)
    )
    assert _run(base)[0] == 0
    code, out, _ = _run(RunArgs(replay=str(log), mode="trace"))
    assert code == 0 and "[1] bash: echo from-the-script" in out
    code, out, _ = _run(RunArgs(replay=str(log), mode="dry-run", policies=[policy_file]))
    assert code == 0 and "0 of 1 decision(s) would change" in out
    code, out, _ = _run(
        RunArgs(replay=str(log), mode="model", script=script_file, log=str(log) + ".model")
    )
    assert code == 0 and "nothing is executed" in out
    assert _run(RunArgs(replay=str(log), mode="rewind"))[0] == 2
    code, _, err = _run(base)  # the same --log again
    assert code == 2 and "the file exists" in err
    assert _run(RunArgs(replay=str(log), task="again"))[0] == 2
    code, _, err = _run(RunArgs(replay=str(workspace / "none.jsonl")))
    assert code == 2 and "cannot read the event log" in err


def test_the_typer_command_is_registered(
    script_file: str, workspace: Path, policy_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run_app(
        [
            "run",
            "--script",
            script_file,
            "--workspace",
            str(workspace),
            "--policy",
            policy_file,
            "--no-ledger",
            "--on-ask",
            "deny",
            "--max-turns",
            "5",
            "say something",
        ]
    )
    assert code == 0
    assert "answer: Finished." in capsys.readouterr().out
