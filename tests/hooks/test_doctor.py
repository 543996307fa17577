"""``clearance doctor``: finds every way an installed hook would not run or not block, says how to
fix it, and exits non-zero for each of them -- run against real settings files and the real
hook command (the launcher ``hook install`` writes), on PATHs with and without clearance."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from clearance.hooks.doctor import run_doctor
from clearance.hooks.install import NOT_INSTALLED, hook_command, run_install

BARE_PATH = "/usr/local/bin:/usr/bin:/bin"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GEMINI", "CLAUDE", "CODEX"))},
        "HOME": str(home),
        "PATH": f"{Path(sys.executable).parent}:{BARE_PATH}",
        "CLEARANCE_CACHE_DIR": str(tmp_path / "cache"),
    }


def install(agent: str, project: Path, env: dict[str, str], **kw: object) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_install(agent, project=str(project), env=env, out=out, err=err, **kw) == 0  # type: ignore[arg-type]


def doctor(project: Path, env: dict[str, str], agent: str | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = run_doctor(agent, project=str(project), env=env, out=out)
    return code, out.getvalue()


def test_a_working_claude_hook_passes(project: Path, env: dict[str, str]) -> None:
    install("claude-code", project, env)
    code, text = doctor(project, env, "claude-code")
    assert code == 0, text
    assert "the hook answered the probe" in text and "all checks passed" in text


def test_a_machine_without_clearance_fails(project: Path, env: dict[str, str]) -> None:
    install("claude-code", project, env)
    code, text = doctor(project, {**env, "PATH": BARE_PATH}, "claude-code")
    assert code == 1 and NOT_INSTALLED in text, text


def test_a_file_the_agent_would_drop_fails(project: Path, env: dict[str, str]) -> None:
    install("claude-code", project, env)
    settings = project / ".claude" / "settings.json"
    settings.write_text(settings.read_text() + ",")
    code, text = doctor(project, env, "claude-code")
    assert code == 1 and "silently ignores the whole file" in text, text


def test_disable_all_hooks_fails(project: Path, env: dict[str, str]) -> None:
    install("claude-code", project, env)
    (project / ".claude" / "settings.local.json").write_text('{"disableAllHooks": true}')
    code, text = doctor(project, env, "claude-code")
    assert code == 1 and "disableAllHooks" in text, text


def test_a_timeout_that_kills_the_hook_before_its_deadline_fails(
    project: Path, env: dict[str, str]
) -> None:
    # a hand-made entry: the launcher without --deadline (install would add one), 5 s timeout
    install("claude-code", project, env, timeout_s=5, command=hook_command("claude-code"))
    code, text = doctor(project, env, "claude-code")
    assert code == 1 and "too close to the hook's own deadline" in text, text
    # what install writes for the same timeout: a deadline a third of it
    install("claude-code", project, env, timeout_s=5)
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    (group,) = settings["hooks"]["PreToolUse"]
    assert group["hooks"][0]["command"].endswith("clearance hook claude-code --deadline 1.7")
    code, text = doctor(project, env, "claude-code")
    assert code == 0, text


def test_a_narrow_matcher_is_a_warning(project: Path, env: dict[str, str]) -> None:
    install("claude-code", project, env, matcher="Bash")
    code, text = doctor(project, env, "claude-code")
    assert code == 0 and "warn" in text and "leaves other tools unjudged" in text, text


def test_gemini_trust(project: Path, env: dict[str, str]) -> None:
    install("gemini-cli", project, env)
    code, text = doctor(project, env, "gemini-cli")
    assert code == 1 and "not a trusted folder" in text, text
    trusted = Path(env["HOME"]) / ".gemini" / "trustedFolders.json"
    trusted.parent.mkdir(exist_ok=True)
    trusted.write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    code, text = doctor(project, env, "gemini-cli")
    assert code == 0, text


def test_codex_project_and_hook_trust(project: Path, env: dict[str, str]) -> None:
    install("codex", project, env)
    code, text = doctor(project, env, "codex")
    assert code == 1 and "not a trusted Codex project" in text and "hook trust" in text, text
    user = Path(env["HOME"]) / ".codex" / "config.toml"
    user.parent.mkdir(exist_ok=True)
    user.write_text(
        f'[projects."{project}"]\ntrust_level = "trusted"\n\n'
        '[hooks.state."clearance"]\ntrusted_hash = "sha256:x"\n'
    )
    code, text = doctor(project, env, "codex")
    assert code == 0, text


def test_a_broken_policy_fails(project: Path, env: dict[str, str]) -> None:
    install("claude-code", project, env)
    (project / ".clearance").mkdir(exist_ok=True)
    (project / ".clearance" / "policy.yaml").write_text("version: 1\nrules: [\n")
    code, text = doctor(project, env, "claude-code")
    assert code == 1 and "does not load" in text, text


def test_nothing_installed_fails(project: Path, env: dict[str, str]) -> None:
    code, text = doctor(project, env)
    assert code == 1 and "no agent has a clearance hook" in text, text
    code, text = doctor(project, env, "codex")
    assert code == 1 and "no clearance hook is installed" in text, text


def test_doctor_through_the_command_line(project: Path, env: dict[str, str]) -> None:
    import subprocess

    install("claude-code", project, env)
    proc = subprocess.run(
        [sys.executable, "-m", "clearance", "doctor", "--agent", "claude-code", "--project",
         str(project)],
        capture_output=True, text=True, env={**env, "PATH": BARE_PATH}, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 1 and NOT_INSTALLED in proc.stdout, proc
