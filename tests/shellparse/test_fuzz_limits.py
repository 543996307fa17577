"""No hang, no blow-up: large and deeply nested inputs finish fast, in linear time and memory.

A hook calls the parser on whatever an agent proposes, so hostile text must not stall it.
Each case runs under a timer (SIGALRM) that interrupts it if it overruns. Growth is measured
by parsing the same shape at 10 KB and 20 KB: linear work doubles, quadratic work quadruples;
the check allows up to 3x. It compares CPU time with garbage collection off, so that neither
other processes nor collector pauses pass for the parser's own cost.
"""

from __future__ import annotations

import gc
import signal
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

import pytest

from clearance.shellparse import classify
from clearance.shellparse.parser import parse

#: Seconds one 20 KB (or 500-deep) input may take through parse and classify together.
TIME_LIMIT = 5.0
#: Bytes of memory parsing a 20 KB input may allocate at its peak.
MEMORY_LIMIT = 32 * 1024 * 1024


class Overrun(BaseException):
    """Raised by the timer. A BaseException, so that no ``except Exception`` in the code
    under test can swallow it and report an error value instead of the hang."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def expired(signum: int, frame: FrameType | None) -> None:
        raise Overrun(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_bounded(text: str) -> None:
    with time_limit(TIME_LIMIT):
        parse(text)
        classify(text, cwd="/work/project", home="/home/user")


Shape = Callable[[int], str]

#: Input shapes, each a function of a repeat count.
SHAPES: dict[str, Shape] = {
    "words": lambda n: "echo " + "a " * n,
    "pipeline": lambda n: "a | " * n + "b",
    "and_or": lambda n: "a && " * n + "b",
    "lines": lambda n: "ls -la /tmp\n" * n,
    "substitutions": lambda n: "echo " + "$(a) " * n,
    "backtick_pairs": lambda n: "`" * n,
    "double_quotes": lambda n: '"' * n,
    "single_quotes": lambda n: "'" * n,
    "case_items": lambda n: "case x in " + "a) b;; " * n + "esac",
    "cond_terms": lambda n: "[[ " + "a && " * n + "b ]]",
    "heredocs": lambda n: "cat <<E\n$(a)\nE\n" * n,
    "arith_parens": lambda n: "$((" + "(" * n + "1" + ")" * n + "))",
    "open_double_parens": lambda n: "((" * n,
    "open_subshells_in_substitution": lambda n: "echo $(" + "(" * n,
    "unterminated_quote_with_substitutions": lambda n: 'echo "' + "a $(b) " * n,
    "brace_expansion": lambda n: "echo " + "{a,b}" * n,
    "assignments": lambda n: "a=1 " * n + "cmd",
    "redirections": lambda n: "cmd " + ">x " * n,
    "dollar_double_paren_nesting": lambda n: "echo " + "$(( " * 45 + "a " * n + " ) )" * 45,
}


def sized(shape: Shape, size: int) -> str:
    """The shape repeated until it is about ``size`` characters long."""
    unit = max(1, len(shape(2)) - len(shape(1)))
    return shape(max(1, (size - len(shape(0))) // unit))


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_20kb_input_finishes_in_time(name: str) -> None:
    text = sized(SHAPES[name], 20_000)
    assert 19_000 <= len(text) <= 21_000
    run_bounded(text)


def growth(work: Callable[[str], object], small: str, large: str) -> tuple[float, float]:
    """Best-of-several CPU times for ``small`` and ``large``.

    CPU time of this process, not wall time: other processes on the machine do not inflate
    it. Runs alternate between the two inputs and the best is kept, so that what noise is
    left hits both alike."""
    best_small = best_large = float("inf")
    gc.collect()
    gc.disable()
    try:
        started = time.process_time()
        for run in range(7):
            for text, which in ((small, 0), (large, 1)):
                before = time.process_time()
                work(text)
                took = time.process_time() - before
                if which:
                    best_large = min(best_large, took)
                else:
                    best_small = min(best_small, took)
            if run >= 2 and time.process_time() - started > 0.3:
                break
    finally:
        gc.enable()
    return best_small, best_large


def grows_linearly(work: Callable[[str], object], small: str, large: str) -> bool:
    """Whether twice the input costs less than three times the time (linear gives two times,
    quadratic four). Below a few milliseconds timer noise dominates, and the bound is then
    absolute. A machine busy with other work can still slow one measurement: it is taken up
    to three times, and a cost that really grows faster fails every one of them."""
    measured: list[tuple[float, float]] = []
    for _ in range(3):
        with time_limit(4 * TIME_LIMIT):
            t_small, t_large = growth(work, small, large)
        if t_large <= 3 * t_small + 0.005:
            return True
        measured.append((t_small, t_large))
    raise AssertionError(f"super-linear growth: (small, large) CPU seconds {measured}")


#: Shapes whose growth is checked (the others repeat one of these from the parser's view).
GROWTH = sorted(set(SHAPES) - {"and_or", "assignments", "redirections", "lines", "cond_terms"})


@pytest.mark.parametrize("name", GROWTH)
def test_parse_time_grows_linearly(name: str) -> None:
    small, large = sized(SHAPES[name], 10_000), sized(SHAPES[name], 20_000)
    assert grows_linearly(parse, small, large)


@pytest.mark.parametrize("name", ["words", "substitutions"])
def test_classify_time_grows_linearly(name: str) -> None:
    small, large = sized(SHAPES[name], 10_000), sized(SHAPES[name], 20_000)
    assert grows_linearly(lambda text: classify(text, cwd="/w", home="/h"), small, large)


def escaped_backticks(depth: int) -> str:
    """``depth`` levels of backquotes nested inside each other, escaped as bash needs."""
    text = "a"
    for _ in range(depth):
        text = "`echo " + text.replace("\\", "\\\\").replace("`", "\\`") + "`"
    return "echo " + text


DEEP: dict[str, str] = {
    "subshells": "( " * 500 + "a" + " )" * 500,
    "parentheses": "(" * 500 + "a" + ")" * 500,
    "command_substitutions": "echo " + "$(" * 500 + "a" + ")" * 500,
    "process_substitutions": "cat " + "<(" * 500 + "a" + ")" * 500,
    "brace_groups": "{ " * 500 + "a; " + "} " * 500,
    "backticks": "`" * 500,
    "escaped_backticks": escaped_backticks(12),
    "parameters": "echo " + "${x:-" * 500 + "a" + "}" * 500,
    "double_quoted_substitutions": "echo " + '"$(' * 500 + "a" + ')"' * 500,
    "quotes": "echo " + "\"'" * 500,
    "ifs": "if a; then " * 500 + "b" + "; fi" * 500,
    "loops": "while a; do " * 500 + "b" + "; done" * 500,
    "arithmetic": "echo $((" + "(" * 500 + "1" + ")" * 500 + "))",
    "function_substitutions": "echo " + "${ " * 500 + "a" + "; }" * 500,
    "conditionals": "[[ " + "( " * 500 + "a" + " )" * 500 + " ]]",
    "read_twice": "echo " + "$(( " * 500 + "a" + " ) )" * 500,
    "unclosed": "echo " + "$( ( { `" * 500,
}


@pytest.mark.parametrize("name", sorted(DEEP))
def test_500_deep_nesting_finishes_in_time(name: str) -> None:
    run_bounded(DEEP[name])


def test_deep_nesting_fails_closed() -> None:
    """Too deep is an error value (``depth_limit``), never a partial success."""
    for name in ("subshells", "command_substitutions", "brace_groups", "ifs", "read_twice"):
        result = parse(DEEP[name])
        assert result.error is not None and result.error.code == "depth_limit", name


@pytest.mark.parametrize("name", ["substitutions", "heredocs"])
def test_memory_is_bounded(name: str) -> None:
    text = sized(SHAPES[name], 20_000)
    tracemalloc.start()
    try:
        parse(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_LIMIT, peak


def test_the_timer_interrupts_a_hang() -> None:
    """The guard itself works: a loop that never ends is stopped and reported."""
    with pytest.raises(Overrun), time_limit(0.2):
        while True:
            pass
