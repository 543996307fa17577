"""Evidence the agent cannot quietly edit: the keyed chain, appends that record tampering
instead of healing it, files opened without following links, bounded records, and a ledger
that never says "allow" for a call that was blocked."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest
from ledger_support import decide_bash

from clearance.engine import scopes
from clearance.engine.decision import ApprovalDecision
from clearance.engine.intents import ToolIntent
from clearance.engine.ledger import (
    MAX_RECORD_BYTES,
    MAX_TEXT,
    Ledger,
    LedgerError,
    default_ledger_path,
    key_id,
    load_key,
    read_records,
    record_hash,
    verify,
)
from clearance.engine.state import ledger_key_path, ledgers_dir, state_dir


def decision_for(tmp_path: Path, command: str) -> tuple[ApprovalDecision, ToolIntent]:
    return decide_bash(tmp_path, command, source="claude-code")


def append(tmp_path: Path, path: Path, command: str = "ls") -> dict[str, object]:
    decision, intent = decision_for(tmp_path, command)
    return Ledger(str(path)).append(decision, intent, surface="hook", agent="claude-code")


def fill(tmp_path: Path, count: int) -> Path:
    path = tmp_path / "ledger.jsonl"
    for _ in range(count):
        append(tmp_path, path)
    return path


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def reseal_plain(line: bytes, **changes: object) -> bytes:
    """What an attacker without the key can do: edit and recompute the plain hash."""
    record = json.loads(line)
    record.update(changes)
    record["hash"] = record_hash(record)
    return (json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n").encode()


def rechain_plain(lines: list[bytes]) -> list[bytes]:
    """Recompute seq, prev and hash of every line, as a careful attacker would."""
    from clearance.engine.ledger import GENESIS, sha256_text

    out: list[bytes] = []
    prev = GENESIS
    for seq, line in enumerate(lines):
        new = reseal_plain(line, seq=seq, prev=prev)
        out.append(new)
        prev = sha256_text(new.rstrip(b"\n"))
    return out


# ---- who and where ----------------------------------------------------------------------------


def test_every_record_names_user_host_and_key(tmp_path: Path) -> None:
    record = append(tmp_path, tmp_path / "l.jsonl")
    assert record["user"] and isinstance(record["user"], str)
    assert record["host"] == os.uname().nodename
    key = load_key()
    assert key is not None and record["key_id"] == key_id(key)
    assert str(record["mac"]).startswith("hmac-sha256:")
    assert record["hash"] == record_hash(record)


def test_key_and_state_dir_are_private_and_outside_the_workspace(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "sub").mkdir()
    decision, intent = decision_for(repo / "sub", "ls")
    ledger = Ledger.for_cwd(str(repo / "sub"))
    ledger.append(decision, intent, surface="hook")
    Ledger.for_cwd(str(repo)).append(decision, intent, surface="hook")
    assert not (repo / ".clearance").exists() and not (repo / "sub" / ".clearance").exists()
    assert os.path.dirname(ledger.path) == ledgers_dir()
    assert len(list(read_records(ledger.path))) == 2  # one ledger for the whole project
    for directory in (state_dir(), ledgers_dir()):
        assert stat.S_IMODE(os.stat(directory).st_mode) == 0o700
    for file in (ledger_key_path(), ledger.path, ledger.head_path):
        assert stat.S_IMODE(os.stat(file).st_mode) == 0o600
    assert len(Path(ledger_key_path()).read_bytes()) == 32


def test_outside_any_project_the_user_ledger(tmp_path: Path) -> None:
    outside = tmp_path / "random"
    outside.mkdir()
    assert scopes.workspace_of(str(outside)) is None  # no .git nor .clearance above it
    assert default_ledger_path(str(outside)) == os.path.join(ledgers_dir(), "user.jsonl")
    # its twin: inside a project, the project's own ledger
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    inside = default_ledger_path(str(tmp_path / "repo"))
    assert os.path.dirname(inside) == ledgers_dir() and not inside.endswith("user.jsonl")


# ---- the keyed chain --------------------------------------------------------------------------


def test_rehashed_edit_is_forged(tmp_path: Path) -> None:
    path = fill(tmp_path, 4)
    lines = lines_of(path)
    path.write_bytes(
        b"".join(rechain_plain([*lines[:1], reseal_plain(lines[1], agent="x"), *lines[2:]]))
    )
    assert verify(str(path), keyed=False).kind in ("edited", "head_forged", None)
    result = verify(str(path))
    assert (result.bad_index, result.kind) == (1, "forged")


def test_rechained_deletion_and_reordering_are_forged(tmp_path: Path) -> None:
    path = fill(tmp_path, 4)
    lines = lines_of(path)
    path.write_bytes(b"".join(rechain_plain([lines[0], lines[2], lines[3]])))
    assert verify(str(path)).kind == "forged"
    path = fill(tmp_path / "b" if (tmp_path / "b").mkdir() is None else tmp_path, 4)
    lines = lines_of(path)
    path.write_bytes(b"".join(rechain_plain([lines[0], lines[2], lines[1], lines[3]])))
    assert verify(str(path)).kind == "forged"


def test_forged_append_without_mac_or_with_a_wrong_one(tmp_path: Path) -> None:
    path = fill(tmp_path, 2)
    lines = lines_of(path)
    forged = rechain_plain([*lines, reseal_plain(lines[1], decision_id="01FORGED")])
    path.write_bytes(b"".join(forged))
    assert verify(str(path)).kind == "forged"
    record = json.loads(forged[2])
    del record["mac"]
    record["hash"] = record_hash(record)
    path.write_bytes(b"".join([*forged[:2], (json.dumps(record) + "\n").encode()]))
    assert verify(str(path)).kind == "unauthenticated"


def test_truncation_with_a_forged_head_is_caught(tmp_path: Path) -> None:
    path = fill(tmp_path, 4)
    lines = lines_of(path)
    path.write_bytes(b"".join(lines[:2]))
    last = json.loads(lines[1])
    Path(str(path) + ".head").write_text(json.dumps({"seq": 1, "hash": last["hash"]}))
    assert verify(str(path)).kind == "head_forged"


def test_a_missing_key_is_not_a_clean_chain(tmp_path: Path) -> None:
    path = fill(tmp_path, 2)
    os.unlink(ledger_key_path())
    assert verify(str(path)).kind == "key_missing"
    assert verify(str(path), keyed=False).ok


# ---- evidence does not heal itself ------------------------------------------------------------


def test_truncation_stays_reported_after_the_next_append(tmp_path: Path) -> None:
    path = fill(tmp_path, 5)
    path.write_bytes(b"".join(lines_of(path)[:3]))
    assert verify(str(path)).kind == "truncated"
    record = append(tmp_path, path)
    findings = record["findings"]
    assert isinstance(findings, list) and findings[0]["kind"] == "truncated"
    for _ in range(2):
        append(tmp_path, path)
    result = verify(str(path))
    assert not result.ok
    assert result.to_dict()["kind"] == "truncated" and result.to_dict()["first_bad_record"] == 3
    assert "3..4" in result.findings[0][2]


def test_deleting_the_whole_ledger_is_recorded(tmp_path: Path) -> None:
    path = fill(tmp_path, 3)
    os.unlink(path)
    append(tmp_path, path)
    result = verify(str(path))
    assert not result.ok and result.findings[0][1] == "truncated"


def test_a_removed_final_newline_keeps_the_record_and_is_a_finding(tmp_path: Path) -> None:
    path = fill(tmp_path, 3)
    data = path.read_bytes()
    path.write_bytes(data[:-1])
    record = append(tmp_path, path)
    assert record["seq"] == 3  # record 2 was not dropped as a "torn line"
    assert path.read_bytes().startswith(data)
    result = verify(str(path))
    assert not result.ok and result.findings[0][1] == "newline_removed"
    assert len(list(read_records(str(path)))) == 4


def test_a_head_lagging_more_than_a_crash_is_a_finding(tmp_path: Path) -> None:
    path = fill(tmp_path, 1)
    head = Path(str(path) + ".head")
    stale = head.read_bytes()
    for _ in range(3):
        append(tmp_path, path)
    head.write_bytes(stale)  # a valid, keyed head, three records behind
    assert verify(str(path)).kind == "head_lag"
    record = append(tmp_path, path)
    assert [f["kind"] for f in record["findings"]] == ["head_lag"]  # type: ignore[union-attr]
    assert verify(str(path)).findings[0][1] == "head_lag"


def test_a_deleted_head_is_a_finding(tmp_path: Path) -> None:
    path = fill(tmp_path, 3)
    os.unlink(str(path) + ".head")
    record = append(tmp_path, path)
    assert [f["kind"] for f in record["findings"]] == ["head_missing"]  # type: ignore[union-attr]
    assert not verify(str(path)).ok


def test_a_genuinely_torn_line_is_repaired_without_a_finding(tmp_path: Path) -> None:
    path = fill(tmp_path, 2)
    with open(path, "ab") as fh:
        fh.write(b'{"seq":2,"half')
    record = append(tmp_path, path)
    assert "findings" not in record and isinstance(record["repaired"], dict)
    result = verify(str(path))
    assert result.ok and result.repairs


def test_deleting_the_finding_record_breaks_the_chain(tmp_path: Path) -> None:
    path = fill(tmp_path, 4)
    path.write_bytes(b"".join(lines_of(path)[:2]))
    append(tmp_path, path)  # carries the finding
    append(tmp_path, path)
    lines = lines_of(path)
    path.write_bytes(b"".join([*lines[:2], lines[3]]))
    assert not verify(str(path)).ok


# ---- files opened safely ----------------------------------------------------------------------


def test_a_planted_link_as_ledger_is_refused(tmp_path: Path) -> None:
    victim = tmp_path / "bashrc"
    victim.write_text("# start-up file\n")
    link = tmp_path / "ledger.jsonl"
    link.symlink_to(victim)
    decision, intent = decision_for(tmp_path, "echo $(id)")
    with pytest.raises(LedgerError, match="symbolic link"):
        Ledger(str(link)).append(decision, intent, surface="hook")
    assert victim.read_text() == "# start-up file\n"


def test_a_planted_link_as_head_is_not_followed(tmp_path: Path) -> None:
    path = fill(tmp_path, 1)
    victim = tmp_path / "profile"
    victim.write_text("keep\n")
    head = Path(str(path) + ".head")
    head.unlink()
    head.symlink_to(victim)
    append(tmp_path, path)
    assert victim.read_text() == "keep\n"
    assert not head.is_symlink()  # replaced by a file, the link's target untouched


def test_a_fifo_as_ledger_is_refused_quickly(tmp_path: Path) -> None:
    fifo = tmp_path / "ledger.jsonl"
    os.mkfifo(fifo)
    decision, intent = decision_for(tmp_path, "ls")
    start = time.monotonic()
    with pytest.raises(LedgerError, match="FIFO"):
        Ledger(str(fifo)).append(decision, intent, surface="hook")
    with pytest.raises(OSError, match="FIFO"):
        verify(str(fifo))
    assert time.monotonic() - start < 5


def test_a_fifo_as_head_or_key_does_not_hang(tmp_path: Path) -> None:
    path = fill(tmp_path, 1)
    head = Path(str(path) + ".head")
    head.unlink()
    os.mkfifo(head)
    start = time.monotonic()
    record = append(tmp_path, path)
    assert record["findings"][0]["kind"] == "head_forged"  # type: ignore[index]
    assert verify(str(path)).findings
    os.unlink(ledger_key_path())
    os.mkfifo(ledger_key_path())
    with pytest.raises(LedgerError, match="FIFO"):
        append(tmp_path, path)
    assert time.monotonic() - start < 5


def test_a_key_readable_by_others_or_of_the_wrong_length_is_refused(tmp_path: Path) -> None:
    path = fill(tmp_path, 1)
    os.chmod(ledger_key_path(), 0o644)
    with pytest.raises(LedgerError, match="0600"):
        append(tmp_path, path)
    os.chmod(ledger_key_path(), 0o600)
    Path(ledger_key_path()).write_bytes(b"short")
    with pytest.raises(LedgerError, match="5 bytes"):
        append(tmp_path, path)


# ---- bounded records, linear tail ---------------------------------------------------------------


def test_a_megabyte_command_is_a_bounded_record(tmp_path: Path) -> None:
    command = " && ".join(f"echo {i}" for i in range(120_000))  # ~1.3 MB, 120k parts
    assert len(command) > 1_000_000
    decision, intent = decision_for(tmp_path, command)
    path = tmp_path / "l.jsonl"
    record = Ledger(str(path)).append(decision, intent, surface="hook")
    size = path.stat().st_size
    assert size < MAX_RECORD_BYTES
    bounded = record["bounded"]
    assert isinstance(bounded, dict)
    note = bounded["intent.input.command"]
    assert note["length"] == len(command) and str(note["sha256"]).startswith("sha256:")
    assert record["intent"]["input"]["command"] == command[:MAX_TEXT]  # type: ignore[index]
    assert bounded["decision.parts"] == {"items": len(decision.parts)} or "facts" in bounded
    assert verify(str(path)).ok


def test_appending_after_a_huge_record_reads_only_the_tail(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    for _ in range(3):
        append(tmp_path, path)
    # a foreign 20 MB last line: refused in bounded time, never read whole (nor quadratically)
    with open(path, "ab") as fh:
        fh.write(b"x" * 20_000_000 + b"\n")
    start = time.monotonic()
    with pytest.raises(LedgerError, match="not a record"):
        append(tmp_path, path)
    assert time.monotonic() - start < 2


# ---- durability ---------------------------------------------------------------------------------


def test_a_decision_that_cannot_be_synced_is_recorded_as_the_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = fill(tmp_path, 1)
    decision, intent = decision_for(tmp_path, "ls")
    assert decision.decision == "allow"
    calls = []

    def failing_sync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 1:
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fdatasync", failing_sync)
    with pytest.raises(LedgerError, match="durable"):
        Ledger(str(path)).append(decision, intent, surface="hook")
    records = list(read_records(str(path)))
    assert len(records) == 2
    last = records[-1]
    assert last["decision"]["decision"] == "deny"  # type: ignore[index]
    assert last["decision"]["reason_code"] == "internal_error"  # type: ignore[index]
    assert last["not_durable"] == {"decision": "allow", "error": "Input/output error"}
    assert last["decision_id"] == decision.decision_id
    assert verify(str(path)).ok


# ---- verify is robust ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        b'{"seq": NaN, "hash": "x"}\n',
        b'{"seq": 1, "hash": 5, "prev": []}\n',
        b'{"seq": 1e999}\n',
        b"[1, 2]\n",
        b'"just a string"\n',
        b"\xff\xfe\n",
        b"[" * 100_000 + b"\n",
        b'{"seq": 1, "hash": "sha256:0", "decision": {"decision": NaN}}\n',
    ],
)
def test_malformed_records_are_findings_not_tracebacks(tmp_path: Path, line: bytes) -> None:
    path = fill(tmp_path, 1)
    with open(path, "ab") as fh:
        fh.write(line)
    result = verify(str(path))
    assert not result.ok and result.bad_index == 1
    assert result.kind in ("unparseable", "edited")
    assert list(read_records(str(path)))  # reading skips it


def test_a_replaced_key_is_a_finding(tmp_path: Path) -> None:
    path = fill(tmp_path, 2)
    os.unlink(ledger_key_path())
    record = append(tmp_path, path)
    kinds = [f["kind"] for f in record["findings"]]  # type: ignore[union-attr]
    assert kinds == ["head_forged", "key_replaced"]  # the old head's MAC fails too
    assert verify(str(path)).kind == "forged"  # the old records no longer verify


# ---- fuzz: verify and append answer whatever the file holds -----------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_JUNK = st.one_of(
    st.binary(max_size=300),
    st.sampled_from(
        [
            b'{"seq": NaN}\n',
            b'{"seq": 1, "hash": null}\n',
            b"\n",
            b'{"a": ' * 50 + b"1" + b"}" * 50 + b"\n",
            b'{"seq": 99999999999999999999999}\n',
            b"\xff\n",
        ]
    ),
)


@settings(
    max_examples=40,
    deadline=3000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(junk=st.lists(_JUNK, max_size=4), cut=st.integers(min_value=0, max_value=5000))
def test_verify_and_append_answer_whatever_the_ledger_holds(
    tmp_path: Path, junk: list[bytes], cut: int
) -> None:
    path = tmp_path / "fuzz.jsonl"
    if path.exists():
        path.unlink()
    head = Path(str(path) + ".head")
    if head.exists():
        head.unlink()
    append(tmp_path, path)
    append(tmp_path, path)
    data = path.read_bytes()
    removed = cut % (len(data) + 1)
    damaged = data[: len(data) - removed] + b"".join(junk)
    path.write_bytes(damaged)
    result = verify(str(path))
    assert isinstance(result.ok, bool) and isinstance(result.to_dict(), dict)
    try:
        append(tmp_path, path)
    except LedgerError:
        return  # refused (a line that is not a record): the caller blocks
    after = verify(str(path))
    if damaged != data:  # (the last newline cut and put back is no damage)
        # the damage stays visible: a finding, or (a partial last line) the repair noted
        assert not after.ok or after.repairs


def test_the_head_exists_before_the_first_record_so_a_missing_head_is_evidence(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ledger.jsonl"
    head = Path(str(path) + ".head")
    first = append(tmp_path, path)
    assert first["seq"] == 0 and "findings" not in first
    # a crash between the first line and its head update leaves the genesis head: fine
    key = load_key()
    assert key is not None
    from clearance.engine.ledger import GENESIS, head_mac

    genesis = {
        "seq": -1,
        "hash": GENESIS,
        "line": GENESIS,
        "mac": head_mac(key, -1, GENESIS, GENESIS),
    }
    head.write_text(json.dumps(genesis))
    result = verify(str(path))
    assert result.ok and any("lagged one record" in n for n in result.notes)
    assert "findings" not in append(tmp_path, path)
    # one record and no head: cutting the rest and deleting the head is not a crash
    path.write_bytes(lines_of(path)[0])
    head.unlink()
    assert verify(str(path)).kind == "head_missing"
    record = append(tmp_path, path)
    assert [f["kind"] for f in record["findings"]] == ["head_missing"]  # type: ignore[union-attr]
