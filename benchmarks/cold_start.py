"""Cold start of ``clearance parse 'git status'``, and what Lark at run time would cost.

A hook runs ``clearance`` once per tool call, so process start-up is most of its cost. The
figure that matters is wall time of a fresh process, measured on a regular (non-editable)
install: an editable install adds an import finder that a user's install does not have. The
baseline is a bare ``python -c pass`` of the same venv. Bytecode is present (pip compiles it
at install, and warm-up runs fill any gap); ``PYTHONDONTWRITEBYTECODE`` is removed from the
environment of every run.

The Lark rows justify the table-driven runtime: ``import lark`` alone, and ``import lark`` plus
loading the same grammar's LALR parser from Lark's own cache, against importing our parser
(driver plus the pre-built table).

Run: ``python benchmarks/cold_start.py [--venv /tmp/bench-venv] [--runs 30] [--no-install]``.
The venv is created (``pip install`` of this checkout) when missing, and this checkout is
reinstalled into it (without touching dependencies) unless ``--no-install``.
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

LARK_FROM_CACHE = """
import lark
from lark.lexer import Lexer

class Outside(Lexer):
    __future_interface__ = 2
    def __init__(self, conf):
        pass
    def lex(self, lexer_state, parser_state):
        return iter(())

with open({grammar!r}, encoding="utf-8") as fh:
    grammar = fh.read()
lark.Lark(grammar, parser="lalr", lexer=Outside, keep_all_tokens=True, cache={cache!r})
"""


def quietly(argv: list[str]) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"failed: {' '.join(argv)}")


def install(venv: Path, reinstall: bool) -> None:
    python = venv / "bin" / "python"
    if not python.exists():
        quietly([sys.executable, "-m", "venv", str(venv)])
        quietly([str(python), "-m", "pip", "install", "--quiet", str(REPO)])
    elif reinstall:
        pip = [str(python), "-m", "pip", "install", "--quiet"]
        quietly([*pip, "--no-deps", "--force-reinstall", str(REPO)])


def wall(argv: list[str], env: dict[str, str], cwd: str) -> float:
    started = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--venv", type=Path, default=Path("/tmp/bench-venv"))
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--no-install", action="store_true")
    args = parser.parse_args()
    if args.runs < 20:
        parser.error("at least 20 runs")

    install(args.venv, reinstall=not args.no_install)
    python = str(args.venv / "bin" / "python")
    clearance = str(args.venv / "bin" / "clearance")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    workdir = tempfile.mkdtemp(prefix="cold-start-")
    atexit.register(shutil.rmtree, workdir, True)  # (a walk of /tmp reads what is left)
    cache = os.path.join(workdir, "shell.lark.cache")
    lark_program = LARK_FROM_CACHE.format(
        grammar=str(REPO / "shellparse" / "shell.lark"), cache=cache
    )

    cases: list[tuple[str, list[str]]] = [
        ("`python -c pass` (baseline, same venv)", [python, "-c", "pass"]),
        ("`clearance parse 'git status'`", [clearance, "parse", "git status"]),
        ("`clearance parse --json 'git status'`", [clearance, "parse", "--json", "git status"]),
        (
            "import our parser (driver + table) and parse",
            [python, "-c", "from clearance.shellparse import parse; parse('git status')"],
        ),
        ("`import lark`", [python, "-c", "import lark"]),
        (
            "`import lark` + load this grammar's LALR parser from Lark's cache",
            [
                python,
                "-c",
                lark_program,
            ],
        ),
    ]
    for _, argv in cases:  # warm-up: bytecode written, Lark's cache file created
        for _ in range(3):
            wall(argv, env, workdir)

    times: dict[str, list[float]] = {name: [] for name, _ in cases}
    for _ in range(args.runs):  # round-robin, so that machine noise spreads over all cases
        for name, argv in cases:
            times[name].append(wall(argv, env, workdir))

    base = statistics.median(times[cases[0][0]])
    print(f"## Cold start, {args.runs} runs each, non-editable install in {args.venv}\n")
    print("| command | median | min | max | over baseline |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, _ in cases:
        values = times[name]
        median = statistics.median(values)
        print(
            f"| {name} | {1e3 * median:.1f} ms | {1e3 * min(values):.1f} ms"
            f" | {1e3 * max(values):.1f} ms | +{1e3 * (median - base):.1f} ms |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
