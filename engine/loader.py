"""Policy files in, normalised pack data out -- or errors that name file:line:column.

This is the slow path: YAML with positions, then pydantic. Its output is plain data that the
cache stores and ``PolicySet`` compiles. Examples are checked afterwards, once the whole set
is compiled (an example may be decided by rules of another pack).

Policy files may come from the repository being worked on: untrusted input, read within
budgets. A file is read only if it is a regular file (a FIFO or device is refused, never
waited on) of at most :data:`clearance.engine.yamlsrc.MAX_BYTES`; YAML nesting and alias
expansion are bounded (:mod:`clearance.engine.yamlsrc`); a rule's ``regex`` must compile for
the linear-time engine (:mod:`clearance.engine.regex`); a rule has at most
:data:`MAX_EXAMPLES` examples of each kind, each at most :data:`MAX_EXAMPLE_CHARS` long, so
checking them at load stays bounded; ``extends`` chains at most :data:`MAX_EXTENDS` deep.
"""

from __future__ import annotations

import hashlib
import os
from typing import cast

from pydantic import ValidationError

from clearance.engine import yamlsrc
from clearance.engine.errors import PolicyError, PolicyIssue
from clearance.engine.policy_schema import PolicyFile
from clearance.policies import DEFAULT_DISPLAY, default_pack_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.engine.types import PackData, PackDefaults, RuleData

#: Most examples of each kind (``match``, ``no_match``) one rule may carry.
MAX_EXAMPLES = 100
#: Longest example (a command, or an intent as JSON).
MAX_EXAMPLE_CHARS = 4096
#: Deepest ``extends`` chain.
MAX_EXTENDS = 16
#: Most rules one file may hold, and most examples all its rules together (each example is
#: decided against every rule at load: rules times examples is the load's work).
MAX_RULES = 1000
MAX_FILE_EXAMPLES = 4000


def read_text(path: str) -> str:
    from clearance.engine.safefiles import UnsafeFile, read_file

    try:
        return read_file(path, limit=yamlsrc.MAX_BYTES, owned=False, follow=True).decode("utf-8")
    except FileNotFoundError:
        raise PolicyError([PolicyIssue(path, 0, 0, None, "no such file")]) from None
    except IsADirectoryError:
        raise PolicyError([PolicyIssue(path, 0, 0, None, "is a directory")]) from None
    except PermissionError:
        raise PolicyError([PolicyIssue(path, 0, 0, None, "permission denied")]) from None
    except UnicodeDecodeError as exc:
        raise PolicyError([PolicyIssue(path, 0, 0, None, f"not UTF-8 text: {exc}")]) from None
    except UnsafeFile as exc:
        raise PolicyError([PolicyIssue(path, 0, 0, None, str(exc))]) from None
    except OSError as exc:
        raise PolicyError([PolicyIssue(path, 0, 0, None, exc.strerror or str(exc))]) from None


def load_pack(
    path: str, scope: str, *, text: str | None = None, display: str | None = None
) -> list[PackData]:
    """Validate one policy file; returns its pack data, preceded by the packs it extends."""
    return _load(path, scope, text, display, ())


