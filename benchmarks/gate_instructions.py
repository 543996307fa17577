"""Instructions of one whole ``clearance gate`` process over N distinct corpus commands.

The same run as ``gate_throughput.py`` (the real CLI, the default embedded policy, a scratch
project, the same fixed-seed sample of ``/work/shared/corpus``), counted instead of timed:
valgrind's cachegrind (no cache simulation) counts the instructions each target's process
executes from start to exit, and each target is printed beside the first as a ratio. On a
shared machine a wall-clock figure moves by tens of percent between rounds; an instruction
count of the same input moves by well under one, so a change of a few percent shows here
where the throughput benchmark cannot tell it from noise. It is a count, not a time: system
calls, cache misses and disk reads (directory walks) are not in it -- ``gate_throughput.py``
stays the figure the issue is judged by.

Each target runs one line first (its compiled-policy cache filled), then the sample once
under valgrind. The answers are compared as ``gate_throughput.py --diff`` compares them:
under valgrind a tree search is slow enough to reach its time bound (0.3 s) now and then,
and a line where it did on one side is counted apart.

Needs valgrind (``apt-get install valgrind``). About two minutes a target for 20,000 lines.

Run: python benchmarks/gate_instructions.py [-n 20000] [--tree DIR]... [--python PY]...
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parent))

from gate_throughput import Batch, compare_outputs, corpus_sample, targets_of

#: valgrind's summary line of the instructions executed
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=20_000, help="distinct commands (20,000)")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--tree", action="append", default=[], help="a source tree to run")
    parser.add_argument("--python", action="append", default=[], help="an installed build")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("gate_instructions: valgrind is not installed (apt-get install valgrind)")
        return 2

    targets = targets_of(args.tree, args.python)
    commands = corpus_sample(args.n, args.seed)
    batch = Batch(commands, "gate-instructions-")
    print(f"{len(commands):,} distinct corpus commands (seed {args.seed}), one run a target")
    counts: list[int] = []
    for index, target in enumerate(targets):
        batch.warm_up(target)
        wrapper = (
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            f"--cachegrind-out-file={batch.scratch / f'cachegrind-{index}.out'}",
        )
        out = batch.scratch / f"out-{index}.jsonl"
        seconds, stderr = target.gate(
            str(batch.intents), str(out), str(batch.workspace), batch.env, wrapper
        )
        found = _REFS.search(stderr)
        if found is None:
            raise SystemExit(f"{target.label}: no instruction count in valgrind's output")
        counts.append(int(found.group(1).replace(",", "")))
        line = f"{target.label}: {counts[-1]:,} instructions ({seconds:.0f} s under valgrind)"
        if index:
            line += f", {counts[-1] / counts[0]:.3f}x the first ({counts[0] / counts[-1]:.3f}x"
            line += " as fast by this count)"
        print(line)
    if len(targets) > 1:
        compare_outputs(targets, batch.scratch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
