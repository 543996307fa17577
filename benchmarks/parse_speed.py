"""Parse speed: distinct commands per second over the corpus, against bashlex, in one process.

Every distinct command line of ``commands.txt`` goes, in turn, through our parser alone
(``parse``: text to AST), through the whole facts pipeline (``classify``: AST, expansion,
unwrapping, program tables), and through bashlex (``bashlex.parse``), all in the same process
and the same run, one call per command, with no cache of results. bashlex raises on what it
cannot parse; each of its calls is guarded, so a failure costs its time and counts as a
failure, and a 5 s timer stops any call that would hang. Per-command latencies give p50/p99.

Run: ``python benchmarks/parse_speed.py [--corpus DIR] [--limit N]``.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType

import bashlex  # type: ignore[import-untyped]

from clearance.shellparse import classify
from clearance.shellparse.parser import parse

DEFAULT_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


#: bashlex calls stopped by the timer (they count as failures, with the time they took).
STUCK: list[str] = []


class Stuck(BaseException):
    pass


def _stuck(signum: int, frame: FrameType | None) -> None:
    raise Stuck


def run_bashlex(text: str) -> bool:
    signal.setitimer(signal.ITIMER_REAL, 5.0)
    try:
        bashlex.parse(text)
    except Stuck:
        STUCK.append(text)
        return False
    except Exception:  # bashlex reports what it cannot parse by raising
        return False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return True


def run_parse(text: str) -> bool:
    return parse(text).ok


def run_classify(text: str) -> bool:
    return classify(text, cwd="/work/project", home="/home/user").ok


class Run:
    """One parser over the whole list: wall and CPU totals, CPU time per command, successes."""

    def __init__(self, wall: float, cpu: float, latencies: list[float], ok: int) -> None:
        self.wall = wall
        self.cpu = cpu
        self.latencies = latencies
        self.ok = ok


def measure(work: Callable[[str], bool], commands: list[str]) -> Run:
    """Per-command cost is CPU time of this process: on a shared machine, wall time per call
    also counts whoever else ran meanwhile. Totals are given both ways."""
    latencies: list[float] = []
    ok = 0
    cpu = time.process_time
    started_wall, started_cpu = time.perf_counter(), cpu()
    for text in commands:
        before = cpu()
        ok += work(text)
        latencies.append(cpu() - before)
    return Run(time.perf_counter() - started_wall, cpu() - started_cpu, latencies, ok)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=0, help="only the first N commands")
    args = parser.parse_args()
    lines = (args.corpus / "commands.txt").read_text(encoding="utf-8").split("\n")
    commands = list(dict.fromkeys(line for line in lines if line))
    if args.limit:
        commands = commands[: args.limit]
    signal.signal(signal.SIGALRM, _stuck)

    # One warm-up pass over a slice, so that imports and first-call costs are not timed.
    for text in commands[:200]:
        run_parse(text)
        run_classify(text)
        run_bashlex(text)
    STUCK.clear()

    results: dict[str, Run] = {}
    for name, work in (
        ("clearance parse", run_parse),
        ("clearance classify", run_classify),
        ("bashlex.parse", run_bashlex),
    ):
        results[name] = measure(work, commands)

    n = len(commands)
    print(f"## Parse speed: {n:,} distinct commands, one process, no result cache\n")
    print("| parser | commands/s (wall) | commands/s (CPU) | p50 | p99 | max | accepted |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, run in results.items():
        print(
            f"| {name} | {n / run.wall:,.0f} | {n / run.cpu:,.0f}"
            f" | {1e6 * statistics.median(run.latencies):.0f} µs"
            f" | {1e6 * percentile(run.latencies, 0.99):.0f} µs"
            f" | {1e3 * max(run.latencies):.1f} ms | {100 * run.ok / n:.2f}% |"
        )
    print("\np50/p99/max: CPU time per command.\n")
    bashlex = results["bashlex.parse"]
    for name in ("clearance parse", "clearance classify"):
        run = results[name]
        print(
            f"- {name} vs bashlex.parse: **{bashlex.wall / run.wall:.2f}x** (wall),"
            f" {bashlex.cpu / run.cpu:.2f}x (CPU)"
        )
    if STUCK:
        # The ratio without the calls the timer stopped, for a view kinder to bashlex.
        kept = sum(sorted(bashlex.latencies)[: n - len(STUCK)])
        print(
            f"- bashlex.parse was stopped at 5 s on {len(STUCK)} command(s)"
            f" (e.g. `{STUCK[0][:60]}`); leaving those out, clearance parse is"
            f" {kept / results['clearance parse'].cpu:.2f}x and classify"
            f" {kept / results['clearance classify'].cpu:.2f}x bashlex (CPU)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
