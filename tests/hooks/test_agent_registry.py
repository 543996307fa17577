"""One registry of agents (clearance.hooks.agents), and every surface built from it: the hook
commands, the fast path's agent list, the fallback deny, install, doctor's probe and gate's
recognition of a payload."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hookcases import Result, payload_for

from clearance.cli.commands.hook import _fallback_block
from clearance.cli.main import _HOOK_AGENTS
from clearance.hooks import AGENTS, protocol
from clearance.hooks.agents import BY_NAME, REGISTRY, recognize
from clearance.hooks.doctor import probe_payload

SAMPLES = Path("/work/shared/e2e/samples")
NAMES = [agent.name for agent in REGISTRY]


def test_every_surface_lists_the_registry() -> None:
    assert list(AGENTS) == NAMES
    assert frozenset(NAMES) == _HOOK_AGENTS
    helped = subprocess.run(
        [sys.executable, "-m", "clearance", "hook", "--help"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    for agent in REGISTRY:
        assert agent.name in helped.stdout and agent.title in helped.stdout


@pytest.mark.parametrize("name", NAMES)
def test_fallback_deny_is_the_protocols_block(name: str) -> None:
    """The deny the CLI prints when nothing else loads has the protocol's own shape."""
    fallback = _fallback_block(name, "R")
    blocked = protocol(name).blocked("R")
    assert (fallback is None) == (blocked == b"")
    if fallback is not None:
        assert fallback == json.loads(blocked)


def test_the_exit_2_answer_is_the_agents_own_deny() -> None:
    """The deny read beside exit 2 (the registry's) is the answer the protocol gives a deny
    (Claude Code, Gemini CLI); Codex ignores stdout then, so it gets nothing."""
    for name in ("claude-code", "gemini-cli"):
        assert protocol(name).blocked("R \u2192 x") == protocol(name).answer("deny", "R \u2192 x")
    assert protocol("codex").blocked("R") == b""


@pytest.mark.parametrize("name", NAMES)
def test_payloads_are_recognised(name: str, tmp_path: Path) -> None:
    found = recognize(payload_for(name, tmp_path, "Bash", {"command": "ls"}))
    assert found is not None and found.name == name
    assert recognize(probe_payload(name, str(tmp_path))) is not None
    assert recognize({"hook_event_name": "Stop"}) is None


@pytest.mark.parametrize("name", NAMES)
def test_each_protocol_decides_on_its_registry_event_only(
    name: str, hook: Callable[..., Result], project: Path
) -> None:
    """A protocol's name and pre-tool event are its agent's entry: a payload under another
    agent's pre-tool event is refused, naming the event the registry gives."""
    agent = BY_NAME[name]
    assert (protocol(name).agent, protocol(name).name) == (agent, name)
    assert hook(name, payload_for(name, project, "Bash", {"command": "ls"})).code == 0
    for other in {a.pre_event for a in REGISTRY} - {agent.pre_event}:
        wrong = payload_for(name, project, "Bash", {"command": "ls"}, hook_event_name=other)
        refused = hook(name, wrong)
        assert refused.reason_code == "bad_input" and refused.code == 2
        assert f"{other!r} is not one {name} sends" in refused.stderr
        assert f"(expected {agent.pre_event})" in refused.stderr


CAPTURED = [
    ("claude-code", "claude_pretooluse_stdin.json"),
    ("gemini-cli", "gemini_beforetool_stdin.json"),
    ("codex", "codex_pretooluse_stdin.json"),
]


@pytest.mark.parametrize(("name", "sample"), CAPTURED)
def test_real_captured_payloads_are_recognised(name: str, sample: str) -> None:
    path = SAMPLES / sample
    if not path.is_file():
        pytest.fail(f"{path} is missing (the e2e harness's captured payloads)")
    found = recognize(json.loads(path.read_text()))
    assert found is not None and found.name == name


def test_settings_and_timeouts_come_from_the_agent() -> None:
    env = {"HOME": "/h", "CODEX_HOME": "/c", "CLAUDE_CONFIG_DIR": "/cc"}
    assert BY_NAME["codex"].settings_path("user", "/p", env) == "/c/config.toml"
    assert BY_NAME["claude-code"].settings_path("user", "/p", env) == "/cc/settings.json"
    assert BY_NAME["gemini-cli"].settings_path("user", "/p", env) == "/h/.gemini/settings.json"
    assert BY_NAME["gemini-cli"].settings_path("project", "/p", env) == "/p/.gemini/settings.json"
    assert BY_NAME["gemini-cli"].timeout_value(30) == 30000
    assert BY_NAME["gemini-cli"].timeout_seconds(30000) == 30
    assert BY_NAME["codex"].timeout_seconds(0) is None
    assert BY_NAME["claude-code"].timeout_seconds(None) == 600
