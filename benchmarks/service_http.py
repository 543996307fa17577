"""Decisions per second over HTTP (``clearance serve``) against ``gate`` in-process, same run.

The server runs with ``--workers 2`` and the default pack; 8 concurrent clients, each on its
own keep-alive HTTP/1.1 connection, POST distinct corpus commands to ``/v1/decide`` (every
command once over the whole run, so nothing is answered from a warm repeat). The baseline is
``gate``'s own per-line code (``decide_line``, what ``clearance gate`` runs for each line) in
this process, one core, on the same commands. Latency is per request (client side: send to
last byte) and per line in-process. The clients share the machine's cores with the server,
so the HTTP figure includes their cost too.

Run: python benchmarks/service_http.py [--requests 4000] [--clients 8] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "service")]
CORPUS = os.environ.get("CLEARANCE_CORPUS", "/work/shared/corpus/commands.txt")
WORKSPACE = "/home/user/project"


def commands(n: int) -> list[str]:
    seen: dict[str, None] = {}
    with open(CORPUS, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.rstrip("\n")
            if line.strip() and len(line) < 2000:
                seen.setdefault(line, None)
            if len(seen) >= n:
                break
    return list(seen)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def client(port: int, bodies: list[bytes], latencies: list[float]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for body in bodies:
        request = (
            b"POST /v1/decide HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        started = time.perf_counter()
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        data = await reader.readexactly(length)
        latencies.append(time.perf_counter() - started)
        if b'"decision"' not in data:
            raise RuntimeError(data[:200])
    writer.close()
    await writer.wait_closed()


async def http_run(port: int, bodies: list[bytes], clients: int) -> tuple[float, list[float]]:
    latencies: list[float] = []
    shares = [bodies[i::clients] for i in range(clients)]
    started = time.perf_counter()
    await asyncio.gather(*(client(port, share, latencies) for share in shares))
    return time.perf_counter() - started, latencies


def in_process(lines: list[bytes]) -> tuple[float, list[float]]:
    from clearance.cli.commands.gate import decide_line
    from clearance.engine.ledger_replay import PolicyCache

    cache = PolicyCache(None)
    cache.get(WORKSPACE)
    latencies = []
    started = time.perf_counter()
    for number, raw in enumerate(lines, 1):
        t = time.perf_counter()
        decide_line(raw, number, WORKSPACE, cache.get)
        latencies.append(time.perf_counter() - t)
    return time.perf_counter() - started, latencies


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    from service_support import Server

    cmds = commands(args.requests + 400)
    warm, measured = cmds[:400], cmds[400 : 400 + args.requests]

    def body(command: str) -> bytes:
        return json.dumps(
            {"tool": "Bash", "input": {"command": command}, "cwd": WORKSPACE}
        ).encode()

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(workers=args.workers, tmp=Path(tmp))
        try:
            asyncio.run(http_run(server.port, [body(c) for c in warm], args.clients))
            wall, lat = asyncio.run(
                http_run(server.port, [body(c) for c in measured], args.clients)
            )
        finally:
            server.close()
    in_process([body(c) for c in warm])
    base_wall, base_lat = in_process([body(c) for c in measured])
    http_rate = len(measured) / wall
    base_rate = len(measured) / base_wall
    print(f"{len(measured)} distinct corpus commands, default pack, cwd {WORKSPACE}\n")
    print("| path | decisions/s | p50 ms | p99 ms |")
    print("|---|---:|---:|---:|")
    print(
        f"| HTTP /v1/decide, {args.workers} workers, {args.clients} keep-alive clients | "
        f"{http_rate:,.0f} | {percentile(lat, 0.5) * 1e3:.2f} | {percentile(lat, 0.99) * 1e3:.2f} |"
    )
    print(
        f"| gate in-process (decide_line), 1 core | {base_rate:,.0f} | "
        f"{percentile(base_lat, 0.5) * 1e3:.2f} | {percentile(base_lat, 0.99) * 1e3:.2f} |"
    )
    print(f"\nratio HTTP / in-process: {http_rate / base_rate:.2f}x  (cores: {os.cpu_count()})")


if __name__ == "__main__":
    main()
