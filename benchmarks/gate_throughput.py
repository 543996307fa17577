"""Whole-process ``clearance gate`` over N distinct corpus commands vs bashlex parse-only.

The figure issue 16 is judged by: one ``clearance gate FILE`` process (the real CLI, the default
embedded policy, discovery at the workspace as an agent's CI would run it) decides N distinct
commands of /work/shared/corpus (default 20,000, a fixed-seed sample, so every run and every tree
sees the same lines), timed from process start to exit -- interpreter start, imports, policy from
the compiled-policy cache, every line read, decided and written. Beside it, in the same run,
bashlex (a pure-Python bash parser) only *parses* the same commands in this process
(``bashlex.parse`` per command, failures included in the time; a command bashlex does not
finish within 2 s is left out of both sides and named). The ratio is
gate decisions/s ÷ bashlex parses/s; the issue's goal is 2.5 or better.

Latency per decision (p50/p99) comes from in-process timing: a separate process of the same tree
runs the gate's per-line code (``decide_line`` and the JSON line it writes) on the same lines with
a ``perf_counter`` around each, because one gate process only has a total time.

Targets (each may be repeated; the default is this checkout):

* ``--tree DIR``: a source tree (e.g. ``git archive 0ab2982 | tar -x -C DIR``), run with this
  interpreter and ``PYTHONPATH=DIR``;
* ``--python PY``: an interpreter whose environment has clearance installed (a compiled build).

Rounds run round-robin (one run of each target per round, bashlex once per round); every figure
is the median over ``--rounds``, and each ratio is taken within a round, then the median.
The input file and the gate's output are also checked: every target must print one decision per
line; ``--diff`` compares the targets' decisions (ids, times and the policy digest left out),
counts lines that differ, and lists every change of decision or deciding rule (before -> after,
with commands): what a change of the tables or the pack allows or blocks that it did not.

Run: python benchmarks/gate_throughput.py [-n 20000] [--rounds 3] [--tree DIR]... [--python PY]...
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = os.environ.get("CLEARANCE_CORPUS", "/work/shared/corpus/commands.txt")

#: Run in a target's own process: per-line timing of the gate's per-line code.
TIMING = r"""
import json, sys, time
try:
    from clearance.hooks.gate import decide_line, line_output
except ImportError:  # trees before the per-line code moved below the CLI
    from clearance.cli.commands.gate import decide_line, line_output
try:
    from clearance.engine.policycache import PolicyCache
except ImportError:
    from clearance.engine.replay import PolicyCache
import clearance.engine
import os
path, directory = sys.argv[1], sys.argv[2]
cache = PolicyCache(None)
lines = open(path, "rb").read().splitlines(keepends=True)
# the batch's memos as ``gate`` passes them: project roots (older trees had none) and home
extra = ()
if hasattr(cache, "workspace"):
    extra = (None, cache.workspace)
    try:
        decide_line(lines[0], 1, directory, cache.get, *extra, os.path.expanduser("~"))
        extra += (os.path.expanduser("~"),)
    except TypeError:  # before the batch passed its home
        pass
times = []
for number, raw in enumerate(lines, 1):
    t0 = time.perf_counter()
    decision, ident, *_ = decide_line(raw, number, directory, cache.get, *extra)
    json.dumps(line_output(decision, ident, number))
    times.append(time.perf_counter() - t0)
