"""The audit ledger: a hash chain that names the first edited, deleted, reordered or cut record,
survives concurrent writers and writers killed mid-append."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from ledger_support import decide_bash

from clearance.engine.decision import ApprovalDecision
from clearance.engine.decision_schema import parse_decision
from clearance.engine.intents import ToolIntent
from clearance.engine.ledger import (
    GENESIS,
    Ledger,
    LedgerError,
    default_ledger_path,
    find_record,
    read_records,
    record_hash,
    sha256_text,
    verify,
)


def decision_for(tmp_path: Path, command: str) -> tuple[ApprovalDecision, ToolIntent]:
    return decide_bash(tmp_path, command, source="claude-code", session="s-1")


def fill(tmp_path: Path, count: int) -> Path:
    path = tmp_path / "ledger.jsonl"
    ledger = Ledger(str(path))
    for i in range(count):
        decision, intent = decision_for(tmp_path, "ls -la" if i % 2 else "rm -rf build")
        ledger.append(decision, intent, surface="hook", agent="claude-code", session_id="s-1")
    return path


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def rewrite(path: Path, lines: list[str]) -> None:
    path.write_text("".join(lines))


def rehash(line: str, **changes: object) -> str:
    record = json.loads(line)
    record.update(changes)
    record["hash"] = record_hash(record)
    return json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n"


def test_record_holds_intent_facts_decision_and_chain(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    decision, intent = decision_for(tmp_path, "ls -la && rm -rf build")
    first = Ledger(str(path)).append(
        decision,
        intent,
        surface="hook",
        agent="gemini-cli",
        session_id="s-1",
        workspace=str(tmp_path),
        home="/home/u",
        policy_files=["/p.yaml"],
    )
    second = Ledger(str(path)).append(decision, intent, surface="check")
    assert first["seq"] == 0 and first["prev"] == GENESIS
    assert second["seq"] == 1
    assert second["prev"] == sha256_text(lines_of(path)[0].rstrip("\n").encode())
    (stored, _) = read_records(str(path))
    assert stored["decision_id"] == decision.decision_id
    assert stored["surface"] == "hook" and stored["agent"] == "gemini-cli"
    assert stored["session_id"] == "s-1" and stored["workspace"] == str(tmp_path)
    assert stored["intent"] == intent.to_dict()
    assert stored["policy_digest"] == decision.policy_digest != ""
    assert stored["policy_files"] == ["/p.yaml"]
    assert stored["facts"] == [
        {"argv": ["ls", "-la"], "program": "ls", "classes": ["read_only"], "markers": []},
        {"argv": ["rm", "-rf", "build"], "program": "rm", "classes": ["delete"], "markers": []},
    ]
    # The recorded decision is the one serialisation, and passes the pydantic schema.
    assert stored["decision"] == json.loads(json.dumps(decision.to_dict()))
    parse_decision(stored["decision"])
    assert list(read_records(str(path), validate=True)) == [stored, second]
    assert stored["hash"] == record_hash(stored)


def test_unknown_surface_is_refused(tmp_path: Path) -> None:
    decision, intent = decision_for(tmp_path, "ls")
    with pytest.raises(LedgerError):
        Ledger(str(tmp_path / "l.jsonl")).append(decision, intent, surface="cron")


def test_intact_chain_verifies(tmp_path: Path) -> None:
    path = fill(tmp_path, 5)
    result = verify(str(path))
    assert result.ok and result.records == 5 and result.bad_index is None
    assert result.repairs == [] and result.notes == []


def test_edit_without_rehash_is_named(tmp_path: Path) -> None:
    path = fill(tmp_path, 5)
    lines = lines_of(path)
    lines[2] = lines[2].replace('"decision":"deny"', '"decision":"allow"', 1)
    rewrite(path, lines)
    result = verify(str(path))
    assert (result.ok, result.bad_index, result.kind) == (False, 2, "edited")


def test_edit_with_recomputed_hash_breaks_the_next_link(tmp_path: Path) -> None:
    path = fill(tmp_path, 5)
    lines = lines_of(path)
    lines[1] = rehash(lines[1], agent="someone-else")
    rewrite(path, lines)
    result = verify(str(path), keyed=False)
    assert (result.bad_index, result.kind) == (1, "edited")
    # with the key, the edited record itself is named: its MAC does not verify
    result = verify(str(path))
    assert (result.bad_index, result.kind) == (1, "forged")


def test_edit_of_the_last_record_with_rehash_is_caught_by_the_head(tmp_path: Path) -> None:
    path = fill(tmp_path, 3)
    lines = lines_of(path)
    lines[2] = rehash(lines[2], agent="someone-else")
    rewrite(path, lines)
    result = verify(str(path), keyed=False)
    assert (result.bad_index, result.kind) == (2, "edited")
    assert (verify(str(path)).bad_index, verify(str(path)).kind) == (2, "forged")


def test_deleted_record_is_named(tmp_path: Path) -> None:
    path = fill(tmp_path, 5)
    lines = lines_of(path)
    del lines[2]
    rewrite(path, lines)
    result = verify(str(path))
    assert (result.bad_index, result.kind) == (2, "deleted")
    assert "record 2" in result.message


def test_deleted_first_record_is_named(tmp_path: Path) -> None:
    path = fill(tmp_path, 3)
    rewrite(path, lines_of(path)[1:])
    result = verify(str(path))
    assert (result.bad_index, result.kind) == (0, "deleted")


def test_reordered_records_are_named(tmp_path: Path) -> None:
    path = fill(tmp_path, 5)
    lines = lines_of(path)
    lines[1], lines[3] = lines[3], lines[1]
    rewrite(path, lines)
    result = verify(str(path))
    assert result.bad_index == 1 and result.kind in ("deleted", "reordered")


def test_duplicated_record_is_named(tmp_path: Path) -> None:
    path = fill(tmp_path, 3)
    lines = lines_of(path)
    rewrite(path, [*lines[:2], lines[1], *lines[2:]])
    result = verify(str(path))
    assert (result.bad_index, result.kind) == (2, "reordered")
    assert "copy of record 1" in result.message


def test_records_cut_off_the_end_are_a_truncation(tmp_path: Path) -> None:
    path = fill(tmp_path, 5)
    rewrite(path, lines_of(path)[:3])
    result = verify(str(path))
    assert (result.bad_index, result.kind) == (3, "truncated")
    assert "3..4" in result.message


def test_a_head_that_lags_one_record_is_a_note_not_a_failure(tmp_path: Path) -> None:
    path = fill(tmp_path, 2)
    head = Path(str(path) + ".head")
    stale = head.read_bytes()
    decision, intent = decision_for(tmp_path, "ls")
    Ledger(str(path)).append(decision, intent, surface="hook")
    head.write_bytes(stale)  # as after a crash between the append and its head update
    result = verify(str(path))
    assert result.ok, result.message
    assert any("lagged one record" in note for note in result.notes)
    # an unkeyed head is trusted by the plain check only
    records = list(read_records(str(path)))
    head.write_text(json.dumps({"seq": 1, "hash": records[1]["hash"]}))
    assert verify(str(path), keyed=False).ok
    assert verify(str(path)).kind == "head_forged"


def test_missing_head_cannot_detect_truncation_and_says_so(tmp_path: Path) -> None:
    path = fill(tmp_path, 2)
    os.unlink(str(path) + ".head")
    result = verify(str(path), keyed=False)
    assert result.ok
    assert any("cannot be detected" in note for note in result.notes)
    # keyed, a missing head is a failure: cutting records and deleting the head hides them
    assert verify(str(path)).kind == "head_missing"


def test_unparseable_line_is_named(tmp_path: Path) -> None:
    path = fill(tmp_path, 3)
    lines = lines_of(path)
    lines[1] = "not json at all\n"
    rewrite(path, lines)
    result = verify(str(path))
    assert (result.bad_index, result.kind) == (1, "unparseable")


def test_torn_line_is_flagged_then_repaired_by_the_next_append(tmp_path: Path) -> None:
    path = fill(tmp_path, 3)
    intact = path.read_bytes()
    torn = b'{"decision_id":"01TORN","seq":3,"surf'
    with open(path, "ab") as fh:
        fh.write(torn)
    result = verify(str(path))
    assert (result.ok, result.bad_index, result.kind) == (False, 3, "torn")

    decision, intent = decision_for(tmp_path, "ls")
    record = Ledger(str(path)).append(decision, intent, surface="hook")
    repaired = record["repaired"]
    assert isinstance(repaired, dict)
    assert repaired["offset"] == len(intact) and repaired["dropped_bytes"] == len(torn)
    assert record["seq"] == 3
    assert path.read_bytes().startswith(intact)  # nothing before the torn line changed
    result = verify(str(path))
    assert result.ok and result.records == 4
    assert [index for index, _ in result.repairs] == [3]
    assert f"torn line of {len(torn)} bytes" in result.repairs[0][1]


def test_the_repair_warning_goes_to_stderr_without_structlog(tmp_path: Path) -> None:
    """The hook appends (and repairs) on its start-up path: the warning is one ``key=value``
    line on stderr, stdout stays empty, and structlog is never imported."""
    path = fill(tmp_path, 2)
    with open(path, "ab") as fh:
        fh.write(b'{"decision_id":"01TORN","seq":2,"surf')
    probe = textwrap.dedent(
        """
        import sys
        from clearance.engine.api import decide, load_policy
        from clearance.engine.intents import ToolIntent
        from clearance.engine.ledger import Ledger
        cwd = sys.argv[2]
        intent = ToolIntent("Bash", {"command": "ls"}, cwd=cwd)
        policy = load_policy(cwd, use_cache=False, check=False)
        Ledger(sys.argv[1]).append(decide(intent, policy, cwd=cwd), intent, surface="hook")
        sys.stderr.write("STRUCTLOG=%s\\n" % ("structlog" in sys.modules))
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, str(path), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert proc.stdout == ""
    assert "STRUCTLOG=False" in proc.stderr
    warning = next(line for line in proc.stderr.splitlines() if "ledger_torn_line_repaired" in line)
    assert warning.startswith("event='ledger_torn_line_repaired' path=")
    assert "dropped_bytes=" in warning and "level='warning' timestamp='" in warning
    assert verify(str(path)).ok


