"""Program names: what ``clearance.shellparse.classify`` extracts vs tree-sitter-bash.

Acceptance says nothing about reading a line *right*. tree-sitter-bash is an independent bash
parser; the program names it sees (its ``command_name`` nodes) are compared, line by line, with
the ``program_raw`` (argv[0]) of every command our facts list. The two answer different
questions on purpose in a few places, so each difference is put in a category:

- ``unwrapped``: we also list the command a wrapper runs (``sudo rm``, ``env X=1 make``,
  ``xargs rm``, ``bash -c '…'``, ``find -exec``, ``ssh host cmd``…); tree-sitter sees an argument.
- ``test/arith``: ``[ … ]``, ``[[ … ]]``, ``(( … ))`` are commands to us (they run, and ``[``
  is a program); tree-sitter has ``test_command`` / arithmetic nodes without a name.
- ``declaration``: ``export``, ``declare``, ``local``, ``readonly``, ``typeset``, ``unset``
  are builtins we list; tree-sitter has ``declaration_command`` / ``unset_command``.
- ``keyword``: ``time``, ``coproc``, ``!`` prefix a pipeline for bash (and for us);
  tree-sitter reads some of them as a command name.
- ``expansion``: we expand the name statically (braces, tilde, a variable assigned earlier on
  the line); tree-sitter keeps the source text.
- ``function call``: a call of a function the line defines; we list the commands of its
  body (marked ``function_body``) instead of the call.
- ``order``: the same names in another order (we list a substitution before the command whose
  argument it computes, the order they run in).

Whatever falls in no category is listed with examples: those are the lines to read.

Run: ``python benchmarks/parse_vs_treesitter.py [--corpus DIR] [--limit N]``.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

from clearance.shellparse import classify

DEFAULT_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"

TEST_COMMANDS = frozenset(("[", "[[", "((", "for ((", "test"))
DECLARATIONS = frozenset(("export", "declare", "local", "readonly", "typeset", "unset"))
KEYWORDS = frozenset(("time", "coproc", "!", "-p", "{", "}", "]]", "do", "done", "fi", "esac"))
_QUOTES = re.compile(r"""["'\\]""")


def normal(name: str) -> str:
    """A name with quotes and backslashes taken off: tree-sitter keeps ``"r"m`` as written."""
    return _QUOTES.sub("", name)


def treesitter_names(parser: Parser, text: str) -> list[str] | None:
    tree = parser.parse(text.encode())
    if tree.root_node.has_error:
        return None
    names: list[str] = []
    stack: list[Node] = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "command_name":
            names.append((node.text or b"").decode(errors="replace"))
        stack.extend(reversed(node.children))
    return names


