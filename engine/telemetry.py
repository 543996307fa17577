"""What a decision says as OpenTelemetry log attributes: one mapping for every exporter.

The service's batching exporter (``clearance.service.otlp``) and the hook's detached one
(``clearance.hooks.otlp``) both send these, so a collector sees the same attributes whichever
sent the record. Stdlib only (the hook's path).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.engine.decision import ApprovalDecision


def decision_attributes(
    decision: ApprovalDecision,
    *,
    agent: str | None = None,
    user: str | None = None,
    host: str | None = None,
    session_id: str | None = None,
) -> dict[str, str]:
    """``clearance.*`` attributes of ``decision``, then those of who and where (the agent,
    ``user.name``, ``host.name``), the command line of a shell decision, the session."""
    attributes = {
        "clearance.decision": decision.decision,
        "clearance.rule_id": decision.policy_id or "",
        "clearance.reason_code": decision.reason_code,
        "clearance.decision_id": decision.decision_id,
        "clearance.tool": decision.tool,
        "clearance.policy_digest": decision.policy_digest,
        "clearance.risk": decision.risk,
    }
    if agent:
        attributes["clearance.agent"] = agent
    if user:
        attributes["user.name"] = user
    if host:
        attributes["host.name"] = host
    if decision.tool_kind == "shell" and decision.subject:
        attributes["process.command_line"] = decision.subject
    if session_id:
        attributes["session.id"] = session_id
    return attributes
