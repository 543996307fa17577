"""Hook cold start: process start to decision printed, one process per tool call.

An agent starts ``clearance hook <agent>`` once per tool call, so what counts is the whole
process: interpreter start, imports, policy from the compiled-policy cache, the decision, the
ledger append, the answer. This script measures exactly that in a NON-editable install (an
editable install adds its own import finder to every start), next to a bare ``python -c pass``
in the same venv:

    python benchmarks/hook_cold_start.py [--venv /tmp/bench-venv] [--rebuild] [--runs 30]

For each agent's sample payload (``$CLEARANCE_E2E_DIR/samples``, default /work/shared/e2e) it
reports median, p90 and min over ``--runs`` runs:

* warm: the compiled-policy cache holds the policy (every call after the first);
* cold: the cache is emptied before every run (the first call after a policy change);
* no-ledger: warm, with ``--no-ledger`` (what the ledger's lock, write and fsync cost).

The cases run round-robin (one run of each per round), and each line also gives the median of
the per-round difference to the bare interpreter: on a shared machine whose speed drifts, that
difference is the steadier figure.

``--compare PURE_PYTHON COMPILED_PYTHON`` measures two installed builds instead (e.g. a venv
installed with ``CLEARANCE_PURE=1 pip install .`` and one with ``pip install .``): hyperfine
(``--runs`` runs each, warm cache, after 3 warm-up runs) times ``python -c pass`` and each
agent's hook of both builds in one run, and prints each median against the bare interpreter and
compiled against pure. With ``--any-kind`` the two may be of one kind (a baseline's compiled build,
then the change's): the table still names them "pure" and "compiled", first and second.

``--policy small`` (default) is a two-rule policy like the e2e tests'; ``--policy default`` is a
policy that ``extends: default`` (the shipped pack); ``--importtime`` adds the ``python -X
importtime`` breakdown of one warm hook call. The issue's budget is a median of at most 50 ms.
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
SAMPLES = {
    "claude-code": "claude_pretooluse_stdin.json",
    "gemini-cli": "gemini_beforetool_stdin.json",
    "codex": "codex_pretooluse_stdin.json",
}
SMALL_POLICY = """\
version: 1
id: bench
rules:
  - id: no-marker
    decision: deny
    reason: "marker writes are forbidden"
    when: {argv: ["touch *marker_deny*"]}
    examples: {match: ["touch /tmp/marker_deny"], no_match: ["touch /tmp/other"]}
  - id: allow-touch
    decision: allow
    reason: "touch is harmless here"
    when: {program: touch}
    examples: {match: ["touch /tmp/x"]}
