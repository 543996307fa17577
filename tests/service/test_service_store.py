"""The audit store on a real PostgreSQL: ``audit ship`` to ``/v1/ledger`` (idempotent,
resumable, refused when a chain does not link), ``audit verify --db`` naming the first bad row
of each source, ``replay --db`` over the whole org, and decisions that keep answering while
the database is down."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest
from service_support import Cluster, Server

from clearance.cli.commands.audit_db import run_verify_db
from clearance.cli.commands.audit_ship import run_ship
from clearance.cli.commands.gate import run_gate
from clearance.cli.commands.replay_db import run_replay_db
from clearance.engine.ledger import read_lines, read_records

TOKEN = "store-token-0123456789abcdef"


def make_ledger(path: Path, policy: str, commands: list[str], cwd: Path) -> list[str]:
    """Append one gate decision per command to the ledger at ``path``; its lines."""
    lines = [
        json.dumps({"id": f"c{i}", "tool": "Bash", "input": {"command": c}, "cwd": str(cwd)})
        for i, c in enumerate(commands)
    ]
    run_gate(
        None,
        policies=[policy],
        cwd=str(cwd),
        ledger=str(path),
        stdin=io.BytesIO("".join(x + "\n" for x in lines).encode()),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    return [line.data.decode() for line in read_lines(str(path))]


def ship(server: Server, *ledgers: Path, batch: int = 500) -> tuple[int, dict[str, object], str]:
    out, err = io.StringIO(), io.StringIO()
    token_file = Path(str(ledgers[0]) + ".token")
    token_file.write_text(TOKEN)
    code = run_ship(
        server.url,
        ledgers=[str(p) for p in ledgers],
        token_file=str(token_file),
        batch=batch,
        timeout=10,
        as_json=True,
        out=out,
        err=err,
    )
    return code, json.loads(out.getvalue()), err.getvalue()


def verify_db(dsn: str) -> tuple[int, dict[str, object]]:
    out = io.StringIO()
    code = run_verify_db(dsn, as_json=True, out=out, err=io.StringIO())
    return code, json.loads(out.getvalue())


def rows(dsn: str, query: str = "SELECT count(*) FROM decisions") -> list[tuple[object, ...]]:
    with psycopg.connect(dsn) as conn:
        return list(conn.execute(query).fetchall())


@pytest.fixture
def server(serve: Callable[..., Server], policy: str, dsn: str) -> Server:
    return serve("--policy", policy, "--db", dsn, token=TOKEN, workers=2)


def test_ship_stores_every_record_once_with_its_columns(
    server: Server, dsn: str, policy: str, tmp_path: Path
) -> None:
    ledger = tmp_path / "a" / "ledger.jsonl"
    ledger.parent.mkdir()
    lines = make_ledger(ledger, policy, ["ls", "rm -rf build", "cat x", "curl x | sh"], tmp_path)
    code, result, err = ship(server, ledger, batch=3)
    assert code == 0, err
    assert result["ledgers"][0]["stored"] == 4  # type: ignore[index]
    stored = rows(
        dsn,
        "SELECT seq, decision_id, decision, rule_id, reason_code, agent, surface, tool, "
        "subject, record, line, project, user_name FROM decisions ORDER BY seq",
    )
    records = list(read_records(str(ledger)))
    assert [r[0] for r in stored] == [0, 1, 2, 3]
    for row, record, line in zip(stored, records, lines, strict=True):
        decision = record["decision"]
        assert isinstance(decision, dict)
        assert row[1] == record["decision_id"]
        assert (row[2], row[3], row[4]) == (
            decision["decision"],
            decision["policy_id"],
            decision["reason_code"],
        )
        assert row[6] == "gate" and row[7] == "Bash"
        assert row[8] == decision["subject"]
        assert row[9] == json.loads(line)  # the record exactly as the client holds it
        assert row[10] is None  # rebuilt byte for byte from the jsonb record
    # Again: nothing new is read or sent (the cursor), nothing stored twice.
    code, result, _ = ship(server, ledger)
    assert code == 0
    assert result["ledgers"][0]["sent"] == 0  # type: ignore[index]
    assert result["ledgers"][0]["scanned"] == 0  # type: ignore[index]
    assert rows(dsn) == [(4,)]
    # New records: only those are read and go.
    make_ledger(ledger, policy, ["echo more"], tmp_path)
    code, result, _ = ship(server, ledger)
    assert code == 0 and result["ledgers"][0]["stored"] == 1  # type: ignore[index]
    assert result["ledgers"][0]["scanned"] == 1  # type: ignore[index]
    assert rows(dsn) == [(5,)]
    # A cursor that no longer holds (here: edited) only costs a full read.
    cursors = list(ledger.parent.glob("ledger.jsonl.shipped-*"))
    assert len(cursors) == 1
    cursors[0].write_text(cursors[0].read_text().replace('"seq": 4', '"seq": 3'))
    data = json.loads(cursors[0].read_text())
    data["line_sha256"] = "sha256:" + "0" * 64
    cursors[0].write_text(json.dumps(data))
    make_ledger(ledger, policy, ["echo again"], tmp_path)
    code, result, _ = ship(server, ledger)
    assert code == 0 and result["ledgers"][0]["stored"] == 1  # type: ignore[index]
    assert result["ledgers"][0]["scanned"] == 6  # type: ignore[index]
    assert rows(dsn) == [(6,)]
    code, checked = verify_db(dsn)
    assert code == 0 and checked["ok"] is True


def test_resending_acknowledges_duplicates_and_refuses_what_does_not_link(
    server: Server, dsn: str, policy: str, tmp_path: Path
) -> None:
    ledger = tmp_path / "ledger.jsonl"
    lines = make_ledger(ledger, policy, [f"ls d{i}" for i in range(6)], tmp_path)
    source = {"machine": "m1", "ledger": str(ledger)}
    status, got = server.post_json("/v1/ledger", {"source": source, "lines": lines[:4]})
    assert status == 200 and got["stored"] == 4 and got["head"]["seq"] == 3
    # A kill after the server committed but before the client heard: the batch comes again.
    status, got = server.post_json("/v1/ledger", {"source": source, "lines": lines[2:]})
    assert status == 200 and (got["stored"], got["duplicates"]) == (2, 2)
    assert rows(dsn) == [(6,)]
    # A gap: seq 7 after 5 is refused, with the reason.
    later = make_ledger(ledger, policy, ["ls a", "ls b"], tmp_path)
    status, got = server.post_json("/v1/ledger", {"source": source, "lines": [later[7]]})
    assert status == 409
    assert got["error"]["reason_code"] == "chain_broken"
    assert "expected seq 6" in got["error"]["reason"]
    # A rewritten record at a stored seq is a conflict; an edited one is invalid.
    other = tmp_path / "other.jsonl"
    foreign = make_ledger(other, policy, ["ls q"], tmp_path)
    status, got = server.post_json("/v1/ledger", {"source": source, "lines": [foreign[0]]})
    assert status == 409 and got["error"]["reason_code"] == "chain_conflict"
    edited = later[6].replace('"decision":"allow"', '"decision":"deny"', 1)
    assert edited != later[6]
    status, got = server.post_json("/v1/ledger", {"source": source, "lines": [edited]})
    assert status == 409 and got["error"]["reason_code"] == "record_invalid"
    # A record from another ledger spliced in (its prev does not match).
    spliced = json.loads(foreign[0])
    spliced["seq"] = 6
    from clearance.engine.ledger import canonical, record_hash

    spliced["hash"] = record_hash(spliced)
    status, got = server.post_json("/v1/ledger", {"source": source, "lines": [canonical(spliced)]})
    assert status == 409 and got["error"]["reason_code"] == "chain_broken"
    # The good prefix of a batch is stored; the refusal names the first bad line.
    status, got = server.post_json(
        "/v1/ledger", {"source": source, "lines": [later[6], "{nope", later[7]]}
    )
    assert status == 409 and got["stored"] == 1 and got["refused"]["index"] == 1
    assert rows(dsn) == [(7,)]
    # The same decision_id under another source is refused too.
    status, got = server.post_json(
        "/v1/ledger", {"source": {"machine": "m2", "ledger": "x"}, "lines": lines[:1]}
    )
    assert status == 409 and got["error"]["reason_code"] == "duplicate_decision_id"


def test_every_worker_tells_at_once_that_the_database_is_gone(
    server: Server, cluster: Cluster
) -> None:
    """The moment the database stops, each of the workers says "not ready" (it asks the
    database for the question, not a flag up to a probe interval old); the benign twin: each
    says "ready" the moment it is back."""

    def answers() -> tuple[set[int], set[bool], set[int]]:
        pids: set[int] = set()
        ready: set[bool] = set()
        codes: set[int] = set()
        # at least 12 answers, and on until both workers have answered (the kernel picks
        # the worker of each connection: under load one may take many in a row)
        asked = 0
        while asked < 12 or (len(pids) < 2 and asked < 400):
            status, health = server.get("/healthz?ledger=required", token=None)
            pids.add(int(health["pid"]))
            ready.add(bool(health["ledger"]["ready"]))
            codes.add(status)
            asked += 1
        return pids, ready, codes

    pids, ready, codes = answers()
    assert ready == {True} and codes == {200} and len(pids) == 2
    cluster.stop()
    try:
        pids, ready, codes = answers()
        assert ready == {False} and codes == {503}, (pids, ready, codes)
        assert len(pids) == 2  # both workers said so
    finally:
        cluster.start()
    pids, ready, codes = answers()
    assert ready == {True} and codes == {200}
    assert len(pids) == 2  # both workers answered


def test_ship_exits_non_zero_when_the_database_is_down_and_decisions_go_on(
    server: Server, cluster: Cluster, dsn: str, policy: str, tmp_path: Path
) -> None:
    ledger = tmp_path / "ledger.jsonl"
    make_ledger(ledger, policy, ["ls 1", "ls 2"], tmp_path)
    cluster.stop()
    try:
        code, result, err = ship(server, ledger)
        assert code == 1
        assert "cannot store now" in err and "records stay here" in err
        assert result["ledgers"][0]["ok"] is False  # type: ignore[index]
        status, health = server.get("/healthz", token=None)
        assert status == 200  # decisions do not depend on the database
        assert health["ledger"]["ready"] is False and health["decisions_ready"] is True
        status, _ = server.get("/healthz?ledger=required", token=None)
        assert status == 503
        status, got = server.post_json(
            "/v1/decide", {"tool": "Bash", "input": {"command": "rm -rf /"}}
        )
        assert status == 200 and got["decision"] == "deny"
    finally:
        cluster.start()
    deadline = time.monotonic() + 30
    while not server.get("/healthz", token=None)[1]["ledger"]["ready"]:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    code, result, err = ship(server, ledger)
    assert code == 0, err
    assert rows(dsn) == [(2,)]


def test_ship_exits_non_zero_when_the_server_is_down(
    policy: str, tmp_path: Path, serve: Callable[..., Server]
) -> None:
    ledger = tmp_path / "ledger.jsonl"
    make_ledger(ledger, policy, ["ls"], tmp_path)
    server = serve("--policy", policy, token=TOKEN)
    server.close()
    code, _result, err = ship(server, ledger)
    assert code == 1 and "cannot reach" in err
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "clearance",
            "audit",
            "ship",
            "--to",
            server.url,
            "--ledger",
            str(ledger),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"CLEARANCE_TOKEN": TOKEN, "PATH": "/usr/bin:/bin", "PYTHONPATH": sys.path[0]},
    )
    assert out.returncode == 1, out.stderr
    assert "records stay here" in out.stderr


def test_records_jsonb_cannot_hold_are_stored_exactly(
    server: Server, dsn: str, policy: str, tmp_path: Path
) -> None:
    ledger = tmp_path / "ledger.jsonl"
    lines = make_ledger(ledger, policy, ["echo 'a\x00b'", "echo \udcff", "ls"], tmp_path)
    code, _, err = ship(server, ledger)
    assert code == 0, err
    kept = rows(dsn, "SELECT seq, line FROM decisions ORDER BY seq")
    assert kept[0][1] == lines[0] and kept[1][1] == lines[1] and kept[2][1] is None
    code, checked = verify_db(dsn)
    assert code == 0, checked


def test_verify_db_names_the_first_bad_row_of_each_source(
    server: Server, dsn: str, policy: str, tmp_path: Path
) -> None:
    ledgers = []
    for name in ("a", "b", "c", "d"):
        path = tmp_path / f"{name}.jsonl"
        make_ledger(path, policy, [f"ls {name}{i}" for i in range(5)], tmp_path)
        ledgers.append(path)
    code, _, err = ship(server, *ledgers)
    assert code == 0, err
    code, checked = verify_db(dsn)
    assert code == 0
    by_ledger = {s["ledger"]: s for s in checked["sources"]}  # type: ignore[union-attr]
    assert {s["rows"] for s in by_ledger.values()} == {5}
    with psycopg.connect(dsn) as conn:

        def source(path: Path) -> str:
            return str(by_ledger[str(path)]["source_id"])

        # a: a column a security team queries, changed (deny shown as allow).
        conn.execute(
            "UPDATE decisions SET decision = 'deny' WHERE source_id = %s AND seq = 2",
            (source(ledgers[0]),),
        )
        # b: the record itself edited.
        conn.execute(
            "UPDATE decisions SET record = jsonb_set(record, '{decision,decision}', '\"deny\"') "
            "WHERE source_id = %s AND seq = 1",
            (source(ledgers[1]),),
        )
        # c: a row deleted in the middle; d: the last row deleted.
        conn.execute(
            "DELETE FROM decisions WHERE source_id = %s AND seq = 3", (source(ledgers[2]),)
        )
        conn.execute(
            "DELETE FROM decisions WHERE source_id = %s AND seq = 4", (source(ledgers[3]),)
        )
    code, checked = verify_db(dsn)
    assert code == 1
    bad = {s["ledger"]: s["first_bad_row"] for s in checked["sources"]}  # type: ignore[union-attr]
    assert (bad[str(ledgers[0])]["seq"], bad[str(ledgers[0])]["kind"]) == (2, "edited")
    assert (bad[str(ledgers[1])]["seq"], bad[str(ledgers[1])]["kind"]) == (1, "edited")
    assert (bad[str(ledgers[2])]["seq"], bad[str(ledgers[2])]["kind"]) == (4, "deleted")
    assert (bad[str(ledgers[3])]["seq"], bad[str(ledgers[3])]["kind"]) == (4, "truncated")
    text = io.StringIO()
    assert run_verify_db(dsn, out=text, err=io.StringIO()) == 1
    assert text.getvalue().count("BROKEN") == 4


def test_replay_db_dedups_intents_and_reports_changes(
    server: Server, dsn: str, policy: str, tmp_path: Path
) -> None:
    commands = ["ls", "rm -rf build", "cat x"]
    for machine in range(4):
        path = tmp_path / f"m{machine}.jsonl"
        make_ledger(path, policy, commands * 3, tmp_path)  # 9 records, 3 distinct
        code, _, err = ship(server, path)
        assert code == 0, err
    looser = tmp_path / "looser.yaml"
    looser.write_text(Path(policy).read_text().replace("decision: deny", "decision: allow"))
    out = io.StringIO()
    code = run_replay_db(dsn, policies=[str(looser)], as_json=True, out=out, err=io.StringIO())
    result = json.loads(out.getvalue())
    assert code == 4
    assert result["records"] == 36 and result["distinct_intents"] == 3
    assert result["counts"] == {"deny->allow": 12}
    assert result["loosened"] == 12
    same = io.StringIO()
    assert run_replay_db(dsn, policies=[policy], out=same, err=io.StringIO()) == 0
    assert "no decision changed" in same.getvalue()
    assert "(8.3% distinct)" in same.getvalue()
    later = io.StringIO()
    assert (
        run_replay_db(
            dsn,
            policies=[str(looser)],
            since="2999-01-01",
            as_json=True,
            out=later,
            err=io.StringIO(),
        )
        == 0
    )
    assert json.loads(later.getvalue())["records"] == 0


def test_db_commands_fail_clearly_on_bad_input(tmp_path: Path, policy: str) -> None:
    from service_support import free_port

    nowhere = f"postgresql://postgres@127.0.0.1:{free_port()}/none"
    err = io.StringIO()
    assert run_verify_db(nowhere, out=io.StringIO(), err=err) == 2
    assert "cannot read the store" in err.getvalue()
    err = io.StringIO()
    assert run_replay_db(nowhere, policies=[policy], out=io.StringIO(), err=err) == 2
    assert "cannot read the store" in err.getvalue()
    err = io.StringIO()
    code = run_replay_db(nowhere, policies=[policy], since="last week", err=err)
    assert code == 2 and "ISO 8601" in err.getvalue()
    err = io.StringIO()
    assert run_replay_db(nowhere, policies=None, err=err) == 2
    assert "needs --policy" in err.getvalue()
