"""The tool runtime: the one place in the runner that touches the world.

Given a validated call it checks the runtime state the call depends on and, once the
core has an approval for it, executes it. An exception inside a tool becomes an
`io_error` result rather than a crash, because the model should hear about a failed
action like any other outcome; an interrupt still propagates, so Ctrl-C stops the run.
"""

from __future__ import annotations

from typing import Any

from .base import ToolContext, ToolResult
from .status import Status
from .toolbox import Toolbox, Validated


class ToolRuntime:
    """Executes validated, approved calls of `toolbox` in `ctx`'s workspace."""

    def __init__(self, toolbox: Toolbox, ctx: ToolContext) -> None:
        self.toolbox = toolbox
        self.ctx = ctx

    def precondition(self, call: Validated) -> ToolResult | None:
        """`None` when the runtime state allows the call; else why not (nothing is changed)."""
        return call.tool.precondition(call.args, self.ctx)

    def execute(self, call: Validated, invocation_id: str, confinement: Any = None) -> ToolResult:
        """Run the call. Only the core calls this, and only after an approval;
        ``confinement`` is the sandbox the decision gave it (``None``: none).

        The precondition is checked again first: time passed since validation (a human may
        have been asked), and the file the call was judged on may have changed since."""
        self.ctx.confinement = confinement
        try:
            refused = call.tool.precondition(call.args, self.ctx)
            if refused is not None:
                return refused
            return call.tool.run(call.args, self.ctx, invocation_id)
        except OSError as exc:
            return ToolResult(
                Status.IO_ERROR,
                f"{call.tool.name} failed: {exc.strerror or exc}",
                {"error": repr(exc)},
            )
        finally:
            self.ctx.confinement = None
