"""Model providers: turn a model API stream into typed events the core can log and act on.

A provider proposes (text, tool calls, a finish or a failure); it never executes a tool
and never decides whether the loop continues.
"""

from .anthropic import AnthropicProvider
from .base import Provider
from .errors import classify_error
from .openai import OpenAIChatProvider
from .registry import PROVIDER_NAMES, ProviderName, make_provider
from .scripted import ScriptedProvider, ScriptError
from .sse import SSEDecoder, SSEEvent
from .types import (
    MESSAGE_ADAPTER,
    PROVIDER_EVENT_ADAPTER,
    AssistantMessage,
    ErrorKind,
    Finished,
    FinishReason,
    MalformedToolCall,
    Message,
    ModelRequest,
    ProviderError,
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

__all__ = [
    "MESSAGE_ADAPTER",
    "PROVIDER_EVENT_ADAPTER",
    "PROVIDER_NAMES",
    "AnthropicProvider",
    "AssistantMessage",
    "ErrorKind",
    "FinishReason",
    "Finished",
    "MalformedToolCall",
    "Message",
    "ModelRequest",
    "OpenAIChatProvider",
    "Provider",
    "ProviderError",
    "ProviderEvent",
    "ProviderFailure",
    "ProviderName",
    "SSEDecoder",
    "SSEEvent",
    "ScriptError",
    "ScriptedProvider",
    "TextDelta",
    "ToolCall",
    "ToolCallProposed",
    "ToolResultMessage",
    "ToolSpec",
    "Usage",
    "UserMessage",
    "classify_error",
    "make_provider",
]