times.sort()
print(json.dumps({
    "p50": times[len(times) // 2], "p99": times[min(len(times) - 1, int(len(times) * 0.99))],
    "engine": clearance.engine.__file__,
}))
"""


def corpus_sample(n: int, seed: int) -> list[str]:
    """``n`` distinct corpus commands, a fixed-seed sample in corpus order."""
    seen: dict[str, None] = {}
    with open(CORPUS, encoding="utf-8") as fh:
        for line in fh:
            command = line.rstrip("\n")
            if command.strip():
                seen.setdefault(command, None)
    distinct = list(seen)
    if n >= len(distinct):
        return distinct
    picked = sorted(random.Random(seed).sample(range(len(distinct)), n))
    return [distinct[i] for i in picked]


class Target:
    def __init__(self, label: str, python: str, tree: str | None) -> None:
        self.label = label
        self.python = python
        self.tree = tree

    def env(self, base: dict[str, str]) -> dict[str, str]:
        env = dict(base)
        if self.tree is not None:
            env["PYTHONPATH"] = self.tree
        else:
            env.pop("PYTHONPATH", None)
        return env

    def argv(self, path: str) -> list[str]:
        """One whole ``clearance gate`` process over ``path``, as the CLI runs."""
        return [
            self.python,
            "-c",
            "import sys; from clearance.cli.main import main; sys.argv[0] = 'clearance'; "
            "raise SystemExit(main())",
            "gate",
            path,
        ]

    def gate(
        self, path: str, out: str, cwd: str, env: dict[str, str], wrapper: tuple[str, ...] = ()
    ) -> tuple[float, str]:
        """Seconds for one whole ``clearance gate`` process over ``path`` (run under
        ``wrapper``, a command prefix), and what it wrote to stderr."""
        with open(out, "wb") as sink:
            start = time.perf_counter()
            proc = subprocess.run(
                [*wrapper, *self.argv(path)],
                cwd=cwd,
                env=self.env(env),
                stdout=sink,
                stderr=subprocess.PIPE,
                check=False,
            )
            elapsed = time.perf_counter() - start
        stderr = proc.stderr.decode(errors="replace")
        if proc.returncode not in (0, 3, 4):
            raise SystemExit(f"{self.label}: gate exited {proc.returncode}: {stderr[-2000:]}")
        return elapsed, stderr

    def latency(self, path: str, cwd: str, env: dict[str, str]) -> dict[str, object]:
        proc = subprocess.run(
            [self.python, "-c", TIMING, path, cwd],
            cwd=cwd,
            env=self.env(env),
            capture_output=True,
            check=False,
        )
        if proc.returncode != 0:
            raise SystemExit(f"{self.label}: timing failed: {proc.stderr.decode()[-2000:]}")
        result: dict[str, object] = json.loads(proc.stdout)
        return result


class _Hung(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Hung


def bashlex_rate(commands: list[str], guard: float = 2.0) -> tuple[float, int, list[int]]:
    """(parses/s, failures, hung) of bashlex over ``commands``, in this process. A command that
    bashlex does not finish within ``guard`` seconds (it loops, growing its memory, on some
    unbalanced expansions such as ``PS4='+${x'``) is stopped by a timer and listed in ``hung``;
    its time is left out of the rate."""
    import signal

    import bashlex  # type: ignore[import-untyped]

    failures = 0
    hung: list[int] = []
    lost = 0.0
    previous = signal.signal(signal.SIGALRM, _alarm)
    start = time.perf_counter()
    try:
        for index, command in enumerate(commands):
            signal.setitimer(signal.ITIMER_REAL, guard)
            began = time.perf_counter()
            try:
                bashlex.parse(command)
            except _Hung:
                hung.append(index)
                lost += time.perf_counter() - began
            except Exception:
                failures += 1
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - start - lost
    return (len(commands) - len(hung)) / elapsed, failures, hung


#: A walk stopped by its time bound: the decision then depends on the machine's load.
TIME_BOUND = re.compile(r"\(more than [0-9.]+s\)")


def comparable(line: bytes) -> str:
    """The decision without its id, time and policy digest (a pack that changed carries
    another digest in every answer)."""
    data = json.loads(line)
    data.pop("decision_id", None)
    data.pop("time", None)
    data.pop("policy_digest", None)
    return json.dumps(data, sort_keys=True)


def verdict(line: bytes) -> tuple[str, str, str]:
    """What decided a line: (decision, the rule id or reason code, the command)."""
    data = json.loads(line)
    return (
        str(data["decision"]),
        str(data["policy_id"] or data["reason_code"]),
        str(data["subject"]),
    )


def transitions(base: list[bytes], other: list[bytes]) -> dict[tuple[str, str], list[str]]:
    """Lines whose decision or deciding rule changed, by (before, after): the commands."""
    out: dict[tuple[str, str], list[str]] = {}
    for a, b in zip(base, other, strict=True):
        (da, ra, command), (db, rb, _) = verdict(a), verdict(b)
        if (da, ra) != (db, rb):
            out.setdefault((f"{da} {ra}", f"{db} {rb}"), []).append(command)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=20_000, help="distinct commands (20,000)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--tree", action="append", default=[], help="a source tree to run")
    parser.add_argument("--python", action="append", default=[], help="an installed build")
    parser.add_argument("--no-latency", action="store_true", help="skip the p50/p99 pass")
    parser.add_argument(
        "--diff",
        action="store_true",
        help="compare the targets' decisions, and list every change of decision or deciding rule",
    )
    args = parser.parse_args()

    targets = targets_of(args.tree, args.python)

    commands = corpus_sample(args.n, args.seed)
    first_rate, failures, hung = bashlex_rate(commands)
    if hung:
        print(
            f"left out of both sides: {len(hung)} command(s) bashlex does not finish "
            f"(stopped after 2 s): {[commands[i][:40] for i in hung]}"
        )
        commands = [c for i, c in enumerate(commands) if i not in set(hung)]
    batch = Batch(commands, "gate-throughput-")
    scratch, workspace, env, intents = batch.scratch, batch.workspace, batch.env, batch.intents

    subprocess.run(["uptime"], check=False)
    print(
        f"/tmp holds {entries_under('/tmp'):,} entries (the sample's 'find /tmp' lines walk "
        "them, up to their bound: what other runs leave there slows the gate)"
    )
    print(f"{len(commands):,} distinct corpus commands (seed {args.seed}), {args.rounds} rounds")
    for target in targets:  # fills the compiled-policy cache: every timed run is warm
        batch.warm_up(target)

    rates: dict[str, list[float]] = {t.label: [] for t in targets}
    ratios: dict[str, list[float]] = {t.label: [] for t in targets}
    parses: list[float] = []
    for round_number in range(args.rounds):
        if round_number == 0 and not hung:
            parse_rate = first_rate
        else:
            parse_rate, failures, _ = bashlex_rate(commands)
        parses.append(parse_rate)
        for index, target in enumerate(targets):
            out = scratch / f"out-{index}.jsonl"
            seconds, _ = target.gate(str(intents), str(out), str(workspace), env)
            rate = len(commands) / seconds
            rates[target.label].append(rate)
            ratios[target.label].append(rate / parse_rate)
            with out.open("rb") as fh:
                produced = sum(1 for _ in fh)
            if produced != len(commands):
                raise SystemExit(f"{target.label}: {produced} decisions for {len(commands)} lines")

    print(
        f"bashlex parse only (in-process): {statistics.median(parses):,.0f} parses/s "
        f"(rounds: {', '.join(f'{p:,.0f}' for p in parses)}) "
        f"({failures} of {len(commands):,} fail to parse)"
    )
    for target in targets:
        per_round = ", ".join(
            f"{r:,.0f}/s {x:.2f}x"
            for r, x in zip(rates[target.label], ratios[target.label], strict=True)
        )
        line = (
            f"{target.label}: gate {statistics.median(rates[target.label]):,.0f} decisions/s "
            f"(whole process), {statistics.median(ratios[target.label]):.2f}x bashlex "
            f"(rounds: {per_round})"
        )
        if not args.no_latency:
            lat = target.latency(str(intents), str(workspace), env)
            line += (
                f"; per decision (in-process decide_line + JSON) p50 "
                f"{float(str(lat['p50'])) * 1e6:.0f} us, p99 {float(str(lat['p99'])) * 1e6:.0f} us"
            )
        print(line)
    if len(targets) > 1:
        first = rates[targets[0].label]
        for target in targets[1:]:
            pairs = [b / a for a, b in zip(first, rates[target.label], strict=True)]
            shown = ", ".join(f"{p:.2f}x" for p in pairs)
            print(
                f"{target.label} vs {targets[0].label}: {statistics.median(pairs):.2f}x ({shown})"
            )
    if args.diff and len(targets) > 1:
        compare_outputs(targets, scratch)
    subprocess.run(["uptime"], check=False)
    return 0


def entries_under(root: str, limit: int = 200_000) -> int:
    """Directory entries under ``root``, counted up to ``limit``."""
    count = 0
    for _, dirs, files in os.walk(root):
        count += len(dirs) + len(files)
        if count >= limit:
            break
    return count


def targets_of(trees: list[str], pythons: list[str]) -> list[Target]:
    """The ``--tree`` and ``--python`` targets, in that order (none given: this checkout)."""
    targets = [Target(f"tree {t}", sys.executable, os.path.abspath(t)) for t in trees]
    targets += [Target(f"python {p}", os.path.abspath(p), None) for p in pythons]
    return targets or [Target(f"tree {ROOT}", sys.executable, str(ROOT))]


class Batch:
    """The scratch project a benchmark's gate processes run in (a home holding a project
    with ``.git``, and the XDG directories beside it), and the intent lines of the commands
    (``intents.jsonl``; ``warm.jsonl``: the first alone)."""

    def __init__(self, commands: list[str], prefix: str) -> None:
        self.scratch = scratch = Path(tempfile.mkdtemp(prefix=prefix))
        atexit.register(shutil.rmtree, scratch, True)  # (a walk of /tmp reads what is left)
        home = scratch / "home"
        self.workspace = workspace = home / "project"
        (workspace / ".git").mkdir(parents=True)
        (workspace / "README.md").write_text("# project\n")
        (workspace / "src").mkdir()
        (workspace / "src" / "main.py").write_text("print('hi')\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CLEARANCE_", "XDG_"))}
        env.update(
            HOME=str(home),
            XDG_CACHE_HOME=str(scratch / "cache"),
            XDG_STATE_HOME=str(scratch / "state"),
            XDG_CONFIG_HOME=str(scratch / "config"),
        )
        self.env = env
        self.intents = scratch / "intents.jsonl"
        with self.intents.open("w", encoding="utf-8") as fh:
            for i, command in enumerate(commands):
                line = json.dumps({"id": i, "tool": "Bash", "input": {"command": command}})
                fh.write(line + "\n")
        self.warm = scratch / "warm.jsonl"
        self.warm.write_text(self.intents.read_text().split("\n", 1)[0] + "\n")

    def warm_up(self, target: Target) -> None:
        """One line through ``target``: its compiled-policy cache filled for the runs after."""
        target.gate(str(self.warm), str(self.scratch / "warm.out"), str(self.workspace), self.env)


def compare_outputs(targets: list[Target], scratch: Path) -> None:
    """Each target's answers (``out-N.jsonl`` in ``scratch``) against the first's: how many
    differ (apart from those where a walk hit its time bound on one side), and every change
    of decision or deciding rule, with commands."""
    base = (scratch / "out-0.jsonl").read_bytes().splitlines()
    for index in range(1, len(targets)):
        other = (scratch / f"out-{index}.jsonl").read_bytes().splitlines()
        pairs = list(zip(base, other, strict=True))
        differ = [n for n, (a, b) in enumerate(pairs, 1) if comparable(a) != comparable(b)]
        timed = [n for n in differ if any(TIME_BOUND.search(x.decode()) for x in pairs[n - 1])]
        real = [n for n in differ if n not in timed]
        print(
            f"decisions differing, {targets[index].label} vs {targets[0].label}: "
            f"{len(real)} of {len(base)}"
            + (f" (lines {real[:10]})" if real else "")
            + f"; {len(timed)} more where a walk hit its time bound (0.3 s) on one side"
        )
        # what a reviewer reads before landing: every change of decision or deciding rule
        changed = transitions(base, other)
        for (before, after), commands in sorted(changed.items(), key=lambda c: -len(c[1])):
            print(f"  {len(commands):>5}  {before}  ->  {after}")
            for command in commands[:3]:
                print(f"           {command[:100]}")


if __name__ == "__main__":
    sys.exit(main())