def _load(
    path: str,
    scope: str,
    text: str | None,
    display: str | None,
    chain: tuple[str, ...],
) -> list[PackData]:
    real = os.path.realpath(path)
    if real in chain:
        raise PolicyError([PolicyIssue(path, 1, 1, None, "extends itself (a cycle)")])
    if len(chain) >= MAX_EXTENDS:
        raise PolicyError(
            [PolicyIssue(path, 1, 1, None, f"extends chain deeper than {MAX_EXTENDS} files")]
        )
    if text is None:
        text = read_text(path)
    shown = display or path
    try:
        located = yamlsrc.load(text)
    except yamlsrc.YamlError as exc:
        raise PolicyError([PolicyIssue(shown, exc.line, exc.column, None, exc.message)]) from None
    data = located.data
    if not isinstance(data, dict):
        raise PolicyError([PolicyIssue(shown, 1, 1, None, "a policy file is a YAML mapping")])
    issues = _duplicate_ids(shown, data, located) + _budget_issues(shown, data, located)
    if issues:
        raise PolicyError(issues)
    try:
        model = PolicyFile.model_validate(data)
    except ValidationError as exc:
        raise PolicyError(_issues(shown, exc, data, located)) from None
    issues = _regex_issues(shown, data, located)
    if issues:
        raise PolicyError(issues)
    packs: list[PackData] = []
    for parent in model.extends:
        if parent == "default":
            packs.extend(
                _load(
                    default_pack_path(),
                    scope,
                    None,
                    DEFAULT_DISPLAY,
                    (*chain, real),
                )
            )
        else:
            target = (
                parent
                if os.path.isabs(parent)
                else os.path.join(os.path.dirname(os.path.abspath(path)), parent)
            )
            packs.extend(_load(target, scope, None, None, (*chain, real)))
    rules: list[RuleData] = []
    for i, rule in enumerate(model.rules):
        dumped = cast("RuleData", rule.model_dump(mode="json", by_alias=True, exclude_none=True))
        line, column = located.position(("rules", i))
        dumped["line"] = line
        dumped["column"] = column
        examples = dumped.get("examples") or {}

        def positions(kind: str, count: int, i: int = i) -> list[list[int]]:
            return [list(located.position(("rules", i, "examples", kind, j))) for j in range(count)]

        examples["match_at"] = positions("match", len(examples.get("match") or []))
        examples["no_match_at"] = positions("no_match", len(examples.get("no_match") or []))
        dumped["examples"] = examples
        rules.append(dumped)
    packs.append(
        {
            "id": model.id,
            "scope": scope,
            "path": os.path.abspath(path) if not path.startswith("<") else path,
            "display": shown,
            "digest": hashlib.sha256(text.encode()).hexdigest(),
            "description": model.description,
            "defaults": cast("PackDefaults", model.defaults.model_dump(mode="json")),
            "lock": model.lock,
            "rules": rules,
            "sandbox": (
                model.sandbox.model_dump(mode="json", exclude_none=True)
                if model.sandbox is not None
                else None
            ),
        }
    )
    return packs


def _rule_id(rule: object) -> str | None:
    if isinstance(rule, dict) and isinstance(rule.get("id"), str):
        return str(rule["id"])
    return None


def _budget_issues(
    shown: str, data: dict[str, object], located: yamlsrc.Located
) -> list[PolicyIssue]:
    """Examples within :data:`MAX_EXAMPLES` and :data:`MAX_EXAMPLE_CHARS` (before anything
    runs them)."""
    import json

    rules = data.get("rules")
    if not isinstance(rules, list):
        return []
    if len(rules) > MAX_RULES:
        line, column = located.position(("rules",))
        return [
            PolicyIssue(
                shown, line, column, None, f"{len(rules)} rules, over the limit of {MAX_RULES}"
            )
        ]
    issues = []
    total = 0
    for i, rule in enumerate(rules):
        examples = rule.get("examples") if isinstance(rule, dict) else None
        if not isinstance(examples, dict):
            continue
        for kind in ("match", "no_match"):
            items = examples.get(kind)
            if not isinstance(items, list):
                continue
            where = ("rules", i, "examples", kind)
            total += len(items)
            if total > MAX_FILE_EXAMPLES:
                message = f"the file's rules hold more than {MAX_FILE_EXAMPLES} examples"
                issues.append(_issue_at(shown, located, where, rule, message))
                return issues
            if len(items) > MAX_EXAMPLES:
                message = f"{len(items)} {kind} examples, over the limit of {MAX_EXAMPLES}"
                issues.append(_issue_at(shown, located, where, rule, message))
                continue
            for j, item in enumerate(items):
                size = len(item) if isinstance(item, str) else len(json.dumps(item, default=str))
                if size > MAX_EXAMPLE_CHARS:
                    message = f"example is {size} characters, over the limit of {MAX_EXAMPLE_CHARS}"
                    issues.append(_issue_at(shown, located, (*where, j), rule, message))
    return issues


