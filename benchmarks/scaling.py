"""How the cost of one decision grows: with the command's length and with the rule count.

Length: commands of several shapes built to 10 B, 100 B, 1 KB, 5 KB, 10 KB and 20 KB -- many
arguments to one program, a ``&&`` chain of simple commands, a pipeline, one long quoted
string, nested command substitutions ``$(echo $(echo …))`` and brace expansion -- each decided
whole (parse, facts, evaluation, the decision) in this process with the default pack. Per step
it prints the time ratio beside the length ratio; a step whose time grows more than 1.5× faster
than its length is flagged ``WORSE THAN LINEAR``. Budgets (10,000 tokens, 1,024 commands, 8,192
words, the expansion budgets) make long inputs cheap on purpose: a flat curve past a bound is
the bound working, and every such decision carries the marker that says so (shown).

Rules: the default pack, then +1,000 and +10,000 generated rules (nine in ten about one of the
corpus's 300 most used programs, one in ten about an effect class and a path, as in
``benchmarks/engine_decisions.py``), each deciding the same corpus commands whole; per step the
time ratio beside the rule-count ratio, flagged the same way. Linear in the rules would already
be a failure of the rule index; the figure to watch is how close to flat it stays.

Times are CPU time (``time.process_time``), the median of ``--repeat`` runs after one
untimed run of each command: steadier than wall time on a shared machine. No timed assertion
anywhere: this prints figures.

Run: python benchmarks/scaling.py [--commands 1000] [--repeat 5]
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

LENGTHS = (10, 100, 1_000, 5_000, 10_000, 20_000)
#: A step is flagged when time grows this much faster than the input.
SLACK = 1.5


def _fill(unit: Callable[[int], str], sep: str, start: str, length: int) -> str:
    out = start
    i = 0
    while len(out) < length:
        out += (sep if out != start else "") + unit(i)
        i += 1
    return out[: max(length, len(start))]


def _nested(length: int) -> str:
    depth = 1
    while True:
        text = "echo " + "$(echo " * depth + "x" + ")" * depth
        if len(text) >= length or depth > 4000:
            return text
        depth += 1


SHAPES: dict[str, Callable[[int], str]] = {
    "arguments": lambda n: _fill(lambda i: f"f{i}.txt", " ", "ls", n),
    "chain": lambda n: _fill(lambda i: f"echo {i}", " && ", "true", n),
    "pipeline": lambda n: _fill(lambda i: f"grep -v x{i}", " | ", "cat README.md", n),
    "string": lambda n: 'echo "' + "a" * max(0, n - 8) + '"',
    "nested": _nested,
    "braces": lambda n: _fill(lambda i: f"{{a,b}}{i}", "", "echo ", n),
}


def _time(fn: Callable[[], object], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        runs.append(time.process_time() - start)
    return statistics.median(runs)


def _flag(time_ratio: float, size_ratio: float) -> str:
    return "  WORSE THAN LINEAR" if time_ratio > size_ratio * SLACK else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=1000, help="corpus commands per rule step")
    parser.add_argument("--repeat", type=int, default=5, help="median of this many runs")
    args = parser.parse_args()

    from engine_decisions import commands as corpus_commands
    from engine_decisions import with_generated_rules

    from clearance.engine.api import decide, load_policy
    from clearance.engine.intents import ToolIntent
    from clearance.engine.rules import PolicySet

    scratch = Path(tempfile.mkdtemp(prefix="clearance-scaling-"))
    atexit.register(shutil.rmtree, scratch, True)  # (a walk of /tmp reads what is left)
    home = scratch / "home"
    workspace = home / "project"
    (workspace / ".git").mkdir(parents=True)
    (workspace / "README.md").write_text("# project\n")
    os.environ["XDG_CACHE_HOME"] = str(scratch / "cache")
    policy = load_policy(str(workspace), check=False, use_cache=False)

    def one(command: str, ps: PolicySet) -> str:
        decision = decide(
            ToolIntent("Bash", {"command": command}),
            ps,
            cwd=str(workspace),
            workspace=str(workspace),
            home=str(home),
        )
        markers = sorted({m for p in decision.parts for m in p.markers} - {"dynamic_argument"})
        return f"{decision.decision}/{decision.reason_code}" + (
            f" [{', '.join(markers[:3])}]" if markers else ""
        )

    flagged = 0
    subprocess_uptime()
    print("cost vs command length (one decision, default pack; median of", args.repeat, "runs)")
    for shape, build in SHAPES.items():
        previous: tuple[int, float] | None = None
        for length in LENGTHS:
            command = build(length)
            one(command, policy)  # untimed: first-use costs (tables, caches) are not the curve
            seconds = _time(lambda c=command: one(c, policy), args.repeat)  # type: ignore[misc]
            outcome = one(command, policy)
            step = ""
            if previous is not None:
                size_ratio = len(command) / previous[0]
                time_ratio = seconds / previous[1]
                mark = _flag(time_ratio, size_ratio)
                flagged += bool(mark)
                step = f"  x{time_ratio:6.2f} time for x{size_ratio:5.1f} length{mark}"
            print(f"  {shape:<9} {len(command):>6} B  {seconds * 1e3:9.3f} ms{step}  -> {outcome}")
            previous = (len(command), seconds)

    cmds = corpus_commands(None)[: args.commands]
    from collections import Counter

    from clearance.shellparse import classify

    usage: Counter[str] = Counter()
    for command in cmds:
        for part in classify(command, cwd=str(workspace), home=str(home)).commands:
            if part.program:
                usage[part.program] += 1
    top = [name for name, _ in usage.most_common(300)]
    print(f"cost vs rule count ({len(cmds)} corpus commands decided whole, per decision)")
    previous_rules: tuple[int, float] | None = None
    for extra in (0, 1_000, 10_000):
        ps = with_generated_rules(policy, extra, top) if extra else policy
        total = len(ps.rules)

        def batch(ps: PolicySet = ps) -> None:
            for command in cmds:
                one(command, ps)

        seconds = _time(batch, max(1, args.repeat // 2)) / len(cmds)
        step = ""
        if previous_rules is not None:
            size_ratio = total / previous_rules[0]
            time_ratio = seconds / previous_rules[1]
            mark = _flag(time_ratio, size_ratio)
            flagged += bool(mark)
            step = f"  x{time_ratio:5.2f} time for x{size_ratio:5.1f} rules{mark}"
        print(f"  +{extra:>6} rules ({total:>6} total)  {seconds * 1e6:8.1f} us{step}")
        previous_rules = (total, seconds)
    print(f"steps worse than linear: {flagged}")
    subprocess_uptime()
    return 0


def subprocess_uptime() -> None:
    import subprocess

    subprocess.run(["uptime"], check=False)


if __name__ == "__main__":
    sys.exit(main())
