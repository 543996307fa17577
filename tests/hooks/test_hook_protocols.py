"""Each agent's answer format, the reasons the model reads, and every way a hook call fails:
blocked (exit 2), never exit 0 or 1 on an error."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hookcases import (
    AGENTS,
    CODEX_SPECIFIC_KEYS,
    CODEX_TOP_KEYS,
    Result,
    assert_blocked_on_error,
    denial_reason,
    payload_for,
)

from clearance.engine.ledger import default_ledger_path, read_records, verify
from clearance.hooks import base, protocol

Hook = object  # the fixtures' callables; typed loosely here


def shell(agent: str, project: Path, command: str, **extra: object) -> dict[str, object]:
    tool = {"claude-code": "Bash", "gemini-cli": "run_shell_command", "codex": "Bash"}[agent]
    return payload_for(agent, project, tool, {"command": command}, **extra)


def ledger_records(project: Path) -> list[dict[str, object]]:
    path = Path(default_ledger_path(str(project)))  # the project's, in the state dir
    assert verify(str(path)).ok
    return list(read_records(str(path)))


# ---- decisions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("agent", AGENTS)
def test_deny_names_rule_reason_part_and_decision(agent: str, hook, project: Path) -> None:
    result = hook(agent, shell(agent, project, "ls && touch /tmp/marker_deny"))
    assert result.code == 0, result
    reason = denial_reason(agent, result)
    assert reason.startswith("[t/no-marker] marker writes are forbidden (part: touch ")
    (record,) = ledger_records(project)
    decision = record["decision"]
    assert isinstance(decision, dict)
    assert f"[clearance decision {decision['decision_id']}]" in reason
    assert decision["decision"] == "deny" and decision["policy_id"] == "t/no-marker"
    assert record["agent"] == agent and record["surface"] == "hook"
    assert record["session_id"] == "sess-1"


def test_claude_allow_and_ask_are_explicit(hook, project: Path) -> None:
    allow = hook("claude-code", shell("claude-code", project, "touch notes.txt")).json()
    assert allow == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": allow["hookSpecificOutput"]["permissionDecisionReason"],  # type: ignore[index]
        }
    }
    ask = hook("claude-code", shell("claude-code", project, "frobnicate --all"))
    assert ask.code == 0
    block = ask.json()["hookSpecificOutput"]
    assert isinstance(block, dict) and block["permissionDecision"] == "ask"
    # No rule decided: the reason code takes the rule id's place.
    assert str(block["permissionDecisionReason"]).startswith("[default] no rule matched")


def test_gemini_allow_and_ask(hook, project: Path) -> None:
    allow = hook("gemini-cli", shell("gemini-cli", project, "touch notes.txt"))
    assert allow.code == 0 and allow.json()["decision"] == "allow"
    assert str(allow.json()["reason"]).startswith("[t/allow-touch] touch is harmless here")
    # Gemini CLI hangs on "ask" in headless mode: it becomes a deny that says why.
    ask = hook("gemini-cli", shell("gemini-cli", project, "frobnicate --all"))
    reason = denial_reason("gemini-cli", ask)
    assert ask.code == 0 and "approval" in reason and "[default]" in reason


def test_codex_allow_is_empty_and_ask_is_a_deny(hook, project: Path) -> None:
    allow = hook("codex", shell("codex", project, "touch notes.txt"))
    assert (allow.code, allow.stdout) == (0, "")
    ask = hook("codex", shell("codex", project, "frobnicate --all"))
    reason = denial_reason("codex", ask)
    assert ask.code == 0 and "approval" in reason and "[default]" in reason
    assert set(ask.json()) <= CODEX_TOP_KEYS
    assert set(ask.json()["hookSpecificOutput"]) <= CODEX_SPECIFIC_KEYS  # type: ignore[arg-type]


def test_fail_closed_reason_carries_its_reason_code(hook, project: Path, tmp_path: Path) -> None:
    lenient = tmp_path / "lenient.yaml"
    lenient.write_text("version: 1\nid: l\ndefaults: {decision: allow}\nrules: []\n")
    result = hook(
        "claude-code",
        shell("claude-code", project, "$TOOL --all"),
        "--policy",
        str(lenient),
        default_policy=False,
    )
    block = result.json()["hookSpecificOutput"]
    assert isinstance(block, dict) and block["permissionDecision"] == "ask"
    assert str(block["permissionDecisionReason"]).startswith("[dynamic_command] ")


@pytest.mark.parametrize("agent", AGENTS)
def test_stdout_is_one_json_line_or_nothing(agent: str, hook, project: Path) -> None:
    for command in ("touch a", "touch marker_deny", "frobnicate"):
        result = hook(agent, shell(agent, project, command))
        assert result.stdout == "" or (
            result.stdout.endswith("\n") and result.stdout.count("\n") == 1
        )


def test_reason_survives_quotes_and_unicode(hook, project: Path) -> None:
    command = "touch 'marker_deny \"x\" <y> é'"
    result = hook("claude-code", shell("claude-code", project, command))
    reason = denial_reason("claude-code", result)
    assert "[t/no-marker]" in reason and "é" in reason


def test_lone_surrogate_in_the_command_still_gives_valid_utf8(hook, project: Path) -> None:
    raw = json.dumps(shell("codex", project, "touch marker_deny_\udc80")).encode()
    result = hook("codex", raw)
    assert result.code == 0
    reason = denial_reason("codex", result)
    reason.encode("utf-8")  # strict: what Codex's parser needs


# ---- payloads mapped to intents ---------------------------------------------------------------


def test_gemini_relative_paths_are_resolved_against_cwd(hook, project: Path) -> None:
    payload = payload_for("gemini-cli", project, "read_file", {"file_path": "src/app.py"})
    result = hook("gemini-cli", payload)
    assert result.json()["decision"] == "allow", result
    (record,) = ledger_records(project)
    intent = record["intent"]
    assert isinstance(intent, dict)
    assert intent["input"] == {"file_path": str(project / "src" / "app.py")}
    secret = payload_for("gemini-cli", project, "read_file", {"file_path": ".env"})
    assert "[t/no-secrets]" in denial_reason("gemini-cli", hook("gemini-cli", secret))


def test_gemini_shell_runs_in_dir_path(hook, project: Path) -> None:
    payload = shell("gemini-cli", project, "ls", dir_path=None)
    payload["tool_input"] = {"command": "ls", "dir_path": "src"}
    hook("gemini-cli", payload)
    (record,) = ledger_records(project)
    assert record["cwd"] == str(project / "src")


def test_codex_apply_patch_is_judged_by_the_files_it_touches(hook, project: Path) -> None:
    patch = "*** Begin Patch\n*** Add File: {}\n+hi\n*** End Patch\n"
    good = payload_for("codex", project, "apply_patch", {"command": patch.format("hello.txt")})
    assert hook("codex", good).stdout == ""
    bad = payload_for("codex", project, "apply_patch", {"command": patch.format(".env")})
    assert "[t/no-secrets]" in denial_reason("codex", hook("codex", bad))


def test_claude_project_dir_is_the_workspace(hook, project: Path, tmp_path: Path) -> None:
    nested = project / "src"
    payload = payload_for("claude-code", nested, "Write", {"file_path": str(project / "x.txt")})
    env = {"CLAUDE_PROJECT_DIR": str(project)}
    assert (
        hook("claude-code", payload, env=env).json()["hookSpecificOutput"]["permissionDecision"]
        == "allow"
    )  # type: ignore[index]
    (record,) = ledger_records(project)
    assert record["workspace"] == str(project)
    # A project dir the cwd is not inside is ignored (the repository root is used).
    elsewhere = {"CLAUDE_PROJECT_DIR": str(tmp_path / "other")}
    hook("claude-code", payload, env=elsewhere)
    assert ledger_records(project)[1]["workspace"] == str(project)


def test_unknown_tool_gets_the_unknown_tool_decision(hook, project: Path) -> None:
    payload = payload_for("claude-code", project, "mcp__x__do", {"a": 1})
    block = hook("claude-code", payload).json()["hookSpecificOutput"]
    assert isinstance(block, dict) and block["permissionDecision"] == "ask"
    assert str(block["permissionDecisionReason"]).startswith("[unknown_tool] ")


# ---- events -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "event"),
    [("claude-code", "PostToolUse"), ("gemini-cli", "AfterTool"), ("codex", "PostToolUse")],
)
def test_post_tool_events_are_acknowledged_not_blocked(
    agent: str, event: str, hook, project: Path
) -> None:
    payload = shell(agent, project, "touch marker_deny", hook_event_name=event)
    result = hook(agent, payload)
    assert (result.code, result.stdout) == (0, "")
    assert "after the tool ran" in result.stderr
    assert not (project / ".clearance").exists()  # nothing decided, nothing recorded


@pytest.mark.parametrize(
    ("agent", "event"),
    [
        ("claude-code", "UserPromptSubmit"),
        ("claude-code", "BeforeTool"),
        ("gemini-cli", "PreToolUse"),
        ("codex", "BeforeTool"),
        ("codex", "PreToolUSE"),
    ],
)
def test_other_events_block(agent: str, event: str, hook, project: Path) -> None:
    result = hook(agent, shell(agent, project, "touch a", hook_event_name=event))
    reason = assert_blocked_on_error(agent, result)
    assert "[bad_input]" in reason and event in reason


# ---- errors -----------------------------------------------------------------------------------

BAD_FIELDS: dict[str, dict[str, object]] = {
    "tool_name missing": {"tool_name": None},
    "tool_name number": {"tool_name": 7},
    "tool_name empty": {"tool_name": " "},
    "tool_input list": {"tool_input": ["ls"]},
    "tool_input string": {"tool_input": "ls"},
    "command number": {"tool_input": {"command": 5}},
    "command empty": {"tool_input": {"command": "  "}},
    "command missing": {"tool_input": {"description": "x"}},
    "cwd missing": {"cwd": None},
    "cwd relative": {"cwd": "project"},
    "cwd object": {"cwd": {"a": 1}},
    "session_id number": {"session_id": 12},
    "tool_use_id list": {"tool_use_id": ["x"]},
    "event number": {"hook_event_name": 1},
    "event missing": {"hook_event_name": None},
}


@pytest.mark.parametrize("case", BAD_FIELDS, ids=list(BAD_FIELDS))
@pytest.mark.parametrize("agent", AGENTS)
def test_wrong_or_missing_fields_block(agent: str, case: str, hook, project: Path) -> None:
    payload = shell(agent, project, "touch a")
    for key, value in BAD_FIELDS[case].items():
        if value is None:
            payload.pop(key, None)
        else:
            payload[key] = value
    result = hook(agent, payload)
    assert_blocked_on_error(agent, result)
    assert result.reason_code == "bad_input", result


@pytest.mark.parametrize("agent", AGENTS)
def test_broken_policy_blocks(agent: str, hook, project: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: 1\nid: b\nrules:\n  - id: x\n    decision: maybe\n")
    result = hook(agent, shell(agent, project, "touch a"), "--policy", str(broken),
                  default_policy=False)  # fmt: skip
    reason = assert_blocked_on_error(agent, result)
    assert result.reason_code == "policy_error"
    assert "[policy_error]" in reason and "broken.yaml:5" in reason


@pytest.mark.parametrize("agent", AGENTS)
def test_unwritable_ledger_blocks(agent: str, hook, project: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    result = hook(agent, shell(agent, project, "touch a"), "--ledger", str(blocker / "l.jsonl"))
    reason = assert_blocked_on_error(agent, result)
    assert result.reason_code == "internal_error" and "ledger" in reason


def test_no_ledger_writes_nothing(hook, project: Path) -> None:
    result = hook("claude-code", shell("claude-code", project, "touch a"), "--no-ledger")
    assert result.code == 0
    assert not (project / ".clearance").exists()


def test_explicit_ledger_is_used(hook, project: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "audit.jsonl"
    hook("codex", shell("codex", project, "touch a"), "--ledger", str(ledger))
    assert verify(str(ledger)).records == 1
    assert not (project / ".clearance").exists()


@pytest.mark.parametrize(
    "args",
    [["--bogus"], ["--policy"], ["--policy="], ["--ledger", "x", "--no-ledger"], ["extra"]],
    ids=["unknown", "missing-value", "empty-value", "contradiction", "positional"],
)
@pytest.mark.parametrize("agent", AGENTS)
def test_bad_hook_arguments_block(agent: str, args: list[str], hook, project: Path) -> None:
    result = hook(agent, shell(agent, project, "touch a"), *args)
    assert "bad hook arguments" in assert_blocked_on_error(agent, result)


def test_payload_limit_and_depth_are_enforced() -> None:
    stream = io.BytesIO(b"x" * (base.MAX_PAYLOAD + 10))
    with pytest.raises(base.BadPayload, match="larger than 5 MB"):
        base.read_payload(stream)
    assert stream.read() == b""  # the rest was drained
    assert base.read_payload(io.BytesIO(b"{}")) == b"{}"
    deep = b'{"a":' * 70 + b"1" + b"}" * 70
    with pytest.raises(base.BadPayload, match="nested deeper"):
        base.parse_payload(deep)
    with pytest.raises(base.BadPayload, match="not JSON"):
        base.parse_payload(b'{"a": NaN}')


#: JSON texts around the edges of the payload reader's own decode (whitespace, trailing
#: text, constants, surrogates, numbers, nesting, nothing at all).
_JSON_EDGES = [
    '{"a": 1}',
    ' \t\r\n{"a": [1, 2.5e3, -0.0, true, null, "x"]} \n',
    '{"a": 1} x',
    '{"a": 1}{"b": 2}',
    '{"a": 1}\u00a0',
    "{} \f",
    "",
    "   ",
    "\u00a0{}",
    '{"a": NaN}',
    '{"a": -Infinity}',
    '{"a": "\\ud800"}',
    '{"a": 123456789012345678901234567890}',
    '{"a": 1,}',
    '{"a" 1}',
    '{"a": "unterminated}',
    "[1, 2]",
    '"text"',
    "nul\u0000l",
    '{"a": ' * 40 + "1" + "}" * 40,
    "[" * 3000 + "]" * 3000,
]


@pytest.mark.parametrize("text", _JSON_EDGES)
def test_the_payload_decode_is_json_decode(text: str) -> None:
    """The payload reader scans without ``JSONDecoder.decode``'s Python steps: the value, or
    the error and its message, is what that decoder gives for every edge."""
    decoder = json.JSONDecoder(parse_constant=base._no_constant)

    def outcome(decode: Callable[[str], object]) -> tuple[str, object]:
        try:
            return "value", decode(text)
        except RecursionError:
            return "deep", None
        except ValueError as error:
            return type(error).__name__, str(error)

    expected = outcome(decoder.decode)
    assert outcome(base._decode) == expected
    assert expected[0] != "value" or text.strip(" \t\r\n").startswith(("{", "[", '"'))


@pytest.mark.parametrize("agent", AGENTS)
def test_a_bug_inside_the_hook_blocks(
    agent: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """Any exception escaping the hook's body (here: the stream it reads the payload from
    raises, as a bug would) is a block with the exception's text, through the same path
    ``clearance hook`` answers by (``answer_once`` takes its stdin as an argument)."""

    class Exploding(io.BytesIO):
        def read(self, size: int | None = -1, /) -> bytes:
            raise RuntimeError("boom")

    code = base.answer_once(protocol(agent), agent, [], Exploding, base.emit)
    out, err = capfd.readouterr()
    reason = assert_blocked_on_error(agent, Result(code, out, err))
    assert "[internal_error]" in reason and "boom" in reason
    # its twin: the same call with a readable payload decides
    (tmp_path / ".git").mkdir()
    payload = json.dumps(shell(agent, tmp_path, "ls")).encode()
    code = base.answer_once(protocol(agent), agent, [], lambda: io.BytesIO(payload), base.emit)
    out, err = capfd.readouterr()
    assert code == 0 and "[internal_error]" not in out + err, (out, err)


@pytest.mark.parametrize("agent", AGENTS)
def test_a_protocol_that_cannot_load_still_blocks(
    agent: str, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """The agent's protocol module cannot be imported (``None`` in ``sys.modules`` makes
    every import of it fail, as a broken install would): the CLI's fallback still blocks."""
    from clearance.cli.commands.hook import run_hook
    from clearance.hooks import AGENTS as MODULES

    monkeypatch.setitem(sys.modules, MODULES[agent], None)
    code = run_hook(agent, [])
    out, err = capfd.readouterr()
    assert_blocked_on_error(agent, Result(code, out, err))
    assert "ImportError" in err or "ModuleNotFoundError" in err, err