def _issue_at(
    shown: str, located: yamlsrc.Located, where: tuple[str | int, ...], rule: object, message: str
) -> PolicyIssue:
    """A problem of ``rule`` at the YAML node ``where`` of the file ``shown``."""
    line, column = located.position(where)
    return PolicyIssue(shown, line, column, _rule_id(rule), message)


def _regex_issues(
    shown: str, data: dict[str, object], located: yamlsrc.Located
) -> list[PolicyIssue]:
    """Every ``regex`` in every rule's ``when`` compiles for the linear-time engine."""
    rules = data.get("rules")
    if not isinstance(rules, list):
        return []
    issues: list[PolicyIssue] = []
    for i, rule in enumerate(rules):
        if isinstance(rule, dict):
            _walk_when(rule.get("when"), ("rules", i, "when"), shown, rule, located, issues, 0)
    return issues


def _walk_when(
    when: object,
    path: tuple[str | int, ...],
    shown: str,
    rule: dict[str, object],
    located: yamlsrc.Located,
    issues: list[PolicyIssue],
    depth: int,
) -> None:
    if depth > yamlsrc.MAX_DEPTH:
        return
    if isinstance(when, list):
        for k, item in enumerate(when):
            _walk_when(item, (*path, k), shown, rule, located, issues, depth + 1)
        return
    if not isinstance(when, dict):
        return
    for key, value in when.items():
        if key == "regex" and isinstance(value, str):
            from clearance.engine.regex import problem

            why = problem(value)
            if why is not None:
                line, column = located.position((*path, key))
                issues.append(PolicyIssue(shown, line, column, _rule_id(rule), why))
        elif key in ("all", "any", "not"):
            _walk_when(value, (*path, key), shown, rule, located, issues, depth + 1)


def _duplicate_ids(
    shown: str, data: dict[str, object], located: yamlsrc.Located
) -> list[PolicyIssue]:
    rules = data.get("rules")
    if not isinstance(rules, list):
        return []
    seen: dict[str, int] = {}
    issues = []
    for i, rule in enumerate(rules):
        if not isinstance(rule, dict) or not isinstance(rule.get("id"), str):
            continue
        rule_id = str(rule["id"])
        if rule_id in seen:
            line, column = located.position(("rules", i, "id"))
            first, _ = located.position(("rules", seen[rule_id], "id"))
            issues.append(
                PolicyIssue(
                    shown,
                    line,
                    column,
                    rule_id,
                    f"duplicate rule id {rule_id!r} (first defined on line {first})",
                )
            )
        else:
            seen[rule_id] = i
    return issues


def _issues(
    shown: str, exc: ValidationError, data: dict[str, object], located: yamlsrc.Located
) -> list[PolicyIssue]:
    issues = []
    for error in exc.errors():
        loc = tuple(part for part in error["loc"] if not _is_union_tag(part))
        path: tuple[str | int, ...] = tuple(p for p in loc if isinstance(p, (str, int)))
        line, column = located.position(path, key=error["type"] == "extra_forbidden")
        rule_id = None
        if len(path) >= 2 and path[0] == "rules" and isinstance(path[1], int):
            rules = data.get("rules")
            if isinstance(rules, list) and path[1] < len(rules):
                rule = rules[path[1]]
                if isinstance(rule, dict) and isinstance(rule.get("id"), str):
                    rule_id = str(rule["id"])
        from clearance.engine.messages import explain, where

        issues.append(
            PolicyIssue(shown, line, column, rule_id, f"{where(path)}: {explain(error, path)}")
        )
    # one error per position is enough: pydantic reports every union branch
    unique: dict[tuple[int, int, str], PolicyIssue] = {}
    for issue in issues:
        unique.setdefault((issue.line, issue.column, issue.message.split(":")[0]), issue)
    return list(unique.values())


def _is_union_tag(part: object) -> bool:
    return isinstance(part, str) and (
        part in ("str", "ExampleIntent", "list[str]") or part.startswith(("function-", "list["))
    )
