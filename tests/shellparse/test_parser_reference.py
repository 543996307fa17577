"""Our LALR driver against Lark's own LALR runtime, and the stored table against the grammar.

The runtime never imports Lark: it runs ``_lalr_table.py``, a table Lark built from
``shell.lark``, with a driver of its own (``lalr.py``). These tests show that nothing was lost
on the way. Lark parses a sample of the corpus with its own parser, fed by our lexer through
Lark's custom-lexer interface, the builder's callbacks acting as Lark's inline transformer; the
two trees must be identical, offsets included.

Nested parses go through Lark as well. The lexer starts a nested parse for every ``$(…)``,
``<(…)``, ``${ …; }``, backquote and here-document body, and asks, at a ``)`` inside ``$(…)``,
whether the parser could shift it (``can_shift``). During the reference run both hooks are
replaced: nested parses call Lark, and the question is answered by feeding the token to a copy
of Lark's parser state. No part of our driver takes part in the reference parse.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
from lark import Lark, Token
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer as LarkLexer

from clearance.shellparse import _lalr_table, builder, lalr_build
from clearance.shellparse.errors import ShellSyntaxError
from clearance.shellparse.lalr import describe_terminal
from clearance.shellparse.lexer import Lexer, expansions, parse_script, scanner
from clearance.shellparse.nodes import Script
from clearance.shellparse.tokens import Token as OurToken

if TYPE_CHECKING:
    from conftest import Corpus


class BuilderCallbacks:
    """The builder's reduce callbacks, looked up by rule alias the way Lark looks up the
    methods of a transformer. Lark hands terminals over as its own ``Token``; the value it
    carries is our token, which is what the callbacks expect."""

    def __getattr__(self, name: str) -> Callable[[list[object]], object]:
        if not hasattr(builder, name):
            raise AttributeError(name)

        def call(children: list[object]) -> object:
            callback: Callable[[list[object]], object] = getattr(builder, name)
            return callback([c.value if isinstance(c, Token) else c for c in children])

        return call


class OurLexerInLark(LarkLexer):
    """A Lark custom lexer that runs our lexer.

    Lark passes a non-string input through as ``lexer_state.text``: the input handed to
    ``Lark.parse`` is our ``Lexer`` itself. Before each token the lexer sees the row of Lark's
    current state (the terminals it accepts) and, as its "stack", Lark's parser state.
    """

    __future_interface__ = 2

    def __init__(self, conf: Any) -> None:
        pass

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[Token]:
        ours: Lexer = lexer_state.text
        while True:
            row = parser_state.parse_conf.states[parser_state.position]
            token = ours.next_token(row, parser_state)
            if token.type == "$END":
                return
            yield Token(token.type, token, start_pos=token.start, end_pos=token.end)


def lark_can_shift(parser_state: Any, terminal: str) -> bool:
    """Whether Lark's parser, in ``parser_state``, would shift ``terminal`` (after reducing).

    The token is fed to a copy of the state with no callbacks, as Lark's own
    ``InteractiveParser.accepts`` does.
    """
    probe = parser_state.copy(deepcopy_values=False)
    conf = copy.copy(probe.parse_conf)
    conf.callbacks = {}
    probe.parse_conf = conf
    try:
        probe.feed_token(Token(terminal, ""))
    except UnexpectedToken:
        return False
    return True


#: The reference run replaces the lexer's two hooks with Lark's; compiled callers call the
#: originals directly, so against the compiled build it would compare our driver with itself
#: (``test_the_reference_really_runs_lark`` notices). The driver's source is the same in both
#: builds: the pure run is the differential test, and ``benchmarks/build_parity.py`` (in CI)
#: shows the compiled copy decides the whole corpus as the pure one does.
COMPILED_LEXER = (scanner.__file__ or "").endswith((".so", ".pyd"))


@pytest.fixture(scope="module")
def reference() -> Lark:
    if COMPILED_LEXER:
        pytest.skip("the reference run swaps functions of the lexer: pure Python only")
    return Lark(
        lalr_build.grammar_text(),
        parser="lalr",
        lexer=OurLexerInLark,
        transformer=BuilderCallbacks(),
        keep_all_tokens=True,
        strict=True,
    )


class ReferenceRun:
    """Parses with Lark: patches the lexer's two hooks into the driver for the duration."""

    def __init__(self, lark: Lark, monkeypatch: pytest.MonkeyPatch) -> None:
        self.lark = lark
        self.monkeypatch = monkeypatch

    def _parse_tokens(self, ours: Lexer) -> object:
        try:
            return self.lark.parse(ours)
        except UnexpectedToken as exc:
            # The message our driver writes, from Lark's token and Lark's expected set (an
            # error inside a backquote or a here-document is kept in the tree as text).
            token = exc.token.value if isinstance(exc.token.value, OurToken) else None
            source = token.source if token is not None else ""
            expected = sorted(describe_terminal(t) for t in exc.expected)
            raise ShellSyntaxError(
                f"unexpected {describe_terminal(exc.token.type)}"
                + (f" ({source!r})" if source else "")
                + (f"; expected {', '.join(expected[:8])}" if expected else ""),
                token.start if token is not None else ours.pos,
            ) from exc
        except UnexpectedInput as exc:  # pragma: no cover - a custom lexer raises no others
            raise ShellSyntaxError(str(exc), 0) from exc

    def parse(self, text: str) -> Script | ShellSyntaxError:
        with self.monkeypatch.context() as patch:
            # the lexer's modules that start a parse (a script, a substitution) or ask the
            # parser whether it can shift a terminal
            patch.setattr(scanner, "parse_tokens", self._parse_tokens)
            patch.setattr(expansions, "parse_tokens", self._parse_tokens)
            patch.setattr(scanner, "can_shift", lark_can_shift)
            try:
                return parse_script(text)
            except ShellSyntaxError as exc:
                return exc


