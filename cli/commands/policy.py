"""``clearance test``, ``clearance lint``, ``clearance policy show``: policy CI."""

from __future__ import annotations

import json
import os
import sys

from clearance.vocab import LintExit, PolicyTestExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

    from clearance.engine.errors import PolicyIssue
    from clearance.engine.policy_tests import CaseResult
    from clearance.engine.rules import PolicySet


def _split_paths(paths: list[str]) -> tuple[list[str], list[str], str | None]:
    """(policy files, test files, error) from files and directories on the command line."""
    policies: list[str] = []
    tests: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            from clearance.engine.policy_tests import SKIP_DIRS

            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
                for name in sorted(files):
                    full = os.path.join(root, name)
                    if name.endswith((".test.yaml", ".test.yml")):
                        tests.append(full)
                    elif name.endswith((".yaml", ".yml")):
                        policies.append(full)
        elif path.endswith((".test.yaml", ".test.yml")):
            if not os.path.isfile(path):
                return [], [], f"{path}: no such file"
            tests.append(path)
        elif os.path.exists(path):
            policies.append(path)
        else:
            return [], [], f"{path}: no such file or directory"
    return policies, tests, None


def _print_issues(issues: list[PolicyIssue], stream: TextIO) -> None:
    for issue in issues:
        stream.write(f"{issue}\n")


def _load(policies: list[str] | None, cwd: str, check: bool) -> PolicySet | list[PolicyIssue]:
    from clearance.engine.api import load_policy
    from clearance.engine.errors import PolicyError

    try:
        return load_policy(cwd, files=policies or None, check=check, use_cache=False)
    except PolicyError as exc:
        return exc.issues


def _sources_line(policies: list[str] | None, cwd: str) -> str:
    """Says which policy the cases are judged under."""
    if policies:
        return (
            f"policy: exactly {', '.join(policies)} (--policy: no discovery, no default pack "
            "unless a file extends it)"
        )
    from clearance.engine.api import policy_sources
    from clearance.engine.errors import PolicyError

    try:
        sources = policy_sources(cwd)
    except PolicyError as exc:
        return f"policy in force at {cwd}: {exc.summary()}"
    from clearance.policies import DEFAULT_DISPLAY

    shown = ", ".join(
        f"{scope} {DEFAULT_DISPLAY if scope == 'default' else path}" for scope, path in sources
    )
    return f"policy in force at {cwd}, scope by scope as the hook loads it: {shown}"


def run_test(
    paths: list[str],
    *,
    policies: list[str] | None = None,
    output: str = "text",
    verbose: bool = False,
    junit: str | None = None,
    cwd: str | None = None,
) -> int:
    """``clearance test``: exit 0 all pass, 1 a case failed, 2 a policy or test file does
    not load -- an inline example that fails included: the hook would refuse the policy --
    or usage."""
    from clearance.engine.errors import PolicyError
    from clearance.engine.policy_tests import coverage, discover_tests, run_cases
    from clearance.engine.policy_tests import run_examples as examples_of
    from clearance.engine.scopes import workspace_of

    err = sys.stderr
    if output not in ("text", "json"):
        err.write("clearance test: --format must be text or json\n")
        return PolicyTestExit.USAGE
    directory = os.path.abspath(cwd or os.getcwd())
    tests = []
    for path in paths:
        if os.path.isdir(path):
            tests.extend(discover_tests(path))
        elif path.endswith((".test.yaml", ".test.yml")) and os.path.isfile(path):
            tests.append(path)
        elif os.path.isfile(path):
            err.write(
                f"clearance test: {path} is not a *.test.yaml file; policy files go after "
                "--policy (exactly these files)\n"
            )
            return PolicyTestExit.USAGE
        else:
            err.write(f"clearance test: {path}: no such file or directory\n")
            return PolicyTestExit.USAGE
    root = workspace_of(directory) or directory
    if not paths:
        tests = discover_tests(root)
    files = list(policies) if policies else None
    loaded: dict[str, PolicySet] = {}
    broken: list[PolicyIssue] = []

    def policy_at(where: str) -> PolicySet:
        key = "" if files else where
        found = loaded.get(key)
        if found is None:
            result = _load(files, where, check=False)
            if isinstance(result, list):
                raise PolicyError(result)
            found = loaded[key] = result
        return found

    try:
        policy = policy_at(directory)
    except PolicyError as exc:
        _print_issues(exc.issues, err)
        err.write("clearance test: the policy does not load\n")
        return PolicyTestExit.USAGE
    results: list[CaseResult] = []
    for path in tests:
        try:
            results.extend(run_cases(policy_at, path))
        except PolicyError as exc:
            broken.extend(exc.issues)
    # inline examples of every policy a test file was judged under (each file once)
    seen_packs: set[tuple[str, str]] = set()
    for each in [policy, *(p for p in loaded.values() if p is not policy)]:
        fresh = {(pk.path, pk.digest) for pk in each.packs} - seen_packs
        results.extend(examples_of(each, packs=fresh))
        seen_packs |= fresh
    if broken:
        _print_issues(broken, err)
        err.write("clearance test: a test file or the policy it needs does not load\n")
        return PolicyTestExit.USAGE
    uncovered = coverage(policy, results)
    failed = [r for r in results if not r.passed]
    header = _sources_line(files, directory)
    if junit is not None:
        try:
            _write_junit(junit, results)
        except OSError as exc:
            err.write(f"clearance test: --junit {junit}: {exc.strerror or exc}\n")
            return PolicyTestExit.USAGE
    if output == "json":
        out = {
            "policy": header,
            "test_files": tests,
            "passed": len(results) - len(failed),
            "failed": len(failed),
            "cases": [
                {
                    "case": r.label,
                    "group": r.group,
                    "at": r.location,
                    "passed": r.passed,
                    "detail": r.detail,
                }
                for r in results
            ],
            "uncovered_rules": uncovered,
        }
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        lines = [header]
        if not paths:
            lines.append(f"test files under {root}: {len(tests)}")
        for r in results:
            if r.passed and not verbose:
                continue
            status = "PASS" if r.passed else "FAIL"
            line = f"{status}  {r.label}"
            if not r.passed:
                line += f"\n      at {r.location}: {r.detail}"
            lines.append(line)
        total = len(policy.rules)
        lines.append(
            f"{len(results) - len(failed)} passed, {len(failed)} failed; "
            f"rule coverage {total - len(uncovered)}/{total}"
        )
        if verbose:
            for policy_id in uncovered:
                rule = policy.find(policy_id)
                lines.append(f"  not exercised: {policy_id} ({rule.source if rule else '?'})")
        sys.stdout.write("\n".join(lines) + "\n")
    if any(r.group.startswith("examples ") for r in failed):
        # a policy whose examples misbehave does not load: every hook call would be denied
        err.write(
            "clearance test: an inline example fails, so this policy does not load "
            "(the hook would deny every call)\n"
        )
        return PolicyTestExit.USAGE
    return PolicyTestExit.FAILED if failed else PolicyTestExit.OK


