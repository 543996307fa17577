"""SARIF 2.1.0 for ``clearance gate --format sarif`` (GitHub code scanning and other viewers).

One result per intent that was not allowed: ``ruleId`` is the policy id of the deciding rule
(``clearance/<reason_code>`` when no rule decided: a default, a fail-closed marker, bad
input), ``level`` is ``error`` for deny and ``warning`` for ask, the location is the rule's
source file and line, and the intent's own line in the gate's input is a related location.
Paths inside the working directory are written relative to it (``uriBaseId: SRCROOT``), as
code scanning expects; the shipped default pack keeps its ``clearance:policies/…`` name.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.engine.decision import ApprovalDecision

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _split_source(source: str) -> tuple[str, int | None]:
    path, sep, line = source.rpartition(":")
    if sep and line.isdigit():
        return path, int(line)
    return source, None


def _artifact(path: str, root: str) -> dict[str, object]:
    if os.path.isabs(path):
        relative = os.path.relpath(path, root)
        if not relative.startswith(".."):
            return {"uri": relative.replace(os.sep, "/"), "uriBaseId": "SRCROOT"}
        return {"uri": "file://" + path}
    return {"uri": path}


class SarifLog:
    """Collects the results of one gate run."""

    def __init__(self, root: str, intents: str | None) -> None:
        self.root = root
        self.intents = intents
        self.rules: dict[str, dict[str, object]] = {}
        self.results: list[dict[str, object]] = []

    def add(self, decision: ApprovalDecision, line: int) -> None:
        if decision.decision == "allow":
            return
        from clearance.hooks.base import reason_for

        rule_id = decision.policy_id or f"clearance/{decision.reason_code}"
        level = "error" if decision.decision == "deny" else "warning"
        if rule_id not in self.rules:
            descriptor: dict[str, object] = {
                "id": rule_id,
                "shortDescription": {
                    "text": decision.reason
                    if decision.policy_id
                    else f"clearance decided {decision.decision} ({decision.reason_code})"
                },
                "defaultConfiguration": {"level": level},
                "properties": {"decision": decision.decision, "scope": decision.scope},
            }
            self.rules[rule_id] = descriptor
        locations: list[dict[str, object]] = []
        if decision.source:
            path, rule_line = _split_source(decision.source)
            physical: dict[str, object] = {"artifactLocation": _artifact(path, self.root)}
            if rule_line:
                physical["region"] = {"startLine": rule_line}
            locations.append({"physicalLocation": physical})
        related: list[dict[str, object]] = []
        if self.intents is not None:
            related.append(
                {
                    "id": 0,
                    "message": {"text": "the intent"},
                    "physicalLocation": {
                        "artifactLocation": _artifact(os.path.abspath(self.intents), self.root),
                        "region": {"startLine": line},
                    },
                }
            )
            if not locations:
                locations.append({"physicalLocation": related[0]["physicalLocation"]})
        subject = f": {decision.subject}" if decision.subject else ""
        result: dict[str, object] = {
            "ruleId": rule_id,
            "ruleIndex": list(self.rules).index(rule_id),
            "level": level,
            "message": {"text": f"{decision.decision}{subject} -- {reason_for(decision)}"},
            "locations": locations,
            "properties": {
                "decision": decision.decision,
                "reason_code": decision.reason_code,
                "decision_id": decision.decision_id,
                "tool": decision.tool,
                "input_line": line,
            },
        }
        if related:
            result["relatedLocations"] = related
        self.results.append(result)

    def document(self) -> dict[str, object]:
        from clearance import __version__

        return {
            "$schema": SCHEMA,
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {
                        "driver": {
                            "name": "clearance",
                            "version": __version__,
                            "rules": list(self.rules.values()),
                        }
                    },
                    "originalUriBaseIds": {"SRCROOT": {"uri": "file://" + self.root + "/"}},
                    "results": self.results,
                }
            ],
        }
