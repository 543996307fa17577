"""Replay a recorded run without touching the world.

Three ways to look at a run again, none of which executes anything:

- `trace` prints the recorded run as it was shown live.
- `dry-run` re-validates every recorded intent against today's tool schemas and
  re-decides it under today's policy (or `--policy`), with the session grants the run
  had made up to that point, and shows where the answer differs.
- `model` sends the recorded conversation, observations included, to a provider and
  records what the model proposes now, in a new event log; the proposals are not run.

None of this builds a tool runtime: validation is the pure schema check of `Toolbox`, and
decisions come from the engine, which only reads.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TextIO, cast, get_args

from clearance.engine.api import load_policy
from clearance.engine.entry import Unreplayable
from clearance.engine.entry import redecide as redecide_record
from clearance.engine.rules import PolicySet
from clearance.runner.providers.base import Provider
from clearance.vocab import RunReplayExit

from .audit import AGENT
from .events import Event, EventLog, LogContents, read_events
from .ids import new_run_id
from .pipeline import Proposal
from .progress import Progress, print_events, subject
from .projection import next_request, run_header
from .tools.toolbox import Invalid, Toolbox
from .turn import collect

if TYPE_CHECKING:
    from clearance.engine.types import PackData, RuleData

ReplayMode = Literal["trace", "dry-run", "model"]
REPLAY_MODES: tuple[str, ...] = get_args(ReplayMode)


def trace(path: Path, out: TextIO) -> int:
    """Print the recorded run; exit status ``RunReplayExit.OK``."""
    contents = read_events(path)
    print_events(contents.events, out)
    if contents.torn_tail:
        out.write("(the log's last line was cut off: the writer was killed mid-event)\n")
    return RunReplayExit.OK


# --- dry-run --------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """An intent's validation and engine decision (with its rule).

    `schema_ok` is `None` when the log does not say (the run ended first); `state` is the
    runtime-state failure a recorded intent stopped at, which replay cannot re-check.
    """

    schema_ok: bool | None
    status: str = "ok"
    decision: str | None = None
    rule: str | None = None
    reason: str = ""
    state: str | None = None

    def label(self) -> str:
        if self.decision is not None:
            return f"{self.decision.upper()} {self.rule or ''}".strip()
        if self.schema_ok is None:
            return "not recorded (the run ended first)"
        if self.state is not None:
            return f"not decided (stopped at runtime state: {self.state})"
        return f"not valid ({self.status})"


@dataclass(frozen=True)
class Redecision:
    """One recorded intent, then and now."""

    intent_id: str
    tool: str
    subject: str
    recorded: Verdict
    now: Verdict

    @property
    def changed(self) -> bool:
        """Whether the answer differs, comparing only what both sides have: a different
        schema verdict, or a different decision or rule where both were decided."""
        before, after = self.recorded, self.now
        if before.schema_ok is None or after.schema_ok is None:
            return False
        if before.schema_ok != after.schema_ok:
            return True
        if not before.schema_ok:
            return before.status != after.status
        if before.decision is None or after.decision is None:
            return False
        return (before.decision, before.rule) != (after.decision, after.rule)


def redecide(
    contents: LogContents,
    *,
    policy_files: list[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> list[Redecision]:
    """Re-validate and re-decide every recorded intent; raises `PolicyError` if the policy
    does not load. Runtime-state checks (was the file read?) are not repeated: the state
    they looked at is gone."""
    events = contents.events
    header = run_header(events)
    workspace = str(header.get("workspace") or os.getcwd())
    home = str(header.get("home") or os.path.expanduser("~"))
    toolbox = Toolbox()
    grants: list[dict[str, object]] = []
    policy = load_policy(workspace, files=policy_files, env=env)
    by_intent = _by_intent(events)
    results: list[Redecision] = []
    for event in events:
        if event.get("type") != "tool_intent.proposed":
            continue
        intent_id = str(event["intent_id"])
        tool = str(event.get("tool"))
        arguments = event.get("input")
        arguments = dict(arguments) if isinstance(arguments, dict) else {}
        recorded = _recorded_verdict(by_intent.get(intent_id, []))
        if event.get("malformed"):
            now = Verdict(False, "invalid_input")
        else:
            checked = toolbox.validate(tool, arguments)
            if isinstance(checked, Invalid):
                now = Verdict(False, str(checked.status))
            else:
                record: dict[str, object] = {
                    "intent": {
                        "tool": tool,
                        "input": checked.args.model_dump(mode="json"),
                        "source": AGENT,
                        "cwd": workspace,
                        "id": intent_id,
                        "session_id": contents.run_id,
                    },
                    "workspace": workspace,
                    "home": home,
                }
                decision = redecide_record(record, _always(policy))
                if isinstance(decision, Unreplayable):
                    now = Verdict(True, "error", reason=decision.why)
                else:
                    now = Verdict(
                        True, "ok", decision.decision, decision.policy_id, decision.reason
                    )
        results.append(Redecision(intent_id, tool, subject(tool, arguments), recorded, now))
        for later in by_intent.get(intent_id, []):
            grant = later.get("grant")
            if later.get("type") == "session.grant" and isinstance(grant, dict):
                grants.append({str(key): value for key, value in grant.items()})
                policy = load_policy(
                    workspace, files=policy_files, session=_session_pack(grants), env=env
                )
    return results


def _always(policy: PolicySet) -> Callable[[str], PolicySet]:
    """A policy lookup that answers ``policy`` at every directory."""

    def lookup(_cwd: str) -> PolicySet:
        return policy

    return lookup


def _by_intent(events: Sequence[Event]) -> dict[str, list[Event]]:
    found: dict[str, list[Event]] = {}
    for event in events:
        intent_id = event.get("intent_id")
        if isinstance(intent_id, str):
            found.setdefault(intent_id, []).append(event)
    return found


def _recorded_verdict(events: Sequence[Event]) -> Verdict:
    verdict = Verdict(None)
    for event in events:
        if event.get("type") == "tool.validation":
            status = str(event.get("status"))
            if event.get("ok"):
                verdict = Verdict(True)
            elif event.get("failed_check") == "state":
                verdict = Verdict(True, status, state=status)
            else:
                verdict = Verdict(False, status)
        elif event.get("type") == "tool.approval":
            decision = event.get("decision")
            if isinstance(decision, dict):
                return Verdict(
                    True,
                    decision=str(decision.get("decision")),
                    rule=str(decision["policy_id"]) if decision.get("policy_id") else None,
                    reason=str(decision.get("reason", "")),
                )
    return verdict


def _session_pack(rules: list[dict[str, object]]) -> list[PackData]:
    from .grants import SessionGrants

    grants = SessionGrants()
    # grant rules as the event log recorded them (the engine built each one)
    grants.rules = [cast("RuleData", dict(rule)) for rule in rules]
    return grants.packs()


def dry_run(
    path: Path,
    out: TextIO,
    *,
    policy_files: list[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> int:
    """Print every intent's decision then and now, differences marked; exit status
    ``RunReplayExit.OK``."""
    contents = read_events(path)
    results = redecide(contents, policy_files=policy_files, env=env)
    out.write(f"dry-run of {contents.run_id}: {len(results)} intent(s), nothing is executed\n")
    for number, result in enumerate(results, start=1):
        mark = "CHANGED" if result.changed else "same   "
        line = f"  {mark} [{number}] {result.tool}: {result.subject}"
        out.write(line[:110] + "\n")
        if result.changed:
            out.write(f"          then: {result.recorded.label()}\n")
            out.write(f"          now:  {result.now.label()}")
            out.write(f": {result.now.reason}\n" if result.now.reason else "\n")
        else:
            out.write(f"          {result.now.label()}\n")
    changed = sum(result.changed for result in results)
    out.write(f"{changed} of {len(results)} decision(s) would change\n")
    return RunReplayExit.OK


# --- model ----------------------------------------------------------------------


def events_for_turn(events: Sequence[Event], turn: int | None) -> list[Event]:
    """The events the model had seen when it was asked for `turn`.

    `None` means "what comes next": everything, unless the run ended with a final answer,
    in which case that last turn is asked again (a conversation must not end with the
    model's own answer).
    """
    if turn is None:
        finals = [e for e in events if e.get("type") == "model.finished"]
        if not finals or finals[-1].get("tool_calls"):
            return list(events)
        turn = int(str(finals[-1].get("turn")))
    for index, event in enumerate(events):
        if event.get("type") == "model.request" and event.get("turn") == turn:
            return list(events[:index])
    raise ValueError(f"the log has no turn {turn}")


def replay_model(
    path: Path,
    out: TextIO,
    *,
    provider: Provider,
    provider_name: str,
    model: str,
    turn: int | None = None,
    log_path: Path | None = None,
    max_tokens: int = 4096,
) -> tuple[int, Path]:
    """Ask `provider` what it proposes now; record it in a new log. (exit status, log)"""
    contents = read_events(path)
    seen = events_for_turn(contents.events, turn)
    header = run_header(contents.events)
    request = next_request(seen, model=model, tools=Toolbox().specs(), max_tokens=max_tokens)
    run_id = new_run_id()
    target = log_path or path.parent / f"{run_id}.jsonl"
    log = EventLog(target, run_id, listeners=[Progress(out)])
    asked = turn or sum(1 for e in seen if e.get("type") == "model.finished") + 1
    try:
        log.emit(
            "run.started",
            mode="replay-model",
            replay_of=str(path),
            replayed_run_id=contents.run_id,
            replayed_turn=asked,
            task=header.get("task"),
            workspace=header.get("workspace"),
            home=header.get("home"),
            system=header.get("system"),
            provider=provider_name,
            model=model,
        )
        log.emit(
            "model.request", turn=asked, attempt=1, model=model, messages=len(request.messages)
        )
        result = collect(provider.stream(request))
        if result.failure is not None:
            log.emit(
                "provider.error",
                turn=asked,
                attempt=1,
                error=result.failure.model_dump(mode="json"),
                discarded={"text": result.text, "tool_calls": len(result.calls)},
            )
            log.emit(
                "run.finished",
                reason="provider_error",
                error=f"{result.failure.kind}: {result.failure.message}",
                turns=0,
                tool_calls=0,
            )
            return RunReplayExit.PROVIDER_ERROR, target
        if result.text:
            log.emit("model.text", turn=asked, text=result.text)
        for call in result.calls:
            proposal = Proposal.of(call)
            log.emit("tool_intent.proposed", turn=asked, **proposal.fields(), executed=False)
        log.emit(
            "model.finished",
            turn=asked,
            reason=str(result.reason),
            usage=result.usage.model_dump(),
            tool_calls=len(result.calls),
        )
        log.emit(
            "run.finished",
            reason="turn_limit" if result.calls else "final_answer",
            final_answer=None if result.calls else result.text,
            error=None,
            note="a model replay stops after one turn; its proposals are recorded, not run",
            turns=1,
            tool_calls=0,
        )
    finally:
        log.close()
    return RunReplayExit.OK, target
