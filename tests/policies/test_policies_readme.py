"""policies/README.md's examples run exactly as written.

Each section (a heading starts the next) is a scenario in a fresh project with its own home:
a code block preceded by ``<!-- file: PATH -->`` is written to PATH (relative to the project;
``/etc/clearance/policy.yaml`` becomes the managed policy, ``~/`` the home), then every
``$ clearance …`` line of the section's console blocks runs as written. ``# allow``/``# ask``/
``# deny`` (exit 0/3/4) or ``# exit N`` is the expected exit status; the lines under a
command are text its output must contain.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "policies" / "README.md").read_text()
EXIT = {"allow": 0, "ask": 3, "deny": 4}


def clearance() -> str:
    beside = Path(sys.executable).with_name("clearance")
    return str(beside) if beside.exists() else "clearance"


class Scenario:
    def __init__(self, title: str) -> None:
        self.title = title
        self.files: list[tuple[str, str]] = []
        #: (command line, expected exit, expected output lines)
        self.commands: list[tuple[str, int, list[str]]] = []


def scenarios() -> list[Scenario]:
    found: list[Scenario] = []
    current = Scenario("(top)")
    pending_file: str | None = None
    lines = README.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            if current.commands or current.files:
                found.append(current)
            current = Scenario(line.lstrip("# "))
            i += 1
            continue
        marker = re.match(r"<!-- file: (\S+) -->", line)
        if marker:
            pending_file = marker.group(1)
            i += 1
            continue
        fence = re.match(r"```(\w*)", line)
        if fence:
            body: list[str] = []
            i += 1
            while not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            i += 1
            if pending_file is not None:
                current.files.append((pending_file, "\n".join(body) + "\n"))
                pending_file = None
            elif fence.group(1) == "console":
                for text in body:
                    if text.startswith("$ "):
                        command, _, comment = text[2:].partition("   #")
                        wanted = comment.strip()
                        code = EXIT.get(wanted)
                        if code is None:
                            code = int(wanted.removeprefix("exit "))
                        current.commands.append((command.strip(), code, []))
                    elif text.strip():
                        current.commands[-1][2].append(text.strip())
            continue
        i += 1
    if current.commands or current.files:
        found.append(current)
    return [s for s in found if s.commands]


SCENARIOS = scenarios()


def test_the_readme_has_runnable_scenarios() -> None:
    titles = [s.title for s in SCENARIOS]
    for needed in ("Overrides", "Final rules and lock", "argv and global options"):
        assert needed in titles, titles
    assert any("clearance test" in t for t in titles)
    assert any("gate" in t for t in titles)
    assert sum(len(s.commands) for s in SCENARIOS) >= 15


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.title for s in SCENARIOS])
def test_scenario(scenario: Scenario, tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "CLEARANCE_MANAGED_POLICY": "",
        "CLEARANCE_CACHE_DIR": str(tmp_path / "cache"),
    }
    for path, text in scenario.files:
        if path == "/etc/clearance/policy.yaml":
            target = tmp_path / "etc" / "policy.yaml"
            env["CLEARANCE_MANAGED_POLICY"] = str(target)
        elif path.startswith("~/"):
            target = home / path[2:]
        else:
            assert not path.startswith("/"), path
            target = project / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    for command, code, expected in scenario.commands:
        argv = shlex.split(command)
        assert argv[0] == "clearance"
        done = subprocess.run(
            [clearance(), *argv[1:]],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        shown = done.stdout + done.stderr
        assert done.returncode == code, f"{command}\n{shown}"
        for line in expected:
            assert line in shown, f"{command}: {line!r} not in\n{shown}"


def test_the_documented_overridable_denies_are_exactly_that(tmp_path: Path) -> None:
    """The README lists the default-pack denies an override may settle; each listed one is a
    non-critical deny of the default pack, and no critical deny may be overridden."""
    from clearance.engine.api import load_policy
    from clearance.engine.rules import override_refusal
    from clearance.policies import default_pack_path

    section = README.split("## Overrides", 1)[1].split("\n## ", 1)[0]
    listed = section.split("Today these are", 1)[1].split(":", 1)[0]
    named = re.findall(r"`(default/[a-z-]+)`", listed)
    assert len(named) >= 3
    # the default pack of the copy under test (the checkout's, or the installed one's)
    policy = load_policy(str(tmp_path), files=[default_pack_path()])
    project = {
        "id": "proj",
        "scope": "project",
        "path": "/p/.clearance/policy.yaml",
        "digest": "x",
        "rules": [{"id": "o", "decision": "allow", "reason": "r", "when": {"program": ["x"]}}],
    }
    from clearance.engine.rules import PolicySet

    both = PolicySet([*policy.sources, project])
    by = both.find("proj/o")
    assert by is not None
    for rule in both.rules:
        if rule.pack.id != "default" or rule.decision != "deny":
            continue
        allowed = override_refusal(rule, by) is None
        if rule.policy_id in named:
            assert allowed, rule.policy_id
        if rule.risk == "critical":
            assert not allowed, rule.policy_id
