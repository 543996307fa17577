"""Soak: the server killed (``kill -9``) and the database stopped mid-ship, then restarted.

50 simulated machines ship their ledgers at once (retrying every 0.2 s whatever fails) while
this script, in order: kills the whole server with SIGKILL mid-ship and starts it again on the
same port, then stops PostgreSQL (``pg_ctl -m immediate``: a crash, no clean shutdown) and
starts it again; meanwhile ten machines keep appending records to their ledgers. When every
shipper has finished, a last ``audit ship`` pass runs, and the store must hold exactly the
sum of the local ledgers, no decision twice, every source's chain verified, each source's rows
equal to its ledger's lines.

Run: python benchmarks/service_soak.py [--machines 50] [--records 300]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "service"), str(ROOT / "benchmarks")]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--machines", type=int, default=50)
    parser.add_argument("--records", type=int, default=300)
    args = parser.parse_args()
    import psycopg
    from service_ingest import make_ledgers, sample_decisions, ship_all, write_ledger
    from service_support import Cluster, Server

    from clearance.engine.ledger import read_lines
    from clearance.service.dbverify import verify_store

    events: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        paths = make_ledgers(root, args.machines, args.records)
        samples = sample_decisions(50)
        cluster = Cluster()
        try:
            dsn = cluster.create_database("soak")
            server = Server("--db", dsn, workers=2, tmp=root)
            port = server.port
            errors: list[object] = []
            t0 = time.monotonic()

            def shippers() -> None:
                errors.extend(ship_all(server.url, paths, retry_until=time.monotonic() + 300))

            def writers() -> None:
                for round_ in range(10):
                    for m in range(10):
                        write_ledger(paths[m], 2, samples, round_)
                    time.sleep(0.3)

            ship_thread = threading.Thread(target=shippers)
            write_thread = threading.Thread(target=writers)
            ship_thread.start()
            write_thread.start()
            time.sleep(1.0)
            server.kill()
            events.append(f"{time.monotonic() - t0:.1f}s server kill -9")
            time.sleep(1.0)
            server = Server("--db", dsn, workers=2, tmp=root, port=port)
            events.append(f"{time.monotonic() - t0:.1f}s server restarted")
            time.sleep(1.0)
            cluster.stop("immediate")
            events.append(f"{time.monotonic() - t0:.1f}s database stopped (immediate)")
            time.sleep(2.0)
            cluster.start()
            events.append(f"{time.monotonic() - t0:.1f}s database restarted")
            write_thread.join()
            ship_thread.join()
            events.append(f"{time.monotonic() - t0:.1f}s shippers done ({len(errors)} gave up)")
            final = ship_all(server.url, paths)
            events.append(f"{time.monotonic() - t0:.1f}s final ship pass ({len(final)} errors)")
            server.close()
            local = {str(p): sum(1 for _ in read_lines(str(p))) for p in paths}
            with psycopg.connect(dsn) as conn:
                stored = conn.execute("SELECT count(*) FROM decisions").fetchone()[0]  # type: ignore[index]
                dupes = conn.execute(
                    "SELECT count(*) FROM (SELECT decision_id FROM decisions GROUP BY 1 "
                    "HAVING count(*) > 1) d"
                ).fetchone()[0]  # type: ignore[index]
                per_source = dict(
                    conn.execute(
                        "SELECT s.ledger, count(d.id) FROM sources s LEFT JOIN decisions d "
                        "USING (source_id) GROUP BY s.ledger"
                    ).fetchall()
                )
                checks = verify_store(conn)
        finally:
            cluster.destroy()
    print("\n".join(f"- {e}" for e in events) + "\n")
    print("| check | value |")
    print("|---|---:|")
    print(f"| records in local ledgers | {sum(local.values())} |")
    print(f"| rows in the store | {stored} |")
    print(f"| decision ids stored twice | {dupes} |")
    equal = sum(per_source.get(k) == v for k, v in local.items())
    print(f"| sources whose rows equal their ledger | {equal} of {len(local)} |")
    print(f"| chains verified | {sum(c.ok for c in checks)} of {len(checks)} |")
    ok = stored == sum(local.values()) and dupes == 0 and all(c.ok for c in checks)
    print(f"\nresult: {'PASS' if ok else 'FAIL'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
