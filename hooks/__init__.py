"""Pre-tool hooks for the agent CLIs: one module per protocol, plus ``install``, ``doctor``
and ``otlp`` (the hook's own OpenTelemetry export, after the answer).

The agents themselves (settings, events, timeouts, payload recognition, fallback deny) are one
registry, :mod:`clearance.hooks.agents`; :mod:`clearance.hooks.supervisor` is the process body
of ``clearance hook`` (a worker under a hard deadline, signals and closed streams answered).

``clearance hook claude-code|gemini-cli|codex`` reads the agent's payload on stdin and answers in
that agent's format (:mod:`clearance.hooks.claude`, :mod:`.gemini`, :mod:`.codex`; the shared
logic and the fail-closed rules are in :mod:`clearance.hooks.base`). Nothing heavy is imported
here: the package is on the start-up path of every tool call.

May import: ``clearance`` (the version), ``clearance.vocab``, ``clearance.engine``,
``clearance.shellparse``, ``clearance.policies``, ``clearance.sandbox`` (``--sandbox``). Never
the runner or the CLI (tests/test_architecture.py checks).
"""

from __future__ import annotations

from clearance.hooks.agents import REGISTRY

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.hooks.base import Protocol

#: ``clearance hook NAME`` -> module holding that agent's protocol class ``PROTOCOL`` (the
#: agents themselves: :mod:`clearance.hooks.agents`).
AGENTS: Final = {agent.name: agent.module for agent in REGISTRY}


def protocol(name: str) -> Protocol:
    """The protocol of agent ``name`` (a key of :data:`AGENTS`)."""
    import importlib

    module = importlib.import_module(AGENTS[name])
    found: Protocol = module.PROTOCOL
    return found
