"""The ``source`` of a ``POST /v1/ledger`` body: what ``audit ship`` sends is what the server
reads back (one ``Source`` for both sides)."""

from __future__ import annotations

import pytest

from clearance.service.store import Source


@pytest.mark.parametrize(
    "source",
    [
        Source("m1", "/p/ledger.jsonl"),
        Source("m1", "/p/ledger.jsonl", host="h", project="/p", user="u"),
        Source("m1", "/p/ledger.jsonl", user="u"),
    ],
)
def test_a_source_survives_the_wire(source: Source) -> None:
    sent = source.to_dict()
    assert Source.from_dict(sent) == source
    assert Source.from_dict(sent).source_id == source.source_id


def test_unknown_fields_are_left_out_of_the_wire() -> None:
    assert Source("m1", "/l", host="h").to_dict() == {"machine": "m1", "ledger": "/l", "host": "h"}


def test_the_source_id_is_of_machine_and_ledger_only() -> None:
    assert Source("m", "/l", host="a").source_id == Source("m", "/l", user="b").source_id
    assert Source("m", "/l").source_id != Source("m", "/l2").source_id
    assert len(Source("m", "/l").source_id) == 32
