"""The runner's tools: schemas, runtime-state checks, execution and observations.

`Toolbox` validates proposed calls without touching anything; `ToolRuntime` is the only
code in the runner that acts on the workspace, and the core calls it only after a call was
validated and approved.
"""

from .base import DEFAULT_BASH_TIMEOUT, DEFAULT_OUTPUT_CAP, Tool, ToolContext, ToolInput, ToolResult
from .baselines import Baseline, ReadBaselines
from .runtime import ToolRuntime
from .status import NOT_ERRORS, Status
from .toolbox import Invalid, Toolbox, Validated, default_tools

__all__ = [
    "DEFAULT_BASH_TIMEOUT",
    "DEFAULT_OUTPUT_CAP",
    "NOT_ERRORS",
    "Baseline",
    "Invalid",
    "ReadBaselines",
    "Status",
    "Tool",
    "ToolContext",
    "ToolInput",
    "ToolResult",
    "ToolRuntime",
    "Toolbox",
    "Validated",
    "default_tools",
]
