"""Human renderings of decisions: the one-screen answer of ``check`` and the full trace of
``explain``. JSON output is ``ApprovalDecision.to_dict`` itself."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.engine.decision import ApprovalDecision

_LABEL = {"allow": "ALLOW", "ask": "ASK", "deny": "DENY"}


def _short(text: str, width: int = 72) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def render_decision(decision: ApprovalDecision) -> str:
    lines = [
        f"{_LABEL.get(decision.decision, decision.decision.upper())}  {_short(decision.subject)}"
    ]
    if decision.policy_id:
        lines.append(f"  rule     {decision.policy_id}  ({decision.scope} scope)")
    if decision.source:
        lines.append(f"  source   {decision.source}")
    lines.append(f"  reason   {decision.reason}  [{decision.reason_code}]")
    trigger = decision.trigger
    if trigger and trigger.get("part") is not None:
        index = int(str(trigger["part"]))
        part = decision.parts[index]
        what = ", ".join(part.classes) or "no effect classes"
        if part.markers:
            what += "; markers: " + ", ".join(part.markers)
        argv = " ".join(part.argv) or part.text
        via = f" (via {' > '.join(part.via)})" if part.via else ""
        lines.append(f"  trigger  part {index + 1}: `{_short(argv, 60)}`{via} [{what}]")
    elif trigger:
        lines.append("  trigger  the command as a whole")
    if len(decision.parts) > 1:
        lines.append("  parts")
        width = min(40, max(len(_short(" ".join(p.argv) or p.text, 40)) for p in decision.parts))
        for part in decision.parts:
            argv = _short(" ".join(part.argv) or part.text, 40)
            rule = part.policy_id or part.reason_code
            lines.append(f"    {part.index + 1}. {argv:<{width}}  {part.decision:<5}  {rule}")
    for overridden, by in decision.overridden_by.items():
        lines.append(f"  override {overridden} set aside by {by}")
    for error in decision.errors:
        lines.append(f"  error    {error}")
    lines.append(f"  decision {decision.decision_id}  policy {decision.policy_digest[:19]}")
    return "\n".join(lines)


_DERIVED = {"glob": "expanded", "link": "resolved", "tree": "in tree", "filter": "selected"}


def _where(path: dict[str, object], workspace: str | None) -> str:
    inside = path.get("inside_workspace")
    if workspace == "":
        return "no workspace"
    if inside is True:
        return "inside"
    if inside is False:
        return "outside"
    return "unknown location"


def render_paths(paths: list[dict[str, object]], workspace: str | None) -> list[str]:
    """Each path as written, then as expanded (glob matches) and resolved (link targets),
    with where it lies (inside / outside / no workspace) and why."""
    lines: list[str] = []
    written = [p for p in paths if str(p.get("source")) not in _DERIVED]
    derived = [p for p in paths if str(p.get("source")) in _DERIVED]
    ordered: list[dict[str, object]] = []
    for path in written:
        ordered.append(path)
        ordered.extend(d for d in derived if d.get("path") == path.get("path"))
    ordered.extend(d for d in derived if d not in ordered)
    for path in ordered:
        source = str(path.get("source") or "")
        resolved = path.get("resolved")
        shown = "?" if resolved is None else str(resolved)
        notes = []
        if path.get("pattern"):
            notes.append("judged as a pattern")
        if path.get("tree"):
            notes.append("everything below")
        if path.get("metadata_only"):
            notes.append("names/metadata only")
        if path.get("case_insensitive"):
            notes.append("case-insensitive file system")
        why = path.get("why")
        if why:
            notes.append(str(why))
        tail = f"  [{'; '.join(notes)}]" if notes else ""
        where = _where(path, workspace)
        if source in _DERIVED:
            lines.append(f"        {_DERIVED[source]:<9} {shown}  {where}{tail}")
        else:
            label = f"{path.get('access')} {path.get('path')!s} ({source})"
            lines.append(f"      {label} -> {shown}  {where}{tail}")
    return lines


def render_trace(decision: ApprovalDecision, workspace: str | None = None) -> str:
    """``workspace``: the project root the decision was made in (``""``: none), for the
    paths' locations."""
    lines = [render_decision(decision), ""]
    if workspace is not None:
        lines.append(f"workspace: {workspace or 'none (the directory belongs to no project)'}")
    lines.append("trace:")
    for entry in decision.trace or []:
        part = entry.get("part")
        if part is None:
            lines.append("  whole-command rules")
        else:
            pd = decision.parts[int(str(part))]
            lines.append(
                f"  part {int(str(part)) + 1}: {_short(' '.join(pd.argv) or pd.text, 60)}"
                f"  -> {pd.decision} ({pd.reason_code})"
            )
            lines.append(
                f"    program={pd.program} classes={','.join(pd.classes) or '-'}"
                f" markers={','.join(pd.markers) or '-'}"
            )
            for overridden, by in pd.overridden_by.items():
                lines.append(f"    OVERRIDDEN {overridden} by {by}")
            if pd.paths:
                lines.append("    paths:")
                lines.extend(
                    render_paths(
                        [p if isinstance(p, dict) else p.to_dict() for p in pd.paths], workspace
                    )
                )
        rules = entry.get("rules") or []
        assert isinstance(rules, list)
        if not rules:
            lines.append("    (no candidate rules)")
        for item in rules:
            assert isinstance(item, dict)
            mark = "MATCH" if item.get("matched") else "  -  "
            lines.append(f"    {mark} {item.get('rule')}: {item.get('why')}")
    return "\n".join(lines)
