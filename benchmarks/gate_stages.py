"""Where a gate decision's time goes, stage by stage, in one process.

The same fixed-seed sample of distinct corpus commands as ``gate_throughput.py`` (default
3,000), as the gate's intent lines, each stage timed over the whole sample on its own (CPU time,
``time.process_time``, best of ``--repeat``; steadier than wall time on a shared machine):

* JSON in: the line read into an intent (``parse_line``: JSON, depth check, the intent);
* policy discovery: the policy set and workspace at the line's directory, as a batch finds them
  (``PolicyCache``; the first lookup of a directory pays discovery, later ones a dict lookup);
* lex/parse: the LALR parse of the command (``shellparse.parser.parse``);
* extraction/classification: the facts without the file system (``classify(resolve=False)``)
  less the parse;
* resolution: ``classify(resolve=True)`` less ``classify(resolve=False)`` (globs, links, trees);
* evaluation: the rules over the facts (``evaluate``), decision included;
* decision building: a decision object with its ULID and time, and its ``to_dict``;
* serialisation: the output line (``dumps`` of the line's object).

Stages are measured apart, so they do not add up exactly to a whole decision (the whole is
printed beside them). A tree is the checkout, or any tree put first on ``PYTHONPATH``.

Run: python benchmarks/gate_stages.py [-n 3000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parent))


def _best(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()

    from gate_throughput import corpus_sample

    scratch = Path(tempfile.mkdtemp(prefix="gate-stages-"))
    atexit.register(shutil.rmtree, scratch, True)  # (a walk of /tmp reads what is left)
    home = scratch / "home"
    workspace = home / "project"
    (workspace / ".git").mkdir(parents=True)
    os.environ.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(scratch / "cache"),
        XDG_STATE_HOME=str(scratch / "state"),
        XDG_CONFIG_HOME=str(scratch / "config"),
    )
    os.chdir(workspace)
    ws, hm = str(workspace), str(home)

    try:
        from clearance.hooks.gate import decide_line, dumps, line_output, parse_line
    except ImportError:  # trees before the per-line code moved below the CLI
        from clearance.cli.commands.gate import (  # type: ignore[attr-defined,no-redef]
            decide_line,
            line_output,
            parse_line,
        )

        dumps = json.dumps  # type: ignore[assignment]
    try:
        from clearance.engine.policycache import PolicyCache
    except ImportError:
        from clearance.engine.replay import PolicyCache  # type: ignore[attr-defined,no-redef]
    import clearance.engine
    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.evaluator import evaluate
    from clearance.engine.views import Context
    from clearance.shellparse import classify
    from clearance.shellparse.parser import parse

    commands = corpus_sample(args.n, args.seed)
    lines = [
        (json.dumps({"id": i, "tool": "Bash", "input": {"command": c}}) + "\n").encode()
        for i, c in enumerate(commands)
    ]
    cache = PolicyCache(None)
    # the batch's memo of project roots, as ``gate`` passes it (older trees had none)
    memo = getattr(cache, "workspace", None)

    def decided(raw: bytes, n: int) -> ApprovalDecision:
        if memo is None:
            return decide_line(raw, n, ws, cache.get)[0]
        return decide_line(raw, n, ws, cache.get, None, memo)[0]

    policy = cache.get(ws)
    assert not isinstance(policy, str), policy
    facts = [classify(c, cwd=ws, home=hm, workspace=ws) for c in commands]
    decisions = [decided(raw, n) for n, raw in enumerate(lines, 1)]

    # The samples' facts and decisions stay alive for the whole run: out of the collector's
    # sight, as a gate batch puts what it loaded (``settle_heap``), or every stage pays for
    # collections that walk them (the parse stage alone read twice its time that way).
    import gc

    gc.freeze()

    def policy_lookup() -> None:
        fresh = PolicyCache(None)
        for _ in lines:
            fresh.get(ws)
            if hasattr(fresh, "workspace"):
                fresh.workspace(ws)
            else:  # before: every decision looked up its workspace
                from clearance.engine.scopes import workspace_of

                workspace_of(ws, hm)

    def evaluation() -> None:
        for command, fact in zip(commands, facts, strict=True):
            if fact.commands:
                ctx = Context("Bash", "shell", ws, hm, ws, command)
                evaluate(policy, fact.commands, ctx, command_markers=frozenset(fact.markers))

    stages: list[tuple[str, Callable[[], object]]] = [
        ("JSON in", lambda: [parse_line(raw, ws) for raw in lines]),
        ("policy discovery", policy_lookup),
        ("lex/parse", lambda: [parse(c) for c in commands]),
        (
            "classify, no file system",
            lambda: [classify(c, cwd=ws, home=hm, workspace=ws, resolve=False) for c in commands],
        ),
        (
            "classify with resolution",
            lambda: [classify(c, cwd=ws, home=hm, workspace=ws) for c in commands],
        ),
        ("evaluation", evaluation),
        (
            "decision building",
            lambda: [
                ApprovalDecision("allow", "default", "x").to_dict() and d.to_dict()
                for d in decisions
            ],
        ),
        (
            "serialisation",
            lambda: [dumps(line_output(d, n, n)) for n, d in enumerate(decisions, 1)],
        ),
        (
            "whole decide_line + output",
            lambda: [dumps(line_output(decided(raw, n), n, n)) for n, raw in enumerate(lines, 1)],
        ),
    ]
    times = {name: _best(fn, args.repeat) / len(lines) * 1e6 for name, fn in stages}
    parse_us = times["lex/parse"]
    plain = times.pop("classify, no file system")
    resolved = times.pop("classify with resolution")
    times["extraction/classification"] = plain - parse_us
    times["resolution"] = resolved - plain
    whole = times.pop("whole decide_line + output")
    print(f"{len(lines):,} commands; engine at {os.path.dirname(clearance.engine.__file__)}")
    order = [
        "JSON in",
        "policy discovery",
        "lex/parse",
        "extraction/classification",
        "resolution",
        "evaluation",
        "decision building",
        "serialisation",
    ]
    for name in order:
        print(f"  {name:<27} {times[name]:8.1f} us  {times[name] / whole:6.1%}")
    print(f"  {'whole (decide_line + line)':<27} {whole:8.1f} us CPU per decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
