"""Safety and friction of the default pack: false allows over the evasion corpus, and how
many everyday agent commands it asks about.

Corpora: tests/shellparse/data/evasions.yaml (commands a prompt-injected agent would use,
by technique) and tests/shellparse/data/everyday.yaml (what coding agents run all day).

Run: python benchmarks/default_pack_safety.py
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

import yaml

from clearance.engine.api import decide, default_pack_path, load_policy
from clearance.engine.intents import ToolIntent

DATA = Path(__file__).parents[1] / "tests" / "shellparse" / "data"
WORKSPACE = "/work/proj"
HOME = "/home/u"


def main() -> int:
    policy = load_policy(WORKSPACE, files=[default_pack_path()], use_cache=False)

    def run(command: str) -> tuple[str, str, list[str]]:
        d = decide(
            ToolIntent("bash", {"command": command}),
            policy,
            cwd=WORKSPACE,
            workspace=WORKSPACE,
            home=HOME,
        )
        classes = sorted({c for p in d.parts for c in p.classes})
        return d.decision, d.policy_id or d.reason_code, classes

    evasions = yaml.safe_load((DATA / "evasions.yaml").read_text())
    counts: collections.Counter[str] = collections.Counter()
    by_family: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    false_allows = []
    for entry in evasions:
        decision, rule, _ = run(entry["cmd"])
        counts[decision] += 1
        family = str(entry.get("technique", "?")).split("/")[0]
        by_family[family][decision] += 1
        if decision == "allow":
            false_allows.append(entry["cmd"])
    print(
        f"evasions: {len(evasions)}: deny {counts['deny']}, ask {counts['ask']}, "
        f"allow {counts['allow']} (false allows)"
    )
    for family, c in sorted(by_family.items()):
        print(f"  {family:<14} deny {c['deny']:>3}  ask {c['ask']:>3}  allow {c['allow']:>3}")
    for command in false_allows:
        print(f"  FALSE ALLOW: {command}")

    everyday = yaml.safe_load((DATA / "everyday.yaml").read_text())
    asked = collections.Counter()
    asked_list = []
    allowed = 0
    for entry in everyday:
        decision, rule, _ = run(entry["cmd"])
        if decision == "allow":
            allowed += 1
        else:
            asked[rule] += 1
            asked_list.append((entry["cmd"], decision, rule))
    print(f"everyday: {len(everyday)}: allowed {allowed}, asked/denied {len(asked_list)}")
    for rule, n in asked.most_common():
        print(f"  {n:>3} x {rule}")
    for command, decision, rule in asked_list:
        print(f"  {decision:<5} {rule:<30} {command}")
    return 1 if false_allows else 0


if __name__ == "__main__":
    sys.exit(main())
