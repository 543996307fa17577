"""What confinement costs: `clearance sandbox -- true` and a real test suite, with and without
the sandbox, measured by hyperfine in the same run; prints a Markdown table and the ratios.
`bwrap alone` (the same namespaces around `true`, no clearance) shows how much of the cost is
bubblewrap and how much clearance's start-up and its walk of the workspace.

    .venv/bin/python benchmarks/sandbox_cost.py [--runs N]

The test suite is this checkout's tests/policies (a real pytest run). Without hyperfine
(`apt-get install -y hyperfine`) it says so and exits 2.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    if shutil.which("hyperfine") is None:
        print("hyperfine is not installed (apt-get install -y hyperfine)")
        return 2
    py = shlex.quote(sys.executable)
    sandbox = f"{py} -m clearance sandbox --"
    bwrap = shutil.which("bwrap") or "bwrap"
    suite = f"{py} -m pytest -q -p no:cacheprovider tests/policies"
    commands = {
        "true": "true",
        "bwrap alone true": (
            f"{bwrap} --unshare-user --unshare-pid --unshare-net --die-with-parent "
            "--cap-drop ALL --ro-bind / / --proc /proc --dev /dev --tmpfs /tmp true"
        ),
        "sandbox true": f"{sandbox} true",
        "python -c pass": f"{py} -c pass",
        "sandbox python -c pass": f"{sandbox} {py} -c pass",
        "test suite": suite,
        "sandbox test suite": f"{sandbox} {suite}",
    }
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run(
            [
                "hyperfine", "--warmup", "1", "--runs", str(args.runs), "-N",
                "--export-json", out.name,
                *[arg for name, cmd in commands.items() for arg in ("-n", name, cmd)],
            ],
            cwd=CHECKOUT, check=True, capture_output=True,
        )  # fmt: skip
        results = {r["command"]: r for r in json.loads(Path(out.name).read_text())["results"]}
    print("| command | mean (ms) | σ (ms) |")
    print("| --- | ---: | ---: |")
    for name in commands:
        r = results[name]
        print(f"| `{name}` | {r['mean'] * 1000:.1f} | {r['stddev'] * 1000:.1f} |")
    print()
    for base, confined in (
        ("true", "sandbox true"),
        ("python -c pass", "sandbox python -c pass"),
        ("test suite", "sandbox test suite"),
    ):
        extra = (results[confined]["mean"] - results[base]["mean"]) * 1000
        ratio = results[confined]["mean"] / results[base]["mean"]
        print(f"- `{confined}`: {ratio:.2f}x `{base}` (+{extra:.0f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
