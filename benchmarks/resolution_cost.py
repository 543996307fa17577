"""What judging paths against the machine costs: resolution on against off, in the same run.

Resolution (``clearance.shellparse.resolve`` / ``world``) expands globs, resolves links and
searches the trees a command reads. This script builds a project in a temporary directory (a
git repository -- with a real index when ``git`` is installed -- with ``--files`` source files
in nested directories, a ``.env``, a ``.gitignore``, links inside and out), then measures,
with resolution on and off alternating pass by pass (on, off, off, on):

* decisions per second in one process: the default pack deciding, in that project, (a) the
  everyday corpus (``tests/shellparse/data/everyday.yaml``, what agents run all day) and (b)
  a path-heavy mix (globs over sources, recursive searches, links: the worst case for
  resolution);
* hook cold start: one ``clearance hook claude-code`` process per call (the compiled-policy
  cache warm, no ledger), median wall time, for a ``Bash`` call that globs and greps.

The issue's budget: resolution costs at most 25 % of either figure.

    python benchmarks/resolution_cost.py [--rounds 7] [--runs 15] [--files 300]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = [
    "ls -la",
    "git status",
    "cat README.md",
    "wc -l src/*.py",
    "grep -rn TODO src",
    "rg TODO",
    "cat src/pkg0/*.py | head",
    "find . -name '*.py' -newer README.md",
    "touch src/new.py",
    "echo hi > notes.txt",
    "cat src/link/mod0.py",
    "rm -rf build",
    "mkdir -p build/out && cp -r src build/out",
    "pytest -x tests/",
    "sed -i 's/a/b/' src/pkg1/mod1.py",
    "cat .env.example",
    "diff src/pkg0/mod0.py src/pkg1/mod1.py",
    "head -n 20 src/pkg2/*.py",
    "git diff --stat",
    "python -m pytest -q",
]


def build_project(base: Path, files: int) -> Path:
    ws = base / "project"
    (ws / ".git").mkdir(parents=True)
    (ws / "README.md").write_text("readme\n")
    (ws / ".env").write_text("TOKEN=x\n")
    (ws / ".env.example").write_text("TOKEN=\n")
    (ws / ".gitignore").write_text(".env\nbuild/\n")
    (ws / "tests").mkdir()
    per_dir = 20
    for k in range(files):
        d = ws / "src" / f"pkg{k // per_dir}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"mod{k % per_dir}.py").write_text("x = 1\n")
    os.symlink(ws / "src" / "pkg0", ws / "src" / "link")
    os.symlink("/etc/hostname", ws / "src" / "outside")
    if shutil.which("git"):
        # a real index, as a real project has one (``git grep``, ``git ls-files`` read it)
        (ws / ".git").rmdir()
        subprocess.run(["git", "init", "-q", str(ws)], check=True)
        subprocess.run(["git", "-C", str(ws), "add", "-A"], check=True)
    return ws


def everyday() -> list[str]:
    import yaml

    data = yaml.safe_load((ROOT / "tests" / "shellparse" / "data" / "everyday.yaml").read_text())
    return [str(entry["cmd"]) for entry in data]


def decisions_per_second(
    ws: Path, home: str, rounds: int, commands: list[str]
) -> tuple[float, float]:
    """Median decisions/s with resolution on and off. Each round is about a second of passes
    over ``commands``, on and off in the order on, off, off, on (so that a drift of the
    machine's load within a round weighs on both alike); a pass is one sample."""
    from clearance.engine import api
    from clearance.engine.api import decide, default_pack_path, load_policy
    from clearance.engine.intents import ToolIntent

    policy = load_policy(str(ws), files=[default_pack_path()], use_cache=False)
    intents = [ToolIntent("Bash", {"command": c}, cwd=str(ws)) for c in commands]
    rates: dict[bool, list[float]] = {True: [], False: []}
    cpu: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(rounds):
        began = time.perf_counter()
        while time.perf_counter() - began < 1.0:
            for resolve in (True, False, False, True):
                api.RESOLVE = resolve
                start = time.perf_counter()
                used = time.process_time()
                for intent in intents:
                    decide(intent, policy, cwd=str(ws), workspace=str(ws), home=home)
                rates[resolve].append(len(intents) / (time.perf_counter() - start))
                cpu[resolve].append((time.process_time() - used) / len(intents))
    api.RESOLVE = True
    CPU_PER_DECISION[len(commands)] = (statistics.median(cpu[True]), statistics.median(cpu[False]))
    return statistics.median(rates[True]), statistics.median(rates[False])


#: CPU seconds (user + system) per decision, by the size of the command list: (on, off).
CPU_PER_DECISION: dict[int, tuple[float, float]] = {}


HOOK = """
import sys
from clearance.engine import api
api.RESOLVE = {resolve}
from clearance.cli.main import main
sys.exit(main(["hook", "claude-code", "--no-ledger"]))
"""


def hook_cold_start(ws: Path, env: dict[str, str], runs: int) -> tuple[float, float]:
    payload = json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/dev/null",
            "cwd": str(ws),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "wc -l src/*/*.py && grep -rn TODO src"},
        }
    ).encode()
    times: dict[bool, list[float]] = {True: [], False: []}
    for resolve in (True, False):  # fill the compiled-policy cache, compile bytecode
        subprocess.run(
            [sys.executable, "-c", HOOK.format(resolve=resolve)],
            input=payload,
            env=env,
            capture_output=True,
            check=False,
        )
    for _ in range(runs):
        for resolve in (True, False):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", HOOK.format(resolve=resolve)],
                input=payload,
                env=env,
                capture_output=True,
                check=False,
            )
            times[resolve].append(time.perf_counter() - start)
            if done.returncode not in (0, 2):
                raise SystemExit(f"hook failed: {done.stderr.decode()}")
    return statistics.median(times[True]), statistics.median(times[False])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="1-second rounds per setting")
    parser.add_argument("--runs", type=int, default=15, help="hook processes per setting")
    parser.add_argument("--files", type=int, default=300, help="source files in the project")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="clearance-resolution-") as tmp:
        base = Path(tmp)
        ws = build_project(base, args.files)
        # a project is not made the instant before a decision: listings of directories that
        # changed less than ``RACY_NS`` ago are not reused (see ``resolve``), so let it age
        time.sleep(2.1)
        home = str(base / "home")
        os.makedirs(home)
        env = dict(os.environ)
        env.update(
            HOME=home,
            XDG_CACHE_HOME=str(base / "cache"),
            XDG_CONFIG_HOME=str(base / "config"),
            XDG_STATE_HOME=str(base / "state"),
            CLEARANCE_MANAGED_POLICY="",
            PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
        )
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        corpus = everyday()
        on, off = decisions_per_second(ws, home, args.rounds, corpus)
        heavy_on, heavy_off = decisions_per_second(ws, home, args.rounds, COMMANDS)
        hook_on, hook_off = hook_cold_start(ws, env, args.runs)
    print("| measure | resolution on | resolution off | cost of resolution |")
    print("| --- | --- | --- | --- |")
    print(
        f"| decisions/s, everyday corpus ({len(corpus)} commands) | {on:,.0f} | {off:,.0f} "
        f"| {(off / on - 1) * 100:+.1f} % |"
    )
    print(
        f"| decisions/s, path-heavy mix ({len(COMMANDS)} commands) | {heavy_on:,.0f} "
        f"| {heavy_off:,.0f} | {(heavy_off / heavy_on - 1) * 100:+.1f} % |"
    )
    for size, (con, coff) in sorted(CPU_PER_DECISION.items(), reverse=True):
        label = "everyday corpus" if size == len(corpus) else "path-heavy mix"
        print(
            f"| CPU per decision, {label} | {con * 1e6:.0f} µs | {coff * 1e6:.0f} µs "
            f"| {(con / coff - 1) * 100:+.1f} % |"
        )
    print(
        f"| hook cold start, median | {hook_on * 1000:.1f} ms | {hook_off * 1000:.1f} ms "
        f"| {(hook_on / hook_off - 1) * 100:+.1f} % |"
    )
    print(
        f"\nA project of {args.files} source files; "
        f"{args.rounds} rounds of 1 s, {args.runs} hook runs per setting. Budget: +25 % at most."
    )


if __name__ == "__main__":
    main()
