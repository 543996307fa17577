"""Property tests: whatever the text, ``parse`` and ``classify`` return values, never raise.

Inputs are arbitrary text, text made of the characters bash gives meaning to, and lines of the
corpus mutated by inserting, deleting and duplicating pieces. Each run checks the documented
contract: a ``ParseResult`` with either a script or an error from the closed set of codes, an
offset inside the text, and the same answer when asked twice. ``classify`` must not raise
either, and a text that did not parse can never come back as clean facts.

The default run is modest so the suite stays fast; ``CLEARANCE_FUZZ_EXAMPLES=5000`` (or any
count) runs a deeper search.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clearance.shellparse import classify
from clearance.shellparse.errors import PARSE_ERROR_CODES
from clearance.shellparse.parser import ParseResult, parse

if TYPE_CHECKING:
    from conftest import Corpus

EXAMPLES = int(os.environ.get("CLEARANCE_FUZZ_EXAMPLES", "100"))

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize="CLEARANCE_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: Pieces that mean something to bash: operators, openers and closers, keywords.
PIECES = [
    *"|&;<>()$`\\\"' \t\n{}[]*?~#=!-",
    "$(",
    "$((",
    "((",
    "))",
    "${",
    "${ ",
    "<<",
    "<<-",
    "<<<",
    ">&",
    "&>",
    "2>",
    "[[ ",
    " ]]",
    "<(",
    "$'",
    '$"',
    "EOF\n",
    "\\\n",
    "a=",
    "a[",
    " if ",
    " then ",
    " fi",
    " do ",
    " done",
    "case ",
    " in ",
    " esac",
    ";;",
    "function ",
    "time ",
    "coproc ",
    "{ ",
    "; }",
]

shell_text = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=40).map("".join)


def check_result(text: str, result: ParseResult) -> None:
    assert isinstance(result, ParseResult)
    assert result.text == text
    if result.ok:
        assert result.script is not None and result.error is None
        return
    error = result.error
    assert error is not None and result.script is None
    assert error.code in PARSE_ERROR_CODES
    assert 0 <= error.offset <= len(text)
    assert error.line == text.count("\n", 0, error.offset) + 1
    assert error.column >= 1
    assert error.message


def check_facts(text: str) -> None:
    facts = classify(text, cwd="/work/project", home="/home/user")
    if facts.ok:
        return
    # Fail closed: a text that does not parse says so, and still lists what it might run.
    assert facts.error is not None
    assert facts.markers & {"parse_error", "depth_limit"}
    assert facts.commands


@FUZZ
@given(st.text(max_size=200))
def test_arbitrary_text(text: str) -> None:
    check_result(text, parse(text))


@FUZZ
@given(shell_text)
def test_shell_shaped_text(text: str) -> None:
    check_result(text, parse(text))


@FUZZ
@given(text=shell_text)
def test_same_answer_twice(ast_dump: Callable[[object], object], text: str) -> None:
    first, second = parse(text), parse(text)
    assert first.ok == second.ok
    if first.ok:
        assert ast_dump(first.script) == ast_dump(second.script)
    else:
        assert first.error is not None and second.error is not None
        assert first.error.to_dict() == second.error.to_dict()


@FUZZ
@given(shell_text)
def test_classify_never_raises(text: str) -> None:
    check_facts(text)


Mutation = tuple[float, int, str]
mutations = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=1),
        st.integers(min_value=0, max_value=3),
        st.sampled_from(PIECES) | st.text(max_size=2),
    ),
    min_size=1,
    max_size=4,
)


def mutate(text: str, edits: list[Mutation]) -> str:
    """Insert a piece, delete a character, duplicate a span or cut the text short."""
    for where, kind, piece in edits:
        at = int(where * len(text))
        if kind == 0:
            text = text[:at] + piece + text[at:]
        elif kind == 1:
            text = text[:at] + text[at + 1 :]
        elif kind == 2:
            text = text[:at] + text[at : at + 8] + text[at:]
        else:
            text = text[:at]
    return text


@FUZZ
@given(data=st.data())
def test_mutated_corpus_lines(corpus: Corpus, data: st.DataObject) -> None:
    pool: list[str] = corpus.commands if data.draw(st.booleans()) else corpus.scripts
    seed = pool[data.draw(st.integers(min_value=0, max_value=len(pool) - 1))]
    text = mutate(seed, data.draw(mutations))
    check_result(text, parse(text))
    check_facts(text)


def test_every_corpus_line_classifies(corpus: Corpus) -> None:
    """Every 10th command and every 3rd script through the whole pipeline, as they are."""
    for text in corpus.commands[::10] + corpus.scripts[::3]:
        result = parse(text)
        check_result(text, result)
        check_facts(text)
