"""The provider vocabulary: what the core sends a model and what comes back.

Every model here is frozen so that an event, once yielded, can be appended to the
event log and replayed without anyone mutating it on the way. The unions are
discriminated so a logged event deserialises back to exactly the class it was.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Frozen(BaseModel):
    """Immutable, closed-shape base: unknown fields are a bug, not data."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --- request -----------------------------------------------------------------


class ToolSpec(_Frozen):
    """A tool the model may propose calling; `input_schema` is a JSON Schema object."""

    name: str
    description: str
    input_schema: dict[str, object]


class ToolCall(_Frozen):
    """A proposed tool call: an intent, never an action. Arguments are a parsed JSON object."""

    call_id: str
    name: str
    arguments: dict[str, object]


class UserMessage(_Frozen):
    """Text from the human (or the core speaking for them)."""

    role: Literal["user"] = "user"
    text: str


class AssistantMessage(_Frozen):
    """What the model said earlier, replayed so it sees its own tool calls."""

    role: Literal["assistant"] = "assistant"
    text: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)


class ToolResultMessage(_Frozen):
    """The observation for one tool call, matched to it by `call_id`."""

    role: Literal["tool"] = "tool"
    call_id: str
    tool: str
    content: str
    is_error: bool = False


Message = Annotated[
    UserMessage | AssistantMessage | ToolResultMessage,
    Field(discriminator="role"),
]


class ModelRequest(_Frozen):
    """One model call, projected by the core from its event log."""

    model: str
    system: str = ""
    messages: list[Message]
    tools: list[ToolSpec] = Field(default_factory=list)
    max_tokens: int = Field(gt=0)
    temperature: float | None = Field(default=None, ge=0)


# --- outcome vocabularies --------------------------------------------------------


class FinishReason(StrEnum):
    """Why the model stopped; a closed set so the core can switch on it exhaustively."""

    STOP = "stop"
    TOOL_CALLS = "tool_calls"
    LENGTH = "length"
    CONTENT_FILTER = "content_filter"
    ERROR = "error"
    UNKNOWN = "unknown"


class ErrorKind(StrEnum):
    """What went wrong, in terms the core's retry and fallback policy can act on."""

    AUTH = "auth"
    RATE_LIMIT = "rate_limit"
    QUOTA = "quota"
    TIMEOUT = "timeout"
    OVERLOADED = "overloaded"
    BAD_REQUEST = "bad_request"
    CONTEXT_LENGTH = "context_length"
    STREAM_INTERRUPTED = "stream_interrupted"
    MALFORMED_TOOL_CALL = "malformed_tool_call"
    UNKNOWN = "unknown"


class Usage(_Frozen):
    """Token counts as reported by the API; 0 means the API did not say."""

    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)


class ProviderError(_Frozen):
    """A failure described as data, so retry is a decision the core makes, not an exception."""

    kind: ErrorKind
    retryable: bool
    message: str
    status: int | None = None
    retry_after: float | None = Field(default=None, ge=0)


# --- events --------------------------------------------------------------------


class TextDelta(_Frozen):
    """A piece of the model's visible answer, in arrival order."""

    type: Literal["text_delta"] = "text_delta"
    text: str


class ToolCallProposed(_Frozen):
    """A complete tool call whose arguments parsed as a JSON object; never a partial one."""

    type: Literal["tool_call_proposed"] = "tool_call_proposed"
    call: ToolCall


class MalformedToolCall(_Frozen):
    """A tool call whose arguments are not a JSON object: an observation for the model."""

    type: Literal["malformed_tool_call"] = "malformed_tool_call"
    call_id: str
    name: str
    raw_arguments: str
    error: str


class Finished(_Frozen):
    """The stream completed normally; always the last event of a successful turn."""

    type: Literal["finished"] = "finished"
    reason: FinishReason
    usage: Usage = Field(default_factory=Usage)


class ProviderFailure(_Frozen):
    """The stream failed; always the last event. Earlier events belong to an aborted turn."""

    type: Literal["provider_failure"] = "provider_failure"
    error: ProviderError


ProviderEvent = Annotated[
    TextDelta | ToolCallProposed | MalformedToolCall | Finished | ProviderFailure,
    Field(discriminator="type"),
]

#: (De)serialises any `ProviderEvent`, e.g. for the event log.
PROVIDER_EVENT_ADAPTER: TypeAdapter[ProviderEvent] = TypeAdapter(ProviderEvent)

#: (De)serialises any `Message`.
MESSAGE_ADAPTER: TypeAdapter[Message] = TypeAdapter(Message)