def categorise(
    ours: list[str], unwrapped: list[str], theirs: list[str], functions: set[str]
) -> list[str]:
    """The categories that explain how ``ours`` (top-level names) differs from ``theirs``.

    ``functions`` are the names of functions the line defines: we list the commands of their
    bodies, not the calls.
    """
    reasons: list[str] = []
    if unwrapped:
        reasons.append("unwrapped")
    a = [normal(n) for n in ours]
    b = [normal(n) for n in theirs]
    if a == b:
        return reasons
    extra_ours = Counter(a) - Counter(b)
    extra_theirs = Counter(b) - Counter(a)
    if not extra_ours and not extra_theirs:
        return [*reasons, "order"]
    for name in list(extra_ours):
        if name in TEST_COMMANDS:
            reasons.append("test/arith")
            del extra_ours[name]
        elif name in DECLARATIONS:
            reasons.append("declaration")
            del extra_ours[name]
    for name in list(extra_theirs):
        if name in functions:
            reasons.append("function call")
            del extra_theirs[name]
            continue
        if name in KEYWORDS:
            reason = "keyword"
        elif any(c in name for c in " \t\n"):
            reason = "tree-sitter name spans blanks"
        elif any(c in name for c in "${~*?["):
            reason = "expansion"
        else:
            continue
        reasons.append(reason)
        del extra_theirs[name]
        if name in ("time", "coproc", "!") or reason != "keyword":
            # The command after the keyword, or the expanded spelling, is our counterpart.
            for candidate in list(extra_ours):
                extra_ours[candidate] -= 1
                if extra_ours[candidate] <= 0:
                    del extra_ours[candidate]
                break
    if extra_ours or extra_theirs:
        reasons.append("other")
    elif not reasons or reasons == ["unwrapped"]:
        reasons.append("order")
    return sorted(set(reasons))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=0, help="only the first N commands")
    parser.add_argument("--examples", type=int, default=3)
    parser.add_argument("--other", type=int, default=25, help="unexplained lines to print")
    args = parser.parse_args()

    commands = (args.corpus / "commands.txt").read_text(encoding="utf-8").split("\n")
    commands = [c for c in commands if c]
    if args.limit:
        commands = commands[: args.limit]
    ts = Parser(Language(tree_sitter_bash.language()))

    outcome: Counter[str] = Counter()
    categories: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    started = time.perf_counter()
    for text in commands:
        theirs = treesitter_names(ts, text)
        facts = classify(text, cwd="/work/project", home="/home/user")
        if theirs is None and not facts.ok:
            outcome["neither parses"] += 1
            continue
        if theirs is None:
            outcome["tree-sitter error (we parse)"] += 1
            continue
        if not facts.ok:
            outcome["our parse error (tree-sitter parses)"] += 1
            examples.setdefault("our parse error", []).append(text)
            continue
        outcome["compared"] += 1
        ours = [c.program_raw for c in facts.commands if not c.via and c.program_raw is not None]
        unwrapped = [c.program_raw or "" for c in facts.commands if c.via]
        functions = {
            where.split(":", 1)[1]
            for c in facts.commands
            for where in c.context
            if where.startswith("function:")
        }
        reasons = categorise(ours, unwrapped, theirs, functions)
        if not reasons:
            outcome["identical"] += 1
        elif reasons == ["unwrapped"]:
            outcome["identical but for unwrapping"] += 1
        elif "other" not in reasons:
            outcome["explained difference"] += 1
        else:
            outcome["unexplained difference"] += 1
        for reason in reasons:
            categories[reason] += 1
            found = examples.setdefault(reason, [])
            if len(found) < (args.other if reason == "other" else args.examples):
                found.append(f"{text[:90]}  | ours={ours[:6]} ts={theirs[:6]}")
    elapsed = time.perf_counter() - started

    compared = outcome["compared"]
    same = outcome["identical"] + outcome["identical but for unwrapping"]
    print("## Program names: classify vs tree-sitter-bash\n")
    print(f"{len(commands):,} commands in {elapsed:.0f} s.\n")
    print("| outcome | lines | share of compared |")
    print("| --- | ---: | ---: |")
    for name in (
        "identical",
        "identical but for unwrapping",
        "explained difference",
        "unexplained difference",
    ):
        print(f"| {name} | {outcome[name]:,} | {100 * outcome[name] / compared:.2f}% |")
    share = 100 * same / compared
    print(f"| **agreement** (identical, unwrapping aside) | {same:,} | **{share:.2f}%** |")
    agreed = compared - outcome["unexplained difference"]
    share = 100 * agreed / compared
    print(f"| agreement once the categories below are allowed | {agreed:,} | {share:.2f}% |")
    print("\nNot compared:\n")
    for name in (
        "tree-sitter error (we parse)",
        "our parse error (tree-sitter parses)",
        "neither parses",
    ):
        print(f"- {name}: {outcome[name]:,}")
    print("\n| category | lines | examples |")
    print("| --- | ---: | --- |")
    for name, count in categories.most_common():
        shown = "<br>".join(f"`{e}`" for e in examples.get(name, [])[: args.examples])
        print(f"| {name} | {count:,} | {shown} |")
    if examples.get("other"):
        print("\nUnexplained differences (first lines):")
        for line in examples["other"][: args.other]:
            print(f"- `{line}`")
    if examples.get("our parse error"):
        print("\nLines tree-sitter parses and we do not:")
        for text in examples["our parse error"][:20]:
            print(f"- `{text[:120]}`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
