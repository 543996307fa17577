"""``audit show|tail|stats`` filters and JSON lines, ``verify`` on recorded tampering,
``replay`` on bounded and malformed records."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from ledger_support import (  # noqa: F401  (fixtures)
    audit_process,
    decide_bash,
    ledger_fixture,
    policy_file,
    policy_fixture,
)

from clearance.cli.commands.audit import (
    FilterError,
    Filters,
    parse_when,
    run_show,
    run_stats,
    run_tail,
    run_verify,
)
from clearance.cli.commands.replay import run_replay
from clearance.engine.api import decide, load_policy
from clearance.engine.decision import ApprovalDecision
from clearance.engine.intents import ToolIntent
from clearance.engine.ledger import Ledger, read_records

pytestmark = pytest.mark.usefixtures("isolated_cache")


def shown(ledger: str, **filters: object) -> list[dict[str, object]]:
    out, err = io.StringIO(), io.StringIO()
    assert run_show(None, ledger, as_json=True, filters=Filters(**filters), out=out, err=err) == 0  # type: ignore[arg-type]
    return [json.loads(line) for line in out.getvalue().splitlines()]


def commands(records: list[dict[str, object]]) -> list[str]:
    return [r["intent"]["input"]["command"] for r in records]  # type: ignore[index]


def test_decision_filter(ledger: str) -> None:
    assert commands(shown(ledger, decision=["deny"])) == ["rm -rf build", "ls && rm x"]
    assert commands(shown(ledger, decision=["allow,ask"])) == ["ls -la", "make"]
    with pytest.raises(FilterError):
        Filters(decision=["maybe"])


def test_rule_filter_names_the_deciding_or_a_matched_rule(ledger: str) -> None:
    assert commands(shown(ledger, rule="no-rm")) == ["rm -rf build", "ls && rm x"]
    assert commands(shown(ledger, rule="ls")) == ["ls -la", "ls && rm x"]
    assert shown(ledger, rule="nothing-like-it") == []


def test_agent_session_and_user_filters(ledger: str) -> None:
    assert commands(shown(ledger, agent="claude-code")) == ["ls -la", "ls && rm x"]
    assert commands(shown(ledger, agent="hook")) == commands(shown(ledger))  # the surface
    assert commands(shown(ledger, session="s-3")) == ["make"]
    user = str(next(iter(read_records(ledger)))["user"])
    assert len(shown(ledger, user=user)) == 4
    assert shown(ledger, user=user + "-not") == []
    both = shown(ledger, agent="claude-code", decision=["deny"])
    assert commands(both) == ["ls && rm x"]


def test_time_filters(ledger: str) -> None:
    times = [str(r["time"]) for r in read_records(ledger)]
    assert len(shown(ledger, since=times[0])) == 4
    assert shown(ledger, since="2999-01-01") == []
    assert shown(ledger, until="2000-01-01T00:00:00Z") == []
    assert len(shown(ledger, since="1h")) == 4
    assert len(shown(ledger, until=times[-1])) == 4
    assert parse_when("2026-01-01T00:00:00Z") == parse_when("2026-01-01")
    assert parse_when("2h", now=10_000.0) == 10_000.0 - 7200
    with pytest.raises(FilterError, match="neither"):
        parse_when("yesterday-ish")


def test_tail_and_stats_take_the_filters(ledger: str) -> None:
    out = io.StringIO()
    assert run_tail(ledger, lines=1, as_json=True, filters=Filters(decision=["deny"]), out=out) == 0
    (line,) = out.getvalue().splitlines()
    assert json.loads(line)["intent"]["input"]["command"] == "ls && rm x"
    out = io.StringIO()
    assert run_stats(ledger, as_json=True, filters=Filters(agent="claude-code"), out=out) == 0
    stats = json.loads(out.getvalue())
    assert stats["records"] == 2 and stats["agent"] == {"claude-code": 2}
    assert sum(stats["user"].values()) == 2


def test_show_lists_one_line_per_record_without_an_id(ledger: str) -> None:
    out = io.StringIO()
    assert run_show(None, ledger, filters=Filters(decision=["deny"]), out=out) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and all("DENY" in line for line in lines)


def test_json_lines_are_one_record_each_for_a_siem(ledger: str, tmp_path: Path) -> None:
    proc = audit_process(
        tmp_path, "tail", "--ledger", ledger, "--json", "--decision", "deny", "--agent", "codex"
    )
    assert proc.returncode == 0, proc.stderr
    (line,) = proc.stdout.splitlines()
    record = json.loads(line)
    assert record["agent"] == "codex" and record["user"] and record["host"]
    bad = audit_process(tmp_path, "stats", "--ledger", ledger, "--since", "last tuesday")
    assert bad.returncode == 2 and "neither" in bad.stderr


def test_verify_keeps_reporting_recorded_tampering(ledger: str, tmp_path: Path) -> None:
    lines = Path(ledger).read_bytes().splitlines(keepends=True)
    Path(ledger).write_bytes(b"".join(lines[:2]))
    decided, intent = decide_bash(tmp_path, "ls")
    Ledger(ledger).append(decided, intent, surface="hook")
    out = io.StringIO()
    assert run_verify(ledger, out=out, err=io.StringIO()) == 1
    assert "TAMPERED" in out.getvalue() and "truncated" in out.getvalue()
    out = io.StringIO()
    assert run_verify(ledger, as_json=True, out=out, err=io.StringIO()) == 1
    body = json.loads(out.getvalue())
    assert body["kind"] == "truncated" and body["findings"][0]["record"] == 2
    # replay still runs over authentic records, and warns
    err = io.StringIO()
    assert run_replay(ledger, policies=[policy_file(tmp_path)], out=io.StringIO(), err=err) == 0
    assert "warning" in err.getvalue() and "truncated" in err.getvalue()


def test_replay_skips_bounded_and_malformed_records(tmp_path: Path, policy: str) -> None:
    path = tmp_path / "l.jsonl"
    decided, big = decide_bash(tmp_path, "ls " + "a" * 10_000)
    Ledger(str(path)).append(decided, big, surface="hook")
    real, weird = decide_bash(tmp_path, "ls")
    # a decision is built whole (its fields are Final; the compiled build refuses a change):
    # one that says what no decision may say, recorded authentically
    decision = ApprovalDecision(
        "perhaps",  # type: ignore[arg-type]
        real.reason_code,
        real.reason,
        policy_id=real.policy_id,
        risk=real.risk,
        tool=real.tool,
        subject=real.subject,
        parts=real.parts,
    )
    Ledger(str(path)).append(decision, weird, surface="hook")
    out = io.StringIO()
    assert run_replay(str(path), policies=[policy], as_json=True, out=out, err=io.StringIO()) == 0
    body = json.loads(out.getvalue())
    whys = [s["why"] for s in body["skipped"]]
    assert "too large to record whole" in whys[0] and "no valid decision" in whys[1]


def test_audit_finds_the_project_ledger_from_a_subdirectory(tmp_path: Path, policy: str) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "a" / "b").mkdir(parents=True)
    loaded = load_policy(str(root), files=[policy])
    intent = ToolIntent("Bash", {"command": "ls"}, cwd=str(root / "a"))
    Ledger.for_cwd(str(root / "a")).append(
        decide(intent, loaded, cwd=str(root / "a")), intent, surface="hook"
    )
    proc = audit_process(tmp_path, "verify", cwd=root / "a" / "b")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 record(s)" in proc.stdout and os.environ["XDG_STATE_HOME"] in proc.stdout


@pytest.mark.parametrize(
    "line",
    [
        b'{"decision": "allow", "agent": 5, "facts": "x", "time": 7}\n',
        b'{"decision": {"decision": ["deny"], "matched": 3, "policy_id": 1}, "user": []}\n',
        b'{"seq": NaN}\n',
        b"[1, 2, 3]\n",
    ],
)
def test_readers_take_malformed_records_without_a_traceback(ledger: str, line: bytes) -> None:
    with open(ledger, "ab") as fh:
        fh.write(line)
    everything = Filters(since="2000-01-01", decision=["deny"], rule="no-rm", user="x")
    for filters in (None, everything, Filters(agent="5")):
        for as_json in (False, True):
            out = io.StringIO()
            assert run_show(None, ledger, as_json=as_json, filters=filters, out=out) == 0
            assert run_tail(ledger, as_json=as_json, filters=filters, out=out) == 0
            assert run_stats(ledger, as_json=as_json, filters=filters, out=out) == 0
    out = io.StringIO()
    assert run_verify(ledger, out=out, err=io.StringIO()) == 1
    assert "first bad record 4" in out.getvalue()
