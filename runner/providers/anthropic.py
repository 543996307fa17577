"""The Anthropic Messages streaming API (`POST {base_url}/v1/messages`).

The answer streams as content blocks. A `tool_use` block's input arrives as
`input_json_delta` pieces that are not valid JSON until the block's `content_block_stop`,
so a call is judged only there. An `error` event can arrive at any point after a 200
(e.g. `overloaded_error`) and ends the turn as a failure.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from .arguments import complete_tool_call
from .errors import classify_error
from .sse import SSEEvent
from .transport import EventParser, HTTPProvider, count
from .types import (
    AssistantMessage,
    Finished,
    FinishReason,
    MalformedToolCall,
    ModelRequest,
    ProviderEvent,
    TextDelta,
    ToolResultMessage,
    Usage,
    UserMessage,
)

#: `stop_reason` → our closed set; anything else is `unknown`.
STOP_REASONS: Mapping[str, FinishReason] = {
    "end_turn": FinishReason.STOP,
    "stop_sequence": FinishReason.STOP,
    "tool_use": FinishReason.TOOL_CALLS,
    "max_tokens": FinishReason.LENGTH,
    "model_context_window_exceeded": FinishReason.LENGTH,
    "refusal": FinishReason.CONTENT_FILTER,
}

DEFAULT_VERSION = "2023-06-01"


def request_payload(request: ModelRequest, *, default_model: str) -> dict[str, object]:
    """The Messages API body for `request` (the request's model wins when set).

    The API wants strictly alternating roles and tool results inside a user turn, so
    tool results and user text that follow each other are merged into one user message,
    and empty text blocks (which the API rejects) are left out.
    """
    messages: list[dict[str, object]] = []
    blocks_of: list[list[dict[str, object]]] = []

    def add(role: str, blocks: list[dict[str, object]]) -> None:
        if not blocks:
            return
        if messages and messages[-1]["role"] == role:
            blocks_of[-1].extend(blocks)
            return
        blocks_of.append(list(blocks))
        messages.append({"role": role, "content": blocks_of[-1]})

    for message in request.messages:
        if isinstance(message, UserMessage):
            add("user", _text_blocks(message.text))
        elif isinstance(message, AssistantMessage):
            tool_uses: list[dict[str, object]] = [
                {"type": "tool_use", "id": call.call_id, "name": call.name, "input": call.arguments}
                for call in message.tool_calls
            ]
            add("assistant", [*_text_blocks(message.text), *tool_uses])
        elif isinstance(message, ToolResultMessage):
            add(
                "user",
                [
                    {
                        "type": "tool_result",
                        "tool_use_id": message.call_id,
                        "content": message.content,
                        "is_error": message.is_error,
                    }
                ],
            )
    payload: dict[str, object] = {
        "model": request.model or default_model,
        "max_tokens": request.max_tokens,
        "messages": messages,
        "stream": True,
    }
    if request.system:
        payload["system"] = request.system
    if request.tools:
        payload["tools"] = [
            {"name": tool.name, "description": tool.description, "input_schema": tool.input_schema}
            for tool in request.tools
        ]
    if request.temperature is not None:
        payload["temperature"] = request.temperature
    return payload


def _text_blocks(text: str) -> list[dict[str, object]]:
    return [{"type": "text", "text": text}] if text else []


@dataclass
class _ToolBlock:
    call_id: str
    name: str
    initial_input: object
    parts: list[str] = field(default_factory=list)


class AnthropicStreamParser(EventParser):
    """Messages stream events → provider events.

    Text deltas pass through; a tool call is emitted at its block's stop; `Finished`
    comes at `message_stop`. Unknown event and block types (thinking, future additions)
    are ignored, as the API asks of clients.
    """

    terminal = "`message_stop`"

    def __init__(self) -> None:
        super().__init__()
        self._tools: dict[int, _ToolBlock] = {}
        self._reason: FinishReason | None = None
        self._input_tokens = 0
        self._output_tokens = 0

    def _read(self, event: SSEEvent) -> list[ProviderEvent]:
        data = self._object(event.data)
        if isinstance(data, list):
            return data
        kind = data.get("type", event.event)
        if kind == "message_start":
            message = data.get("message")
            if isinstance(message, dict):
                self._read_usage(message.get("usage"))
        elif kind == "content_block_start":
            return self._start_block(data)
        elif kind == "content_block_delta":
            return self._delta(data)
        elif kind == "content_block_stop":
            index = data.get("index")
            block = self._tools.pop(index, None) if isinstance(index, int) else None
            if block is not None:
                return [self._complete(block)]
        elif kind == "message_delta":
            delta = data.get("delta")
            if isinstance(delta, dict):
                stop = delta.get("stop_reason")
                if isinstance(stop, str) and stop:
                    self._reason = STOP_REASONS.get(stop, FinishReason.UNKNOWN)
            self._read_usage(data.get("usage"))
        elif kind == "message_stop":
            self._done = True
            unfinished: list[ProviderEvent] = [
                MalformedToolCall(
                    call_id=block.call_id,
                    name=block.name,
                    raw_arguments="".join(block.parts),
                    error="the tool call's content block never completed",
                )
                for _, block in sorted(self._tools.items())
            ]
            usage = Usage(input_tokens=self._input_tokens, output_tokens=self._output_tokens)
            return [*unfinished, Finished(reason=self._reason or FinishReason.UNKNOWN, usage=usage)]
        elif kind == "error":
            return self._fail(classify_error(body=data))
        return []

    def _start_block(self, data: Mapping[str, object]) -> list[ProviderEvent]:
        index, block = data.get("index"), data.get("content_block")
        if not isinstance(index, int) or not isinstance(block, dict):
            return []
        if block.get("type") == "text":
            text = block.get("text")
            return [TextDelta(text=text)] if isinstance(text, str) and text else []
        if block.get("type") == "tool_use":
            call_id, name = block.get("id"), block.get("name")
            self._tools[index] = _ToolBlock(
                call_id=call_id if isinstance(call_id, str) else f"toolu_{index}",
                name=name if isinstance(name, str) else "",
                initial_input=block.get("input"),
            )
        return []

    def _delta(self, data: Mapping[str, object]) -> list[ProviderEvent]:
        delta = data.get("delta")
        if not isinstance(delta, dict):
            return []
        if delta.get("type") == "text_delta":
            text = delta.get("text")
            return [TextDelta(text=text)] if isinstance(text, str) and text else []
        if delta.get("type") == "input_json_delta":
            index = data.get("index")
            block = self._tools.get(index) if isinstance(index, int) else None
            partial = delta.get("partial_json")
            if block is not None and isinstance(partial, str):
                block.parts.append(partial)
        return []

    def _complete(self, block: _ToolBlock) -> ProviderEvent:
        raw = "".join(block.parts)
        if not raw.strip() and isinstance(block.initial_input, dict) and block.initial_input:
            raw = json.dumps(block.initial_input)
        return complete_tool_call(block.call_id, block.name, raw)

    def _read_usage(self, usage: object) -> None:
        if not isinstance(usage, dict):
            return
        parts = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
        if any(isinstance(usage.get(key), int) for key in parts):
            self._input_tokens = sum(count(usage.get(key)) for key in parts)
        if isinstance(usage.get("output_tokens"), int):
            self._output_tokens = count(usage.get("output_tokens"))


class AnthropicProvider(HTTPProvider):
    """A provider for the Anthropic Messages API.

    The key is sent only in the `x-api-key` header and never appears in `repr` or error
    messages. `usage.input_tokens` counts cached prompt tokens too: it is the prompt size.
    """

    name: str = "anthropic"
    endpoint = "/v1/messages"

    def __init__(
        self,
        base_url: str,
        api_key: str,
        model: str,
        timeout: float = 120.0,
        anthropic_version: str = DEFAULT_VERSION,
    ) -> None:
        super().__init__(base_url, api_key, model, timeout)
        self.anthropic_version = anthropic_version

    def __repr__(self) -> str:
        return (
            f"AnthropicProvider(base_url={self.base_url!r}, model={self.model!r}, "
            f"timeout={self.timeout!r}, anthropic_version={self.anthropic_version!r})"
        )

    def _auth(self) -> dict[str, str]:
        return {"x-api-key": self._api_key, "anthropic-version": self.anthropic_version}

    def _payload(self, request: ModelRequest) -> dict[str, object]:
        return request_payload(request, default_model=self.model)

    def _parser(self) -> AnthropicStreamParser:
        return AnthropicStreamParser()
