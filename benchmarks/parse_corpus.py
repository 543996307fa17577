"""Parse coverage on the shared corpus, overall and per source.

The yardstick is ``bash -n``: of the command lines and scripts bash itself reads as valid, what
share does ``clearance.shellparse.parse`` accept? A command counts under every source that
produced it (``src`` in ``commands.jsonl``), as in the corpus's own baseline. The other
direction is reported too: of what ``bash -n`` rejects, how much is rejected here, and how much
of the rest only needs ``extglob`` (which this parser always accepts).

Run: ``python benchmarks/parse_corpus.py [--corpus DIR]`` (default ``../shared/corpus``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from clearance.shellparse.parser import parse

DEFAULT_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


Record = dict[str, object]


def load(corpus: Path) -> tuple[list[Record], list[Record], dict[str, Record]]:
    """Commands, scripts, and what ``bash -n`` (and bashlex, tree-sitter) said, by entry."""
    commands = [json.loads(line) for line in (corpus / "commands.jsonl").open(encoding="utf-8")]
    scripts = [json.loads(line) for line in (corpus / "scripts.jsonl").open(encoding="utf-8")]
    failures: dict[str, Record] = {}
    for line in (corpus / "baseline_failures.jsonl").open(encoding="utf-8"):
        record = json.loads(line)
        failures[f"{record['kind']}:{record['i']}"] = record
    return commands, scripts, failures


def rate(ok: int, n: int) -> str:
    return f"{100 * ok / n:.2f}%" if n else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()
    commands, scripts, failures = load(args.corpus)

    totals: Counter[str] = Counter()
    per_source: dict[str, Counter[str]] = {}
    failing: list[tuple[str, str, str]] = []
    started = time.perf_counter()
    for kind, items, key in (("command", commands, "cmd"), ("script", scripts, "text")):
        for i, item in enumerate(items):
            text = str(item[key])
            record = failures.get(f"{kind}:{i}")
            bash_ok = record is None or bool(record["bash_n"])
            extglob_ok = record is None or bool(record["bash_n_extglob"])
            result = parse(text)
            sources = item["src"] if kind == "command" else [item["src"]]
            assert isinstance(sources, list)
            if bash_ok:
                totals[f"{kind}:n"] += 1
                totals[f"{kind}:ok"] += result.ok
                for source in sources:
                    counts = per_source.setdefault(f"{kind}:{source}", Counter())
                    counts["n"] += 1
                    counts["ok"] += result.ok
                if not result.ok and result.error is not None:
                    failing.append((kind, text[:80], str(result.error)))
            else:
                totals[f"{kind}:rejected_by_bash"] += 1
                totals[f"{kind}:we_reject"] += not result.ok
                totals[f"{kind}:we_accept_extglob"] += result.ok and extglob_ok
                totals[f"{kind}:we_accept_other"] += result.ok and not extglob_ok
    elapsed = time.perf_counter() - started

    print("## Parse coverage of what `bash -n` accepts\n")
    print("| set | bash -n accepts | parsed | rate |")
    print("| --- | ---: | ---: | ---: |")
    for kind, label in (("command", "**all commands**"), ("script", "**all scripts**")):
        n, ok = totals[f"{kind}:n"], totals[f"{kind}:ok"]
        print(f"| {label} | {n:,} | {ok:,} | **{rate(ok, n)}** |")
    print("\n### Commands per source (a command counts under every source that produced it)\n")
    print("| source | bash -n accepts | parsed | rate |")
    print("| --- | ---: | ---: | ---: |")
    for kind in ("command", "script"):
        if kind == "script":
            print("\n### Scripts per source\n")
            print("| source | bash -n accepts | parsed | rate |")
            print("| --- | ---: | ---: | ---: |")
        rows = sorted(
            (name.split(":", 1)[1], c) for name, c in per_source.items() if name.startswith(kind)
        )
        for source, counts in sorted(rows, key=lambda row: -row[1]["n"]):
            n, ok = counts["n"], counts["ok"]
            print(f"| {source} | {n:,} | {ok:,} | {rate(ok, n)} |")
    print("\n### What `bash -n` rejects\n")
    print(
        "| set | bash -n rejects | rejected here | accepted: valid with extglob | accepted: other |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind in ("command", "script"):
        print(
            f"| {kind}s | {totals[f'{kind}:rejected_by_bash']} | {totals[f'{kind}:we_reject']}"
            f" | {totals[f'{kind}:we_accept_extglob']} | {totals[f'{kind}:we_accept_other']} |"
        )
    print(f"\n{len(commands) + len(scripts):,} inputs parsed in {elapsed:.1f} s.")
    if failing:
        print("\nNot parsed although bash accepts them:")
        for kind, text, error in failing[:30]:
            print(f"- {kind}: `{text}` -- {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
