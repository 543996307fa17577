"""``clearance hook … --sandbox``: an allowed shell command comes back rewritten to run under
``clearance sandbox`` with its decision's profile, quoted so nothing in it runs outside the
wrapper; what is not an allowed shell command is answered as without ``--sandbox``."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Hook
from hookcases import CODEX_SPECIFIC_KEYS, CODEX_TOP_KEYS, payload_for
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.sandbox.plan import Confinement, wrap_command

PROFILE_POLICY = """\
version: 1
id: p
sandbox:
  profiles:
    suite:
      description: the suite reads its .env.test and caches wheels
      writable: [~/.cache/wheels]
      expose: [.env.test]
      programs: [touch]
rules:
  - id: allow-touch
    decision: allow
    reason: "touch is harmless here"
    when: {program: touch}
"""


def _updated(agent: str, answer: dict[str, object]) -> dict[str, object]:
    specific = answer["hookSpecificOutput"]
    assert isinstance(specific, dict)
    key = "tool_input" if agent == "gemini-cli" else "updatedInput"
    updated = specific[key]
    assert isinstance(updated, dict)
    return updated


@pytest.mark.parametrize("agent", ["claude-code", "codex", "gemini-cli"])
def test_an_allowed_shell_command_is_rewritten(hook: Hook, project: Path, agent: str) -> None:
    tool = "run_shell_command" if agent == "gemini-cli" else "Bash"
    payload = payload_for(agent, project, tool, {"command": "touch a", "description": "d"})
    result = hook(agent, payload, "--sandbox", "--no-ledger")
    assert result.code == 0
    answer = result.json()
    updated = _updated(agent, answer)
    assert updated["description"] == "d"  # the rest of the input is kept
    words = shlex.split(str(updated["command"]))
    assert words[:5] == [sys.executable, "-P", "-m", "clearance", "sandbox"]
    assert words[-3:] == ["bash", "-c", "touch a"]
    assert "--allow-network" not in words
    if agent == "codex":  # Codex rejects (and runs the tool on) any other key
        assert set(answer) <= CODEX_TOP_KEYS
        assert set(answer["hookSpecificOutput"]) <= CODEX_SPECIFIC_KEYS  # type: ignore[arg-type]
        assert answer["hookSpecificOutput"]["permissionDecision"] == "allow"  # type: ignore[index]
    elif agent == "gemini-cli":
        assert answer["decision"] == "allow"


@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_a_deny_and_a_file_tool_are_answered_as_without_sandbox(
    hook: Hook, project: Path, agent: str
) -> None:
    denied = hook(
        agent,
        payload_for(agent, project, "Bash", {"command": "touch marker_deny"}),
        "--sandbox",
        "--no-ledger",
    )
    assert "updatedInput" not in denied.stdout and "clearance sandbox" not in denied.stdout
    read = hook(
        agent,
        payload_for(agent, project, "Read", {"file_path": str(project / "src" / "a.py")}),
        "--sandbox",
        "--no-ledger",
    )
    assert "updatedInput" not in read.stdout


def test_a_profile_the_decision_selects_is_named_and_its_widenings_recorded(
    hook: Hook, project: Path, tmp_path: Path
) -> None:
    policy = tmp_path / "profile.yaml"
    policy.write_text(PROFILE_POLICY)
    ledger = tmp_path / "ledger.jsonl"
    payload = payload_for("claude-code", project, "Bash", {"command": "touch x"})
    result = hook(
        "claude-code",
        payload,
        "--sandbox",
        "--ledger",
        str(ledger),
        "--policy",
        str(policy),
        default_policy=False,
    )
    words = shlex.split(str(_updated("claude-code", result.json())["command"]))
    assert words[words.index("--profile") + 1] == "suite"
    assert words[words.index("--policy") + 1] == str(policy)
    record = json.loads(ledger.read_text().splitlines()[-1])
    sandbox = record["decision"]["sandbox"]
    assert sandbox["profile"] == "suite"
    assert any("writable ~/.cache/wheels" in w for w in sandbox["widenings"])
    assert any("expose .env.test" in w for w in sandbox["widenings"])


#: Commands as an agent sends them: text that can be encoded (no NUL, no lone surrogate).
@given(
    st.text(
        alphabet=st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)),
        min_size=1,
        max_size=80,
    )
)
@settings(max_examples=150, deadline=None)
def test_nothing_in_the_command_escapes_the_wrapper(command: str) -> None:
    """The rewritten line, as the agent's shell reads it, hands the original to the wrapper as
    one word and runs nothing else: the wrapper is replaced by a printer of its argv."""
    wrapped = wrap_command(command, Confinement(network=True))
    head = shlex.quote(sys.executable)
    assert wrapped.startswith(head + " ")
    probe = "printf '%s\\0'" + wrapped[len(head) :]
    done = subprocess.run(["bash", "-c", probe], capture_output=True, timeout=10, check=False)
    argv = done.stdout.decode("utf-8", "surrogateescape").split("\0")[:-1]
    assert argv == ["-P", "-m", "clearance", "sandbox", "--allow-network", "--", "bash", "-c",
                    command]  # fmt: skip
    assert done.stderr == b""


@pytest.mark.parametrize("agent", ["claude-code", "codex", "gemini-cli"])
def test_install_with_sandbox_registers_the_sandboxing_hook(
    project: Path, tmp_path: Path, agent: str
) -> None:
    import io

    from clearance.hooks.install import run_install

    home = tmp_path / "home"
    home.mkdir()
    out, err = io.StringIO(), io.StringIO()
    code = run_install(
        agent,
        project=str(project),
        scope="project" if agent != "codex" else "user",
        command=f"/opt/venv/bin/clearance hook {agent}",
        sandbox=True,
        env={"HOME": str(home), "CODEX_HOME": str(home / ".codex")},
        out=out,
        err=err,
    )
    assert code == 0, err.getvalue()
    assert f"hook command: /opt/venv/bin/clearance hook {agent} --sandbox" in out.getvalue()


@pytest.mark.parametrize(("agent", "expected"), [("claude-code", "ask"), ("codex", "deny")])
def test_without_a_sandbox_an_allow_becomes_an_ask(
    hook: Hook, project: Path, agent: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLEARANCE_BWRAP", "/nonexistent/bwrap")
    payload = payload_for(agent, project, "Bash", {"command": "touch a"})
    result = hook(agent, payload, "--sandbox", "--no-ledger")
    assert result.code == 0
    assert result.reason_code == "sandbox_unavailable"
    specific = result.json()["hookSpecificOutput"]
    assert specific["permissionDecision"] == expected  # type: ignore[index]
    assert "bubblewrap (bwrap) is not installed" in specific["permissionDecisionReason"]  # type: ignore[index]
    assert "updatedInput" not in specific  # type: ignore[operator]


def test_clearance_sandbox_never_runs_what_it_cannot_confine(tmp_path: Path) -> None:
    import os

    marker = tmp_path / "ran"
    done = subprocess.run(
        [sys.executable, "-m", "clearance", "sandbox", "--", "touch", str(marker)],
        env={**os.environ, "CLEARANCE_BWRAP": "/nonexistent/bwrap"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 125
    assert "the command did not run" in done.stderr
    assert not marker.exists()