# ---- as a process -----------------------------------------------------------------------------


@pytest.mark.parametrize("agent", AGENTS)
def test_process_exit_status_and_streams(agent: str, hook_process, project: Path) -> None:
    deny = hook_process(agent, shell(agent, project, "touch marker_deny"))
    assert deny.code == 0 and "[t/no-marker]" in denial_reason(agent, deny)
    assert deny.stderr == ""
    broken = hook_process(agent, b"{not json")
    assert "[bad_input]" in assert_blocked_on_error(agent, broken)


def test_closed_stdout_blocks(project: Path, policy: Path, tmp_path: Path) -> None:
    """An answer nobody can read is no answer: exit 2, not 0 (SIGPIPE is ignored by Python,
    so the write fails with EPIPE)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    env = {**os.environ, "CLEARANCE_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run(
        [sys.executable, "-m", "clearance", "hook", "claude-code", "--policy", str(policy)],
        input=json.dumps(shell("claude-code", project, "touch a")).encode(),
        stdout=write_end,
        stderr=subprocess.PIPE,
        env=env,
        timeout=60,
        check=False,
    )
    os.close(write_end)
    assert proc.returncode == 2
    assert b"could not write the answer" in proc.stderr


def test_hook_path_imports_nothing_heavy(project: Path, policy: Path, tmp_path: Path) -> None:
    """typer, pydantic, yaml and structlog cost more to import than a hook call may take;
    ``ast`` (which reading a ``python -c`` program needs) 2 ms that a ``touch`` need not pay."""
    probe = (
        "import sys\n"
        "import clearance.cli.main\n"
        "import clearance.cli.commands.hook\n"
        "from clearance.hooks import protocol\n"
        "from clearance.hooks.base import run\n"
        "# what the hook's worker process runs (the supervisor forks it), in this process\n"
        "code = run(protocol('claude-code'), ['--policy', sys.argv[1]])\n"
        "heavy = sorted(m for m in ('typer', 'click', 'pydantic', 'yaml', 'structlog', 'httpx',\n"
        "                           'ast')\n"
        "               if m in sys.modules)\n"
        "sys.stderr.write('HEAVY=' + ','.join(heavy) + '\\n')\n"
        "raise SystemExit(code)\n"
    )
    env = {**os.environ, "CLEARANCE_CACHE_DIR": str(tmp_path / "cache")}
    payload = json.dumps(shell("claude-code", project, "touch a")).encode()
    for _ in range(2):  # the first call fills the compiled-policy cache, the second uses it
        proc = subprocess.run(
            [sys.executable, "-c", probe, str(policy)],
            input=payload,
            capture_output=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
    assert b"HEAVY=\n" in proc.stderr, proc.stderr
