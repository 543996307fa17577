"""The README's examples work exactly as written, and CI runs exactly its test command."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text()
EXIT = {"allow": 0, "ask": 3, "deny": 4}


def clearance() -> str:
    beside = Path(sys.executable).with_name("clearance")
    return str(beside) if beside.exists() else "clearance"


def console_lines() -> list[str]:
    blocks = re.findall(r"```console\n(.*?)```", README, re.S)
    return [line[2:] for block in blocks for line in block.splitlines() if line.startswith("$ ")]


def run(line: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    command = line.split("  #", maxsplit=1)[0].strip()
    argv = shlex.split(command)
    assert argv[0] == "clearance"
    (tmp_path / ".git").mkdir(exist_ok=True)
    env = {
        **os.environ,
        "HOME": str(tmp_path / "home"),
        "CLEARANCE_MANAGED_POLICY": "",
        "CLEARANCE_CACHE_DIR": str(tmp_path / "cache"),
    }
    env.pop("XDG_CONFIG_HOME", None)
    return subprocess.run(
        [clearance(), *argv[1:]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_setup_commands_and_ci() -> None:
    setup = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", setup, re.S)
    assert len(commands) == 2, "the README gives two set-up commands"
    install, test = commands
    assert "pip install" in install and "clearance run" in install
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.rstrip().splitlines()[-1] == test.strip(), "CI must run the README's test command"


@pytest.mark.parametrize(
    "line", [line for line in console_lines() if re.search(r"#\s*(allow|ask|deny)\b", line)]
)
def test_commented_examples(line: str, tmp_path: Path) -> None:
    comment = line.rsplit("#", maxsplit=1)[-1]
    expected = re.search(r"(allow|ask|deny)", comment)
    assert expected is not None
    result = run(line, tmp_path)
    assert result.returncode == EXIT[expected.group(1)], result.stdout + result.stderr
    rule = re.search(r"(default/[a-z-]+)", comment)
    if rule:
        assert f"rule     {rule.group(1)}" in result.stdout, result.stdout
    marker = re.search(r"\((\w+)\)", comment)
    if marker and not rule:
        assert f"[{marker.group(1)}]" in result.stdout or marker.group(1) in result.stdout


def test_full_output_example(tmp_path: Path) -> None:
    block = re.findall(r"```console\n(.*?)```", README, re.S)[0]
    lines = block.splitlines()
    result = run(lines[0][2:], tmp_path)
    shown = [line for line in lines[1:] if line and "…" not in line]
    printed = result.stdout.splitlines()
    for expected in shown:
        assert expected in printed, f"{expected!r} not in output:\n{result.stdout}"
    assert result.returncode == EXIT[lines[1].split()[0].lower()]
