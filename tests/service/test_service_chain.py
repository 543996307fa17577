"""The chain functions the store uses agree with the ledger's own: the canonical line and the
record hash, assembled once (``line_and_hash``), equal ``canonical`` and ``record_hash``; a
parsed line keeps its exact text exactly when jsonb could not rebuild it."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.cli.commands.gate import run_gate
from clearance.engine.ledger import canonical, read_lines, record_hash
from clearance.service.chain import ChainError, Parsed, line_and_hash, links

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(), json_values, max_size=6), st.text())
def test_line_and_hash_equal_the_ledgers_functions(record: dict[str, object], h: str) -> None:
    record["hash"] = h
    assert line_and_hash(record) == (canonical(record), record_hash(record))


def test_real_ledger_lines_parse_and_link(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.jsonl"
    lines = [
        json.dumps({"tool": "Bash", "input": {"command": c}, "cwd": str(tmp_path)})
        for c in ("ls", "rm -rf x", "echo 'a\x00b'", "echo \U0001f600")
    ]
    run_gate(
        None,
        policies=None,
        cwd=str(tmp_path),
        ledger=str(ledger),
        stdin=io.BytesIO("".join(x + "\n" for x in lines).encode()),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    texts = [line.data.decode() for line in read_lines(str(ledger))]
    parsed = [Parsed(t) for t in texts]
    assert [p.seq for p in parsed] == [0, 1, 2, 3]
    assert links(-1, "", parsed[0]) is None
    for before, after in itertools.pairwise(parsed):
        assert links(before.seq, before.line_sha, after) is None
    assert links(parsed[0].seq, parsed[0].line_sha, parsed[2]) is not None
    assert parsed[0].exact_line is None  # jsonb rebuilds it
    assert parsed[2].exact_line == texts[2]  # NUL: jsonb cannot hold it
    assert "\x00" not in json.dumps(parsed[2].stored_record, ensure_ascii=False)
    edited = texts[1].replace('"seq":1', '"seq":2')
    try:
        Parsed(edited)
    except ChainError as exc:
        assert exc.reason_code == "record_invalid"
    else:
        raise AssertionError("an edited record parsed")
