"""Worst-case hook latency over adversarial inputs, next to the median everyday latency.

Every figure is a whole ``clearance hook claude-code`` process (start to answer), as an agent
runs it once per tool call:

* everyday: a handful of ordinary commands (``ls``, ``git status``, ``pytest -x``…) in a
  project with the default pack, warm policy cache; median and p90 over ``--runs`` rounds;
* unsupervised: the same calls through the hook's worker body alone, in a fresh process
  (``clearance.hooks.base.run``, no fork, no deadline) -- the baseline for what the supervisor
  costs;
* adversarial: inputs that are slow (or were slow) without budgets -- an exponential
  expansion, a 1 MB command, deep nesting, a YAML alias bomb and a backtracking regex in the
  project's own policy, a payload that never ends -- each reported with its answer (a
  decision, or a block with reason code ``timeout``) and its time. The worst of them is
  bounded by the deadline plus process start; the script prints the ratio of that worst case
  to the installed agent timeout (``clearance hook install`` default) so the margin is visible.

    python benchmarks/hook_worst_case.py [--runs 15] [--deadline SECONDS]

``--deadline`` defaults to the hook's own default (what a user gets); a smaller one makes the
run shorter and shows the same bound.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from clearance.hooks.install import DEFAULT_TIMEOUT_S
from clearance.hooks.supervisor import DEFAULT_DEADLINE_S

sys.path.insert(0, str(Path(__file__).resolve().parent))
from slow_inputs import REGEX_POLICY, yaml_bomb

EVERYDAY = ["ls -la", "git status", "pytest -x tests/", "cat README.md", "rm -rf build"]


def payload(command: str, cwd: Path) -> bytes:
    return json.dumps(
        {
            "session_id": "bench", "transcript_path": "/dev/null", "cwd": str(cwd),
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "t",
        }
    ).encode()  # fmt: skip


def timed(
    argv: list[str], data: bytes | None, env: dict[str, str], stdin: int | None = None
) -> tuple[float, int, str]:
    began = time.perf_counter()
    proc = subprocess.run(
        argv, input=data, stdin=stdin, capture_output=True, env=env, timeout=600, check=False
    )
    took = time.perf_counter() - began
    text = proc.stdout.decode("utf-8", "replace") + proc.stderr.decode("utf-8", "replace")
    for code in ("[timeout]", "[policy_error]", "[parse_error]", "[bad_input]", "[interrupted]"):
        if code in text:
            return took, proc.returncode, code.strip("[]")
    try:
        answer = json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"]
    except (ValueError, KeyError, TypeError):
        answer = f"exit {proc.returncode}"
    return took, proc.returncode, str(answer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--deadline", type=float, default=DEFAULT_DEADLINE_S)
    options = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="hook-worst-"))
    atexit.register(shutil.rmtree, tmp, True)  # (a walk of /tmp reads what is left)
    env = {**os.environ, "CLEARANCE_CACHE_DIR": str(tmp / "cache"), "HOME": str(tmp / "home")}
    (tmp / "home").mkdir()
    clean = tmp / "proj"
    (clean / ".git").mkdir(parents=True)
    hook = [sys.executable, "-m", "clearance", "hook", "claude-code", "--no-ledger",
            "--deadline", str(options.deadline)]  # fmt: skip
    body = [sys.executable, "-c",
            "import sys; from clearance.hooks import protocol; from clearance.hooks.base "
            "import run; sys.exit(run(protocol('claude-code'), ['--no-ledger']))"]  # fmt: skip

    timed(hook, payload("ls", clean), env)  # fill the policy cache
    supervised: list[float] = []
    bare: list[float] = []
    for _ in range(options.runs):
        for command in EVERYDAY:
            supervised.append(timed(hook, payload(command, clean), env)[0])
            bare.append(timed(body, payload(command, clean), env)[0])

    def line(name: str, values: list[float]) -> str:
        values = sorted(values)
        p90 = values[int(0.9 * (len(values) - 1))]
        median = statistics.median(values) * 1000
        low = values[0] * 1000
        return f"{name:<34} median {median:7.1f} ms   p90 {p90 * 1000:7.1f} ms   min {low:6.1f} ms"

    print(f"hook latency, {options.runs} rounds x {len(EVERYDAY)} everyday commands, warm cache")
    print(line("everyday (supervised hook)", supervised))
    print(line("everyday (worker body, no fork)", bare))
    ratio = statistics.median(supervised) / statistics.median(bare)
    extra = (statistics.median(supervised) - statistics.median(bare)) * 1000
    print(f"supervisor cost: x{ratio:.3f} of the unsupervised median ({extra:+.1f} ms)")
    print(f"  by the minimum: {(min(supervised) - min(bare)) * 1000:+.1f} ms")

    cases: list[tuple[str, Path, str]] = [
        ("exponential expansion (194 B)", clean, "x=ab;" + "x=$x$x;" * 26 + "echo $x"),
        ("1 MB command", clean, "echo " + "a " * 500_000),
        ("deep nesting $( x 500", clean, "echo " + "$(" * 500 + "ls" + ")" * 500),
        ("deep subshells ( x 2000", clean, "(" * 2000 + "ls" + ")" * 2000),
        ("brace bomb", clean, "echo {1..9}{1..9}{1..9}{1..9}{1..9}{1..9}{1..9}{1..9}"),
    ]
    for name, text in (
        ("YAML alias bomb policy", yaml_bomb()),
        ("backtracking regex policy", REGEX_POLICY),
    ):
        project = tmp / name.replace(" ", "-")
        (project / ".git").mkdir(parents=True)
        (project / ".clearance").mkdir()
        (project / ".clearance" / "policy.yaml").write_text(text)
        cases.append((name, project, "echo hi"))
    print(f"\nadversarial inputs (deadline {options.deadline:g} s; agent timeout "
          f"{DEFAULT_TIMEOUT_S} s as installed)")  # fmt: skip
    worst = 0.0
    for name, project, command in cases:
        took, code, answer = timed(hook, payload(command, project), env)
        worst = max(worst, took)
        print(f"{name:<34} {took * 1000:9.1f} ms   exit {code}  {answer}")
    read_end, write_end = os.pipe()
    os.write(write_end, b'{"hook_event_name": "PreToolUse", ')
    took, code, answer = timed(hook, None, env, stdin=read_end)
    os.close(read_end)
    os.close(write_end)
    worst = max(worst, took)
    print(f"{'payload that never ends':<34} {took * 1000:9.1f} ms   exit {code}  {answer}")
    times = worst / statistics.median(supervised)
    print(
        f"\nworst case {worst * 1000:.1f} ms = x{times:.0f} the everyday median; "
        f"{worst / DEFAULT_TIMEOUT_S:.0%} of the installed agent timeout"
    )


if __name__ == "__main__":
    main()
