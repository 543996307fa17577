"""Rule examples: every ``match`` example must be matched by its rule, every ``no_match``
example must not. Checked whenever a policy loads (before it is cached), and by
``clearance test``.

Examples run as if in a project at ``/home/user/project`` of a user whose home is
``/home/user``, so that rules about the workspace and the home mean the same everywhere.
"""

from __future__ import annotations

from clearance.engine.errors import PolicyIssue
from clearance.engine.intents import BadIntent, ToolIntent
from clearance.engine.views import Context, PartView

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.engine.rules import CompiledRule, PolicySet

HOME: Final = "/home/user"
WORKSPACE: Final = "/home/user/project"


def example_intent(example: object) -> ToolIntent:
    if isinstance(example, str):
        return ToolIntent("bash", {"command": example}, source="example", cwd=WORKSPACE)
    assert isinstance(example, dict)
    tool_input = example.get("input")
    return ToolIntent(
        str(example.get("tool")),
        tool_input if isinstance(tool_input, dict) else {},
        source="example",
        cwd=WORKSPACE,
    )


def rule_matches(rule: CompiledRule, example: object, policy: PolicySet) -> bool:
    """Whether ``rule`` matches (some part of) ``example``."""
    from clearance.engine.api import intent_parts

    intent = example_intent(example)
    try:
        kind, parts, subject, markers, _ = intent_parts(
            intent, policy, cwd=WORKSPACE, workspace=WORKSPACE, home=HOME, resolve=False
        )
    except BadIntent:
        return False
    if not rule.applies_to(intent.tool, kind):
        return False
    ctx = Context(intent.tool, kind, WORKSPACE, HOME, WORKSPACE, subject)
    views = [PartView(part, markers) for part in parts]
    if rule.target == "command":
        return rule.matcher.test_command(views, ctx)
    return any(rule.matcher.test(view, ctx) for view in views)


def check_examples(policy: PolicySet) -> list[PolicyIssue]:
    issues: list[PolicyIssue] = []
    for rule in policy.rules:
        examples = rule.examples
        for kind, expected in (("match", True), ("no_match", False)):
            items = examples.get(kind) or []
            positions = examples.get(kind + "_at") or []
            assert isinstance(items, list) and isinstance(positions, list)
            for i, example in enumerate(items):
                if rule_matches(rule, example, policy) == expected:
                    continue
                line, column = positions[i] if i < len(positions) else (0, 0)
                shown = example if isinstance(example, str) else repr(example)
                verb = "does not match" if expected else "matches"
                issues.append(
                    PolicyIssue(
                        rule.pack.display,
                        int(line),
                        int(column),
                        rule.id,
                        f"example {shown!r} is listed under {kind} but the rule {verb} it",
                    )
                )
    return issues
