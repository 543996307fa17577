"""The OpenAI-compatible provider: stream assembly, request mapping, and HTTP behaviour."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest
import stream_cases
from fake_model_server import FakeServer, Reply, fixture, json_reply

from clearance.runner.providers.openai import OpenAIChatProvider, OpenAIStreamParser
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

KEY = "sk-test-0123456789abcdef"


def parse(chunks: list[bytes]) -> list[ProviderEvent]:
    return list(parse_chunks(chunks, OpenAIStreamParser()))


def chunk(delta: Mapping[str, object] | None = None, finish: str | None = None) -> str:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return "data: " + json.dumps({"object": "chat.completion.chunk", "choices": choices}) + "\n\n"


def call_fragment(index: int, *, id: str = "", name: str = "", args: str = "") -> dict[str, object]:
    fragment: dict[str, object] = {"index": index, "function": {"arguments": args}}
    if id:
        fragment["id"] = id
        fragment["type"] = "function"
        fragment["function"] = {"name": name, "arguments": args}
    return {"tool_calls": [fragment]}


def request(**overrides: object) -> ModelRequest:
    return stream_cases.request(256, **overrides)


# --- stream assembly (no network) ------------------------------------------------------

TEXT_EVENTS = stream_cases.text_events(Usage(input_tokens=38, output_tokens=9))

TOOL_EVENTS: list[ProviderEvent] = [
    stream_cases.bash_call("call_Jk3pW7sV2dQx9LmN0aBcDeFg"),
    Finished(reason=FinishReason.TOOL_CALLS, usage=Usage(input_tokens=112, output_tokens=21)),
]

PARALLEL_EVENTS: list[ProviderEvent] = [
    TextDelta(text="Reading both files."),
    *stream_cases.read_calls("call_A1b2C3d4E5f6G7h8I9j0K1l2", "call_Z9y8X7w6V5u4T3s2R1q0P9o8"),
    Finished(reason=FinishReason.TOOL_CALLS, usage=Usage(input_tokens=230, output_tokens=64)),
]

RECORDED = {
    "openai_text.sse": TEXT_EVENTS,
    "openai_tool_call.sse": TOOL_EVENTS,
    "openai_parallel_tool_calls.sse": PARALLEL_EVENTS,
}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_recorded_stream_however_split(name: str) -> None:
    stream_cases.assert_parses_however_split(parse, fixture(name), RECORDED[name])


def test_tool_call_is_proposed_only_when_the_choice_finishes() -> None:
    parser = OpenAIStreamParser()
    stream = [
        chunk(call_fragment(0, id="call_1", name="bash", args="")),
        chunk(call_fragment(0, args='{"command": "ls"}')),
        chunk({}, "tool_calls"),
    ]
    from clearance.runner.providers.sse import iter_sse

    per_chunk = [parser.feed(event) for event in iter_sse([s.encode() for s in stream])]
    assert per_chunk[0] == [] and per_chunk[1] == []
    assert per_chunk[2] == [
        ToolCallProposed(call=ToolCall(call_id="call_1", name="bash", arguments={"command": "ls"}))
    ]


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        ('{"command": "ls"', "not valid JSON"),
        ("{'command': 'ls'}", "not valid JSON"),
        ('["ls"]', "an array"),
        ('"ls"', "a string"),
        ("42", "a number"),
        ("null", "null"),
        ('{"n": NaN}', "not valid JSON"),
    ],
)
def test_malformed_arguments_become_malformed_tool_call(raw: str, needle: str) -> None:
    stream = (
        chunk(call_fragment(0, id="call_1", name="bash", args=raw))
        + chunk({}, "tool_calls")
        + "data: [DONE]\n\n"
    )
    events = parse([stream.encode()])
    assert not any(isinstance(e, ToolCallProposed) for e in events)
    malformed = events[0]
    assert isinstance(malformed, MalformedToolCall)
    assert (malformed.call_id, malformed.name, malformed.raw_arguments) == ("call_1", "bash", raw)
    assert needle in malformed.error
    assert events[1] == Finished(reason=FinishReason.TOOL_CALLS)


def test_one_malformed_call_does_not_spoil_its_sibling() -> None:
    stream = (
        chunk(call_fragment(0, id="call_a", name="bash", args='{"command": "ls"}'))
        + chunk(call_fragment(1, id="call_b", name="bash", args='{"command": '))
        + chunk({}, "tool_calls")
        + "data: [DONE]\n\n"
    )
    events = parse([stream.encode()])
    assert isinstance(events[0], ToolCallProposed) and events[0].call.call_id == "call_a"
    assert isinstance(events[1], MalformedToolCall) and events[1].call_id == "call_b"


def test_empty_arguments_mean_no_arguments() -> None:
    stream = (
        chunk(call_fragment(0, id="call_1", name="git_status", args=""))
        + chunk({}, "tool_calls")
        + "data: [DONE]\n\n"
    )
    assert parse([stream.encode()])[0] == ToolCallProposed(
        call=ToolCall(call_id="call_1", name="git_status", arguments={})
    )


def test_call_without_a_name_is_malformed() -> None:
    stream = chunk(call_fragment(0, args="{}")) + chunk({}, "tool_calls") + "data: [DONE]\n\n"
    events = parse([stream.encode()])
    assert isinstance(events[0], MalformedToolCall)
    assert events[0].call_id == "call_0"
    assert "no tool name" in events[0].error


def test_whole_call_in_one_chunk_without_index() -> None:
    # Some servers send each call whole and leave out `index`.
    calls = {
        "tool_calls": [
            {"id": "c1", "function": {"name": "a", "arguments": "{}"}},
            {"id": "c2", "function": {"name": "b", "arguments": '{"x": 1}'}},
        ]
    }
    stream = chunk(calls) + chunk({}, "stop") + "data: [DONE]\n\n"
    events = parse([stream.encode()])
    assert [e.call.name for e in events if isinstance(e, ToolCallProposed)] == ["a", "b"]
    assert events[-1] == Finished(reason=FinishReason.STOP)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("stop", FinishReason.STOP),
        ("length", FinishReason.LENGTH),
        ("content_filter", FinishReason.CONTENT_FILTER),
        ("tool_calls", FinishReason.TOOL_CALLS),
        ("function_call", FinishReason.TOOL_CALLS),
        ("eos_token", FinishReason.UNKNOWN),
    ],
)
def test_finish_reason_mapping(raw: str, reason: FinishReason) -> None:
    stream = chunk({"content": "x"}) + chunk({}, raw) + "data: [DONE]\n\n"
    assert parse([stream.encode()])[-1] == Finished(reason=reason)


def test_done_without_finish_reason_still_flushes_calls() -> None:
    stream = chunk(call_fragment(0, id="c1", name="bash", args="{}")) + "data: [DONE]\n\n"
    events = parse([stream.encode()])
    assert isinstance(events[0], ToolCallProposed)
    assert events[1] == Finished(reason=FinishReason.UNKNOWN)


def test_usage_in_the_finish_chunk_is_read_too() -> None:
    body = {
        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 2},
    }
    stream = "data: " + json.dumps(body) + "\n\ndata: [DONE]\n\n"
    assert parse([stream.encode()]) == [
        Finished(reason=FinishReason.STOP, usage=Usage(input_tokens=5, output_tokens=2))
    ]


def test_other_choices_are_ignored() -> None:
    other = {"choices": [{"index": 1, "delta": {"content": "nope"}, "finish_reason": None}]}
    stream = "data: " + json.dumps(other) + "\n\n" + chunk({"content": "yes"}, "stop")
    events = parse([(stream + "data: [DONE]\n\n").encode()])
    assert events == [TextDelta(text="yes"), Finished(reason=FinishReason.STOP)]


def test_truncated_stream_is_interrupted_and_the_partial_call_is_dropped() -> None:
    data = fixture("openai_tool_call.sse")
    cut = data.index(b'"ls"')  # inside the argument fragments, before finish_reason
    stream_cases.assert_interrupted(parse([data[:cut]]))


def test_error_chunk_mid_stream_is_a_failure() -> None:
    error = {"error": {"message": "The server had an error", "type": "server_error"}}
    stream = chunk({"content": "par"}) + "data: " + json.dumps(error) + "\n\n"
    events = parse([stream.encode()])
    assert events[0] == TextDelta(text="par")
    assert isinstance(events[1], ProviderFailure)
    assert events[1].error.kind is ErrorKind.OVERLOADED
    assert len(events) == 2


def test_bare_error_object_mid_stream_is_a_failure() -> None:
    # vLLM-style: the error object is the chunk itself.
    error = {
        "object": "error",
        "message": "This model's maximum context length is 4096 tokens.",
        "type": "BadRequestError",
        "code": 400,
    }
    events = parse([("data: " + json.dumps(error) + "\n\n").encode()])
    assert len(events) == 1 and isinstance(events[0], ProviderFailure)
    assert events[0].error.kind is ErrorKind.CONTEXT_LENGTH


def test_non_json_data_is_a_failure_not_an_exception() -> None:
    events = parse([b"data: {not json\n\n"])
    assert len(events) == 1 and isinstance(events[0], ProviderFailure)
    assert events[0].error.kind is ErrorKind.UNKNOWN


def test_nothing_after_done_is_read() -> None:
    stream = chunk({"content": "a"}, "stop") + "data: [DONE]\n\n" + chunk({"content": "late"})
    assert parse([stream.encode()]) == [TextDelta(text="a"), Finished(reason=FinishReason.STOP)]


# --- over HTTP ----------------------------------------------------------------------


def provider(server: FakeServer, key: str | None = KEY, timeout: float = 5.0) -> OpenAIChatProvider:
    return OpenAIChatProvider(f"{server.url}/v1/", key, "gpt-4o-mini", timeout)


def test_streams_a_recorded_answer_over_http() -> None:
    with FakeServer([Reply(body=fixture("openai_parallel_tool_calls.sse"))]) as server:
        events = list(provider(server).stream(request()))
    assert events == PARALLEL_EVENTS


def test_request_mapping() -> None:
    conversation = request(
        model="qwen2.5-coder",
        temperature=0.2,
        messages=[
            UserMessage(text="list files"),
            AssistantMessage(
                text="",
                tool_calls=[ToolCall(call_id="call_1", name="bash", arguments={"command": "ls"})],
            ),
            ToolResultMessage(call_id="call_1", tool="bash", content="a.py\nb.py", is_error=False),
            AssistantMessage(text="Two files."),
            UserMessage(text="thanks"),
        ],
        tools=[
            ToolSpec(
                name="bash",
                description="Run a command",
                input_schema={"type": "object", "properties": {"command": {"type": "string"}}},
            )
        ],
    )
    with FakeServer([Reply(body=fixture("openai_text.sse"))]) as server:
        list(provider(server).stream(conversation))
    [sent] = server.requests
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert sent.json() == {
        "model": "qwen2.5-coder",
        "messages": [
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": "list files"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "bash", "arguments": '{"command": "ls"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "a.py\nb.py"},
            {"role": "assistant", "content": "Two files."},
            {"role": "user", "content": "thanks"},
        ],
        "max_tokens": 256,
        "stream": True,
        "stream_options": {"include_usage": True},
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "bash",
                    "description": "Run a command",
                    "parameters": {
                        "type": "object",
                        "properties": {"command": {"type": "string"}},
                    },
                },
            }
        ],
        "temperature": 0.2,
    }


def test_defaults_model_and_omits_optional_fields_and_auth_without_key() -> None:
    with FakeServer([Reply(body=fixture("openai_text.sse"))]) as server:
        list(provider(server, key=None).stream(request(system="")))
    [sent] = server.requests
    body = sent.json()
    assert body["model"] == "gpt-4o-mini"
    assert "authorization" not in sent.headers
    assert not {"tools", "temperature"} & body.keys()
    assert body["messages"] == [{"role": "user", "content": "hi"}]


def test_mid_stream_disconnect_during_a_tool_call() -> None:
    data = fixture("openai_tool_call.sse")
    reply = Reply(body=data, cut_after=len(data) // 2)
    with FakeServer([reply]) as server:
        stream_cases.assert_interrupted(list(provider(server).stream(request())))


def test_repr_does_not_show_the_key() -> None:
    shown = repr(OpenAIChatProvider("http://localhost:8080/v1", KEY, "m", 1.0))
    assert KEY not in shown and "api_key=set" in shown


def test_server_echoing_the_key_in_an_error_is_redacted() -> None:
    body = {
        "error": {
            "message": f"Incorrect API key provided: {KEY}.",
            "type": "invalid_request_error",
            "code": "invalid_api_key",
        }
    }
    error = stream_cases.failure_of(provider, request(), json_reply(401, body))
    assert error.kind is ErrorKind.AUTH
    assert KEY not in error.message
    assert "[redacted]" in error.message


def test_key_cut_in_half_by_message_clipping_is_still_redacted() -> None:
    # "HTTP 401: " + padding puts the key across the 500-character clip.
    page = ("a" * 480 + " " + KEY + " trailing").encode()
    reply = Reply(status=401, body=page, headers={"Content-Type": "text/plain"}, chunked=False)
    error = stream_cases.failure_of(provider, request(), reply)
    assert KEY[:6] not in error.message
    assert error.message.endswith("[redacted]…")
