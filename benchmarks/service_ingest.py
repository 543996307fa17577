"""Ingest into PostgreSQL: records/s from 50 simulated machines shipping at once.

A throwaway PostgreSQL cluster (``initdb`` + ``pg_ctl``, as in the tests) and ``clearance
serve --workers 2 --db``. Each simulated machine has its own ledger written by
``clearance.engine.ledger.Ledger.append`` (real hash-chained records of real decisions of
corpus commands); all 50 ship at once (``clearance.service.ship.ship``, one thread each, one
keep-alive connection each, batches of 500). Records/s is the stored total over the wall
time from the first request to the last acknowledgement; afterwards the store is verified
(``audit verify --db``) and counted.

Run: python benchmarks/service_ingest.py [--machines 50] [--records 400]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "service")]
CORPUS = os.environ.get("CLEARANCE_CORPUS", "/work/shared/corpus/commands.txt")
WORKSPACE = "/home/user/project"


def sample_decisions(n: int = 200) -> list[tuple[object, object]]:
    """``(decision, intent)`` of n distinct corpus commands under the default pack."""
    from clearance.engine.api import decide, load_policy
    from clearance.engine.intents import ToolIntent

    policy = load_policy(WORKSPACE)
    out: list[tuple[object, object]] = []
    with open(CORPUS, encoding="utf-8") as fh:
        for line in fh:
            command = line.rstrip("\n")
            if not command.strip() or len(command) > 500:
                continue
            intent = ToolIntent("Bash", {"command": command}, source="hook", cwd=WORKSPACE)
            out.append((decide(intent, policy, cwd=WORKSPACE, workspace=WORKSPACE), intent))
            if len(out) >= n:
                break
    return out


def write_ledger(
    path: Path, records: int, samples: list[tuple[object, object]], offset: int
) -> None:
    from clearance.engine.decision import new_decision_id
    from clearance.engine.ledger import Ledger
    from clearance.engine.ledger_replay import decision_from_dict

    ledger = Ledger(str(path))
    for i in range(records):
        decision, intent = samples[(offset + i) % len(samples)]
        copy = decision_from_dict(decision.to_dict())  # type: ignore[attr-defined]
        copy.decision_id = new_decision_id()
        ledger.append(copy, intent, surface="hook", agent="claude-code", workspace=WORKSPACE)  # type: ignore[arg-type]


def make_ledgers(root: Path, machines: int, records: int) -> list[Path]:
    samples = sample_decisions()
    paths = []
    for m in range(machines):
        directory = root / f"machine{m:02d}" / ".clearance"
        directory.mkdir(parents=True)
        path = directory / "ledger.jsonl"
        write_ledger(path, records, samples, m * 7)
        paths.append(path)
    return paths


def ship_all(url: str, paths: list[Path], *, retry_until: float | None = None) -> list[object]:
    """Ship every ledger at once (one thread each); with ``retry_until``, retry failures."""
    from clearance.service.ship import ShipError, ship

    errors: list[object] = []

    def one(index: int, path: Path) -> None:
        while True:
            try:
                ship(url, str(path), token=None, batch=500, timeout=120, machine=f"sim-{index:02d}")
                return
            except ShipError as exc:
                if retry_until is None or time.monotonic() > retry_until:
                    errors.append(exc)
                    return
                time.sleep(0.2)

    threads = [threading.Thread(target=one, args=(i, p)) for i, p in enumerate(paths)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--machines", type=int, default=50)
    parser.add_argument("--records", type=int, default=400)
    args = parser.parse_args()
    import psycopg
    from service_support import Cluster, Server

    from clearance.service.dbverify import verify_store

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        t = time.perf_counter()
        paths = make_ledgers(root, args.machines, args.records)
        made = time.perf_counter() - t
        cluster = Cluster()
        try:
            dsn = cluster.create_database("ingest")
            server = Server("--db", dsn, workers=2, tmp=root)
            try:
                started = time.perf_counter()
                errors = ship_all(server.url, paths)
                wall = time.perf_counter() - started
            finally:
                server.close()
            with psycopg.connect(dsn) as conn:
                stored = conn.execute("SELECT count(*) FROM decisions").fetchone()[0]  # type: ignore[index]
                checks = verify_store(conn)
        finally:
            cluster.destroy()
    total = args.machines * args.records
    print(
        f"{args.machines} machines x {args.records} records = {total} "
        f"(ledgers made in {made:.1f} s)\n"
    )
    print("| measure | value |")
    print("|---|---:|")
    print(f"| stored | {stored} |")
    print(f"| wall time, all shipping at once | {wall:.2f} s |")
    print(f"| records/s into PostgreSQL | {stored / wall:,.0f} |")
    print(f"| ship errors | {len(errors)} |")
    print(f"| sources verified | {sum(c.ok for c in checks)} of {len(checks)} |")
    for error in errors[:5]:
        print(f"\nship error: {error}")


if __name__ == "__main__":
    main()
