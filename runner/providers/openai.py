"""The OpenAI Chat Completions streaming API, as spoken by OpenAI and compatible servers.

llama.cpp, vLLM, Ollama and others expose `POST {base_url}/chat/completions`. A streamed
tool call arrives as fragments keyed by `index` (id and name first, then the argument
text in pieces), so calls are held until their choice reports a `finish_reason` and only
then judged: a partial call never reaches the core.
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
    ModelRequest,
    ProviderEvent,
    TextDelta,
    ToolResultMessage,
    Usage,
    UserMessage,
)

#: `finish_reason` → our closed set; anything else is `unknown`.
FINISH_REASONS: Mapping[str, FinishReason] = {
    "stop": FinishReason.STOP,
    "tool_calls": FinishReason.TOOL_CALLS,
    "function_call": FinishReason.TOOL_CALLS,
    "length": FinishReason.LENGTH,
    "content_filter": FinishReason.CONTENT_FILTER,
    "error": FinishReason.ERROR,
}

_DONE = "[DONE]"


def request_payload(request: ModelRequest, *, default_model: str) -> dict[str, object]:
    """The Chat Completions body for `request` (the request's model wins when set)."""
    messages: list[dict[str, object]] = []
    if request.system:
        messages.append({"role": "system", "content": request.system})
    for message in request.messages:
        if isinstance(message, UserMessage):
            messages.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: dict[str, object] = {
                "role": "assistant",
                "content": message.text if message.text or not message.tool_calls else None,
            }
            if message.tool_calls:
                entry["tool_calls"] = [
                    {
                        "id": call.call_id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
                    }
                    for call in message.tool_calls
                ]
            messages.append(entry)
        elif isinstance(message, ToolResultMessage):
            # The API has no error flag for tool results; the observation text carries it.
            messages.append(
                {"role": "tool", "tool_call_id": message.call_id, "content": message.content}
            )
    payload: dict[str, object] = {
        "model": request.model or default_model,
        "messages": messages,
        "max_tokens": request.max_tokens,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if request.tools:
        payload["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": tool.input_schema,
                },
            }
            for tool in request.tools
        ]
    if request.temperature is not None:
        payload["temperature"] = request.temperature
    return payload


@dataclass
class _PendingCall:
    call_id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class OpenAIStreamParser(EventParser):
    """Chat Completions chunks → provider events, for the first choice only.

    Text is passed on as it arrives; tool calls are emitted, in index order, when the
    choice finishes (or at `[DONE]` if a server never sends a `finish_reason`); `Finished`
    comes at `[DONE]`, after the usage-only chunk `include_usage` adds.
    """

    terminal = "`data: [DONE]`"

    def __init__(self) -> None:
        super().__init__()
        self._calls: dict[int, _PendingCall] = {}
        self._calls_flushed = False
        self._reason: FinishReason | None = None
        self._usage = Usage()

    def _read(self, event: SSEEvent) -> list[ProviderEvent]:
        data = event.data.strip()
        if data == _DONE:
            self._done = True
            return [
                *self._flush_calls(),
                Finished(reason=self._reason or FinishReason.UNKNOWN, usage=self._usage),
            ]
        chunk = self._object(data)
        if isinstance(chunk, list):
            return chunk
        if chunk.get("error") is not None or chunk.get("object") == "error":
            return self._fail(classify_error(body=chunk))

        usage = chunk.get("usage")
        if isinstance(usage, dict):
            self._usage = Usage(
                input_tokens=count(usage.get("prompt_tokens")),
                output_tokens=count(usage.get("completion_tokens")),
            )
        events: list[ProviderEvent] = []
        choices = chunk.get("choices")
        for choice in choices if isinstance(choices, list) else []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta")
            if isinstance(delta, dict):
                content = delta.get("content")
                if isinstance(content, str) and content:
                    events.append(TextDelta(text=content))
                fragments = delta.get("tool_calls")
                if isinstance(fragments, list) and not self._calls_flushed:
                    for fragment in fragments:
                        if isinstance(fragment, dict):
                            self._absorb(fragment)
            finish = choice.get("finish_reason")
            if isinstance(finish, str) and finish and self._reason is None:
                self._reason = FINISH_REASONS.get(finish, FinishReason.UNKNOWN)
                events.extend(self._flush_calls())
        return events

    def _absorb(self, fragment: Mapping[str, object]) -> None:
        """Merge one `delta.tool_calls[i]` fragment into the call it continues."""
        call_id = fragment.get("id")
        index = fragment.get("index")
        if not isinstance(index, int):
            # Some servers omit `index`: match by id, else continue the latest call.
            known = [i for i, c in self._calls.items() if call_id and c.call_id == call_id]
            if known:
                index = known[0]
            elif isinstance(call_id, str) and call_id:
                index = len(self._calls)
            else:
                index = max(self._calls, default=0)
        pending = self._calls.setdefault(index, _PendingCall())
        if isinstance(call_id, str) and call_id and not pending.call_id:
            pending.call_id = call_id
        function = fragment.get("function")
        if isinstance(function, dict):
            name = function.get("name")
            if isinstance(name, str) and name and not pending.name:
                pending.name = name
            arguments = function.get("arguments")
            if isinstance(arguments, str):
                pending.arguments.append(arguments)

    def _flush_calls(self) -> list[ProviderEvent]:
        if self._calls_flushed:
            return []
        self._calls_flushed = True
        return [
            complete_tool_call(
                pending.call_id or f"call_{index}", pending.name, "".join(pending.arguments)
            )
            for index, pending in sorted(self._calls.items())
        ]


class OpenAIChatProvider(HTTPProvider):
    """A provider for any server that speaks streaming Chat Completions.

    `api_key` may be None or empty for a local server that needs none. The key is sent
    only in the `Authorization` header and never appears in `repr` or error messages.
    """

    name: str = "openai"
    endpoint = "/chat/completions"

    def __repr__(self) -> str:
        key = "set" if self._api_key else "none"
        return (
            f"OpenAIChatProvider(base_url={self.base_url!r}, model={self.model!r}, "
            f"timeout={self.timeout!r}, api_key={key})"
        )

    def _auth(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self._api_key}"} if self._api_key else {}

    def _payload(self, request: ModelRequest) -> dict[str, object]:
        return request_payload(request, default_model=self.model)

    def _parser(self) -> OpenAIStreamParser:
        return OpenAIStreamParser()
