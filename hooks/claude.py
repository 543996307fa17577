"""Claude Code's PreToolUse hook protocol.

Answer: exit 0 and ``{"hookSpecificOutput": {"hookEventName": "PreToolUse",
"permissionDecision": "allow"|"deny"|"ask", "permissionDecisionReason": R}}``. Claude Code
validates the whole object: a missing ``hookEventName`` or a top-level ``decision`` other than
approve/block makes it ignore the answer and run the tool, so nothing else is ever printed.
An explicit ``allow`` also skips Claude Code's own permission prompt, which is what a policy
allow means. ``ask`` is sent as is: interactive sessions prompt the user, headless ``-p`` runs
refuse the call and show the reason. On an error: exit 2, the reason on stderr and the deny
above on stdout (Claude Code prefers the stdout reason).

Payload: ``session_id, transcript_path, cwd, permission_mode, hook_event_name, tool_name,
tool_input, tool_use_id`` (file paths already absolute).

``--sandbox``: an allowed ``Bash`` call is answered with ``permissionDecision: allow`` and
``updatedInput``, the input with its ``command`` rewritten to run under ``clearance sandbox``.
"""

from __future__ import annotations

from clearance.hooks.agents import BY_NAME
from clearance.hooks.base import Protocol, pre_tool_use

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


class ClaudeCode(Protocol):
    post_events = frozenset(("PostToolUse", "PostToolUseFailure"))
    project_env: str | None = "CLAUDE_PROJECT_DIR"

    def answer(self, decision: str, reason: str) -> bytes:
        return pre_tool_use(decision, reason)

    def rewrite(self, reason: str, tool_input: dict[str, object]) -> bytes:
        """``--sandbox``: allow, running ``updatedInput`` (the whole input) instead."""
        return pre_tool_use("allow", reason, tool_input)


PROTOCOL: Final = ClaudeCode(BY_NAME["claude-code"])
