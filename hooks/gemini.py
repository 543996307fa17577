"""Gemini CLI's BeforeTool hook protocol.

Answer: exit 0 and ``{"decision": "allow"|"deny", "reason": R}``. Gemini CLI reads stdout first
and takes any JSON object there as the answer whatever the exit code, so stdout is always our
own object (or nothing) and stderr is never JSON. There is no usable ``ask``: in headless mode
Gemini CLI waits forever for a confirmation nobody can give, so an ask is sent as a deny whose
reason says that approval is required. On an error: exit 2, the reason on stderr and the deny
on stdout.

Payload: ``session_id, transcript_path, cwd, hook_event_name, timestamp, tool_name,
tool_input``. File paths arrive as the model wrote them, so relative ones are resolved against
``cwd``; ``run_shell_command`` runs in ``dir_path`` (``directory`` in older versions; relative to
``cwd``) when it names one -- a path the model chose, so it moves the command, not the workspace.

``--sandbox``: an allowed ``run_shell_command`` is answered with ``hookSpecificOutput.tool_input``
(its ``command`` rewritten to run under ``clearance sandbox``), which Gemini CLI's BeforeTool
applies to the call's parameters.
"""

from __future__ import annotations

import os

from clearance.hooks.agents import BY_NAME
from clearance.hooks.base import Protocol, dumps, resolve_paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


class GeminiCli(Protocol):
    post_events = frozenset(("AfterTool",))
    project_env: str | None = "GEMINI_PROJECT_DIR"
    ask_prefix = (
        "clearance requires a human's approval for this call, and Gemini CLI cannot ask for "
        "it here, so it is blocked: "
    )

    def answer(self, decision: str, reason: str) -> bytes:
        if decision == "allow":
            return dumps({"decision": "allow", "reason": reason})
        return dumps({"decision": "deny", "reason": self.refusal(decision, reason)})

    def rewrite(self, reason: str, tool_input: dict[str, object]) -> bytes:
        """``--sandbox``: BeforeTool's ``hookSpecificOutput.tool_input`` replaces the tool's
        parameters (the whole input, rebuilt and validated by Gemini CLI)."""
        return dumps(
            {
                "decision": "allow",
                "reason": reason,
                "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": tool_input},
            }
        )

    def normalize(
        self, tool: str, tool_input: dict[str, object], cwd: str
    ) -> tuple[str, dict[str, object], str]:
        if tool == "run_shell_command":
            for field in ("dir_path", "directory"):  # ``directory``: older Gemini CLI
                directory = tool_input.get(field)
                if isinstance(directory, str) and directory:
                    cwd = os.path.normpath(os.path.join(cwd, os.path.expanduser(directory)))
                    break
            return tool, tool_input, cwd
        return tool, resolve_paths(tool_input, cwd), cwd


PROTOCOL: Final = GeminiCli(BY_NAME["gemini-cli"])
