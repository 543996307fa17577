"""The scripted provider: playback, validation, exhaustion and simulated failures."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest

from clearance.runner.providers.base import Provider
from clearance.runner.providers.scripted import ScriptedProvider, ScriptError
from clearance.runner.providers.types import (
    ErrorKind,
    Finished,
    FinishReason,
    ModelRequest,
    ProviderEvent,
    ProviderFailure,
    TextDelta,
    ToolCall,
    ToolCallProposed,
    UserMessage,
)

REQUEST = ModelRequest(model="scripted", messages=[UserMessage(text="go")], max_tokens=10)

SCRIPT = """\
turns:
  - text: "Let me look."
    tool_calls:
      - tool: bash
        input: {command: "ls -la"}
      - tool: read_file
        input: {path: README.md}
  - error: {kind: rate_limit, retry_after: 0.01}
  - text: "Done."
"""


def play(provider: ScriptedProvider) -> list[ProviderEvent]:
    return list(provider.stream(REQUEST))


def test_plays_turns_in_order() -> None:
    provider = ScriptedProvider.from_text(SCRIPT)
    assert isinstance(provider, Provider)
    assert play(provider) == [
        TextDelta(text="Let me look."),
        ToolCallProposed(
            call=ToolCall(call_id="call_0_0", name="bash", arguments={"command": "ls -la"})
        ),
        ToolCallProposed(
            call=ToolCall(call_id="call_0_1", name="read_file", arguments={"path": "README.md"})
        ),
        Finished(reason=FinishReason.TOOL_CALLS),
    ]
    [failure] = play(provider)
    assert isinstance(failure, ProviderFailure)
    assert (failure.error.kind, failure.error.retryable, failure.error.retry_after) == (
        ErrorKind.RATE_LIMIT,
        True,
        0.01,
    )
    # The retry gets the next turn, as a real retried call would get a fresh answer.
    assert play(provider) == [TextDelta(text="Done."), Finished(reason=FinishReason.STOP)]
    assert provider.turns_played == 3


def test_exhausted_script_says_so_and_stops() -> None:
    provider = ScriptedProvider.from_text("turns:\n  - text: only\n")
    play(provider)
    for _ in range(2):
        events = play(provider)
        assert isinstance(events[0], TextDelta)
        assert "exhausted" in events[0].text
        assert events[1:] == [Finished(reason=FinishReason.STOP)]


def test_error_turn_can_stream_text_first_and_override_retryable() -> None:
    script = {
        "turns": [
            {
                "text": "partial",
                "error": {
                    "kind": "overloaded",
                    "message": "busy",
                    "retryable": False,
                    "status": 529,
                },
            }
        ]
    }
    events = play(ScriptedProvider.from_text(json.dumps(script), json_format=True))
    assert events[0] == TextDelta(text="partial")
    assert isinstance(events[1], ProviderFailure)
    error = events[1].error
    assert (error.kind, error.retryable, error.status, error.message) == (
        ErrorKind.OVERLOADED,
        False,
        529,
        "busy",
    )


def test_loads_yaml_and_json_files(tmp_path: Path) -> None:
    yaml_file = tmp_path / "demo.yaml"
    yaml_file.write_text(SCRIPT, encoding="utf-8")
    json_file = tmp_path / "demo.json"
    json_file.write_text(json.dumps({"turns": [{"text": "hi"}]}), encoding="utf-8")
    assert len(ScriptedProvider.from_file(yaml_file).script.turns) == 3
    assert play(ScriptedProvider.from_file(json_file))[0] == TextDelta(text="hi")


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        (
            {"turns": [{"text": "a"}, {"text": "b"}, {"tool_calls": [{"input": {}}]}]},
            "turns[2].tool_calls[0].tool: Field required",
        ),
        (
            {"turns": [{"tool_calls": [{"tool": "bash", "input": "ls"}]}]},
            "turns[0].tool_calls[0].input:",
        ),
        ({"turns": [{"error": {"kind": "meltdown"}}]}, "turns[0].error.kind:"),
        (
            {"turns": [{"error": {"kind": "timeout", "retry_after": -1}}]},
            "turns[0].error.retry_after:",
        ),
        ({"turns": [{"txt": "typo"}]}, "turns[0].txt: Extra inputs are not permitted"),
        ({"turns": [{}]}, "turns[0]: Value error, a turn needs"),
        (
            {"turns": [{"error": {"kind": "auth"}, "tool_calls": [{"tool": "x"}]}]},
            "turns[0]: Value error, a turn with `error`",
        ),
        ({"steps": []}, "turns: Field required"),
        (["not", "a", "mapping"], "<root>:"),
    ],
)
def test_validation_errors_name_the_file_and_path(
    tmp_path: Path, script: object, expected: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    with pytest.raises(ScriptError) as caught:
        ScriptedProvider.from_file(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: invalid script")
    assert expected in message


def test_yaml_syntax_error_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("turns:\n  - text: [unclosed\n", encoding="utf-8")
    with pytest.raises(ScriptError, match=rf"^{re.escape(str(path))}:3:1: invalid YAML"):
        ScriptedProvider.from_file(path)


def test_json_syntax_error_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"turns": [\n  {"text": }\n]}', encoding="utf-8")
    with pytest.raises(ScriptError, match=rf"^{re.escape(str(path))}:2:12: invalid JSON"):
        ScriptedProvider.from_file(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match="cannot read script"):
        ScriptedProvider.from_file(tmp_path / "nope.yaml")


def test_concurrent_requests_each_get_a_distinct_turn() -> None:
    turns = [{"text": str(i)} for i in range(40)]
    provider = ScriptedProvider.from_text(json.dumps({"turns": turns}), json_format=True)
    seen: list[str] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(10):
            first = next(iter(provider.stream(REQUEST)))
            assert isinstance(first, TextDelta)
            with lock:
                seen.append(first.text)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(seen, key=int) == [str(i) for i in range(40)]
