"""The system prompt: what the model is told about the run it is in.

It states the contract the rest of the runner enforces (calls are proposals, a policy
decides, results carry a status), so a model that reads it wastes fewer turns fighting
refusals it was warned about.
"""

from __future__ import annotations

from pathlib import Path


def system_prompt(workspace: Path) -> str:
    """The system prompt for a run in `workspace`."""
    return (
        "You are a coding agent working in the repository at "
        f"{workspace}. Relative paths are relative to it.\n"
        "Use the tools to inspect and change the repository. Every tool call is a proposal: "
        "it is validated, then a policy decides whether it may run (some actions are "
        "denied, some need a human's approval), and only then is it executed.\n"
        "Every tool result starts with `status: <code>`. `denied` means the policy refused "
        "the action: do not try to get around it, take another way. `invalid_input` means "
        "the call did not fit the tool's schema. Other codes describe what happened when "
        "the call ran (for example `nonzero_exit`, `no_match`, `not_read_first`).\n"
        "Read a file before you edit or overwrite it. When the task is done, answer with a "
        "short summary and no tool calls."
    )
