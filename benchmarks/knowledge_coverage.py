"""Knowledge coverage on the corpus, and what the default pack answers there.

Coverage: of every part (simple command, after unwrapping) of the distinct commands of
``commands.txt``, the share whose program has a table entry and whose every option is known
to that entry. Options are counted the same way before and after a change to the tables: the
benchmark records every option ``parse_program_args`` could not place while a part is classified,
except those a table declares (an option family, or a handler that reads its own arguments,
which reports what it does not know as ``unknown_option``). The commonest unknown programs
and options follow.

Decisions: the default pack on the same distinct commands, the share allowed / asked / denied,
and for the ones not allowed, by reason code (``rule_matched`` split by rule id).

Run: python benchmarks/knowledge_coverage.py [--limit N] [--top 40]
"""

from __future__ import annotations

import argparse
import collections
import os
import sys

CORPUS = os.environ.get("CLEARANCE_CORPUS", "/work/shared/corpus/commands.txt")
WORKSPACE = "/home/user/project"
HOME = "/home/user"


def commands(limit: int | None) -> list[str]:
    with open(CORPUS, encoding="utf-8") as fh:
        seen = dict.fromkeys(line.rstrip("\n") for line in fh if line.strip())
    out = list(seen)
    return out[:limit] if limit else out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--no-decisions", action="store_true")
    args = ap.parse_args()

    from clearance.shellparse import classifier as classifier_module
    from clearance.shellparse import options as options_module
    from clearance.shellparse.api import classify

    # Record the options the parser cannot place, per part being classified.
    stack: list[int] = []
    unknown: dict[int, list[str]] = collections.defaultdict(list)
    original_parse = options_module.parse_program_args
    original_classify = classifier_module.Classifier.classify

    def parse_program_args(spec, argv, **kwargs):  # type: ignore[no-untyped-def]
        parsed = original_parse(spec, argv, **kwargs)
        if stack and not getattr(spec, "own_options", False):
            declared = getattr(spec, "in_family", None)
            for opt, spelling, _ in parsed.options:
                if opt is None and not (declared is not None and declared(spelling)):
                    unknown[stack[-1]].append(spelling)
        return parsed

    def classify_part(self, fact, *a, **kw):  # type: ignore[no-untyped-def]
        stack.append(id(fact))
        try:
            return original_classify(self, fact, *a, **kw)
        finally:
            stack.pop()

    classifier_module.parse_program_args = parse_program_args  # type: ignore[assignment]
    options_module.parse_program_args = parse_program_args  # type: ignore[assignment]
    classifier_module.Classifier.classify = classify_part  # type: ignore[method-assign]

    lines = commands(args.limit)
    parts = 0
    known_program = 0
    fully_known = 0
    programs: collections.Counter[str] = collections.Counter()
    options: collections.Counter[str] = collections.Counter()
    markers: collections.Counter[str] = collections.Counter()
    for line in lines:
        facts = classify(line, cwd=WORKSPACE, home=HOME, workspace=WORKSPACE)
        for part in facts.commands:
            if part.program is None:
                continue
            parts += 1
            opts = unknown.pop(id(part), [])
            if "unknown_program" in part.markers or "dynamic_program" in part.markers:
                programs[part.program_raw or "?"] += 1
                continue
            known_program += 1
            if "unknown_option" in part.markers and not opts:
                opts = ["(reported by the handler)"]
            if opts:
                options.update({f"{part.program} {o}" for o in opts})
            else:
                fully_known += 1
            markers.update(part.markers)
        unknown.clear()
    print(f"corpus: {len(lines)} distinct commands, {parts} parts")
    print()
    print("| measure | parts | share |")
    print("| --- | ---: | ---: |")
    print(f"| program known | {known_program} | {known_program / parts:.1%} |")
    print(f"| program and every option known | {fully_known} | {fully_known / parts:.1%} |")
    print()
    print(f"commonest unknown programs (top {args.top}):")
    print(", ".join(f"{p} {n}" for p, n in programs.most_common(args.top)))
    print()
    print(f"commonest unknown options of known programs (top {args.top}):")
    print(", ".join(f"`{o}` {n}" for o, n in options.most_common(args.top)))

    if args.no_decisions:
        return 0
    classifier_module.parse_program_args = original_parse
    classifier_module.Classifier.classify = original_classify  # type: ignore[method-assign]
    options_module.parse_program_args = original_parse  # type: ignore[assignment]

    from clearance.engine.api import decide, default_pack_path, load_policy
    from clearance.engine.intents import ToolIntent

    policy = load_policy(WORKSPACE, files=[default_pack_path()], use_cache=False)
    decisions: collections.Counter[str] = collections.Counter()
    reasons: collections.Counter[tuple[str, str]] = collections.Counter()
    for line in lines:
        d = decide(
            ToolIntent("bash", {"command": line}),
            policy,
            cwd=WORKSPACE,
            workspace=WORKSPACE,
            home=HOME,
        )
        decisions[d.decision] += 1
        code = d.reason_code
        if code == "rule_matched":
            code = f"rule {d.policy_id}"
        reasons[(d.decision, code)] += 1
    total = sum(decisions.values())
    print()
    print("default pack on the corpus:")
    print("| decision | commands | share |")
    print("| --- | ---: | ---: |")
    for decision in ("allow", "ask", "deny"):
        print(f"| {decision} | {decisions[decision]} | {decisions[decision] / total:.1%} |")
    print()
    print("| decision | reason | commands | share |")
    print("| --- | --- | ---: | ---: |")
    for (decision, code), n in sorted(reasons.items(), key=lambda kv: (kv[0][0], -kv[1])):
        if n * 1000 >= total or decision != "allow":
            print(f"| {decision} | {code} | {n} | {n / total:.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