def _write_junit(path: str, results: list[CaseResult]) -> None:
    """JUnit XML: one test suite per test file (and per pack's examples), one test case each."""
    import xml.etree.ElementTree as ET

    suites: dict[str, list[CaseResult]] = {}
    for result in results:
        suites.setdefault(result.group, []).append(result)
    root = ET.Element(
        "testsuites",
        name="clearance test",
        tests=str(len(results)),
        failures=str(sum(1 for r in results if not r.passed)),
    )
    for name, cases in suites.items():
        suite = ET.SubElement(
            root,
            "testsuite",
            name=name,
            tests=str(len(cases)),
            failures=str(sum(1 for r in cases if not r.passed)),
            errors="0",
        )
        for case in cases:
            element = ET.SubElement(
                suite, "testcase", classname=name, name=case.label, file=case.location
            )
            if not case.passed:
                failure = ET.SubElement(element, "failure", message=case.detail)
                failure.text = f"{case.location}: {case.detail}"
    ET.indent(root)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        fh.write(ET.tostring(root, encoding="unicode") + "\n")


def run_lint(
    paths: list[str],
    *,
    as_json: bool,
    cwd: str | None,
    strict: bool,
    policies: list[str] | None = None,
) -> int:
    """``clearance lint``: exit 1 on anything that would stop the policy loading (bad files,
    misbehaving examples) and on errors; warnings exit 0 unless ``--strict``."""
    from clearance.engine.lint import lint

    directory = os.path.abspath(cwd or os.getcwd())
    named, _, error = _split_paths(paths)
    if error:
        sys.stderr.write(f"clearance lint: {error}\n")
        return LintExit.USAGE
    files = [*(policies or []), *named] or None
    policy = _load(files, directory, check=False)
    if isinstance(policy, list):
        if as_json:
            out = [
                {
                    "severity": "error",
                    "kind": "load",
                    "policy_id": issue.rule or "",
                    "source": f"{issue.file}:{issue.line}:{issue.column}",
                    "message": issue.message,
                }
                for issue in policy
            ]
            sys.stdout.write(json.dumps(out, indent=2) + "\n")
        else:
            _print_issues(policy, sys.stdout)
            sys.stdout.write(f"{len(policy)} error(s): the policy does not load\n")
        return LintExit.FOUND
    findings = lint(policy)
    if as_json:
        sys.stdout.write(json.dumps([f.to_dict() for f in findings], indent=2) + "\n")
    else:
        for finding in findings:
            sys.stdout.write(f"{finding}\n")
        errors = sum(1 for f in findings if f.severity == "error")
        sys.stdout.write(
            f"{len(policy.rules)} rules: {errors} error(s), {len(findings) - errors} warning(s)\n"
        )
    if any(f.severity == "error" for f in findings):
        return LintExit.FOUND
    return LintExit.FOUND if strict and findings else LintExit.CLEAN


