"""The GitHub Action (action.yml) and the pre-commit hooks (.pre-commit-hooks.yaml) run what
they say: each test executes their own commands, read from the files, in a real project.

The action's ``run:`` steps are executed as a runner would (``bash -eo pipefail``, the step's
``env``, ``working-directory``, ``$GITHUB_OUTPUT``, the ``if:`` conditions), its install step
included: a pip install of a copy of this checkout into a fresh virtualenv (nothing is
downloaded: the dependencies come from the test environment). The two ``uses:`` steps are
other projects' actions (setup-python, upload-sarif); for the upload, the test checks that
the file it would upload is a SARIF 2.1.0 log.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]

POLICY = """\
version: 1
id: proj
rules:
  - id: allow-npm-install
    decision: allow
    reason: This project installs its dependencies from the lock file.
    overrides: [default/ask-package-install, default/ask-network]
    when: {argv: ["npm install|ci **"]}
    examples:
      match: ["npm install"]
      no_match: ["npm publish"]
"""

CASES = """\
cases:
  - command: npm install lodash
    expect: allow
  - command: git push --force
    expect: deny
"""


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / ".clearance").mkdir()
    (project / ".clearance" / "policy.yaml").write_text(POLICY)
    (project / ".clearance" / "npm.test.yaml").write_text(CASES)
    intents = [
        {"id": "1", "tool": "Bash", "input": {"command": "npm ci"}},
        {"id": "2", "tool": "Bash", "input": {"command": "curl https://example.com"}},
        {"id": "3", "tool": "Bash", "input": {"command": "cat .env"}},
    ]
    (project / "intents.jsonl").write_text("".join(json.dumps(i) + "\n" for i in intents))
    return project


def _base_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(
        HOME=str(tmp_path / "home"),
        XDG_CONFIG_HOME=str(tmp_path / "home" / ".config"),
        CLEARANCE_MANAGED_POLICY="",
        CLEARANCE_CACHE_DIR=str(tmp_path / "cache"),
    )
    return env


# ---- a small runner for composite steps -------------------------------------------------------


def _evaluate(
    expression: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]]
) -> object:
    """The GitHub expressions action.yml uses: inputs.x, steps.id.outputs.x, ==, !=, &&,
    ||, always(), string literals."""
    text = expression.strip()
    text = text.replace("always()", "True").replace("&&", " and ").replace("||", " or ")

    def value(match: re.Match[str]) -> str:
        if match.group(1) == "inputs":
            return repr(inputs[match.group(2)])
        step, name = match.group(2).split(".outputs.")
        return repr(outputs.get(step, {}).get(name, ""))

    text = re.sub(r"\b(inputs)\.([A-Za-z0-9_-]+)", value, text)
    text = re.sub(r"\b(steps)\.([A-Za-z0-9_]+\.outputs\.[A-Za-z0-9_-]+)", value, text)
    return eval(text, {"__builtins__": {}}, {"True": True})


def _substitute(text: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]]) -> str:
    return re.sub(
        r"\$\{\{(.*?)\}\}", lambda m: str(_evaluate(m.group(1), inputs, outputs)), str(text)
    )


def _fresh_python(tmp_path: Path) -> Path:
    """A virtualenv without clearance, whose dependencies come from this environment."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    site = Path(
        subprocess.check_output(
            [
                str(venv / "bin" / "python"),
                "-c",
                "import sysconfig; print(sysconfig.get_path('purelib'))",
            ],
            text=True,
        ).strip()
    )
    (site / "test-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return venv / "bin"


def _checkout_copy(tmp_path: Path) -> Path:
    ignore = shutil.ignore_patterns(
        ".git",
        ".venv",
        "*.egg-info",
        "build",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".hypothesis",
        "tests",
        "benchmarks",
    )
    target = tmp_path / "action"
    shutil.copytree(ROOT, target, symlinks=True, ignore=ignore)
    return target


_INSTALLED: list[Path] = []


def _run_action(
    tmp_path: Path, project: Path, given: dict[str, str], *, reuse_install: bool = False
) -> tuple[list[tuple[str, int, str]], dict[str, dict[str, str]], list[dict[str, object]]]:
    """Run the action's steps; with ``reuse_install`` the virtualenv an earlier run of this
    module installed clearance into is used and the install step is not run again."""
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    inputs.update(given)
    reuse = reuse_install and bool(_INSTALLED)
    bin_dir = _INSTALLED[0] if reuse else _fresh_python(tmp_path)
    env = _base_env(tmp_path)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    env["GITHUB_ACTION_PATH"] = str(_checkout_copy(tmp_path))
    env["RUNNER_TEMP"] = str(tmp_path / "runner-temp")
    env["PIP_NO_INDEX"] = "1"  # nothing downloaded: the dependencies are already there
    env["PIP_NO_BUILD_ISOLATION"] = "0"
    Path(env["RUNNER_TEMP"]).mkdir()
    outputs: dict[str, dict[str, str]] = {}
    ran: list[tuple[str, int, str]] = []
    uploads: list[dict[str, object]] = []
    failed = False
    for step in action["runs"]["steps"]:
        condition = step.get("if")
        if condition is None:
            if failed:
                continue
        elif not _evaluate(condition, inputs, outputs) or (failed and "always()" not in condition):
            continue
        if reuse and step.get("name") == "Install clearance":
            continue
        if "uses" in step:
            if "upload-sarif" in step["uses"]:
                uploads.append(
                    {k: _substitute(v, inputs, outputs) for k, v in step.get("with", {}).items()}
                )
            continue
        output_file = tmp_path / f"output-{len(ran)}"
        output_file.write_text("")
        step_env = {
            **env,
            **{k: _substitute(v, inputs, outputs) for k, v in (step.get("env") or {}).items()},
            "GITHUB_OUTPUT": str(output_file),
        }
        where = project / _substitute(step.get("working-directory", "."), inputs, outputs)
        script = tmp_path / "step.sh"
        script.write_text(_substitute(step["run"], inputs, outputs))
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=project if "working-directory" not in step else where,
            env=step_env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        ran.append((step["name"], done.returncode, done.stdout + done.stderr))
        if "id" in step:
            pairs = [ln.split("=", 1) for ln in output_file.read_text().splitlines() if "=" in ln]
            outputs[step["id"]] = {str(k): str(v) for k, v in pairs}
        failed = failed or done.returncode != 0
        if step.get("name") == "Install clearance" and done.returncode == 0:
            _INSTALLED[:] = [bin_dir]
    return ran, outputs, uploads


def test_the_github_action_installs_tests_lints_gates_and_uploads_sarif(tmp_path: Path) -> None:
    project = _project(tmp_path)
    ran, outputs, uploads = _run_action(tmp_path, project, {"intents": "intents.jsonl"})
    names = [name for name, _, _ in ran]
    assert names == [
        "Install clearance",
        "clearance test",
        "clearance lint",
        "clearance gate",
        "Fail on the gate's findings",
    ]
    status = {name: code for name, code, _ in ran}
    log = {name: text for name, _, text in ran}
    assert status["Install clearance"] == 0, log["Install clearance"]
    assert "clearance " in log["Install clearance"]
    assert status["clearance test"] == 0, log["clearance test"]
    assert "0 failed" in log["clearance test"]
    assert (tmp_path / "runner-temp" / "clearance-junit.xml").exists()
    assert status["clearance lint"] == 0, log["clearance lint"]
    assert status["clearance gate"] == 0, log["clearance gate"]
    assert outputs["gate"] == {"status": "4", "sarif": "clearance.sarif"}
    assert status["Fail on the gate's findings"] == 4
    (upload,) = uploads
    sarif = json.loads(Path(project / str(upload["sarif_file"]).removeprefix("./")).read_text())
    assert sarif["version"] == "2.1.0"
    results = sarif["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("default/ask-network", "warning"),
        ("default/no-secret-reads", "error"),
    ]


def test_the_github_action_stops_on_a_failing_case(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".clearance" / "npm.test.yaml").write_text(
        CASES + "  - {command: 'rm -rf /', expect: allow}\n"
    )
    ran, _, uploads = _run_action(tmp_path, project, {"lint": "false"}, reuse_install=True)
    steps = [(name, code) for name, code, _ in ran]
    assert steps[-1] == ("clearance test", 1)
    assert steps[:-1] in ([], [("Install clearance", 0)])
    assert uploads == []


def test_the_pre_commit_hooks_run_their_entries(tmp_path: Path) -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"clearance-test", "clearance-lint"}
    project = _project(tmp_path)
    env = {**_base_env(tmp_path), "PYTHONPATH": str(ROOT)}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"

    def run(hook: str) -> subprocess.CompletedProcess[str]:
        spec = hooks[hook]
        assert spec["language"] == "python" and spec["pass_filenames"] is False
        return subprocess.run(
            [*shlex.split(spec["entry"]), *spec.get("args", [])],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    for hook in hooks:
        files = re.compile(hooks[hook]["files"])
        assert files.search(".clearance/policy.yaml")
        assert not files.search("src/app.py")
        assert run(hook).returncode == 0, run(hook).stdout
    assert re.search(hooks["clearance-test"]["files"], "ci/deploy.test.yaml")
    # a broken example stops both
    (project / ".clearance" / "policy.yaml").write_text(
        POLICY.replace('no_match: ["npm publish"]', 'no_match: ["npm ci"]')
    )
    assert run("clearance-lint").returncode == 1
    assert run("clearance-test").returncode == 2
    # a failing case stops the test hook
    (project / ".clearance" / "policy.yaml").write_text(POLICY)
    (project / ".clearance" / "npm.test.yaml").write_text(
        textwrap.dedent(CASES) + "  - {command: 'npm publish', expect: allow}\n"
    )
    failing = run("clearance-test")
    assert failing.returncode == 1 and "FAIL  npm publish" in failing.stdout


@pytest.mark.parametrize("path", ["action.yml", ".pre-commit-hooks.yaml"])
def test_the_files_are_at_the_root(path: str) -> None:
    assert (ROOT / path).is_file()