def test_a_ledger_that_is_only_a_torn_line_restarts_the_chain(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    path.write_bytes(b'{"half')
    decision, intent = decision_for(tmp_path, "ls")
    record = Ledger(str(path)).append(decision, intent, surface="hook")
    assert record["seq"] == 0 and record["prev"] == GENESIS
    assert verify(str(path)).ok


def test_appending_after_a_foreign_last_line_counts_lines(tmp_path: Path) -> None:
    path = fill(tmp_path, 2)
    with open(path, "a") as fh:
        fh.write("garbage\n")
    decision, intent = decision_for(tmp_path, "ls")
    record = Ledger(str(path)).append(decision, intent, surface="hook")
    assert record["seq"] == 3
    result = verify(str(path))
    assert (result.bad_index, result.kind) == (2, "unparseable")


def test_long_records_chain_across_read_chunks(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    ledger = Ledger(str(path))
    for size in (10, 200_000, 70_000, 5):
        decision, _ = decision_for(tmp_path, "ls")
        intent = ToolIntent("Write", {"file_path": "/x", "content": "y" * size}, cwd="/")
        ledger.append(decision, intent, surface="gate")
    result = verify(str(path))
    assert result.ok and result.records == 4


def test_find_record_by_decision_id(tmp_path: Path) -> None:
    path = fill(tmp_path, 3)
    records = list(read_records(str(path)))
    found = find_record(str(path), str(records[1]["decision_id"]))
    assert found == records[1]
    assert find_record(str(path), "01NOSUCHDECISION000000000") is None


def test_default_path_is_one_per_project_root_in_the_state_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "deep").mkdir(parents=True)
    deep = default_ledger_path(str(repo / "src" / "deep"))
    assert deep == default_ledger_path(str(repo))
    assert os.path.dirname(deep) == str(state / "clearance" / "ledgers")
    assert os.path.basename(deep).startswith("repo-") and deep.endswith(".jsonl")
    other = tmp_path / "elsewhere" / "repo"
    (other / ".git").mkdir(parents=True)
    assert default_ledger_path(str(other)) != deep  # keyed by root, not by name
    assert not str(deep).startswith(str(repo))  # never inside the workspace


def test_ledger_folder_is_created_but_not_a_missing_project(tmp_path: Path) -> None:
    decision, intent = decision_for(tmp_path, "ls")
    Ledger(str(tmp_path / ".clearance" / "ledger.jsonl")).append(decision, intent, surface="hook")
    assert (tmp_path / ".clearance" / "ledger.jsonl").is_file()
    missing = tmp_path / "gone" / ".clearance" / "ledger.jsonl"
    with pytest.raises(LedgerError, match="does not exist"):
        Ledger(str(missing)).append(decision, intent, surface="hook")
    assert not (tmp_path / "gone").exists()


def test_unwritable_ledger_location_raises(tmp_path: Path) -> None:
    decision, intent = decision_for(tmp_path, "ls")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(LedgerError):
        Ledger(str(blocker / ".clearance" / "ledger.jsonl")).append(
            decision, intent, surface="hook"
        )


WRITER = textwrap.dedent(
    """
    import sys
    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.intents import ToolIntent
    from clearance.engine.ledger import Ledger
    path, count, tag = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    sys.stdin.readline()  # start together
    ledger = Ledger(path)
    for i in range(count):
        decision = ApprovalDecision("allow", "rule_matched", f"{tag}-{i}")
        ledger.append(decision, ToolIntent("Bash", {"command": f"echo {tag} {i}"}),
                      surface="hook", agent=tag)
        print(decision.decision_id, flush=True)
    """
)


def test_concurrent_writers_keep_one_intact_chain(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    writers, each = 6, 15
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(each), f"w{n}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for n in range(writers)
    ]
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    ids: set[str] = set()
    for proc in procs:
        out, _ = proc.communicate(timeout=60)
        assert proc.returncode == 0
        ids.update(out.split())
    result = verify(str(path))
    assert result.ok, result.message
    assert result.records == writers * each
    recorded = [r["decision_id"] for r in read_records(str(path))]
    assert set(recorded) == ids and len(ids) == writers * each
    assert [r["seq"] for r in read_records(str(path))] == list(range(writers * each))


KILLED_WRITER = textwrap.dedent(
    """
    import fcntl, os, sys, time
    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)
    fcntl.flock(fd, fcntl.LOCK_EX)           # what Ledger.append holds while writing
    os.write(fd, b'{"decision_id":"01HALFWRITTEN","hash":"sha2')
    os.fsync(fd)
    print("torn", flush=True)
    time.sleep(60)                            # killed here, mid-append
    """
)


def test_writer_killed_mid_append_loses_only_its_own_record(tmp_path: Path) -> None:
    path = fill(tmp_path, 4)
    before = path.read_bytes()
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "torn"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    result = verify(str(path))
    assert (result.kind, result.bad_index) == ("torn", 4)

    # The killed writer's lock died with it: the next append goes through and repairs.
    start = time.monotonic()
    decision, intent = decision_for(tmp_path, "ls")
    record = Ledger(str(path)).append(decision, intent, surface="hook")
    assert time.monotonic() - start < 5
    assert record["seq"] == 4 and "repaired" in record
    assert path.read_bytes().startswith(before)
    result = verify(str(path))
    assert result.ok and result.records == 5 and [i for i, _ in result.repairs] == [4]