def ours(text: str) -> Script | ShellSyntaxError:
    try:
        return parse_script(text)
    except ShellSyntaxError as exc:
        return exc


def outcome(result: Script | ShellSyntaxError, dump: Callable[[object], object]) -> object:
    if isinstance(result, ShellSyntaxError):
        return ("error", result.code)
    return dump(result)


def corpus_sample(corpus: Corpus) -> list[str]:
    """Every 50th command, and every script with a parenthesis or a here-document."""
    sample = corpus.commands[::50]
    sample.extend(s for s in corpus.scripts if "(" in s or "<<" in s)
    return sample


HAND_PICKED = [
    "echo $(case x in a) b;; esac)",
    "echo $( (a) ) $((1 + $(b))) `c \\`d\\``",
    "cat <<A; echo $(cat <<B\nb\nB\n)\na\nA\n",
    "echo ${ cat <<E; }\nbody\nE\n",
    "x=$(for i in 1 2; do echo $i; done | sort) y=(a b) z[1]=2 cmd >o 2>&1 a=b",
    "if [[ -f x && $(a) ]]; then (( i++ )); elif b; then :; else { c; } fi",
    "f() ( g ) ; function h { i; } >x; coproc N { j; }; time -p ! k |& l",
    "case $x in (a|b) y;; c) ;& *) z ;;& esac",
    "echo $(( (1) + 2 )) $((a)(b)) <(d) >(e) $(echo ')' \")\")",
    "for ((i = 0; i < 3; i++)) { echo; }; select s in a; do break; done",
    "!\n! a | b",
    "a &\\\n& b",
]


def test_hand_picked_constructs_parse_identically(
    reference: Lark, monkeypatch: pytest.MonkeyPatch, ast_dump: Callable[[object], object]
) -> None:
    run = ReferenceRun(reference, monkeypatch)
    for text in HAND_PICKED:
        mine = ours(text)
        assert isinstance(mine, Script), (text, mine)
        assert outcome(run.parse(text), ast_dump) == outcome(mine, ast_dump), text


def test_corpus_sample_parses_identically(
    corpus: Corpus,
    reference: Lark,
    monkeypatch: pytest.MonkeyPatch,
    ast_dump: Callable[[object], object],
) -> None:
    run = ReferenceRun(reference, monkeypatch)
    sample = corpus_sample(corpus)
    assert len(sample) > 2000
    differing = []
    parsed = 0
    for text in sample:
        mine = ours(text)
        parsed += isinstance(mine, Script)
        if outcome(run.parse(text), ast_dump) != outcome(mine, ast_dump):
            differing.append(text)
    assert differing == []
    assert parsed > 0.97 * len(sample)


def test_the_reference_really_runs_lark(
    reference: Lark, monkeypatch: pytest.MonkeyPatch, ast_dump: Callable[[object], object]
) -> None:
    """The comparison is not vacuous: a broken builder callback changes Lark's tree only
    (our driver resolved its callbacks at import), and a syntax error is Lark's own."""
    run = ReferenceRun(reference, monkeypatch)
    mine = ours("a | b")
    with monkeypatch.context() as patch:
        patch.setattr(builder, "pipe_more", builder.pipe_first)
        theirs = run.parse("a | b")
    assert outcome(theirs, ast_dump) != outcome(mine, ast_dump)
    failed = run.parse("a && && b")
    assert isinstance(failed, ShellSyntaxError)
    assert isinstance(failed.__cause__, UnexpectedToken)


def test_stored_table_is_generated_from_the_grammar() -> None:
    """``_lalr_table.py`` is exactly what ``python -m clearance.shellparse.lalr_build`` writes
    for the current ``shell.lark``: regenerate it after any grammar edit."""
    assert lalr_build.grammar_digest() == _lalr_table.GRAMMAR_SHA256
    with open(lalr_build.TABLE_PATH, encoding="utf-8") as fh:
        stored = fh.read()
    assert lalr_build.build_table_source() == stored


def test_table_generation_does_not_depend_on_string_hashing() -> None:
    """Lark numbers LALR states in an order that follows string hashing; the generator
    renumbers them, so two processes with different hash seeds write the same file."""
    program = "from clearance.shellparse import lalr_build; print(lalr_build.build_table_source())"
    outputs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1
    assert _lalr_table.START == 0
