"""``clearance audit verify|show|tail|stats`` and ``clearance explain DECISION_ID``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ledger_support import (  # noqa: F401  (fixtures)
    POLICY,
    audit_process,
    ledger_fixture,
    policy_fixture,
)

from clearance.cli.commands.audit import (
    looks_like_decision_id,
    run_explain_recorded,
    run_show,
    run_stats,
    run_tail,
    run_verify,
)
from clearance.cli.commands.check import run_check
from clearance.engine.decision import ApprovalDecision
from clearance.engine.ledger import Ledger, read_records

pytestmark = pytest.mark.usefixtures("isolated_cache")


def io_pair() -> tuple[io.StringIO, io.StringIO]:
    return io.StringIO(), io.StringIO()


def test_verify_ok_and_broken(ledger: str) -> None:
    out, err = io_pair()
    assert run_verify(ledger, out=out, err=err) == 0
    assert "4 record(s), hash chain and MACs intact" in out.getvalue()
    lines = Path(ledger).read_text().splitlines(keepends=True)
    del lines[1]
    Path(ledger).write_text("".join(lines))
    out, err = io_pair()
    assert run_verify(ledger, out=out, err=err) == 1
    assert "first bad record 1 (deleted)" in out.getvalue()
    out, err = io_pair()
    assert run_verify(ledger, as_json=True, out=out, err=err) == 1
    body = json.loads(out.getvalue())
    assert body["ok"] is False and body["first_bad_record"] == 1 and body["kind"] == "deleted"


def test_verify_missing_ledger_is_a_usage_error(tmp_path: Path) -> None:
    out, err = io_pair()
    assert run_verify(str(tmp_path / "none.jsonl"), out=out, err=err) == 2
    assert "no ledger" in err.getvalue()


def test_verify_reports_a_repaired_torn_line(ledger: str, tmp_path: Path) -> None:
    with open(ledger, "ab") as fh:
        fh.write(b'{"cut')
    out, err = io_pair()
    assert run_verify(ledger, out=out, err=err) == 1
    assert "(torn)" in out.getvalue()
    decision = ApprovalDecision("allow", "rule_matched", "listing")
    Ledger(ledger).append(decision, None, surface="check")
    out, err = io_pair()
    assert run_verify(ledger, out=out, err=err) == 0
    assert "torn line of 5 bytes" in out.getvalue()


def test_show(ledger: str) -> None:
    records = list(read_records(ledger))
    target = str(records[1]["decision_id"])
    out, err = io_pair()
    assert run_show(target.lower(), ledger, out=out, err=err) == 0
    text = out.getvalue()
    assert "agent codex" in text and "DENY" in text and "a/no-rm" in text
    assert "rm -rf build" in text
    out, err = io_pair()
    assert run_show(target, ledger, as_json=True, out=out, err=err) == 0
    assert json.loads(out.getvalue()) == records[1]
    out, err = io_pair()
    assert run_show("01AAAAAAAAAAAAAAAAAAAAAAAA", ledger, out=out, err=err) == 2


def test_tail(ledger: str) -> None:
    out, err = io_pair()
    assert run_tail(ledger, lines=2, out=out, err=err) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert "DENY" in lines[0] and "a/no-rm" in lines[0] and "ls && rm x" in lines[0]
    assert "ASK" in lines[1] and "gemini-cli" in lines[1]
    out, err = io_pair()
    run_tail(ledger, lines=10, as_json=True, out=out, err=err)
    assert [json.loads(x)["seq"] for x in out.getvalue().splitlines()] == [0, 1, 2, 3]


def test_tail_follow_prints_new_records(ledger: str, tmp_path: Path) -> None:
    env = {**os.environ, "CLEARANCE_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "clearance", "audit", "tail", "-n", "1", "-f", "--ledger", ledger],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        assert "gemini-cli" in proc.stdout.readline()  # the last existing record
        decision = ApprovalDecision("allow", "rule_matched", "listing")
        time.sleep(0.2)
        Ledger(ledger).append(decision, None, surface="gate", agent="follow-me")
        assert "follow-me" in proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_stats(ledger: str) -> None:
    out, err = io_pair()
    assert run_stats(ledger, as_json=True, out=out, err=err) == 0
    body = json.loads(out.getvalue())
    assert body["records"] == 4
    assert body["decision"] == {"allow": 1, "deny": 2, "ask": 1}
    assert body["rule"] == {"a/ls": 1, "a/no-rm": 2, "(default)": 1}
    assert body["program"] == {"ls": 2, "rm": 2, "make": 1}
    assert body["agent"] == {"claude-code": 2, "codex": 1, "gemini-cli": 1}
    out, err = io_pair()
    run_stats(ledger, out=out, err=err)
    assert "by program" in out.getvalue() and "      2  a/no-rm" in out.getvalue()


def test_decision_ids_are_recognised() -> None:
    assert looks_like_decision_id("01M8NDXRBNTK6Z32RY6X5PVZ4Z")
    assert looks_like_decision_id("01m8ndxrbntk6z32ry6x5pvz4z")
    assert not looks_like_decision_id("ls -la")
    assert not looks_like_decision_id("01M8NDXRBNTK6Z32RY6X5PVZ4")  # 25 characters
    assert not looks_like_decision_id("01M8NDXRBNTK6Z32RY6X5PVZ4U")  # U is not Crockford


def test_explain_recorded_decision_rebuilds_its_trace(ledger: str, tmp_path: Path) -> None:
    target = str(list(read_records(ledger))[2]["decision_id"])
    out, err = io_pair()
    code = run_explain_recorded(
        target, ledger, cwd=str(tmp_path), policies=None, as_json=False, out=out, err=err
    )
    text = out.getvalue()
    assert code == 0
    assert "same policy (digest matches the record)" in text
    assert "MATCH a/no-rm" in text and "trace:" in text and target in text


def test_explain_recorded_under_a_changed_policy_says_so(ledger: str, tmp_path: Path) -> None:
    newer = tmp_path / "newer.yaml"
    newer.write_text(POLICY.replace("decision: deny", "decision: ask"))
    target = str(list(read_records(ledger))[1]["decision_id"])
    out, err = io_pair()
    code = run_explain_recorded(
        target, ledger, cwd=str(tmp_path), policies=[str(newer)], as_json=True, out=out, err=err
    )
    body = json.loads(out.getvalue())
    assert code == 0 and "the policy changed since" in body["note"]
    assert body["recorded"]["decision"] == "deny" and body["current"]["decision"] == "ask"
    assert body["current"]["trace"]


def test_explain_command_falls_back_to_a_command(
    ledger: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], policy: str
) -> None:
    target = str(next(iter(read_records(ledger)))["decision_id"])
    code = run_check(
        target,
        as_json=False,
        policies=None,
        cwd=str(tmp_path),
        tool=None,
        explain=True,
        ledger=ledger,
    )
    assert code == 0 and "a/ls" in capsys.readouterr().out
    unknown = "01AAAAAAAAAAAAAAAAAAAAAAAA"
    run_check(
        unknown,
        as_json=False,
        policies=[policy],
        cwd=str(tmp_path),
        tool=None,
        explain=True,
        ledger=ledger,
    )
    captured = capsys.readouterr()
    assert "explaining it as a command" in captured.err and "trace:" in captured.out


def test_check_appends_to_a_ledger(
    tmp_path: Path, policy: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "check-ledger.jsonl"
    code = run_check(
        "rm -rf x",
        as_json=True,
        policies=[policy],
        cwd=str(tmp_path),
        tool=None,
        ledger=str(path),
        no_ledger=False,
    )
    printed = json.loads(capsys.readouterr().out)
    (record,) = read_records(str(path))
    assert code == 4 and record["surface"] == "check"
    assert record["decision_id"] == printed["decision_id"]


def test_audit_command_line(ledger: str, tmp_path: Path) -> None:
    ok = audit_process(tmp_path, "verify", ledger)
    assert ok.returncode == 0 and "intact" in ok.stdout
    Path(ledger).write_text(Path(ledger).read_text().replace('"ls -la"', '"ls -lah"'))
    bad = audit_process(tmp_path, "verify", "--ledger", ledger)
    assert bad.returncode == 1 and "first bad record 0 (edited)" in bad.stdout
