"""Whole runs against an OpenAI-compatible fake server on 127.0.0.1.

The conversation the core projects from its log has to survive the trip through a real
adapter: the second request must carry the model's tool call and the observation as the
API expects them, and a 429 in between is retried as the core decides.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

from runner_support import PlayRun

from clearance.runner.providers import make_provider

_SERVER = Path(__file__).parent / "providers" / "fake_model_server.py"


def _fake_server() -> ModuleType:
    spec = importlib.util.spec_from_file_location("runner_fake_model_server", _SERVER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_an_openai_compatible_run_carries_the_observation_back(play: PlayRun) -> None:
    fake = _fake_server()
    replies = [
        fake.Reply(body=fake.fixture("openai_tool_call.sse")),
        fake.json_reply(429, {"error": {"message": "slow down"}}, {"retry-after": "0"}),
        fake.Reply(body=fake.fixture("openai_text.sse")),
    ]
    with fake.FakeServer(replies) as server:
        provider = make_provider("openai", model="local", base_url=server.url + "/v1")
        done = play(provider)
        bodies = [request.json() for request in server.requests]
    assert done.result.reason == "final_answer"
    (proposed,) = done.of_type("tool_intent.proposed")
    assert proposed["input"] == {"command": "ls -la src/naïve"}
    (retry,) = done.of_type("provider.retry")
    assert retry["delay_s"] == 0 and retry["after"] == "rate_limit"
    assert len(bodies) == 3
    messages = bodies[2]["messages"]
    assert isinstance(messages, list)
    assistant = next(m for m in messages if m.get("role") == "assistant")
    assert assistant["tool_calls"][0]["id"] == proposed["call_id"]
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == proposed["input"]
    tool = next(m for m in messages if m.get("role") == "tool")
    assert tool["tool_call_id"] == proposed["call_id"]
    assert tool["content"].startswith("status: denied")  # `ls` asks in the test policy
    assert bodies[0]["tools"][0]["function"]["name"] == "bash"
