"""Fuzz of whole hook processes: whatever the payload -- adversarial commands built from bombs,
deep nesting, huge words and odd bytes, or JSON of the wrong shape -- every call ends within the
deadline (plus process start) in a decision or a block, in the agent's format, never exit 1.

Examples are time-boxed twice: the hook's own ``--deadline`` and hypothesis's per-example
``deadline``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

from hookcases import AGENTS, payload_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DEADLINE = 1.5
MARGIN = 8.0

FRAGMENTS = [
    "x=ab;" + "x=$x$x;" * 22 + "echo $x",  # exponential expansion
    "echo " + "$(" * 200 + "ls" + ")" * 200,  # deep substitution nesting
    "(" * 300 + "ls" + ")" * 300,  # deep subshells
    "echo " + "a" * 200_000,  # a huge word
    "echo {1..999999}",  # brace expansion
    "cat " + " ".join(f"f{i}" for i in range(5000)),  # many arguments
    "bash -c " + "'bash -c " * 30 + "ls" + "'" * 30,  # nested shells
    "eval " + '"$(echo ' * 50 + "ls" + ')"' * 50,
    "echo $'\\x00\\xff' \udcff \u202e",
    "rm -rf .clearance",
    "ls",
    ";;;&&||",
]

commands = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=3).map(" ; ".join) | st.text(
    max_size=200
)
shapes = st.sampled_from(["good", "no-cwd", "input-list", "event", "huge-extra"])


def run(agent: str, data: bytes) -> tuple[int, bytes, bytes, float]:
    began = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "clearance", "hook", agent, "--deadline", str(DEADLINE),
         "--no-ledger"],
        input=data, capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    return proc.returncode, proc.stdout, proc.stderr, time.monotonic() - began


@settings(
    max_examples=20,
    deadline=timedelta(seconds=DEADLINE + MARGIN),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(agent=st.sampled_from(AGENTS), command=commands, shape=shapes)
def test_every_payload_is_answered_within_the_deadline(
    agent: str, command: str, shape: str, project: Path
) -> None:
    payload: dict[str, object] = payload_for(agent, project, "Bash", {"command": command})
    if shape == "no-cwd":
        payload.pop("cwd")
    elif shape == "input-list":
        payload["tool_input"] = [command]
    elif shape == "event":
        payload["hook_event_name"] = "Stop"
    elif shape == "huge-extra":
        payload["transcript_path"] = "x" * 1_000_000
    data = json.dumps(payload).encode("utf-8", "surrogatepass")
    code, out, err, took = run(agent, data)
    assert code in (0, 2), (code, out[:300], err[:300])
    assert took < DEADLINE + MARGIN, took
    if code == 2:
        assert err.strip(), "a block says why on stderr"
    text = out.decode("utf-8")
    if text.strip():
        answer = json.loads(text)
        assert isinstance(answer, dict)
    else:
        # only Codex answers with nothing (its allow, or its block on exit 2)
        assert agent == "codex", (code, err[:300])
