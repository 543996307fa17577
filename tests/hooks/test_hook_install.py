"""``clearance hook install``: merged into each agent's settings, idempotent, and never writing a
file the agent would reject or silently drop."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hookcases import AGENTS, Result, assert_blocked_on_error

from clearance.hooks.install import NOT_INSTALLED, hook_command, launcher, run_install, toml_string

COMMAND = "/opt/venv/bin/clearance hook {agent}"


def install(agent: str, project: Path, home: Path, **kwargs: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    env = {"HOME": str(home), **kwargs.pop("env", {})}  # type: ignore[dict-item]
    code = run_install(
        agent,
        project=str(project),
        command=str(kwargs.pop("command", COMMAND.format(agent=agent))),
        env=env,
        out=out,
        err=err,
        **kwargs,  # type: ignore[arg-type]
    )
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


# ---- Claude Code ------------------------------------------------------------------------------


def test_claude_new_project_settings(project: Path, home: Path) -> None:
    code, out, _ = install("claude-code", project, home)
    assert code == 0 and "installed" in out
    data = json.loads((project / ".claude" / "settings.json").read_text())
    assert data == {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": ".*",
                    "hooks": [
                        {
                            "type": "command",
                            "command": "/opt/venv/bin/clearance hook claude-code",
                            "timeout": 30,
                        }
                    ],
                }
            ]
        }
    }


def test_claude_merge_keeps_everything_and_is_idempotent(project: Path, home: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    existing = {
        "permissions": {"allow": ["Bash(ls:*)"], "deny": []},
        "env": {"X": "1"},
        "someFutureKey": {"nested": [1, 2]},
        "hooks": {
            "PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "fmt"}]}],
            "PostToolUse": [{"hooks": [{"type": "command", "command": "log", "timeout": 5}]}],
        },
    }
    settings.write_text(json.dumps(existing))
    assert install("claude-code", project, home)[0] == 0
    data = json.loads(settings.read_text())
    for key in ("permissions", "env", "someFutureKey"):
        assert data[key] == existing[key]
    assert data["hooks"]["PostToolUse"] == existing["hooks"]["PostToolUse"]  # type: ignore[index]
    pre = data["hooks"]["PreToolUse"]
    assert pre[0] == existing["hooks"]["PreToolUse"][0]  # type: ignore[index]
    assert pre[1]["hooks"][0]["command"] == "/opt/venv/bin/clearance hook claude-code"
    before = settings.read_bytes()
    code, out, _ = install("claude-code", project, home)
    assert code == 0 and "already installed" in out
    assert settings.read_bytes() == before


def test_claude_changed_command_is_updated_in_place(project: Path, home: Path) -> None:
    install("claude-code", project, home, command="clearance hook claude-code")
    code, out, _ = install("claude-code", project, home, timeout_s=10)
    assert code == 0 and "updated" in out
    pre = json.loads((project / ".claude" / "settings.json").read_text())["hooks"]["PreToolUse"]
    assert len(pre) == 1
    assert pre[0]["hooks"][0] == {
        "type": "command",
        "command": "/opt/venv/bin/clearance hook claude-code",
        "timeout": 10,
    }


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"hooks": {}, }', "not valid JSON"),
        ('// comment\n{"hooks": {}}', "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"hooks": []}', "'hooks' must be an object"),
        ('{"hooks": {"PreToolUse": {"matcher": "x"}}}', "must be an array"),
        (
            '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x", '
            '"timeout": "sixty"}]}]}}',
            "timeout must be a positive number",
        ),
        ('{"permissions": {"allow": "x"}}', "permissions.allow must be an array of strings"),
        ('{"env": {"A": 1}}', "'env' must be an object of strings"),
    ],
)
def test_claude_refuses_a_file_it_would_drop(
    project: Path, home: Path, text: str, why: str
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(text)
    code, _, err = install("claude-code", project, home)
    assert code == 2 and why in err and "refusing" in err
    assert settings.read_text() == text  # untouched
    assert '"PreToolUse"' in err  # the block to merge by hand is shown


def test_claude_bom_is_kept(project: Path, home: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b'\xef\xbb\xbf{"model": "x"}')
    assert install("claude-code", project, home)[0] == 0
    raw = settings.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert json.loads(raw.decode("utf-8-sig"))["model"] == "x"


def test_claude_user_scope_and_disable_all_hooks_warning(project: Path, home: Path) -> None:
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text('{"disableAllHooks": true}')
    code, _, err = install("claude-code", project, home, scope="user")
    assert code == 0
    assert "disableAllHooks" in err
    data = json.loads((home / ".claude" / "settings.json").read_text())
    assert data["disableAllHooks"] is True and "PreToolUse" in data["hooks"]
    assert not (project / ".claude").exists()


def test_dry_run_writes_nothing(project: Path, home: Path) -> None:
    code, out, _ = install("claude-code", project, home, dry_run=True)
    assert code == 0 and "would install" in out and '"PreToolUse"' in out
    assert not (project / ".claude").exists()


# ---- Gemini CLI -------------------------------------------------------------------------------


def test_gemini_timeout_is_in_milliseconds(project: Path, home: Path) -> None:
    code, _, err = install("gemini-cli", project, home, timeout_s=45)
    assert code == 0
    data = json.loads((project / ".gemini" / "settings.json").read_text())
    (group,) = data["hooks"]["BeforeTool"]
    assert group["hooks"] == [
        {
            "type": "command",
            "command": "/opt/venv/bin/clearance hook gemini-cli",
            "name": "clearance",
            "timeout": 45000,
        }
    ]
    assert "not trusted" not in err and "trusted" in err  # trust cannot be confirmed: warned


def test_gemini_trusted_folder_gets_no_trust_warning(project: Path, home: Path) -> None:
    (home / ".gemini").mkdir()
    (home / ".gemini" / "trustedFolders.json").write_text(
        json.dumps({str(project.parent): "TRUST_FOLDER"})
    )
    _, _, err = install("gemini-cli", project, home)
    assert "ignores project settings" not in err
    (home / ".gemini" / "trustedFolders.json").write_text(
        json.dumps({str(project): "DO_NOT_TRUST"})
    )
    _, _, err = install("gemini-cli", project, home, command="other clearance hook gemini-cli")
    assert "marked untrusted" in err


def test_gemini_comments_are_not_rewritten(project: Path, home: Path) -> None:
    settings = project / ".gemini" / "settings.json"
    settings.parent.mkdir()
    text = '{\n  // my theme\n  "theme": "dark"\n}\n'
    settings.write_text(text)
    code, _, err = install("gemini-cli", project, home)
    assert code == 2 and "comments" in err and '"BeforeTool"' in err
    assert settings.read_text() == text


def test_gemini_trailing_comma_is_refused(project: Path, home: Path) -> None:
    settings = project / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"theme": "dark",}')
    code, _, err = install("gemini-cli", project, home)
    assert code == 2 and "refuses to start" in err


# ---- Codex ------------------------------------------------------------------------------------

EXISTING_TOML = """\
model = "gpt-5"  # keep this comment

