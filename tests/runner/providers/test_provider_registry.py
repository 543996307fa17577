"""Building providers by name, and the settings errors that name what is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from clearance.runner.providers.anthropic import AnthropicProvider
from clearance.runner.providers.openai import OpenAIChatProvider
from clearance.runner.providers.registry import make_provider
from clearance.runner.providers.scripted import ScriptedProvider


def test_scripted_needs_a_script(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="needs `script`"):
        make_provider("scripted", env={})
    path = tmp_path / "s.yaml"
    path.write_text("turns:\n  - text: hi\n", encoding="utf-8")
    provider = make_provider("scripted", script=path, env={})
    assert isinstance(provider, ScriptedProvider)
    assert provider.name == "scripted"


def test_openai_key_from_the_environment() -> None:
    provider = make_provider("openai", model="gpt-4o-mini", env={"OPENAI_API_KEY": "sk-env"})
    assert isinstance(provider, OpenAIChatProvider)
    assert provider.base_url == "https://api.openai.com/v1"
    assert provider.name == "openai"


def test_openai_itself_requires_a_key() -> None:
    with pytest.raises(ValueError, match="OPENAI_API_KEY"):
        make_provider("openai", model="gpt-4o-mini", env={})


def test_local_openai_compatible_server_needs_no_key() -> None:
    provider = make_provider(
        "openai", model="qwen2.5-coder", base_url="http://127.0.0.1:8080/v1", env={}
    )
    assert isinstance(provider, OpenAIChatProvider)
    assert provider.base_url == "http://127.0.0.1:8080/v1"


@pytest.mark.parametrize("name", ["openai", "anthropic"])
def test_model_is_required(name: str) -> None:
    with pytest.raises(ValueError, match="needs `model`"):
        make_provider(name, api_key="k", env={})  # type: ignore[arg-type]


def test_anthropic_requires_a_key_and_reads_the_environment() -> None:
    with pytest.raises(ValueError, match="ANTHROPIC_API_KEY"):
        make_provider("anthropic", model="claude-sonnet-4-5", env={})
    provider = make_provider(
        "anthropic", model="claude-sonnet-4-5", env={"ANTHROPIC_API_KEY": "sk-ant-env"}
    )
    assert isinstance(provider, AnthropicProvider)
    assert provider.base_url == "https://api.anthropic.com"


def test_explicit_key_wins_over_the_environment() -> None:
    provider = make_provider(
        "anthropic", model="m", api_key="sk-explicit", env={"ANTHROPIC_API_KEY": "sk-env"}
    )
    assert isinstance(provider, AnthropicProvider)
    assert provider._api_key == "sk-explicit"


def test_unknown_provider_lists_the_choices() -> None:
    with pytest.raises(ValueError, match="scripted, openai, anthropic"):
        make_provider("gemini", env={})  # type: ignore[arg-type]
