"""Decisions per second with the default pack over the corpus, and how rule count scales.

Every distinct command of /work/shared/corpus/commands.txt is decided once, in one process,
with no result cache: classification (parse + facts) and evaluation together, then
evaluation alone on facts computed beforehand. Latency percentiles are per command.

Scaling: the default pack plus N generated rules (N = 10, 100, 1000): nine in ten about one
program, spread over the 300 programs the corpus uses most (so they are candidates for real
parts), one in ten about an effect class and a path; evaluation over the same facts.

Baseline, same run: cedarpy (Cedar's Rust authorizer called from Python), one call per
request as clearance makes one per command, with the 20 policies and the entities parsed once
beforehand, when cedarpy is installed (``pip install cedarpy``).

Run: python benchmarks/engine_decisions.py [--limit N]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clearance.engine.rules import PolicySet

CORPUS = os.environ.get("CLEARANCE_CORPUS", "/work/shared/corpus/commands.txt")
WORKSPACE = "/home/user/project"
HOME = "/home/user"


def commands(limit: int | None) -> list[str]:
    with open(CORPUS, encoding="utf-8") as fh:
        lines = [line.rstrip("\n") for line in fh if line.strip()]
    seen: dict[str, None] = {}
    for line in lines:
        seen.setdefault(line, None)
    out = list(seen)
    return out[:limit] if limit else out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def generated_rules(n: int, programs: list[str]) -> list[dict[str, object]]:
    """N rules shaped like real ones: nine in ten about one program (spread over the
    corpus's own programs), one in ten about an effect class and a path."""
    from clearance.shellparse.facts import CLASSES as CLASS_MEANINGS

    classes = tuple(CLASS_MEANINGS)
    rules: list[dict[str, object]] = []
    for i in range(n):
        if i % 10 == 9:
            when: dict[str, object] = {
                "classes": [classes[i % len(classes)]],
                "paths": {"match": [f"generated-{i}/**"]},
            }
        else:
            program = programs[i % len(programs)]
            when = {"argv": [f"{program} --generated-{i} **"]}
        rules.append(
            {"id": f"gen-{i}", "decision": "ask", "reason": f"generated rule {i}", "when": when}
        )
    return rules


def with_generated_rules(policy: PolicySet, n: int, programs: list[str]) -> PolicySet:
    """``policy``'s packs again (the pack data it was built from, every field of every rule)
    plus a project pack of ``n`` :func:`generated_rules`."""
    from clearance.engine.rules import PolicySet

    generated: Any = {
        "id": "gen",
        "scope": "project",
        "path": "/gen.yaml",
        "digest": "g",
        "rules": generated_rules(n, programs),
    }
    return PolicySet([*policy.sources, generated])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()

    from clearance.engine.api import decide, load_policy
    from clearance.engine.evaluator import evaluate
    from clearance.engine.intents import ToolIntent
    from clearance.engine.views import Context
    from clearance.shellparse import classify

    cmds = commands(args.limit)
    policy = load_policy(WORKSPACE, check=False, use_cache=False)
    print(f"corpus: {len(cmds)} distinct commands; default pack: {len(policy.rules)} rules")

    def run(ps: PolicySet) -> tuple[float, list[float], dict[str, int]]:
        latencies: list[float] = []
        counts = {"allow": 0, "ask": 0, "deny": 0}
        start = time.perf_counter()
        for command in cmds:
            t0 = time.perf_counter()
            decision = decide(
                ToolIntent("bash", {"command": command}),
                ps,
                cwd=WORKSPACE,
                workspace=WORKSPACE,
                home=HOME,
            )
            latencies.append(time.perf_counter() - t0)
            counts[decision.decision] += 1
        return time.perf_counter() - start, latencies, counts

    elapsed, latencies, counts = run(policy)
    rate = len(cmds) / elapsed
    print(
        f"end to end (classify + decide): {rate:,.0f} decisions/s; "
        f"p50 {percentile(latencies, 0.5) * 1e3:.3f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1e3:.3f} ms,"
        f" max {max(latencies) * 1e3:.1f} ms; {counts}"
    )

    facts = [classify(c, cwd=WORKSPACE, home=HOME, workspace=WORKSPACE) for c in cmds]
    eval_latencies: list[float] = []
    start = time.perf_counter()
    for command, fact in zip(cmds, facts, strict=True):
        t0 = time.perf_counter()
        ctx = Context("bash", "shell", WORKSPACE, HOME, WORKSPACE, command)
        if fact.commands:
            evaluate(policy, fact.commands, ctx, command_markers=frozenset(fact.markers))
        eval_latencies.append(time.perf_counter() - t0)
    eval_elapsed = time.perf_counter() - start
    print(
        f"evaluation only (facts given):  {len(cmds) / eval_elapsed:,.0f} decisions/s; "
        f"p50 {percentile(eval_latencies, 0.5) * 1e3:.3f} ms, "
        f"p99 {percentile(eval_latencies, 0.99) * 1e3:.3f} ms"
    )

    from collections import Counter

    usage = Counter(c.program for f in facts for c in f.commands if c.program)
    top_programs = [name for name, _ in usage.most_common(300)]
    print("scaling (default pack + N generated rules), evaluation only:")
    reference = None
    for n in (0, 10, 100, 1000):
        ps = with_generated_rules(policy, n, top_programs)
        start = time.perf_counter()
        for command, fact in zip(cmds, facts, strict=True):
            ctx = Context("bash", "shell", WORKSPACE, HOME, WORKSPACE, command)
            if fact.commands:
                evaluate(ps, fact.commands, ctx, command_markers=frozenset(fact.markers))
        rate_n = len(cmds) / (time.perf_counter() - start)
        reference = reference or rate_n
        print(
            f"  +{n:>4} rules ({len(ps.rules):>4} total): {rate_n:>9,.0f}/s "
            f"({rate_n / reference:.2f}x of +0)"
        )

    try:
        import cedarpy  # type: ignore[import-not-found]
    except ImportError:
        print("cedarpy not installed: no same-run baseline (pip install cedarpy)")
        return 0
    import json

    policy_text = (
        "\n".join(
            f'permit(principal, action == Action::"run", resource) when '
            f'{{ resource.program == "tool{i}" && context.classes.contains("c{i}") }};'
            for i in range(19)
        )
        + '\nforbid(principal, action, resource) when { context.classes.contains("delete") };'
    )
    cedar_policies = cedarpy.PolicySet.from_str(policy_text)
    cedar_entities = cedarpy.Entities.from_json_str(
        json.dumps(
            [
                {
                    "uid": {"type": "Command", "id": str(i)},
                    "attrs": {"program": f"tool{i % 25}"},
                    "parents": [],
                }
                for i in range(1000)
            ]
        )
    )
    requests = [
        {
            "principal": 'Agent::"a"',
            "action": 'Action::"run"',
            "resource": f'Command::"{i % 1000}"',
            "context": {"classes": ["read_only", f"c{i % 25}"]},
        }
        for i in range(min(len(cmds), 20000))
    ]
    start = time.perf_counter()
    for request in requests:
        cedarpy.is_authorized(request, cedar_policies, cedar_entities)
    cedar_rate = len(requests) / (time.perf_counter() - start)
    print(
        f"baseline cedarpy (20 policies, same run): {cedar_rate:,.0f} decisions/s; clearance "
        f"end to end is {rate / cedar_rate:.2f}x, evaluation only "
        f"{len(cmds) / eval_elapsed / cedar_rate:.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