[projects."/somewhere"]
trust_level = "trusted"

[[hooks.PostToolUse]]
matcher = "Bash"
[[hooks.PostToolUse.hooks]]
type = "command"
command = "log-it"
"""


def test_codex_block_is_appended_without_touching_the_file(project: Path, home: Path) -> None:
    config = project / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(EXISTING_TOML)
    code, _, _ = install("codex", project, home)
    assert code == 0
    text = config.read_text()
    assert text.startswith(EXISTING_TOML)  # byte for byte: nothing reformatted
    data = tomllib.loads(text)
    assert data["model"] == "gpt-5"
    assert data["hooks"]["PostToolUse"][0]["hooks"][0]["command"] == "log-it"
    (group,) = data["hooks"]["PreToolUse"]
    assert group == {
        "matcher": ".*",
        "hooks": [
            {"type": "command", "command": "/opt/venv/bin/clearance hook codex", "timeout": 30}
        ],
    }
    before = config.read_bytes()
    code, out, _ = install("codex", project, home)
    assert code == 0 and "already installed" in out and config.read_bytes() == before


def test_codex_user_scope_uses_codex_home_and_warns_about_hook_trust(
    project: Path, home: Path, tmp_path: Path
) -> None:
    codex_home = tmp_path / "codex-home"
    code, _, err = install(
        "codex", project, home, scope="user", env={"CODEX_HOME": str(codex_home)}
    )
    assert code == 0
    assert "hooks" in tomllib.loads((codex_home / "config.toml").read_text())
    assert "only after it is trusted" in err
    assert "trusted projects" not in err  # user scope needs no project trust


def test_codex_project_trust_warning(project: Path, home: Path) -> None:
    _, _, err = install("codex", project, home)
    assert "not marked" in err and "trust_level" in err
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(
        f'[projects.{toml_string(str(project))}]\ntrust_level = "trusted"\n'
    )
    (project / ".codex" / "config.toml").unlink()
    _, _, err = install("codex", project, home)
    assert "not marked" not in err


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("model = \n", "not valid TOML"),
        ("hooks = { PreToolUse = [] }\n", "cannot"),
        ("[hooks]\nPreToolUse = []\n", "cannot"),
        (
            '[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\n'
            'command = "x"\ntimeout = "sixty"\n',
            "timeout must be a positive number",
        ),
    ],
)
def test_codex_refuses_what_it_cannot_safely_extend(
    project: Path, home: Path, text: str, why: str
) -> None:
    config = project / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(text)
    code, _, err = install("codex", project, home)
    assert code == 2 and why in err
    assert config.read_text() == text
    assert "[[hooks.PreToolUse]]" in err


def test_codex_existing_different_clearance_hook_is_left_alone(project: Path, home: Path) -> None:
    install("codex", project, home, command="clearance hook codex")
    config = project / ".codex" / "config.toml"
    before = config.read_bytes()
    code, _, err = install("codex", project, home)
    assert code == 2 and "edit it by hand" in err
    assert config.read_bytes() == before


@pytest.mark.parametrize("value", ['a"b', "back\\slash", "tab\there", "new\nline", "é ü", "\x01"])
def test_toml_strings_round_trip(value: str) -> None:
    assert tomllib.loads(f"k = {toml_string(value)}")["k"] == value


def test_commands_with_odd_characters_round_trip(project: Path, home: Path) -> None:
    command = '/path with space/"q"/clearance hook codex'
    assert install("codex", project, home, command=command)[0] == 0
    data = tomllib.loads((project / ".codex" / "config.toml").read_text())
    assert data["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == command


# ---- the command line -------------------------------------------------------------------------


def test_usage_errors(project: Path, home: Path) -> None:
    assert install("cursor", project, home)[0] == 2
    assert install("codex", project, home, scope="global")[0] == 2
    assert install("codex", project, home, timeout_s=0)[0] == 2
    assert not (project / ".codex").exists()


# ---- the launcher: present or blocking ---------------------------------------------------------

BARE_PATH = "/usr/local/bin:/usr/bin:/bin"


def run_launcher(command: str, path: str, stdin: bytes = b"{}", cwd: Path | None = None) -> Result:
    """Run a hook command line the way the agents do (a shell), with ``PATH`` set to ``path``."""
    proc = subprocess.run(
        ["/bin/sh", "-c", command],
        input=stdin,
        capture_output=True,
        env={**os.environ, "PATH": path},
        cwd=cwd,
        timeout=60,
        check=False,
    )
    return Result(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def fake_clearance(directory: Path, body: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / "clearance"
    script.write_text(body)
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("agent", AGENTS)
def test_project_scope_names_no_path_of_this_machine(agent: str, tmp_path: Path) -> None:
    command = hook_command(agent, str(fake_clearance(tmp_path / "bin", "#!/bin/sh\n")))
    assert command.startswith("sh -c ") and command.endswith(f"clearance hook {agent}")
    for local in (str(tmp_path), sys.prefix, sys.executable):
        assert local not in command


@pytest.mark.parametrize("agent", AGENTS)
def test_launcher_blocks_where_clearance_is_not_installed(agent: str) -> None:
    result = run_launcher(launcher(agent), BARE_PATH)
    reason = assert_blocked_on_error(agent, result)
    assert NOT_INSTALLED in reason and NOT_INSTALLED in result.stderr


@pytest.mark.parametrize("agent", AGENTS)
def test_launcher_refuses_a_relative_path_hit(agent: str, tmp_path: Path) -> None:
    """``PATH=.:...`` would run a ``clearance`` the agent planted in the workspace."""
    fake_clearance(tmp_path, "#!/bin/sh\nexit 0\n")
    result = run_launcher(launcher(agent), f".:{BARE_PATH}", cwd=tmp_path)
    assert NOT_INSTALLED in assert_blocked_on_error(agent, result)


@pytest.mark.parametrize(
    "body",
    ["#!/bin/sh\nexit 1\n", "#!/nonexistent/python3\n", "#!/bin/sh\nkill -TERM $$\n",
     "#!/bin/sh\nexit 3\n"],
    ids=["exit-1", "interpreter-gone", "killed", "exit-3"],
)  # fmt: skip
@pytest.mark.parametrize("agent", AGENTS)
def test_launcher_turns_every_other_ending_into_a_block(
    agent: str, body: str, tmp_path: Path
) -> None:
    fake_clearance(tmp_path / "bin", body)
    result = run_launcher(launcher(agent), f"{tmp_path / 'bin'}:{BARE_PATH}")
    assert "ended with exit status" in assert_blocked_on_error(agent, result)


@pytest.mark.parametrize("agent", AGENTS)
def test_launcher_passes_decisions_and_blocks_through(agent: str, tmp_path: Path) -> None:
    fake_clearance(tmp_path / "bin", '#!/bin/sh\ncat >/dev/null; echo "ARGS $*"; exit 0\n')
    result = run_launcher(launcher(agent), f"{tmp_path / 'bin'}:{BARE_PATH}")
    assert result.code == 0 and result.stdout == f"ARGS hook {agent}\n", result
    fake_clearance(tmp_path / "bin", "#!/bin/sh\necho own-block >&2; exit 2\n")
    result = run_launcher(launcher(agent), f"{tmp_path / 'bin'}:{BARE_PATH}")
    assert result.code == 2 and result.stderr == "own-block\n", result


@pytest.mark.parametrize("agent", AGENTS)
def test_user_scope_pins_this_clearance_and_blocks_when_it_disappears(
    agent: str, tmp_path: Path
) -> None:
    script = fake_clearance(tmp_path / "bin", "#!/bin/sh\ncat >/dev/null; exit 0\n")
    command = hook_command(agent, str(script), scope="user")
    assert str(script) in command
    assert run_launcher(command, BARE_PATH).code == 0  # found by its path, not PATH
    script.unlink()
    result = run_launcher(command, f"{tmp_path / 'bin'}:{BARE_PATH}")
    assert NOT_INSTALLED in assert_blocked_on_error(agent, result)


def test_launcher_runs_the_real_hook(project: Path) -> None:
    """With the real clearance on PATH the launcher is transparent: a decision comes back."""
    payload = {
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
        "cwd": str(project), "session_id": "s",
    }  # fmt: skip
    path = f"{Path(sys.executable).parent}:{BARE_PATH}"
    result = run_launcher(
        launcher("claude-code") + " --no-ledger", path, json.dumps(payload).encode()
    )
    assert result.code == 0, result
    assert result.json()["hookSpecificOutput"]["permissionDecision"] == "allow"


def test_install_through_the_command_line(project: Path, home: Path, tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(home), "CLEARANCE_CACHE_DIR": str(tmp_path / "cache")}
    argv = [
        sys.executable,
        "-m",
        "clearance",
        "hook",
        "install",
        "gemini-cli",
        "--project",
        str(project),
        "--timeout",
        "12",
    ]
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    (group,) = json.loads((project / ".gemini" / "settings.json").read_text())["hooks"][
        "BeforeTool"
    ]
    entry = group["hooks"][0]
    assert entry["timeout"] == 12000
    # Project scope: the launcher, which finds clearance on PATH when the hook runs.
    assert entry["command"].startswith("sh -c ")
    assert entry["command"].endswith("clearance hook gemini-cli --deadline 4")  # 12 s / 3
    helped = subprocess.run(
        [sys.executable, "-m", "clearance", "hook", "codex", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert helped.returncode == 0 and "--policy" in helped.stdout