"""
DEFAULT_POLICY = "version: 1\nid: bench\nextends: [default]\nrules: []\n"
COMMAND = "touch /tmp/bench_marker_allowed"


def build_venv(venv: Path, rebuild: bool) -> Path:
    """A venv with the project installed (not editable), built from a copy of the tree so that
    the build leaves nothing (``build/``, ``*.egg-info``) in the working tree."""
    python = venv / "bin" / "python"
    if rebuild and venv.exists():
        shutil.rmtree(venv)
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True
        )
    skip = shutil.ignore_patterns(
        ".git",
        "build",
        "dist",
        ".venv",
        "*.egg-info",
        "__pycache__",
        ".*_cache",
        ".hypothesis",
        ".clearance",
    )
    with tempfile.TemporaryDirectory(prefix="clearance-src-") as scratch:
        source = Path(scratch) / "clearance"
        shutil.copytree(ROOT, source, ignore=skip)
        pip = [str(python), "-m", "pip", "install", "--quiet"]
        for extra in (["--force-reinstall", "--no-deps"], []):
            built = subprocess.run([*pip, *extra, str(source)], capture_output=True, check=False)
            if built.returncode != 0:
                sys.stderr.write(built.stderr.decode(errors="replace"))
                raise SystemExit(f"pip install {source} failed")
    return python


def environment(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # start-up must use the compiled .pyc files
    env.pop("PYTHONPATH", None)
    env["CLEARANCE_CACHE_DIR"] = str(cache)
    return env


def timed(argv: list[str], stdin: bytes, env: dict[str, str], cwd: Path) -> tuple[float, int]:
    start = time.perf_counter()
    proc = subprocess.run(argv, input=stdin, capture_output=True, env=env, cwd=cwd, check=False)
    elapsed = (time.perf_counter() - start) * 1000
    return elapsed, proc.returncode


def stats(samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return (
        f"median {statistics.median(ordered):6.1f} ms  p90 {p90:6.1f} ms  min {ordered[0]:6.1f} ms"
    )


def payload(agent: str, samples: Path, project: Path) -> bytes:
    data = json.loads((samples / SAMPLES[agent]).read_text(encoding="utf-8"))
    data["cwd"] = str(project)
    data["tool_input"] = {**data["tool_input"], "command": COMMAND}
    return json.dumps(data).encode()


def report_imports(argv: list[str], stdin: bytes, env: dict[str, str], cwd: Path) -> None:
    """``-X importtime`` of one warm hook call, 7 times; per module the median self time, then
    the totals by group (what the interpreter, the standard library, and each of clearance's
    packages cost)."""
    runs: dict[str, list[int]] = {}
    for _ in range(7):
        proc = subprocess.run(argv, input=stdin, capture_output=True, env=env, cwd=cwd, check=False)
        for line in proc.stderr.decode().splitlines():
            if line.startswith("import time:") and "|" in line:
                self_us, _, name = line[len("import time:") :].split("|")
                if self_us.strip().isdigit():
                    runs.setdefault(name.strip(), []).append(int(self_us))
    medians = {name: statistics.median(times) for name, times in runs.items()}
    print("\nimport time of one warm hook call (median self time of 7 runs, microseconds):")
    for name, self_us in sorted(medians.items(), key=lambda kv: -kv[1])[:25]:
        print(f"  {self_us:7.0f}  {name}")
    groups: dict[str, float] = {}
    for name, self_us in medians.items():
        if name.startswith("clearance."):
            group = ".".join(name.split(".")[:2])
            group = (
                group
                if group in ("clearance.engine", "clearance.shellparse", "clearance.hooks")
                else "clearance (cli)"
            )
        elif name == "clearance":
            group = "clearance (cli)"
        else:
            group = "standard library and site"
        groups[group] = groups.get(group, 0.0) + self_us
    print("  by group:")
    for group, total in sorted(groups.items(), key=lambda kv: -kv[1]):
        print(f"  {total / 1000:7.1f} ms  {group}")
    print(f"  {sum(groups.values()) / 1000:7.1f} ms  total ({len(medians)} modules)")


class Case:
    """One configuration measured: its command line, stdin and cache directory."""

    def __init__(
        self, name: str, argv: list[str], stdin: bytes, env: dict[str, str], cold: Path | None
    ) -> None:
        self.name = name
        self.argv = argv
        self.stdin = stdin
        self.env = env
        #: The cache directory emptied before every run (``None``: a warm cache).
        self.cold = cold
        self.samples: list[float] = []


def kind_of(python: Path) -> str:
    """``compiled`` or ``pure``: where the installed copy's hook adapter comes from."""
    probe = "import clearance.hooks.base as m; print(m.__file__)"
    out = subprocess.run(
        [str(python), "-c", probe], capture_output=True, text=True, check=True, cwd="/"
    )
    return "compiled" if out.stdout.strip().endswith(".so") else "pure"


