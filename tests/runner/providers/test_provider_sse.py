"""The SSE decoder yields the same events however the byte stream is split."""

from __future__ import annotations

import pytest
from fake_model_server import FIXTURES, fixture
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.runner.providers.sse import SSEDecoder, SSEEvent, iter_sse


def decode(chunks: list[bytes]) -> list[SSEEvent]:
    return list(iter_sse(chunks))


def every_split(data: bytes) -> list[list[bytes]]:
    return [[data[:i], data[i:]] for i in range(1, len(data))]


def test_basic_fields_and_defaults() -> None:
    stream = b"event: ping\ndata: {}\n\ndata: hello\n\n"
    assert decode([stream]) == [
        SSEEvent(event="ping", data="{}"),
        SSEEvent(event="message", data="hello"),
    ]


def test_multiline_data_is_joined_with_newlines() -> None:
    stream = b"data: first\ndata:second\ndata:  third\n\n"
    assert decode([stream]) == [SSEEvent(event="message", data="first\nsecond\n third")]


def test_comments_and_unknown_fields_are_ignored() -> None:
    stream = b": keep-alive\nfoo: bar\ndata: x\n: another\n\n"
    assert decode([stream]) == [SSEEvent(event="message", data="x")]


def test_blank_line_without_data_dispatches_nothing_and_resets_event_name() -> None:
    stream = b"event: orphan\n\ndata: x\n\n"
    assert decode([stream]) == [SSEEvent(event="message", data="x")]


def test_field_without_colon_and_empty_data() -> None:
    # "data" alone is a data line with an empty value.
    assert decode([b"data\n\n"]) == [SSEEvent(event="message", data="")]


def test_id_persists_and_retry_is_read() -> None:
    stream = b"id: 7\nretry: 1500\ndata: a\n\ndata: b\n\nid\ndata: c\n\n"
    events = decode([stream])
    assert [(e.data, e.id) for e in events] == [("a", "7"), ("b", "7"), ("c", "")]
    assert events[0].retry == 1500


def test_id_with_nul_is_ignored() -> None:
    assert decode([b"id: a\0b\ndata: x\n\n"]) == [SSEEvent(event="message", data="x")]


@pytest.mark.parametrize("eol", [b"\n", b"\r\n", b"\r"])
def test_all_line_endings(eol: bytes) -> None:
    stream = eol.join([b"event: e", b"data: 1", b"data: 2", b"", b"data: 3", b"", b""])
    assert decode([stream]) == [
        SSEEvent(event="e", data="1\n2"),
        SSEEvent(event="message", data="3"),
    ]


def test_cr_then_lf_in_the_next_chunk_is_one_line_ending() -> None:
    # Were "\r" and "\n" taken as two endings, the blank line would dispatch "a" early
    # and "b" would become a second event.
    assert decode([b"data: a\r", b"\ndata: b\r\n\r\n"]) == [SSEEvent(event="message", data="a\nb")]


def test_trailing_cr_at_end_of_stream_ends_the_line() -> None:
    assert decode([b"data: x\r\r"]) == [SSEEvent(event="message", data="x")]


def test_unterminated_event_at_end_of_stream_is_discarded() -> None:
    assert decode([b"data: complete\n\ndata: partial\n"]) == [
        SSEEvent(event="message", data="complete")
    ]


def test_utf8_split_inside_a_character() -> None:
    raw = "data: café ☕ 日本\n\n".encode()
    cut = raw.index("☕".encode()) + 1
    assert decode([raw[:cut], raw[cut:]]) == [SSEEvent(event="message", data="café ☕ 日本")]


def test_leading_bom_is_stripped_even_when_split() -> None:
    raw = b"\xef\xbb\xbfdata: x\n\n"
    assert decode([raw[:1], raw[1:2], raw[2:]]) == [SSEEvent(event="message", data="x")]


def test_feed_after_close_is_a_programming_error() -> None:
    decoder = SSEDecoder()
    decoder.close()
    with pytest.raises(RuntimeError):
        decoder.feed(b"data: x\n\n")


FIXTURE_NAMES = sorted(path.name for path in FIXTURES.glob("*.sse"))


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_split_at_every_byte_gives_identical_events(name: str) -> None:
    data = fixture(name)
    reference = decode([data])
    assert len(reference) >= 4
    for chunks in every_split(data):
        assert decode(chunks) == reference
    assert decode([data[i : i + 1] for i in range(len(data))]) == reference


@pytest.mark.parametrize("name", FIXTURE_NAMES)
@pytest.mark.parametrize("eol", [b"\r\n", b"\r"])
def test_fixture_with_other_line_endings_gives_identical_events(name: str, eol: bytes) -> None:
    data = fixture(name)
    converted = data.replace(b"\n", eol)
    reference = decode([data])
    assert decode([converted]) == reference
    assert decode([converted[i : i + 1] for i in range(len(converted))]) == reference


@settings(max_examples=150, deadline=None)
@given(
    text=st.lists(
        st.text(
            alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\r\n"),
            max_size=12,
        ),
        min_size=1,
        max_size=5,
    ),
    eol=st.sampled_from(["\n", "\r\n", "\r"]),
    cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=8),
)
def test_random_payloads_and_chunkings_roundtrip(
    text: list[str], eol: str, cuts: list[int]
) -> None:
    # Build one event per item; "data:" values survive exactly (minus one leading space).
    stream = "".join(f"data: {item}{eol}{eol}" for item in text).encode()
    points = sorted({c % (len(stream) + 1) for c in cuts})
    chunks = [stream[a:b] for a, b in zip([0, *points], [*points, len(stream)], strict=True)]
    assert [e.data for e in decode(chunks)] == text
