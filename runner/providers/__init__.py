"""Model providers: turn a model API stream into typed events the core can log and act on.

A provider proposes (text, tool calls, a finish or a failure); it never executes a tool
and never decides whether the loop continues.

``make_provider`` builds one by name (``PROVIDER_NAMES``); ``Provider`` is what every one of
them is. The messages and events they exchange with the core are in ``types``; each API has a
module (``openai``, ``anthropic``, ``scripted``), and what they share is in ``transport``,
``sse``, ``errors`` and ``arguments``.
"""

from .base import Provider
from .registry import PROVIDER_NAMES, ProviderName, make_provider
from .scripted import ScriptError

__all__ = ["PROVIDER_NAMES", "Provider", "ProviderName", "ScriptError", "make_provider"]
