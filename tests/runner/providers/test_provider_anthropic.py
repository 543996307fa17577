"""The Anthropic provider: stream assembly, request mapping, and HTTP behaviour."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest
import stream_cases
from fake_model_server import FakeServer, Reply, fixture, json_reply

from clearance.runner.providers.anthropic import AnthropicProvider, AnthropicStreamParser
from clearance.runner.providers.sse import iter_sse
from clearance.runner.providers.transport import parse_chunks
from clearance.runner.providers.types import (
    AssistantMessage,
    ErrorKind,
    Finished,
    FinishReason,
    MalformedToolCall,
    ModelRequest,
    ProviderEvent,
    ProviderFailure,
    TextDelta,
    ToolCall,
    ToolCallProposed,
    ToolResultMessage,
    ToolSpec,
    Usage,
    UserMessage,
)

KEY = "sk-ant-test-0123456789abcdef"


def parse(chunks: list[bytes]) -> list[ProviderEvent]:
    return list(parse_chunks(chunks, AnthropicStreamParser()))


def ev(name: str, data: Mapping[str, object]) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


def start(input_tokens: int = 10, **usage: int) -> str:
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [],
        "usage": {"input_tokens": input_tokens, "output_tokens": 1, **usage},
    }
    return ev("message_start", {"type": "message_start", "message": message})


def tool_block(index: int, call_id: str, name: str, pieces: list[str]) -> str:
    block = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
    out = ev(
        "content_block_start",
        {"type": "content_block_start", "index": index, "content_block": block},
    )
    for piece in pieces:
        delta = {"type": "input_json_delta", "partial_json": piece}
        out += ev(
            "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        )
    return out


def stop_block(index: int) -> str:
    return ev("content_block_stop", {"type": "content_block_stop", "index": index})


def end(reason: str = "end_turn", output_tokens: int = 5) -> str:
    delta = {
        "type": "message_delta",
        "delta": {"stop_reason": reason},
        "usage": {"output_tokens": output_tokens},
    }
    return ev("message_delta", delta) + ev("message_stop", {"type": "message_stop"})


def request(**overrides: object) -> ModelRequest:
    return stream_cases.request(512, **overrides)


# --- stream assembly (no network) ------------------------------------------------------

RECORDED: dict[str, list[ProviderEvent]] = {
    "anthropic_text.sse": stream_cases.text_events(Usage(input_tokens=25, output_tokens=15)),
    "anthropic_tool_call.sse": [
        TextDelta(text="Let me list "),
        TextDelta(text="the files."),
        stream_cases.bash_call("toolu_01T1x1fJ34qAmk2tNTrN7Up6"),
        Finished(reason=FinishReason.TOOL_CALLS, usage=Usage(input_tokens=472, output_tokens=89)),
    ],
    "anthropic_parallel_tool_calls.sse": [
        *stream_cases.read_calls("toolu_01A09q90qw90lq917835lq9", "toolu_01B19r91rw91mr928946mr0"),
        Finished(reason=FinishReason.TOOL_CALLS, usage=Usage(input_tokens=640, output_tokens=112)),
    ],
}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_recorded_stream_however_split(name: str) -> None:
    stream_cases.assert_parses_however_split(parse, fixture(name), RECORDED[name])


def test_tool_call_is_proposed_only_at_content_block_stop() -> None:
    stream = start() + tool_block(0, "toolu_1", "bash", ['{"command"', ': "ls"}']) + stop_block(0)
    parser = AnthropicStreamParser()
    per_event = [parser.feed(event) for event in iter_sse([stream.encode()])]
    assert all(events == [] for events in per_event[:-1])
    assert per_event[-1] == [
        ToolCallProposed(call=ToolCall(call_id="toolu_1", name="bash", arguments={"command": "ls"}))
    ]


@pytest.mark.parametrize(
    ("pieces", "needle"),
    [
        (['{"command": "ls"'], "not valid JSON"),
        (["[1, 2]"], "an array"),
        (['"ls"'], "a string"),
        (["true"], "a boolean"),
    ],
)
def test_malformed_input_json_becomes_malformed_tool_call(pieces: list[str], needle: str) -> None:
    stream = start() + tool_block(0, "toolu_1", "bash", pieces) + stop_block(0) + end("tool_use")
    events = parse([stream.encode()])
    assert not any(isinstance(e, ToolCallProposed) for e in events)
    assert isinstance(events[0], MalformedToolCall)
    assert events[0].raw_arguments == "".join(pieces)
    assert needle in events[0].error
    assert isinstance(events[1], Finished)


def test_tool_without_input_deltas_has_empty_arguments() -> None:
    stream = start() + tool_block(0, "toolu_1", "git_status", []) + stop_block(0) + end("tool_use")
    assert parse([stream.encode()])[0] == ToolCallProposed(
        call=ToolCall(call_id="toolu_1", name="git_status", arguments={})
    )


def test_input_given_whole_in_the_block_start_is_used() -> None:
    block = {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": "pwd"}}
    stream = (
        start()
        + ev(
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": block},
        )
        + stop_block(0)
        + end("tool_use")
    )
    assert parse([stream.encode()])[0] == ToolCallProposed(
        call=ToolCall(call_id="toolu_1", name="bash", arguments={"command": "pwd"})
    )


def test_a_block_never_stopped_is_malformed_not_proposed() -> None:
    stream = start() + tool_block(0, "toolu_1", "bash", ['{"command": "ls"}']) + end("tool_use")
    events = parse([stream.encode()])
    assert isinstance(events[0], MalformedToolCall)
    assert "never completed" in events[0].error
    assert isinstance(events[1], Finished)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("end_turn", FinishReason.STOP),
        ("stop_sequence", FinishReason.STOP),
        ("tool_use", FinishReason.TOOL_CALLS),
        ("max_tokens", FinishReason.LENGTH),
        ("refusal", FinishReason.CONTENT_FILTER),
        ("pause_turn", FinishReason.UNKNOWN),
    ],
)
def test_stop_reason_mapping(raw: str, reason: FinishReason) -> None:
    events = parse([(start() + end(raw)).encode()])
    assert events == [Finished(reason=reason, usage=Usage(input_tokens=10, output_tokens=5))]


def test_cached_prompt_tokens_count_as_input() -> None:
    stream = start(3, cache_read_input_tokens=100, cache_creation_input_tokens=20) + end()
    [finished] = parse([stream.encode()])
    assert finished == Finished(
        reason=FinishReason.STOP, usage=Usage(input_tokens=123, output_tokens=5)
    )


def test_ping_thinking_and_unknown_events_are_ignored() -> None:
    thinking = {"type": "thinking", "thinking": ""}
    stream = (
        start()
        + ev("ping", {"type": "ping"})
        + ev(
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": thinking},
        )
        + ev(
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "thinking_delta", "thinking": "hmm"},
            },
        )
        + stop_block(0)
        + ev("brand_new_event", {"type": "brand_new_event"})
        + end()
    )
    assert parse([stream.encode()]) == [
        Finished(reason=FinishReason.STOP, usage=Usage(input_tokens=10, output_tokens=5))
    ]


def test_overloaded_error_event_mid_stream() -> None:
    events = parse([fixture("anthropic_overloaded_midstream.sse")])
    assert events[0] == TextDelta(text="Starting")
    failure = events[1]
    assert isinstance(failure, ProviderFailure)
    assert failure.error.kind is ErrorKind.OVERLOADED
    assert failure.error.retryable
    assert failure.error.status is None
    assert len(events) == 2


def test_truncated_stream_is_interrupted_and_the_partial_call_is_dropped() -> None:
    data = fixture("anthropic_tool_call.sse")
    cut = data.index(b" -la src/")
    stream_cases.assert_interrupted(parse([data[:cut]]))


def test_stream_without_message_stop_is_interrupted() -> None:
    stream = start() + ev(
        "message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"}}
    )
    events = parse([stream.encode()])
    assert isinstance(events[-1], ProviderFailure)
    assert "message_stop" in events[-1].error.message


# --- over HTTP ----------------------------------------------------------------------


def provider(server: FakeServer, timeout: float = 5.0) -> AnthropicProvider:
    return AnthropicProvider(server.url, KEY, "claude-sonnet-4-5", timeout)


def test_streams_a_recorded_answer_over_http() -> None:
    with FakeServer([Reply(body=fixture("anthropic_tool_call.sse"))]) as server:
        events = list(provider(server).stream(request()))
    assert events == RECORDED["anthropic_tool_call.sse"]


def test_request_mapping() -> None:
    conversation = request(
        temperature=0.0,
        messages=[
            UserMessage(text="list and count"),
            AssistantMessage(
                text="Running both.",
                tool_calls=[
                    ToolCall(call_id="toolu_a", name="bash", arguments={"command": "ls"}),
                    ToolCall(call_id="toolu_b", name="bash", arguments={"command": "wc -l *"}),
                ],
            ),
            ToolResultMessage(call_id="toolu_a", tool="bash", content="a.py", is_error=False),
            ToolResultMessage(call_id="toolu_b", tool="bash", content="exit 2", is_error=True),
            UserMessage(text="and now?"),
            AssistantMessage(text=""),
        ],
        tools=[ToolSpec(name="bash", description="Run a command", input_schema={"type": "object"})],
    )
    with FakeServer([Reply(body=fixture("anthropic_text.sse"))]) as server:
        list(provider(server).stream(conversation))
    [sent] = server.requests
    assert sent.path == "/v1/messages"
    assert sent.headers["x-api-key"] == KEY
    assert sent.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in sent.headers
    assert sent.json() == {
        "model": "claude-sonnet-4-5",
        "max_tokens": 512,
        "stream": True,
        "system": "You are terse.",
        "temperature": 0.0,
        "tools": [
            {"name": "bash", "description": "Run a command", "input_schema": {"type": "object"}}
        ],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "list and count"}]},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Running both."},
                    {
                        "type": "tool_use",
                        "id": "toolu_a",
                        "name": "bash",
                        "input": {"command": "ls"},
                    },
                    {
                        "type": "tool_use",
                        "id": "toolu_b",
                        "name": "bash",
                        "input": {"command": "wc -l *"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_a",
                        "content": "a.py",
                        "is_error": False,
                    },
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_b",
                        "content": "exit 2",
                        "is_error": True,
                    },
                    {"type": "text", "text": "and now?"},
                ],
            },
        ],
    }


def test_overloaded_529() -> None:
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    error = stream_cases.failure_of(provider, request(), json_reply(529, body))
    assert (error.kind, error.retryable, error.status) == (ErrorKind.OVERLOADED, True, 529)
    assert "overloaded_error" in error.message


def test_retry_after_ms_header_wins() -> None:
    body = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
    headers = {"retry-after": "3", "retry-after-ms": "1500"}
    error = stream_cases.failure_of(provider, request(), json_reply(429, body, headers))
    assert error.kind is ErrorKind.RATE_LIMIT
    assert error.retry_after == 1.5


def test_prompt_too_long_is_context_length() -> None:
    body = {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "prompt is too long: 210000 tokens > 200000 maximum",
        },
    }
    error = stream_cases.failure_of(provider, request(), json_reply(400, body))
    assert error.kind is ErrorKind.CONTEXT_LENGTH
    assert not error.retryable


def test_mid_stream_disconnect_during_a_tool_call() -> None:
    data = fixture("anthropic_tool_call.sse")
    with FakeServer([Reply(body=data, cut_after=data.index(b" -la src/"))]) as server:
        events = list(provider(server).stream(request()))
    assert events[:2] == [TextDelta(text="Let me list "), TextDelta(text="the files.")]
    stream_cases.assert_interrupted(events)


def test_repr_does_not_show_the_key() -> None:
    assert KEY not in repr(AnthropicProvider("https://api.anthropic.com", KEY, "m"))
