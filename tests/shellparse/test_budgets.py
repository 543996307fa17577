"""Budgets, not hopes: expansion, brace expansion and analysis stop at explicit bounds and say
so with a marker; nothing computes its way past them, nothing relies on RecursionError."""

from __future__ import annotations

import time

import pytest

from clearance.engine.api import decide, load_policy
from clearance.engine.intents import ToolIntent
from clearance.shellparse.api import classify
from clearance.shellparse.expand import MAX_WORD
from clearance.shellparse.extract import MAX_COMMANDS

BOUND = 3.0


def timed(command: str) -> tuple[float, object]:
    start = time.monotonic()
    facts = classify(command, cwd="/tmp", home="/home/u", workspace="/tmp")
    return time.monotonic() - start, facts


def decided(command: str) -> tuple[str, str]:
    policy = load_policy("/tmp", use_cache=False)  # the default pack (and what /tmp holds)
    decision = decide(ToolIntent("Bash", {"command": command}, cwd="/tmp"), policy, cwd="/tmp")
    return decision.decision, decision.reason_code


def test_a_doubling_variable_is_a_marker_not_a_computation() -> None:
    command = "a=x;" + "a=$a$a;" * 28 + "rm -rf $a"  # 2**28 characters if computed
    assert len(command) < 220
    elapsed, facts = timed(command)
    assert elapsed < BOUND
    last = facts.commands[-1]  # type: ignore[attr-defined]
    assert last.program == "rm" and "dynamic_argument" in last.markers
    assert all(len(arg) <= MAX_WORD for arg in last.argv)


def test_the_twin_that_stays_small_still_resolves() -> None:
    _, facts = timed("a=x; a=$a$a; a=$a$a; ls $a")
    last = facts.commands[-1]  # type: ignore[attr-defined]
    assert last.argv == ["ls", "xxxx"] and "dynamic_argument" not in last.markers


def test_appending_in_a_loop_is_bounded() -> None:
    elapsed, facts = timed("a=x; " + "a+=$a; " * 60 + "ls $a")
    assert elapsed < BOUND
    assert "dynamic_argument" in facts.commands[-1].markers  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "word",
    [
        "{a,b}" * 5000,  # sequential: 2**5000 fields
        "{" * 3000 + "a,b" + "}" * 3000,  # nested
        "{a," * 2000 + "b" + "}" * 2000,
        "{1..100}" * 50,
    ],
)
def test_brace_expansion_is_bounded_and_marked(word: str) -> None:
    elapsed, facts = timed("echo " + word)
    assert elapsed < BOUND
    markers = facts.commands[0].markers  # type: ignore[attr-defined]
    assert "truncated" in markers or "brace_expansion" in markers


def test_too_many_commands_is_too_large() -> None:
    command = "; ".join(["ls"] * (MAX_COMMANDS + 100))
    elapsed, facts = timed(command)
    assert elapsed < 10 * BOUND  # the deadline guards the rest; this is the step budget
    assert "too_large" in facts.markers  # type: ignore[attr-defined]
    assert len(facts.commands) <= MAX_COMMANDS  # type: ignore[attr-defined]
    assert decided(command) == ("ask", "input_too_large")
    assert decided("; ".join(["ls"] * 20))[1] != "input_too_large"  # the benign twin


def test_an_oversized_command_is_too_large() -> None:
    _, facts = timed("echo " + "x" * 300_000)
    assert "too_large" in facts.markers  # type: ignore[attr-defined]
    assert all("too_large" in c.markers for c in facts.commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "{ " * n + "ls; " + "} " * n,
        lambda n: "if true; then " * n + "ls" + "; fi" * n,
        lambda n: "f() { " * n + "ls; " + "}; " * n,
        lambda n: "echo " + "$(" * n + "ls" + ")" * n,
        lambda n: "eval " * n + "ls",
        lambda n: "( " * n + "ls" + " )" * n,
    ],
)
def test_deep_nesting_stops_at_an_explicit_bound(make: object) -> None:
    import sys

    command = make(3000)  # type: ignore[operator]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + 20000)  # a bound that relied on RecursionError would vanish
    try:
        elapsed, facts = timed(command)
    finally:
        sys.setrecursionlimit(limit)
    assert elapsed < BOUND
    error = facts.error  # type: ignore[attr-defined]
    markers = set(facts.markers).union(*(c.markers for c in facts.commands))  # type: ignore[attr-defined]
    assert (error is not None and error.code == "depth_limit") or markers & {
        "depth_limit",
        "parse_error",
    }, (error, markers)


@pytest.mark.parametrize(
    "command",
    [
        "; ".join(["ls"] * 50_000),  # the parse's token budget
        "echo " + " ".join(["a"] * 50_000),  # the analysis's word budget (plain words)
        "echo " + " ".join(['"$x"'] * 50_000),
        "echo $(" + "; ".join(["ls"] * 30_000) + ")",  # tokens of nested parses count too
    ],
)
def test_step_budgets_end_in_too_large(command: str) -> None:
    elapsed, facts = timed(command)
    assert elapsed < BOUND
    assert "too_large" in facts.markers  # type: ignore[attr-defined]
    assert facts.error is not None and facts.error.code == "input_too_large"  # type: ignore[attr-defined]


def test_the_everyday_twin_is_within_every_budget() -> None:
    command = "cd src && " + " && ".join(f"grep -rn pattern{i} ." for i in range(200))
    _, facts = timed(command)
    assert facts.error is None and "too_large" not in facts.markers  # type: ignore[attr-defined]
