"""The command line's own surface: --version, completion, help without Python type names,
check --input with extra words, policy schema, gate --format sarif."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from policy_ci_support import Project

from clearance import __version__

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)


def test_version(project: Project) -> None:
    result = project.run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"clearance {__version__}"


def test_completion_is_offered_and_printed(project: Project) -> None:
    helped = project.run("--help")
    assert "--install-completion" in helped.stdout and "--show-completion" in helped.stdout
    shown = project.run("--show-completion", "bash")
    assert shown.returncode == 0 and "complete" in shown.stdout and "clearance" in shown.stdout


@pytest.mark.parametrize(
    "command",
    [
        [],
        ["check"],
        ["explain"],
        ["test"],
        ["lint"],
        ["gate"],
        ["run"],
        ["policy", "show"],
        ["policy", "schema"],
        ["replay"],
        ["audit", "tail"],
        ["hook", "install"],
        ["parse"],
    ],
)
def test_help_texts_name_no_python_types(project: Project, command: list[str]) -> None:
    result = project.run(*command, "--help", "-h")
    text = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Usage:" in text
    assert not re.search(r"<(list|str|int|float|bool)[\[>]", text), text
    assert not re.search(r"\b(list\[str\]|NoneType|Optional\[)", text), text


def test_check_input_with_extra_words_is_an_error(project: Project) -> None:
    result = project.run("check", "--tool", "Read", "--input", '{"file_path": "x"}', "extra")
    assert result.returncode == 2
    assert "--input gives the whole tool input" in result.stderr and "'extra'" in result.stderr
    assert project.run("check", "--tool", "Read", "--input", '{"file_path": "x"}').returncode == 0


def test_policy_schema_validates_real_policies_and_catches_mistakes(project: Project) -> None:
    result = project.run("policy", "schema")
    assert result.returncode == 0
    schema = json.loads(result.stdout)
    assert schema["$schema"].startswith("https://json-schema.org/")
    validator = jsonschema.Draft202012Validator(schema)
    jsonschema.Draft202012Validator.check_schema(schema)
    default = yaml.safe_load((ROOT / "policies" / "default.yaml").read_text())
    assert list(validator.iter_errors(default)) == []
    short = yaml.safe_load(
        "version: 1\nid: p\nextends: default\nrules:\n"
        "  - {id: a, decision: allow, reason: r, when: {program: git, paths: '*.md'},"
        " overrides: default/ask-network}\n"
    )
    assert list(validator.iter_errors(short)) == []
    wrong = yaml.safe_load(
        "version: 1\nid: p\nrules:\n"
        "  - {id: a, decision: no, reason: r, when: {programm: git, classes: [netwrk]}}\n"
    )
    messages = " ".join(e.message for e in validator.iter_errors(wrong))
    assert "programm" in messages and "False" in messages and "netwrk" in messages


def test_gate_sarif(project: Project) -> None:
    project.write(
        ".clearance/policy.yaml",
        """
        version: 1
        id: proj
        rules:
          - id: ask-docker
            decision: ask
            reason: Containers need a human's look in this project.
            when: {program: docker}
        """,
    )
    intents = project.write(
        "intents.jsonl",
        "\n".join(
            json.dumps(line)
            for line in (
                {"id": "a", "tool": "Bash", "input": {"command": "ls"}},
                {"id": "b", "tool": "Bash", "input": {"command": "rm -rf /"}},
                {"id": "c", "tool": "Bash", "input": {"command": "docker ps"}},
            )
        )
        + "\nnot json\n",
    )
    result = project.run("gate", "--format", "sarif", "--summary", str(intents))
    assert result.returncode == 4
    assert "total 4" in result.stderr  # the summary keeps stdout one SARIF document
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0" and "sarif-2.1.0" in log["$schema"]
    (run,) = log["runs"]
    assert run["tool"]["driver"]["name"] == "clearance"
    results = run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("default/no-delete-root-or-home", "error"),
        ("proj/ask-docker", "warning"),
        ("clearance/bad_input", "error"),
    ]
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    for item in results:
        assert rules[item["ruleIndex"]] == item["ruleId"]
        assert item["message"]["text"]
    docker = results[1]["locations"][0]["physicalLocation"]
    assert docker["artifactLocation"] == {"uri": ".clearance/policy.yaml", "uriBaseId": "SRCROOT"}
    assert docker["region"]["startLine"] == 5
    default = results[0]["locations"][0]["physicalLocation"]
    assert default["artifactLocation"]["uri"] == "clearance:policies/default.yaml"
    intent = results[1]["relatedLocations"][0]["physicalLocation"]
    assert intent["artifactLocation"]["uri"] == "intents.jsonl"
    assert intent["region"]["startLine"] == 3
    bad = results[2]["locations"][0]["physicalLocation"]
    assert bad["region"]["startLine"] == 4
    # the other formats are still there
    github = project.run("gate", "--format", "github", str(intents))
    assert "::error file=" in github.stdout and "::warning file=" in github.stdout
