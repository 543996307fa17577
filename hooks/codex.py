"""Codex's PreToolUse hook protocol.

Answer: allow is exit 0 with **empty** stdout (Codex lists an explicit allow as unsupported).
Deny is exit 0 with ``{"hookSpecificOutput": {"hookEventName": "PreToolUse",
"permissionDecision": "deny", "permissionDecisionReason": R}}`` and nothing else: Codex
validates with ``additionalProperties: false`` and runs the tool when any other key appears, and
it ignores a deny without a reason. Codex ignores ``ask`` (the command runs), so an ask is sent
as a deny whose reason says approval is required. On an error: exit 2 with the reason on stderr;
Codex ignores stdout then, so nothing is printed there.

Payload: ``cwd, hook_event_name, model, permission_mode, session_id, tool_input, tool_name,
tool_use_id, transcript_path, turn_id``. The shell tool arrives as ``Bash {command}``;
``apply_patch`` carries the patch text in ``command``, which becomes the intent's ``patch``. A
``workdir`` in the input moves the call there (the workspace stays the session's).

``--sandbox``: an allowed ``Bash`` call is answered with ``permissionDecision: allow`` and
``updatedInput`` (its ``command`` rewritten to run under ``clearance sandbox``), the one form
of explicit allow Codex takes.
"""

from __future__ import annotations

import os

from clearance.hooks.agents import BY_NAME
from clearance.hooks.base import Protocol, pre_tool_use

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


class Codex(Protocol):
    post_events = frozenset(("PostToolUse",))
    project_env: str | None = None
    ask_prefix = (
        "clearance requires a human's approval for this call, and Codex cannot ask for it in "
        "a hook, so it is blocked: "
    )

    def answer(self, decision: str, reason: str) -> bytes:
        if decision == "allow":
            return b""
        return pre_tool_use("deny", self.refusal(decision, reason))

    def rewrite(self, reason: str, tool_input: dict[str, object]) -> bytes:
        """``--sandbox``: Codex accepts an explicit allow only together with ``updatedInput``
        (whose ``command`` must be a string); no other key, no reason."""
        return pre_tool_use("allow", updated_input=tool_input)

    def normalize(
        self, tool: str, tool_input: dict[str, object], cwd: str
    ) -> tuple[str, dict[str, object], str]:
        workdir = tool_input.get("workdir")
        if isinstance(workdir, str) and workdir:
            # the model's working directory for this call: the command runs there
            cwd = os.path.normpath(os.path.join(cwd, os.path.expanduser(workdir)))
        patch = tool_input.get("command")
        if tool == "apply_patch" and isinstance(patch, str) and "patch" not in tool_input:
            rest = {k: v for k, v in tool_input.items() if k != "command"}
            return tool, {**rest, "patch": patch}, cwd
        return tool, tool_input, cwd


PROTOCOL: Final = Codex(BY_NAME["codex"])