def run_policy_show(policies: list[str] | None, *, as_json: bool, cwd: str | None) -> int:
    directory = os.path.abspath(cwd or os.getcwd())
    policy = _load(policies or [], directory, check=True)
    if isinstance(policy, list):
        _print_issues(policy, sys.stderr)
        return LintExit.USAGE
    if as_json:
        out = {
            "digest": policy.digest,
            "default_decision": policy.default_decision,
            "unknown_tool_decision": policy.unknown_tool_decision,
            "locked": policy.locked,
            "packs": [
                {
                    "id": pack.id,
                    "scope": pack.scope,
                    "path": pack.display,
                    "sha256": pack.digest,
                    "rules": [
                        {
                            "policy_id": r.policy_id,
                            "decision": r.decision,
                            "source": r.source,
                            "reason": r.reason,
                            "target": r.target,
                            "final": r.final,
                            "overrides": r.overrides,
                            "when": r.when,
                        }
                        for r in pack.rules
                    ],
                }
                for pack in policy.packs
            ],
        }
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return LintExit.CLEAN
    lines = [
        f"policy {policy.digest}",
        f"default decision: {policy.default_decision}; unknown tools: "
        f"{policy.unknown_tool_decision}" + ("; managed lock: on" if policy.locked else ""),
    ]
    for pack in policy.packs:
        lines.append("")
        lines.append(f"[{pack.scope}] {pack.id}  {pack.display}  sha256:{pack.digest[:12]}")
        for rule in pack.rules:
            target = " (whole command)" if rule.target == "command" else ""
            final = " (final)" if rule.final else ""
            lines.append(f"  {rule.decision:<5} {rule.policy_id}{target}{final}  {rule.source}")
            lines.append(f"        {rule.reason}")
            if rule.overrides:
                lines.append(f"        overrides {', '.join(rule.overrides)}")
    sys.stdout.write("\n".join(lines) + "\n")
    return LintExit.CLEAN


def policy_schema() -> dict[str, object]:
    """The JSON Schema of a policy file, from the models the loader validates with."""
    from clearance import __version__
    from clearance.engine.policy_schema import PolicyFile

    schema = PolicyFile.model_json_schema(by_alias=True, mode="validation")
    _one_or_many(schema)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": f"clearance {__version__} policy file; `clearance policy schema` prints it",
        **schema,
        "title": "clearance policy",
    }


def run_policy_schema() -> int:
    sys.stdout.write(json.dumps(policy_schema(), indent=2) + "\n")
    return 0


def _one_or_many(schema: dict[str, object]) -> None:
    """Say in the schema what the models' before-validators accept: a string for a list,
    a glob or list of globs for ``paths``; name the effect classes and markers."""
    from clearance.shellparse.facts import CLASSES, MARKERS

    defs = schema.get("$defs")
    assert isinstance(defs, dict)
    top = {k: v for k, v in schema.items() if k != "$defs"}
    models = {**defs, "PolicyFile": top}
    from clearance.engine.policy_schema import WHEN_ONE_OR_MANY

    #: Fields the models also accept as one string (``program: git`` for ``[git]``).
    one_or_many = {
        "When": list(WHEN_ONE_OR_MANY),
        "PathsMatcher": ["match", "sets"],
        "Rule": ["tools", "overrides"],
        "PolicyFile": ["extends"],
    }
    for model, fields in one_or_many.items():
        properties = models.get(model, {}).get("properties", {})
        for field in fields:
            prop = properties.get(field)
            if isinstance(prop, dict):
                alternatives = prop.pop("anyOf", None) or [
                    {k: prop.pop(k) for k in list(prop) if k in ("type", "items")}
                ]
                items: dict[str, object] = next(
                    (a["items"] for a in alternatives if isinstance(a.get("items"), dict)), {}
                )
                if field == "classes":
                    items = {"type": "string", "enum": list(CLASSES)}
                elif field == "markers":
                    items = {"type": "string", "enum": list(MARKERS)}
                prop["anyOf"] = [
                    {"type": "array", "items": items},
                    items if items else {"type": "string"},
                    *(
                        [{"type": "null"}]
                        if any(a.get("type") == "null" for a in alternatives)
                        else []
                    ),
                ]
    when = models.get("When", {}).get("properties", {})
    paths = when.get("paths")
    if isinstance(paths, dict) and isinstance(paths.get("anyOf"), list):
        paths["anyOf"] = [
            *paths["anyOf"],
            {"type": "string"},
            {"type": "array", "items": {"type": "string"}},
        ]
    schema.update(top)
