"""Progress as the run goes: one line per stage, drawn from the events themselves.

The display is a listener on the event log, so it can only show what has been recorded,
and the same renderer prints a recorded run (`--replay LOG --mode trace`): what you saw
live is what the log says.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TextIO

from .events import Event

_WIDTH = 110


def _short(text: str, width: int = _WIDTH) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def subject(tool: str, arguments: Mapping[str, object]) -> str:
    """The one thing a call is about: the command line, the path, the pattern."""
    for key in ("command", "path", "pattern"):
        value = arguments.get(key)
        if isinstance(value, str) and value:
            if key == "path" and isinstance(arguments.get("pattern"), str):
                return f"{arguments['pattern']} in {value}"
            return value
    return ", ".join(f"{key}={value!r}" for key, value in arguments.items()) or "(no input)"


def summary(event: Mapping[str, object]) -> str:
    """One line for an observation: the last meaningful output line of a command, the
    first line after the status of other results, and "not run" for a call that never ran."""
    if event.get("stage") != "execution":
        return "not run"
    content = str(event.get("content", ""))
    lines = [line.strip() for line in content.splitlines()[1:] if line.strip()]
    if event.get("tool") == "bash" and event.get("stage") == "execution":
        meaningful = [
            line
            for line in lines
            if not line.startswith(("---", "[", "exit status:")) and line != "(empty)"
        ]
        return meaningful[-1] if meaningful else "(no output)"
    return lines[0].rstrip(":") if lines else ""


def render(event: Event, ref: str = "") -> list[str]:
    """The lines (possibly none) that show one event; `ref` names its intent (`[3]`)."""
    kind = event.get("type")
    at = f"  {ref} " if ref else "    "
    if kind == "run.started":
        policy = _mapping(event.get("policy"))
        sources = policy.get("sources")
        files = [str(_mapping(s).get("file")) for s in sources] if isinstance(sources, list) else []
        title = f"run {event.get('run_id')}"
        if event.get("mode") == "replay-model":
            title = (
                f"replay {event.get('run_id')} of {event.get('replayed_run_id')} "
                f"(turn {event.get('replayed_turn')}; nothing is executed)"
            )
        lines = [
            f"{title}  provider {event.get('provider')}  model {event.get('model')}",
            f"  workspace {event.get('workspace')}",
            f"  task      {_short(str(event.get('task', '')), 90)}",
        ]
        if files:
            lines.append(f"  policy    {', '.join(files)}")
        if event.get("ledger"):
            lines.append(f"  ledger    {event.get('ledger')}")
        if event.get("on_ask"):
            lines.append(f"  on ask    {event.get('on_ask')}")
        return lines
    if kind == "model.text":
        return [f"turn {event.get('turn')}  model: {_short(str(event.get('text', '')))}"]
    if kind == "tool_intent.proposed":
        arguments = _mapping(event.get("input"))
        what = subject(str(event.get("tool")), arguments)
        return [f"{at}{event.get('tool')}: {_short(what, 90)}"]
    if kind == "tool.validation":
        if event.get("ok"):
            return []
        errors = event.get("errors")
        first = errors[0] if isinstance(errors, list) and errors else ""
        return [f"{at}  invalid   {event.get('status')}: {_short(str(first), 80)}"]
    if kind == "tool.approval":
        decision = _mapping(event.get("decision"))
        verdict = str(decision.get("decision"))
        rule = decision.get("policy_id") or decision.get("reason_code")
        line = f"{at}  decision  {verdict.upper()}  {rule}"
        if event.get("answer"):
            answer = f"{event.get('answer')}, {event.get('answered_by')}"
            line += f"  -> {event.get('outcome')} ({answer})"
        if event.get("audit_error"):
            line += f"  -> deny (not recorded: {_short(str(event.get('audit_error')), 60)})"
        if verdict != "allow":
            line += f": {_short(str(decision.get('reason', '')), 70)}"
        return [line]
    if kind == "session.grant":
        grant = _mapping(event.get("grant"))
        return [f"{at}  grant     {grant.get('id')}: {_short(str(grant.get('reason', '')), 100)}"]
    if kind == "tool.execution.completed":
        result = _mapping(event.get("result"))
        if "exit_code" in result or "timed_out" in result:
            code = result.get("exit_code")
            seconds = int(str(result.get("duration_ms") or 0)) / 1000
            shown = "timeout" if result.get("timed_out") else f"exit {code}"
            return [f"{at}  ran       {shown} ({seconds:.2f}s)"]
        return [f"{at}  ran       {event.get('status')}"]
    if kind == "tool.observation":
        return [f"{at}  observed  {event.get('status')}: {_short(summary(event), 80)}"]
    if kind == "provider.error":
        error = _mapping(event.get("error"))
        message = _short(str(error.get("message")), 80)
        return [f"  ! provider error ({error.get('kind')}): {message}"]
    if kind == "provider.retry":
        return [f"  ! retrying in {event.get('delay_s')}s (attempt {event.get('attempt')})"]
    if kind == "run.finished":
        lines = [
            f"run finished: {event.get('reason')} after {event.get('turns')} turn(s), "
            f"{event.get('tool_calls')} tool call(s)"
        ]
        for key in ("error", "note"):
            if event.get(key):
                lines.extend(f"  {line}" for line in str(event.get(key)).splitlines())
        if event.get("final_answer"):
            lines.append(f"answer: {event.get('final_answer')}")
        return lines
    return []


class Progress:
    """A listener that writes `render`'s lines to `out` as events are recorded, numbering
    intents in the order they were proposed so interleaved stages stay readable."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.broken = False
        self._refs: dict[str, str] = {}

    def _ref(self, event: Event) -> str:
        intent_id = event.get("intent_id")
        if not isinstance(intent_id, str):
            return ""
        if intent_id not in self._refs:
            self._refs[intent_id] = f"[{len(self._refs) + 1}]"
        return self._refs[intent_id]

    def __call__(self, event: Event) -> None:
        if self.broken:
            return
        try:
            for line in render(event, self._ref(event)):
                self.out.write(line + "\n")
            self.out.flush()
        except (BrokenPipeError, ValueError):  # a closed pipe must not stop the run
            self.broken = True


def print_events(events: Iterable[Event], out: TextIO) -> None:
    """Render recorded events, as they were shown live."""
    progress = Progress(out)
    for event in events:
        progress(event)
