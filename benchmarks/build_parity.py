"""Build parity: the pure and the compiled install decide the corpus byte for byte alike.

Every line of the corpus's ``commands.txt`` (52,781) and every script of ``scripts.jsonl``
(3,285) becomes a ``Bash`` intent; each installed copy decides the whole batch with
``clearance gate`` (the default pack, one process each, the same project directory and home),
and the outputs are compared line by line, byte for byte, with only the per-decision
``decision_id`` and ``time`` fields cut out (ids and timestamps), and the place where a walk of
the file system stopped at one of its bounds blanked (``find / …`` stops at 0.3 s or 50,000
entries, whichever comes first: where depends on how busy the machine is, not on the build;
that it stopped at a bound is compared), and the inode numbers of the deciding process's own
links in /proc (``/proc/self/fd/1`` -> ``pipe:[…]``) blanked.

The corpus names real paths (``find /``, ``cat /tmp/*/*``), so the gates run under bubblewrap
in a world that holds still (``/`` read-only; /tmp, /work, /home, /run, ~/.cache empty; the
builds and a scratch project bound back; ``--no-isolate`` to skip), and the pure copy decides
twice (before and after the compiled one): an answer that changed between its two runs followed
the machine, and the compiled answer must then be one of the two.

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
import shutil
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


class Build:
    """One installed copy: its Python, and a directory put first on its path (or none)."""

    def __init__(self, name: str, python: str, path: str | None) -> None:
        self.name = name
        # absolute: the gates run in a scratch directory (a venv's python is not resolved
        # through its link, which would leave the venv)
        self.python = os.path.abspath(python)
        self.path = os.path.abspath(path) if path else None

    def env(self, home: str | None = None) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("CLEARANCE_", "PYTHON"))
        }
        if self.path:
            env["PYTHONPATH"] = self.path
        if home is not None:
            env.update(HOME=home, XDG_STATE_HOME=os.path.join(home, "state"))
            env["XDG_CACHE_HOME"] = os.path.join(home, "cache")
        return env

    def prefix(self) -> str:
        out = subprocess.run(
            [self.python, "-c", "import sys; print(sys.prefix)"],
            capture_output=True,
            text=True,
            check=True,
            cwd="/",
        )
        return out.stdout.strip()

    def kind(self) -> str:
        """``compiled``, ``pure`` or ``mixed``: where the probe modules come from."""
        probe = (
            "import importlib, sys\n"
            f"for name in {PROBES!r}:\n"
            "    print(importlib.import_module(name).__file__)\n"
        )
        out = subprocess.run(
            [self.python, "-c", probe],
            capture_output=True,
            text=True,
            check=True,
            cwd="/",
            env=self.env(),
        ).stdout.split()
        compiled = [path.endswith(".so") for path in out]
        if all(compiled):
            return "compiled"
        return "pure" if not any(compiled) else "mixed"


#: Hidden (an empty tmpfs) in the isolated world: what other processes on this machine change
#: while the corpus is decided, which ``find /`` and ``/tmp/*`` globs would otherwise see.
MUTABLE = ("/tmp", "/var/tmp", "/run", "/work", "/home", "/root/.cache", "/dev/shm")
#: Where the builds are in the isolated world (not under /tmp, where a faster build would
#: finish a ``find /tmp`` inside its time bound that a slower one does not).
HIDEOUT = "/run/clearance-parity"


def isolated(
    build: Build, argv: list[str], scratch: str, builds: list[Build]
) -> tuple[list[str], dict[str, str]]:
    """``argv`` of ``build`` under bubblewrap in a world that holds still: ``/`` read-only,
    the mutable directories empty, a private /proc, the scratch directory bound back, every
    build bound (read-only) under :data:`HIDEOUT`; and the environment to run it with."""
    out = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid"]
    for directory in MUTABLE:
        if os.path.isdir(directory):
            out += ["--tmpfs", directory]
    for each in builds:
        out += ["--ro-bind", each.prefix(), f"{HIDEOUT}/{each.name}/prefix"]
        if each.path:
            out += ["--ro-bind", each.path, f"{HIDEOUT}/{each.name}/path"]
    out += ["--bind", scratch, scratch, "--chdir", os.path.join(scratch, "project")]
    python = os.path.relpath(os.path.abspath(build.python), build.prefix())
    moved = Build(
        build.name,
        f"{HIDEOUT}/{build.name}/prefix/{python}",
        f"{HIDEOUT}/{build.name}/path" if build.path else None,
    )
    return [*out, "--", moved.python, *argv[1:]], moved.env(os.path.join(scratch, "home"))


def decide(
    build: Build, batch: str, scratch: str, world: list[Build] | None
) -> tuple[list[str], float]:
    project = os.path.join(scratch, "project")
    argv = [build.python, "-m", "clearance", "gate", batch, "--cwd", project, "--format", "json"]
    env = build.env(os.path.join(scratch, "home"))
    if world is not None:
        argv, env = isolated(build, argv, scratch, world)
    start = time.monotonic()
    done = subprocess.run(argv, capture_output=True, env=env, cwd=project, check=False)
    elapsed = time.monotonic() - start
    if done.returncode not in (0, 3, 4):
        sys.stderr.write(done.stderr.decode(errors="replace")[-2000:])
        raise SystemExit(f"{build.name}: gate exited {done.returncode}")
    return done.stdout.decode().splitlines(), elapsed


#: Where a file-system walk stopped at one of its bounds (``resolve.DEADLINE``, 0.3 s, or the
#: entries budget, whichever comes first): a fact of the moment (how busy the machine was),
#: not of the build. That a walk stopped at a bound is kept.
_BOUND = re.compile(r"\(bound: [^\"]*? \(more than [^\"]*?\)\)")


#: What a link of /proc names that is the deciding process's own (``/proc/self/fd/1`` ->
#: ``pipe:[1089503]``, ``/proc/1/ns/pid`` -> ``pid:[4026532180]``): a new number every process.
_INODE = re.compile(r"(pipe|socket|anon_inode|pid|mnt|net|ipc|uts|user|cgroup|time):\[[0-9]+\]")


def stable(line: str) -> str:
    """The line as printed, less its first ``decision_id`` and ``time`` fields, with the place
    a walk stopped at a bound and the process's own inode numbers blanked."""
    for key in VOLATILE:
        line = re.sub(rf'"{key}":\s*"[^"]*",\s*', "", line, count=1)
    return _INODE.sub(r"\1:[…]", _BOUND.sub("(bound: …)", line))


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
    parser.add_argument("--pure-path", help="directory put first on the pure build's path")
    parser.add_argument("--compiled-path", help="… and on the compiled build's")
    parser.add_argument("--corpus", default=CORPUS)
    parser.add_argument("--sample", type=int, default=1, help="decide every N-th intent")
    parser.add_argument("--show", type=int, default=5, help="differences to print")
    parser.add_argument(
        "--no-isolate",
        action="store_true",
        help="decide in this machine's world, not under bubblewrap's still one",
    )
    args = parser.parse_args()

    pure_build = Build("pure", args.pure, args.pure_path)
    compiled_build = Build("compiled", args.compiled, args.compiled_path)
    kinds = {"pure": pure_build.kind(), "compiled": compiled_build.kind()}
    if kinds != {"pure": "pure", "compiled": "compiled"}:
        print(f"the installs are not what they claim: {kinds}", file=sys.stderr)
        return 2
    world = None
    if not args.no_isolate:
        if shutil.which("bwrap") is None:
            print("bubblewrap (bwrap) is needed, or --no-isolate", file=sys.stderr)
            return 2
        world = [pure_build, compiled_build]
    lines = intents(args.corpus, max(1, args.sample))
    with tempfile.TemporaryDirectory(prefix="clearance-parity-") as scratch:
        os.makedirs(os.path.join(scratch, "project", ".git"))
        os.makedirs(os.path.join(scratch, "home"))
        batch = os.path.join(scratch, "intents.jsonl")
        with open(batch, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
        with open(os.path.join(scratch, "warm.jsonl"), "w", encoding="utf-8") as fh:
            fh.write(lines[0] + "\n")
        # the policy cache written before the runs, so that all three see the same files
        decide(pure_build, os.path.join(scratch, "warm.jsonl"), scratch, world)
        pure, pure_s = decide(pure_build, batch, scratch, world)
        compiled, compiled_s = decide(compiled_build, batch, scratch, world)
        again, _ = decide(pure_build, batch, scratch, world)

    print(f"isolated world: {'yes (bubblewrap)' if world else 'no'}; load {os.getloadavg()[0]:.2f}")
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
