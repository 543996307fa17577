"""``clearance test`` and ``clearance lint`` through the command line: discovery, the policy
in force scope by scope, exit statuses, output formats."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from policy_ci_support import Project

PROJECT_POLICY = """
version: 1
id: proj
rules:
  - id: allow-npm-install
    decision: allow
    reason: This project installs its dependencies from the lock file.
    overrides: [default/ask-package-install, default/ask-network]
    when: {argv: ["npm install|ci **"]}
    examples:
      match: ["npm install", "npm ci"]
      no_match: ["npm publish"]
"""

CASES = """
cases:
  - command: npm install lodash
    expect: allow
    rule: proj/allow-npm-install
  - command: git push --force
    expect: deny
  - tool: Read
    input: {file_path: .env}
    expect: deny
"""


#: The organisation's managed policy: every npm call asks, and no project may override it.
ORG_FINAL_ASK_NPM = """
version: 1
id: org
rules:
  - id: ask-npm
    decision: ask
    final: true
    reason: Every install is confirmed by a human in this organisation.
    when: {program: npm}
"""


@pytest.fixture
def project(tmp_path: Path) -> Project:
    p = Project(tmp_path)
    p.write(".clearance/policy.yaml", PROJECT_POLICY)
    return p


def test_without_arguments_every_test_file_is_discovered_including_dot_clearance(
    project: Project,
) -> None:
    project.write(".clearance/npm.test.yaml", CASES)
    project.write("ci/more.test.yaml", "cases:\n  - {command: ls, expect: allow}\n")
    project.write("node_modules/x/ignored.test.yaml", "cases: [{command: ls, expect: deny}]\n")
    result = project.run("test", "-v")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "test files under" in result.stdout and ": 2" in result.stdout
    assert "PASS  npm install lodash" in result.stdout
    assert "PASS  ls" in result.stdout
    assert "policy in force at" in result.stdout and "project " in result.stdout
    assert "default clearance:policies/default.yaml" in result.stdout


def test_a_failing_case_exits_1_and_shows_only_failures_by_default(project: Project) -> None:
    project.write(
        ".clearance/x.test.yaml",
        CASES + "  - {command: 'terraform -chdir=x destroy', expect: allow}\n",
    )
    result = project.run("test")
    assert result.returncode == 1
    assert "PASS" not in result.stdout
    assert "FAIL  terraform -chdir=x destroy" in result.stdout
    assert "x.test.yaml:" in result.stdout and "expected allow, got ask" in result.stdout
    assert "1 failed" in result.stdout


def test_cases_are_judged_under_the_managed_scope_too(project: Project) -> None:
    project.write(".clearance/npm.test.yaml", CASES)
    project.managed(ORG_FINAL_ASK_NPM)
    result = project.run("test")
    assert result.returncode == 1
    assert "FAIL  npm install lodash" in result.stdout
    assert "expected allow, got ask (org/ask-npm)" in result.stdout
    # --policy means exactly these files: the managed policy is not among them
    exact = project.run(
        "test", "--policy", ".clearance/policy.yaml", ".clearance/npm.test.yaml", "-v"
    )
    assert "policy: exactly .clearance/policy.yaml" in exact.stdout
    assert "PASS  npm install lodash" in exact.stdout
    assert exact.returncode == 1  # without the default pack nothing denies git push --force


def test_json_and_junit_outputs(project: Project, tmp_path: Path) -> None:
    project.write(".clearance/npm.test.yaml", CASES + "  - {command: 'rm -rf /', expect: allow}\n")
    junit = tmp_path / "junit.xml"
    result = project.run("test", "--format", "json", "--junit", str(junit))
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["failed"] == 1 and data["passed"] > 3
    failed = [c for c in data["cases"] if not c["passed"]]
    assert failed[0]["case"] == "rm -rf /" and "got deny" in failed[0]["detail"]
    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites" and root.get("failures") == "1"
    suite = next(s for s in root if s.get("name", "").endswith("npm.test.yaml"))
    failure = [c for c in suite if c.find("failure") is not None]
    assert [c.get("name") for c in failure] == ["rm -rf /"]


def test_a_broken_policy_or_test_file_exits_2(project: Project) -> None:
    project.write(".clearance/bad.test.yaml", "cases:\n  - {command: ls, expect: maybe}\n")
    result = project.run("test")
    assert result.returncode == 2
    assert "bad.test.yaml:2" in result.stderr and "'expect' is allow, ask or deny" in result.stderr
    project.write(".clearance/bad.test.yaml", "cases: []\n")
    project.write(".clearance/policy.yaml", "version: 1\nid: proj\nrules: [{id: x}]\n")
    broken = project.run("test")
    assert broken.returncode == 2
    assert ".clearance/policy.yaml:3:" in broken.stderr


def test_a_policy_file_as_an_argument_is_a_usage_error(project: Project) -> None:
    result = project.run("test", ".clearance/policy.yaml")
    assert result.returncode == 2 and "--policy" in result.stderr


def test_lint_fails_on_an_example_that_would_stop_loading(project: Project) -> None:
    project.write(
        ".clearance/policy.yaml",
        """
        version: 1
        id: proj
        rules:
          - id: allow-make
            decision: allow
            reason: The project's make targets only build and test.
            when: {program: make}
            examples: {match: ["make test", "cmake ."]}
        """,
    )
    result = project.run("lint")
    assert result.returncode == 1, result.stdout
    assert "error: [proj/allow-make] example:" in result.stdout
    assert "'cmake .'" in result.stdout
    # and the hook would indeed refuse to load it
    check = project.run("check", "ls")
    assert check.returncode == 2


def test_lint_exits_1_when_the_policy_does_not_load(project: Project) -> None:
    project.write(".clearance/policy.yaml", "version: 1\nid: proj\nrulez: []\n")
    result = project.run("lint")
    assert result.returncode == 1
    assert ".clearance/policy.yaml:3:1:" in result.stdout and "unknown key 'rulez'" in result.stdout


def test_lint_warnings_exit_0_unless_strict(project: Project) -> None:
    project.write(
        ".clearance/policy.yaml",
        """
        version: 1
        id: proj
        rules:
          - id: allow-npm
            decision: allow
            reason: This project installs its dependencies from the lock file.
            overrides: [default/ask-packages-install, default/no-secret-reads]
            when: {argv: ["npm install **"]}
            examples: {match: ["npm install"]}
          - id: allow-git
            decision: allow
            reason: Pushing feature branches is part of the loop here.
            overrides: [default/no-git-history-rewrite]
            when: {argv: ["git push origin feature/**"]}
            examples: {match: ["git push origin feature/x"]}
        """,
    )
    result = project.run("lint")
    assert result.returncode == 0, result.stdout
    out = result.stdout
    assert "warning: [proj/allow-npm] override-unknown" in out
    assert "default/ask-packages-install" in out
    assert "warning: [proj/allow-npm] override-refused" in out and "critical" in out
    assert "warning: [proj/allow-git] override-never-applies" in out
    assert project.run("lint", "--strict").returncode == 1


def test_lint_of_an_override_of_a_final_rule_says_so(project: Project) -> None:
    project.managed(ORG_FINAL_ASK_NPM)
    project.write(
        ".clearance/policy.yaml",
        PROJECT_POLICY.replace("default/ask-network]", "default/ask-network, org/ask-npm]"),
    )
    result = project.run("lint", "--json")
    findings = json.loads(result.stdout)
    refused = [f for f in findings if f["kind"] == "override-refused"]
    assert refused and "org/ask-npm is final" in refused[0]["message"]
    decided = project.run("check", "--json", "npm install")
    assert json.loads(decided.stdout)["policy_id"] == "org/ask-npm"


def test_a_directory_argument_is_searched_for_test_files_only(project: Project) -> None:
    project.write(".clearance/npm.test.yaml", CASES)
    project.write("other/x.test.yaml", "cases:\n  - {command: 'rm -rf /', expect: allow}\n")
    result = project.run("test", ".clearance", "-v")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS  npm install lodash" in result.stdout and "FAIL" not in result.stdout
    assert project.run("test", "other").returncode == 1
    assert project.run("test", "missing.test.yaml").returncode == 2


def test_a_failing_inline_example_is_reported_and_exits_2(project: Project) -> None:
    project.write(".clearance/policy.yaml", PROJECT_POLICY.replace('"npm ci"]', '"npm cii"]'))
    result = project.run("test")
    assert result.returncode == 2
    assert "FAIL  proj/allow-npm-install match: npm cii" in result.stdout
    assert "does not load" in result.stderr
