"""``clearance hook <agent>``: the process an agent starts before every tool call.

The body is :func:`clearance.hooks.supervisor.run` (a supervisor that answers within a hard
deadline whatever happens to the decision); this wrapper only guarantees that even a failure to
load it or the protocol module blocks: exit 2, the reason on stderr and, for the agents that
read stdout alongside exit 2, a deny built from a fallback table that needs no other module.
"""

from __future__ import annotations

import json
import os

from clearance.vocab import HookExit


def _fallback_block(agent: str, reason: str) -> dict[str, object] | None:
    """What the agent reads on stdout with exit 2, should the protocol modules fail to import
    (the agent registry is plain data; if even it fails, stderr and exit 2 still block)."""
    try:
        from clearance.hooks.agents import BY_NAME

        return BY_NAME[agent].fallback_deny(reason)
    except Exception:
        return None


def run_hook(agent: str, args: list[str]) -> int:
    """Decide the payload on stdin for ``agent``; the exit status the agent acts on."""
    try:
        from clearance.hooks.supervisor import run

        return run(agent, args)
    except BaseException as exc:  # a hook that fails must block, not crash
        return _fallback(agent, f"{type(exc).__name__}: {exc}")


def _fallback(agent: str, problem: str) -> int:
    reason = f"clearance blocked this call because it failed: [internal_error] {problem}"[:2000]
    answer = _fallback_block(agent, reason)
    try:
        if answer is not None:
            os.write(1, (json.dumps(answer) + "\n").encode())
    except OSError:
        pass
    try:  # noqa: SIM105 -- as little as possible may fail here
        os.write(2, f"clearance hook {agent}: {reason}\n".encode("utf-8", "replace"))
    except OSError:
        pass
    return HookExit.BLOCKED
