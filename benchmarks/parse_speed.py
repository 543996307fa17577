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


def measure(work: Callable[[str], bool], commands: list[str]) -> tuple[float, list[float], int]:
    """Total seconds, per-command seconds, and how many succeeded."""
    latencies: list[float] = []
    ok = 0
    clock = time.perf_counter
    started = clock()
    for text in commands:
        before = clock()
        ok += work(text)
        latencies.append(clock() - before)
    return clock() - started, latencies, ok


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

    results: dict[str, tuple[float, list[float], int]] = {}
    for name, work in (
        ("clearance parse", run_parse),
        ("clearance classify", run_classify),
        ("bashlex.parse", run_bashlex),
    ):
        results[name] = measure(work, commands)

    n = len(commands)
    print(f"## Parse speed: {n:,} distinct commands, one process, no result cache\n")
    print("| parser | commands/s | p50 | p99 | max | accepted |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, (total, latencies, ok) in results.items():
        print(
            f"| {name} | {n / total:,.0f} | {1e6 * statistics.median(latencies):.0f} µs"
            f" | {1e6 * percentile(latencies, 0.99):.0f} µs | {1e3 * max(latencies):.1f} ms"
            f" | {100 * ok / n:.2f}% |"
        )
    bashlex_total, bashlex_latencies, _ = results["bashlex.parse"]
    print()
    for name in ("clearance parse", "clearance classify"):
        print(f"- {name} vs bashlex.parse: **{bashlex_total / results[name][0]:.2f}x**")
    if STUCK:
        # The ratio without the calls the timer stopped, for a view kinder to bashlex.
        kept = sum(sorted(bashlex_latencies)[: n - len(STUCK)])
        print(
            f"- bashlex.parse was stopped at 5 s on {len(STUCK)} command(s)"
            f" (e.g. `{STUCK[0][:60]}`); leaving those out, clearance parse is"
            f" {kept / results['clearance parse'][0]:.2f}x and classify"
            f" {kept / results['clearance classify'][0]:.2f}x bashlex"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
