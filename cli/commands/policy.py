"""``clearance test``, ``clearance lint``, ``clearance policy show``: policy CI."""

from __future__ import annotations

import json
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.engine.rules import PolicySet


def _split_paths(paths: list[str]) -> tuple[list[str], list[str], str | None]:
    """(policy files, test files, error) from files and directories on the command line."""
    policies: list[str] = []
    tests: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    full = os.path.join(root, name)
                    if name.endswith((".test.yaml", ".test.yml")):
                        tests.append(full)
                    elif name.endswith((".yaml", ".yml")):
                        policies.append(full)
        elif path.endswith((".test.yaml", ".test.yml")):
            tests.append(path)
        elif os.path.exists(path):
            policies.append(path)
        else:
            return [], [], f"{path}: no such file or directory"
    return policies, tests, None


def _load(policies: list[str], cwd: str, check: bool) -> PolicySet | int:
    from clearance.engine.api import load_policy
    from clearance.engine.errors import PolicyError

    try:
        return load_policy(cwd, files=policies or None, check=check, use_cache=False)
    except PolicyError as exc:
        for issue in exc.issues:
            sys.stderr.write(f"{issue}\n")
        return 2


def run_test(paths: list[str], *, as_json: bool, cwd: str | None) -> int:
    from clearance.engine.errors import PolicyError
    from clearance.engine.testing import CaseResult, coverage, run_cases, run_examples

    directory = os.path.abspath(cwd or os.getcwd())
    policies, tests, error = _split_paths(paths)
    if error:
        sys.stderr.write(f"clearance test: {error}\n")
        return 2
    policy = _load(policies, directory, check=False)
    if isinstance(policy, int):
        return policy
    results: list[CaseResult] = run_examples(policy)
    for path in tests:
        try:
            results.extend(run_cases(policy, path))
        except PolicyError as exc:
            for issue in exc.issues:
                sys.stderr.write(f"{issue}\n")
            return 2
    uncovered = coverage(policy, results)
    failed = [r for r in results if not r.passed]
    if as_json:
        out = {
            "passed": len(results) - len(failed),
            "failed": len(failed),
            "cases": [
                {"case": r.label, "at": r.location, "passed": r.passed, "detail": r.detail}
                for r in results
            ],
            "uncovered_rules": uncovered,
        }
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        for r in results:
            status = "PASS" if r.passed else "FAIL"
            line = f"{status}  {r.label}"
            if not r.passed:
                line += f"\n      at {r.location}: {r.detail}"
            sys.stdout.write(line + "\n")
        total = len(policy.rules)
        sys.stdout.write(
            f"\n{len(results) - len(failed)} passed, {len(failed)} failed; "
            f"rule coverage {total - len(uncovered)}/{total}\n"
        )
        for policy_id in uncovered:
            rule = policy.find(policy_id)
            sys.stdout.write(f"  not exercised: {policy_id} ({rule.source if rule else '?'})\n")
    return 1 if failed else 0


def run_lint(paths: list[str], *, as_json: bool, cwd: str | None, strict: bool) -> int:
    from clearance.engine.lint import lint

    directory = os.path.abspath(cwd or os.getcwd())
    policies, _, error = _split_paths(paths)
    if error:
        sys.stderr.write(f"clearance lint: {error}\n")
        return 2
    policy = _load(policies, directory, check=False)
    if isinstance(policy, int):
        return policy
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
        return 1
    return 1 if strict and findings else 0


def run_policy_show(policies: list[str] | None, *, as_json: bool, cwd: str | None) -> int:
    directory = os.path.abspath(cwd or os.getcwd())
    policy = _load(policies or [], directory, check=True)
    if isinstance(policy, int):
        return policy
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
                            "when": r.when,
                        }
                        for r in pack.rules
                    ],
                }
                for pack in policy.packs
            ],
        }
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return 0
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
            lines.append(f"  {rule.decision:<5} {rule.policy_id}{target}  {rule.source}")
            lines.append(f"        {rule.reason}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
