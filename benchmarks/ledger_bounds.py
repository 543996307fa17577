"""Bounded evidence and bounded inputs: what the ledger and the budgets cost, as ratios.

    python benchmarks/ledger_bounds.py [--runs 50]

Everything runs in this process, in a fresh temporary state directory, and each figure comes
with the baseline it is divided by (measured in the same run):

* append: the median ``Ledger.append`` of an everyday decision (lock, tail and head checks, MAC,
  write, ``fdatasync``, head replacement) against the bare floor of one ``write`` + ``fdatasync``
  of a line of the same size on the same disk;
* megabyte command: the size of the record a 1.3 MB, 120,000-part command leaves, and the median
  append *after* it, against the everyday append (reading the tail costs the last record only);
* hostile inputs: the time to answer each (a policy load that fails, or a classification that
  stops at its budget) against classifying an everyday ``git status --short FILE`` (a new
  file name each time, so no result cache helps).
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def median_of(runs: int, work: Callable[[], object]) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    runs = parser.parse_args().runs
    scratch = Path(tempfile.mkdtemp(prefix="ledger-bench-"))
    atexit.register(shutil.rmtree, scratch, True)  # (a walk of /tmp reads what is left)
    os.environ["XDG_STATE_HOME"] = str(scratch / "state")
    os.environ["CLEARANCE_CACHE_DIR"] = str(scratch / "cache")

    from clearance.engine.api import decide, load_policy
    from clearance.engine.errors import PolicyError
    from clearance.engine.intents import ToolIntent
    from clearance.engine.ledger import Ledger
    from clearance.shellparse.api import classify

    policy = load_policy(str(scratch))
    intent = ToolIntent("Bash", {"command": "ls -la src"}, cwd=str(scratch))
    decision = decide(intent, policy, cwd=str(scratch))
    ledger = Ledger(str(scratch / "l.jsonl"))
    ledger.append(decision, intent, surface="hook")
    line = (scratch / "l.jsonl").read_bytes().splitlines()[0] + b"\n"
    floor_fd = os.open(scratch / "floor.jsonl", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)

    def floor() -> None:
        os.write(floor_fd, line)
        os.fdatasync(floor_fd)

    base = median_of(runs, floor)
    append = median_of(runs, lambda: ledger.append(decision, intent, surface="hook"))

    big = " && ".join(f"echo {i}" for i in range(120_000))
    big_intent = ToolIntent("Bash", {"command": big}, cwd=str(scratch))
    big_decision = decide(big_intent, policy, cwd=str(scratch))
    before = (scratch / "l.jsonl").stat().st_size
    ledger.append(big_decision, big_intent, surface="hook")
    record_size = (scratch / "l.jsonl").stat().st_size - before
    after_big = median_of(runs, lambda: ledger.append(decision, intent, surface="hook"))

    print("| measure | value | baseline | ratio |")
    print("| --- | --- | --- | --- |")
    print(
        f"| append, everyday decision | {append * 1e3:.2f} ms | write+fdatasync "
        f"{base * 1e3:.2f} ms | {append / base:.2f} |"
    )
    print(
        f"| record of a {len(big) / 1e6:.1f} MB command | {record_size / 1e3:.0f} KB | "
        f"command {len(big) / 1e3:.0f} KB | {record_size / len(big):.3f} |"
    )
    print(
        f"| append after that record | {after_big * 1e3:.2f} ms | everyday append "
        f"{append * 1e3:.2f} ms | {after_big / append:.2f} |"
    )

    counter = iter(range(10**9))  # a new text each time: no result cache helps
    everyday = median_of(
        runs, lambda: classify(f"git status --short src/f{next(counter)}.py", cwd=str(scratch))
    )
    bomb = (
        "version: 1\nid: b\nrules: []\n"
        + 'x0: &a0 ["l","l","l","l","l","l","l","l","l"]\n'
        + "".join(f"x{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 9))
    )
    (scratch / "bomb.yaml").write_text(bomb)

    def load_bomb() -> None:
        try:
            load_policy(str(scratch), files=[str(scratch / "bomb.yaml")], use_cache=False)
        except PolicyError:
            return

    regex = (
        "version: 1\nid: r\nrules:\n  - id: evil\n    decision: deny\n    reason: x\n"
        "    when: {regex: '^(a+)+$'}\n"
        f"    examples: {{no_match: ['echo {'a' * 3000}!']}}\n"
    )
    (scratch / "regex.yaml").write_text(regex)
    hostile: dict[str, Callable[[], object]] = {
        f"alias bomb policy ({len(bomb)} B)": load_bomb,
        "backtracking regex in its own examples (policy load)": lambda: load_policy(
            str(scratch), files=[str(scratch / "regex.yaml")], use_cache=False
        ),
        "a=$a$a doubled 28 times (205 B)": lambda: classify(
            "a=x;" + "a=$a$a;" * 28 + "rm -rf $a", cwd=str(scratch)
        ),
        "5000 sequential {a,b} braces": lambda: classify("echo " + "{a,b}" * 5000, cwd="/"),
        "3000 nested braces": lambda: classify("echo " + "{" * 3000 + "a,b" + "}" * 3000),
        "5000 commands (command budget)": lambda: classify("; ".join(["ls"] * 5000), cwd="/"),
        "250 KB of `ls; ` (token budget)": lambda: classify("; ".join(["ls"] * 60_000), cwd="/"),
        "50,000 plain words (word budget)": lambda: classify("echo " + " a" * 50_000, cwd="/"),
    }
    print()
    print(f"| hostile input | time | ratio to an everyday classify ({everyday * 1e3:.2f} ms) |")
    print("| --- | --- | --- |")
    for name, work in hostile.items():
        spent = median_of(max(3, runs // 10), work)
        print(f"| {name} | {spent * 1e3:.1f} ms | {spent / everyday:.0f} |")


if __name__ == "__main__":
    main()
