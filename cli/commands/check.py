"""``clearance check`` and ``clearance explain``: decide one intent and show why.

Exit status (check): 0 allow, 3 ask, 4 deny, 2 usage or policy error, 1 internal error.
"""

from __future__ import annotations

import json
import os
import sys

from clearance.vocab import EXIT_FOR_DECISION, DecisionExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.engine.decision import ApprovalDecision

EXIT_USAGE = DecisionExit.USAGE
EXIT_INTERNAL = DecisionExit.INTERNAL


def exit_status(decision: ApprovalDecision) -> int:
    if decision.reason_code in ("policy_error", "bad_input"):
        return EXIT_USAGE
    if decision.reason_code == "internal_error":
        return EXIT_INTERNAL
    return EXIT_FOR_DECISION[decision.decision]


def build_intent(
    command: str | None, tool: str | None, input_json: str | None, cwd: str
) -> tuple[object, str | None]:
    """The intent to decide, or an error message (usage)."""
    from clearance.engine.intents import TOOLS, ToolIntent, tool_kind

    tool = tool or "bash"
    if input_json is not None:
        if command is not None:
            return None, (
                f"--input gives the whole tool input; the extra argument(s) {command!r} "
                "would be ignored: give one or the other"
            )
        try:
            data = json.loads(input_json)
        except ValueError as exc:
            return None, f"--input is not JSON: {exc}"
        if not isinstance(data, dict):
            return None, "--input must be a JSON object"
        return ToolIntent(tool, data, source="check", cwd=cwd), None
    if command is None:
        return None, "give a COMMAND (or -- COMMAND…), or --input JSON"
    kind = tool_kind(tool)
    fields = TOOLS.get(tool, (kind, ("command",)))[1] or ("command",)
    return ToolIntent(tool, {fields[0]: command}, source="check", cwd=cwd), None


def run_check(
    command: str | None,
    *,
    as_json: bool,
    policies: list[str] | None,
    cwd: str | None,
    tool: str | None,
    input_json: str | None = None,
    explain: bool = False,
    ledger: str | None = None,
    no_ledger: bool = True,
) -> int:
    from clearance.cli.commands.render import render_decision, render_trace
    from clearance.engine.entry import decide_intent

    directory = os.path.abspath(cwd or os.getcwd())
    if not os.path.isdir(directory):
        sys.stderr.write(f"clearance check: --cwd {cwd}: not a directory\n")
        return EXIT_USAGE
    if explain and command is not None and tool is None and input_json is None:
        from clearance.cli.commands.audit import looks_like_decision_id, run_explain_recorded

        if looks_like_decision_id(command):
            shown = run_explain_recorded(
                command, ledger, cwd=directory, policies=policies, as_json=as_json
            )
            if shown is not None:
                return shown
    intent, problem = build_intent(command, tool, input_json, directory)
    if problem is not None:
        sys.stderr.write(f"clearance check: {problem}\n")
        return EXIT_USAGE
    from clearance.engine.intents import ToolIntent

    assert isinstance(intent, ToolIntent)
    decision = decide_intent(intent, files=policies, cwd=directory, trace=explain)
    if ledger is not None and not no_ledger:
        from clearance.cli.commands.ledger_write import record

        error = record(ledger, decision, intent, surface="check", policy_files=policies)
        if error:
            sys.stderr.write(f"clearance check: {error}\n")
            return EXIT_INTERNAL
    if as_json:
        sys.stdout.write(json.dumps(decision.to_dict(), ensure_ascii=False, indent=2) + "\n")
    else:
        if explain:
            from clearance.engine.scopes import workspace_of

            text = render_trace(decision, workspace_of(directory) or "")
        else:
            text = render_decision(decision)
        sys.stdout.write(text + "\n")
    if decision.reason_code == "policy_error" and not as_json:
        for error in decision.errors:
            sys.stderr.write(f"clearance: {error}\n")
    return exit_status(decision)
