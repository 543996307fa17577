"""Inputs that are slow without budgets, shared by the hook's worst-case benchmark
(``hook_worst_case.py``) and the deadline tests (``tests/hooks/test_hook_deadline.py``): the
budgets in the parser, the loader and the matchers may make them fast, and the hook's deadline
stays the backstop. Standard library only."""

from __future__ import annotations

#: A project policy whose one rule's regex backtracks catastrophically on its own example.
REGEX_POLICY = """\
version: 1
id: rx
rules:
  - id: slow
    decision: deny
    reason: slow
    when: {regex: "^(a+)+$"}
    examples: {match: ["aaaa"], no_match: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"]}
"""


def yaml_bomb() -> str:
    """A project policy of nested YAML aliases: 9**9 strings once expanded."""
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 9):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join(["*" + prev] * 9) + "]")
    lines.append("version: 1\nid: bomb\nrules: []\nx: *i")
    return "\n".join(lines) + "\n"
