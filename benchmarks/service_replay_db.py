"""``replay --db`` over a store of one million decisions: wall time, share of distinct intents.

Store: a throwaway PostgreSQL cluster, the schema made by ``clearance.service.store.migrate``,
filled by COPY with ``--rows`` records shaped exactly as ledgers hold them (hash-chained per
source, 100 sources), whose intents are ``--distinct`` distinct corpus commands decided under
the default pack, repeated with a skew (a few commands are most of the traffic, as in real
use). Measured: ``clearance.service.dbreplay.replay_store`` (what ``clearance replay --db``
runs) under the default pack plus one stricter rule, on all cores; and, for the same store,
``audit verify --db`` (``verify_store``).

Run: python benchmarks/service_replay_db.py [--rows 1000000] [--distinct 50000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "service")]
CORPUS = os.environ.get("CLEARANCE_CORPUS", "/work/shared/corpus/commands.txt")
WORKSPACE = "/home/user/project"
HOME = "/home/user"
NEW_POLICY = """\
version: 1
id: org-next
extends: default
rules:
  - id: no-network-fetch
    decision: deny
    reason: fetches go through the proxy
    when: {program: [curl, wget]}
"""

_POLICY: list[object] = []


def _init() -> None:
    from clearance.engine.api import load_policy

    _POLICY[:] = [load_policy(WORKSPACE)]


def _decide(command: str) -> tuple[dict[str, object], dict[str, object], list[dict[str, object]]]:
    from clearance.engine.api import decide
    from clearance.engine.intents import ToolIntent
    from clearance.engine.ledger import facts_summary

    intent = ToolIntent("Bash", {"command": command}, source="hook", cwd=WORKSPACE)
    decision = decide(intent, _POLICY[0], cwd=WORKSPACE, workspace=WORKSPACE, home=HOME)  # type: ignore[arg-type]
    return intent.to_dict(), decision.to_dict(), facts_summary(decision)


def distinct_decisions(
    n: int,
) -> list[tuple[dict[str, object], dict[str, object], list[dict[str, object]]]]:
    import multiprocessing

    seen: dict[str, None] = {}
    with open(CORPUS, encoding="utf-8") as fh:
        for line in fh:
            command = line.rstrip("\n")
            if command.strip() and len(command) < 1000:
                seen.setdefault(command, None)
            if len(seen) >= n:
                break
    with multiprocessing.get_context("fork").Pool(os.cpu_count(), initializer=_init) as pool:
        return pool.map(_decide, list(seen), chunksize=256)


def fill(
    dsn: str,
    rows: int,
    decided: list[tuple[dict[str, object], dict[str, object], list[dict[str, object]]]],
) -> int:
    import psycopg

    from clearance.engine.decision import new_decision_id
    from clearance.engine.ledger import GENESIS, canonical, record_hash, sha256_text
    from clearance.service.store import migrate

    rng = random.Random(7)
    sources = 100
    heads = [(-1, GENESIS, None)] * sources
    n = len(decided)
    used: set[int] = set()
    with psycopg.connect(dsn) as conn:
        migrate(conn)
        for s in range(sources):
            conn.execute(
                "INSERT INTO sources (source_id, machine, ledger) VALUES (%s, %s, %s)",
                (
                    f"src{s:03d}",
                    f"machine-{s:03d}",
                    "/home/user/.local/state/clearance/ledger.jsonl",
                ),
            )
        conn.commit()
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY decisions (decision_id, source_id, seq, time, machine, project, user_name, "
                "agent, session_id, surface, tool, subject, decision, rule_id, reason_code, "
                "policy_digest, hash, prev, record) FROM STDIN"
            ) as copy,
        ):
            for i in range(rows):
                s = i % sources
                seq, prev, _ = heads[s]
                k = min(n - 1, int(n * rng.random() ** 3))  # skewed: low ranks dominate
                used.add(k)
                intent, decision, facts = decided[k]
                decision_id = new_decision_id()
                record: dict[str, object] = {
                    "v": 1,
                    "seq": seq + 1,
                    "decision_id": decision_id,
                    "time": f"2026-11-{1 + i % 28:02d}T10:00:00.000Z",
                    "surface": "hook",
                    "agent": "claude-code",
                    "session_id": f"s{i // 50}",
                    "cwd": WORKSPACE,
                    "workspace": WORKSPACE,
                    "home": HOME,
                    "intent": {**intent, "id": f"toolu_{i}", "session_id": f"s{i // 50}"},
                    "facts": facts,
                    "decision": {**decision, "decision_id": decision_id},
                    "policy_digest": decision["policy_digest"],
                    "prev": prev,
                }
                record["hash"] = record_hash(record)
                line = canonical(record)
                heads[s] = (seq + 1, sha256_text(line.encode("ascii")), record["hash"])
                copy.write_row(
                    (
                        decision_id,
                        f"src{s:03d}",
                        seq + 1,
                        record["time"],
                        f"machine-{s:03d}",
                        WORKSPACE,
                        "dev",
                        "claude-code",
                        f"s{i // 50}",
                        "hook",
                        "Bash",
                        str(decision["subject"])[:4096].replace("\0", "\ufffd"),
                        decision["decision"],
                        decision["policy_id"],
                        decision["reason_code"],
                        decision["policy_digest"],
                        record["hash"],
                        prev,
                        line,
                    )
                )
        for s, (seq, sha, digest) in enumerate(heads):
            conn.execute(
                "UPDATE sources SET last_seq = %s, last_line_sha256 = %s, last_hash = %s, "
                "records = %s WHERE source_id = %s",
                (seq, sha, digest, seq + 1, f"src{s:03d}"),
            )
        conn.commit()
        conn.execute("ANALYZE decisions")
        conn.commit()
    return len(used)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--distinct", type=int, default=50_000)
    parser.add_argument("--no-verify", action="store_true")
    args = parser.parse_args()
    import psycopg
    from service_support import Cluster

    from clearance.service.dbreplay import replay_store
    from clearance.service.dbverify import verify_store

    with tempfile.TemporaryDirectory() as tmp:
        policy = Path(tmp) / "next.yaml"
        policy.write_text(NEW_POLICY)
        t = time.perf_counter()
        decided = distinct_decisions(args.distinct)
        t_decide = time.perf_counter() - t
        cluster = Cluster()
        try:
            dsn = cluster.create_database("replay")
            t = time.perf_counter()
            present = fill(dsn, args.rows, decided)
            t_fill = time.perf_counter() - t
            with psycopg.connect(dsn) as conn:
                size = conn.execute(
                    "SELECT pg_size_pretty(pg_total_relation_size('decisions'))"
                ).fetchone()[0]  # type: ignore[index]
                t = time.perf_counter()
                result = replay_store(conn, [str(policy)])
                t_replay = time.perf_counter() - t
                t_verify = None
                if not args.no_verify:
                    t = time.perf_counter()
                    checks = verify_store(conn)
                    t_verify = time.perf_counter() - t
                    assert all(c.ok for c in checks), [c.to_dict() for c in checks if not c.ok][:2]
        finally:
            cluster.destroy()
    print(
        f"store: {args.rows:,} decisions from 100 sources ({size}), {present:,} distinct "
        f"intents present (of {args.distinct:,} decided); setup: old decisions "
        f"{t_decide:.0f} s, COPY {t_fill:.0f} s\n"
    )
    print("| measure | value |")
    print("|---|---:|")
    print(f"| replay --db wall time ({os.cpu_count()} cores) | {t_replay:.1f} s |")
    print(f"| records | {result.records:,} |")
    print(f"| distinct intents replayed | {result.distinct:,} ({result.distinct_share:.2%}) |")
    print(f"| changed | {json.dumps(result.counts)} |")
    print(f"| loosened | {result.loosened} |")
    if t_verify is not None:
        print(f"| audit verify --db wall time | {t_verify:.1f} s |")


if __name__ == "__main__":
    main()
