"""Build a provider by name from the runner's settings.

Configuration mistakes surface here, before the first model call, as a `ValueError`
that names the missing setting, rather than as an auth failure halfway into a session.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal, get_args

from .anthropic import AnthropicProvider
from .base import Provider
from .openai import OpenAIChatProvider
from .scripted import ScriptedProvider

ProviderName = Literal["scripted", "openai", "anthropic"]
PROVIDER_NAMES: tuple[str, ...] = get_args(ProviderName)

OPENAI_BASE_URL = "https://api.openai.com/v1"
ANTHROPIC_BASE_URL = "https://api.anthropic.com"
DEFAULT_TIMEOUT = 120.0


def make_provider(
    name: ProviderName,
    *,
    script: Path | None = None,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    env: Mapping[str, str] | None = None,
) -> Provider:
    """Return the provider called `name`.

    The API key falls back to `OPENAI_API_KEY` / `ANTHROPIC_API_KEY` (read from `env`,
    the process environment by default). OpenAI itself needs a key; another
    OpenAI-compatible server (a `base_url` elsewhere, e.g. a local llama.cpp) may not.
    """
    environ = os.environ if env is None else env
    if name == "scripted":
        if script is None:
            raise ValueError("the scripted provider needs `script` (a YAML or JSON script file)")
        return ScriptedProvider.from_file(script)
    if name == "openai":
        url = base_url or OPENAI_BASE_URL
        key = api_key or environ.get("OPENAI_API_KEY") or None
        if not model:
            raise ValueError("the openai provider needs `model` (e.g. gpt-4o-mini)")
        if key is None and _same_host(url, OPENAI_BASE_URL):
            raise ValueError(
                "the openai provider needs `api_key` or the OPENAI_API_KEY environment variable"
            )
        return OpenAIChatProvider(url, key, model, timeout)
    if name == "anthropic":
        url = base_url or ANTHROPIC_BASE_URL
        key = api_key or environ.get("ANTHROPIC_API_KEY") or None
        if not model:
            raise ValueError("the anthropic provider needs `model` (e.g. claude-sonnet-4-5)")
        if key is None:
            raise ValueError(
                "the anthropic provider needs `api_key` or the ANTHROPIC_API_KEY environment "
                "variable"
            )
        return AnthropicProvider(url, key, model, timeout)
    raise ValueError(f"unknown provider {name!r}: expected one of {', '.join(PROVIDER_NAMES)}")


def _same_host(url: str, reference: str) -> bool:
    def host(value: str) -> str:
        return value.split("://", 1)[-1].split("/", 1)[0].lower()

    return host(url) == host(reference)