def compare(pure: Path, compiled: Path, runs: int, policy_text: str, any_kind: bool = False) -> int:
    """hyperfine over the bare interpreter and both builds' hooks, in one run. ``any_kind``:
    two builds of any kind (a baseline and a change, both compiled), named as given."""
    kinds = {"pure": kind_of(pure), "compiled": kind_of(compiled)}
    if not any_kind and kinds != {"pure": "pure", "compiled": "compiled"}:
        print(f"the builds are not what they claim: {kinds}", file=sys.stderr)
        return 2
    samples = Path(os.environ.get("CLEARANCE_E2E_DIR", "/work/shared/e2e")) / "samples"
    work = Path(tempfile.mkdtemp(prefix="hook-bench-"))
    project = work / "project"
    project.mkdir()
    policy = work / "policy.yaml"
    policy.write_text(policy_text)
    env = environment(work / "cache")
    env["XDG_STATE_HOME"] = str(work / "state")
    commands: list[tuple[str, str]] = [("python -c pass", f"{pure} -c pass")]
    for agent in SAMPLES:
        stdin = work / f"{agent}.json"
        stdin.write_bytes(payload(agent, samples, project))
        for name, python in (("pure", pure), ("compiled", compiled)):
            argv = [str(python.parent / "clearance"), "hook", agent, "--policy", str(policy)]
            _, code = timed(argv, stdin.read_bytes(), env, project)  # fills the warm cache
            if code != 0:
                print(f"{name} {agent}: hook exited {code}", file=sys.stderr)
                return 1
            commands.append((f"{agent} {name}", " ".join(argv) + f" < {stdin}"))
    export = work / "hyperfine.json"
    argv = ["hyperfine", "--runs", str(runs), "--warmup", "3", "--export-json", str(export)]
    for name, command in commands:
        argv += ["--command-name", name, command]
    subprocess.run(argv, env=env, cwd=project, check=True, stdout=subprocess.DEVNULL)
    results = {r["command"]: r for r in json.loads(export.read_text())["results"]}
    bare = statistics.median(results["python -c pass"]["times"]) * 1000
    print(f"hyperfine, {runs} runs each, warm cache; load {os.getloadavg()[0]:.2f}")
    print("| command | median ms | mean ± sd ms | over bare ms | compiled / pure |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, _ in commands:
        times = [t * 1000 for t in results[name]["times"]]
        median = statistics.median(times)
        ratio = ""
        if name.endswith(" compiled"):
            base = statistics.median(results[name[: -len("compiled")] + "pure"]["times"]) * 1000
            ratio = f"{(median - bare) / (base - bare):.2f} (over bare)"
        print(
            f"| {name} | {median:.1f} | {statistics.mean(times):.1f} ± "
            f"{statistics.stdev(times):.1f} | {median - bare:+.1f} | {ratio} |"
        )
    shutil.rmtree(work, ignore_errors=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", default="/tmp/bench-venv", type=Path)
    parser.add_argument("--rebuild", action="store_true", help="recreate the venv first")
    parser.add_argument("--no-install", action="store_true", help="use the venv as it is")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--policy", choices=("small", "default"), default="small")
    parser.add_argument("--importtime", action="store_true")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("PURE_PYTHON", "COMPILED_PYTHON"))
    parser.add_argument(
        "--any-kind",
        action="store_true",
        help="with --compare: two builds of any kind (a baseline first, then the change)",
    )
    args = parser.parse_args()
    if args.compare:
        text = SMALL_POLICY if args.policy == "small" else DEFAULT_POLICY
        return compare(args.compare[0], args.compare[1], args.runs, text, args.any_kind)

    samples = Path(os.environ.get("CLEARANCE_E2E_DIR", "/work/shared/e2e")) / "samples"
    python = (
        args.venv / "bin" / "python" if args.no_install else build_venv(args.venv, args.rebuild)
    )
    clearance = python.parent / "clearance"
    work = Path(tempfile.mkdtemp(prefix="hook-bench-"))
    project = work / "project"
    project.mkdir()
    policy = work / "policy.yaml"
    policy.write_text(SMALL_POLICY if args.policy == "small" else DEFAULT_POLICY)
    warm_env = environment(work / "cache")
    cold_cache = work / "cold-cache"
    cold_env = environment(cold_cache)

    cases = [Case("python -c pass", [str(python), "-c", "pass"], b"", warm_env, None)]
    for agent in SAMPLES:
        stdin = payload(agent, samples, project)
        argv = [str(clearance), "hook", agent, "--policy", str(policy)]
        _, code = timed(argv, stdin, warm_env, project)  # fills the warm cache
        if code != 0:
            print(f"{agent}: hook exited {code}; is the policy loading?", file=sys.stderr)
            return 1
        cases += [
            Case(f"{agent} warm", argv, stdin, warm_env, None),
            Case(f"{agent} cold cache", argv, stdin, cold_env, cold_cache),
            Case(f"{agent} warm, --no-ledger", [*argv, "--no-ledger"], stdin, warm_env, None),
        ]
    # Round-robin: every case runs once per round, so load from elsewhere on the machine
    # spreads over all of them instead of skewing whichever case ran while it lasted.
    for _ in range(args.runs):
        for case in cases:
            if case.cold is not None:
                shutil.rmtree(case.cold, ignore_errors=True)
            case.samples.append(timed(case.argv, case.stdin, case.env, project)[0])
    print(
        f"venv {args.venv}  python {sys.version.split()[0]}  runs {args.runs}  policy {args.policy}"
    )
    bare = cases[0].samples
    for case in cases:
        # Paired with the bare interpreter of the same round: what the hook adds to a Python
        # start, which holds still when the machine's speed drifts between rounds.
        extra = statistics.median(s - b for s, b in zip(case.samples, bare, strict=True))
        added = f"  +{extra:5.1f} ms over bare" if case is not cases[0] else ""
        print(f"{case.name:30} {stats(case.samples)}{added}")
    if args.importtime:
        stdin = payload("claude-code", samples, project)
        # The console script itself (as the agent runs it); ``-m clearance`` would add runpy.
        argv = [
            str(python),
            "-X",
            "importtime",
            str(clearance),
            "hook",
            "claude-code",
            "--policy",
            str(policy),
        ]
        report_imports(argv, stdin, warm_env, project)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
