"""Policy files in, normalised pack data out -- or errors that name file:line:column.

This is the slow path: YAML with positions, then pydantic. Its output is plain data that the
cache stores and ``PolicySet`` compiles. Examples are checked afterwards, once the whole set
is compiled (an example may be decided by rules of another pack).
"""

from __future__ import annotations

import hashlib
import os

from pydantic import ValidationError

from clearance.engine import yamlsrc
from clearance.engine.errors import PolicyError, PolicyIssue
from clearance.engine.policy_model import PolicyFile
from clearance.policies import DEFAULT_DISPLAY, default_pack_path


def read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        raise PolicyError([PolicyIssue(path, 0, 0, None, "no such file")]) from None
    except IsADirectoryError:
        raise PolicyError([PolicyIssue(path, 0, 0, None, "is a directory")]) from None
    except PermissionError:
        raise PolicyError([PolicyIssue(path, 0, 0, None, "permission denied")]) from None
    except UnicodeDecodeError as exc:
        raise PolicyError([PolicyIssue(path, 0, 0, None, f"not UTF-8 text: {exc}")]) from None
    except OSError as exc:
        raise PolicyError([PolicyIssue(path, 0, 0, None, exc.strerror or str(exc))]) from None


def load_pack(
    path: str, scope: str, *, text: str | None = None, display: str | None = None
) -> list[dict[str, object]]:
    """Validate one policy file; returns its pack data, preceded by the packs it extends."""
    return _load(path, scope, text, display, ())


def _load(
    path: str,
    scope: str,
    text: str | None,
    display: str | None,
    chain: tuple[str, ...],
) -> list[dict[str, object]]:
    real = os.path.realpath(path)
    if real in chain:
        raise PolicyError([PolicyIssue(path, 1, 1, None, "extends itself (a cycle)")])
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
    issues = _duplicate_ids(shown, data, located)
    if issues:
        raise PolicyError(issues)
    try:
        model = PolicyFile.model_validate(data)
    except ValidationError as exc:
        raise PolicyError(_issues(shown, exc, data, located)) from None
    packs: list[dict[str, object]] = []
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
    rules = []
    for i, rule in enumerate(model.rules):
        dumped = rule.model_dump(mode="json", by_alias=True, exclude_none=True)
        line, column = located.position(("rules", i))
        dumped["line"] = line
        dumped["column"] = column
        examples = dumped.get("examples") or {}
        for kind in ("match", "no_match"):
            positions = []
            for j in range(len(examples.get(kind) or [])):
                positions.append(list(located.position(("rules", i, "examples", kind, j))))
            examples[kind + "_at"] = positions
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
            "defaults": model.defaults.model_dump(mode="json"),
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
