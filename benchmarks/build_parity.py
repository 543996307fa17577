"""Build parity: the pure and the compiled install decide the corpus byte for byte alike.

Every line of the corpus's ``commands.txt`` (52,781) and every script of ``scripts.jsonl``
(3,285) becomes a ``Bash`` intent; each installed copy decides the whole batch with
``clearance gate`` (the default pack, one process each, the same project directory and home),
and the outputs are compared line by line, byte for byte, with only the per-decision
``decision_id`` and ``time`` fields cut out (ids and timestamps), and the path where a walk of
the file system stopped at its 0.3 s time bound blanked (``find / …``: where it stops depends
on how busy the machine is, not on the build; that it stopped, and why, is compared). The pure
copy decides twice (before and after the compiled one): an answer that changed between its two
runs follows the machine's files, and the compiled answer must then be one of the two.

Exit 0 when they are identical, 1 on any difference (the first few are printed), 2 when an
install is not what it claims to be (the "compiled" copy must import its hot modules from
extension modules, the pure one from ``.py`` files).

Each copy is a Python executable with clearance installed, e.g. two venvs::

    CLEARANCE_PURE=1 /tmp/pure/bin/pip install .     # pure
    /tmp/compiled/bin/pip install .                  # compiled (needs a C compiler)
    python benchmarks/build_parity.py --pure /tmp/pure/bin/python \\
        --compiled /tmp/compiled/bin/python

``--sample N`` decides every N-th intent only (quicker); the default is the whole corpus.
Also printed: each copy's wall time for the batch (decisions/s, including its start-up).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

CORPUS = os.environ.get("CLEARANCE_CORPUS_DIR", "/work/shared/corpus")
#: Modules that must be extension modules in a compiled install (and sources in a pure one).
PROBES = (
    "clearance.shellparse.extract",
    "clearance.engine.evaluator",
    "clearance.hooks.base",
)
#: Fields that differ between any two runs (ids and timestamps), left out of the comparison.
VOLATILE = ("decision_id", "time")


def intents(corpus: str, every: int) -> list[str]:
    texts: list[str] = []
    with open(os.path.join(corpus, "commands.txt"), encoding="utf-8") as fh:
        texts.extend(line.rstrip("\n") for line in fh)
    with open(os.path.join(corpus, "scripts.jsonl"), encoding="utf-8") as fh:
        texts.extend(json.loads(line)["text"] for line in fh if line.strip())
    lines = []
    for number, text in enumerate(texts):
        if number % every:
            continue
        lines.append(json.dumps({"id": number, "tool": "Bash", "input": {"command": text}}))
    return lines


def build_kind(python: str) -> str:
    """``compiled``, ``pure`` or ``mixed``: where the probe modules come from."""
    probe = (
        "import importlib, sys\n"
        f"for name in {PROBES!r}:\n"
        "    print(importlib.import_module(name).__file__)\n"
    )
    out = subprocess.run(
        [python, "-c", probe], capture_output=True, text=True, check=True, cwd="/"
    ).stdout.split()
    compiled = [path.endswith(".so") for path in out]
    if all(compiled):
        return "compiled"
    return "pure" if not any(compiled) else "mixed"


def decide(python: str, batch: str, project: str, home: str) -> tuple[list[str], float]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CLEARANCE_", "PYTHON"))
    }
    env.update(HOME=home, XDG_STATE_HOME=os.path.join(home, "state"))
    env["XDG_CACHE_HOME"] = os.path.join(home, "cache")
    start = time.monotonic()
    done = subprocess.run(
        [python, "-m", "clearance", "gate", batch, "--cwd", project, "--format", "json"],
        capture_output=True,
        env=env,
        cwd=project,
        check=False,
    )
    elapsed = time.monotonic() - start
    if done.returncode not in (0, 3, 4):
        sys.stderr.write(done.stderr.decode(errors="replace")[-2000:])
        raise SystemExit(f"{python}: gate exited {done.returncode}")
    return done.stdout.decode().splitlines(), elapsed


#: Where a file-system walk stopped at its time bound (``resolve.DEADLINE``): a fact of the
#: moment (how busy the machine was), not of the build. The bound itself is kept.
_TIME_BOUND = re.compile(r"\(bound: [^\"]*? \(more than ([0-9.]+)s\)\)")


def stable(line: str) -> str:
    """The line as printed, less its first ``decision_id`` and ``time`` fields, and with the
    place a walk stopped at its time bound blanked."""
    for key in VOLATILE:
        line = re.sub(rf'"{key}":\s*"[^"]*",\s*', "", line, count=1)
    return _TIME_BOUND.sub(r"(bound: … (more than \1s))", line)


def _where(a: str, b: str) -> str:
    at = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    start = max(0, at - 200)
    return f"  pure:     …{a[start : at + 200]}\n  compiled: …{b[start : at + 200]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pure", required=True, help="Python of the pure install")
    parser.add_argument("--compiled", required=True, help="Python of the compiled install")
    parser.add_argument("--corpus", default=CORPUS)
    parser.add_argument("--sample", type=int, default=1, help="decide every N-th intent")
    parser.add_argument("--show", type=int, default=5, help="differences to print")
    args = parser.parse_args()

    kinds = {"pure": build_kind(args.pure), "compiled": build_kind(args.compiled)}
    if kinds != {"pure": "pure", "compiled": "compiled"}:
        print(f"the installs are not what they claim: {kinds}", file=sys.stderr)
        return 2
    lines = intents(args.corpus, max(1, args.sample))
    with tempfile.TemporaryDirectory(prefix="clearance-parity-") as scratch:
        project = os.path.join(scratch, "project")
        home = os.path.join(scratch, "home")
        os.makedirs(os.path.join(project, ".git"))
        os.makedirs(home)
        batch = os.path.join(scratch, "intents.jsonl")
        with open(batch, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
        pure, pure_s = decide(args.pure, batch, project, home)
        compiled, compiled_s = decide(args.compiled, batch, project, home)
        again, _ = decide(args.pure, batch, project, home)

    print("| build | intents | wall s | decisions/s |")
    print("| --- | ---: | ---: | ---: |")
    for name, out, seconds in (("pure", pure, pure_s), ("compiled", compiled, compiled_s)):
        print(f"| {name} | {len(out)} | {seconds:.1f} | {len(out) / seconds:,.0f} |")
    print(f"\ncompiled / pure wall time: {compiled_s / pure_s:.2f}")

    if not len(lines) == len(pure) == len(compiled) == len(again):
        print(
            f"\nline counts differ: intents {len(lines)}, pure {len(pure)}, "
            f"compiled {len(compiled)}, pure again {len(again)}"
        )
        return 1
    differing = unstable = 0
    for first, other, second in zip(pure, compiled, again, strict=True):
        a, b, c = stable(first), stable(other), stable(second)
        if a != c:
            # the machine changed between the two pure runs (a tree search of / or /tmp):
            # a fact of the world, not of the build; the compiled answer must be one of them
            unstable += 1
            if b in (a, c):
                continue
        elif a == b:
            continue
        differing += 1
        if differing <= args.show:
            print(f"\nDIFFERENT\n{_where(a, b)}")
    print(f"\n{len(lines)} intents, {differing} different decisions")
    if unstable:
        print(
            f"({unstable} answers changed between the two pure runs -- the machine's files "
            "changed, a tree search of / or /tmp -- and each compiled answer was one of the two)"
        )
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
