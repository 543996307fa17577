"""``clearance audit verify|show|tail|stats`` and ``clearance explain DECISION_ID``.

The ledger (``clearance.engine.ledger``) is read here, never written. Exit status: 0 when the
command did what it says; 1 when ``verify`` finds the chain broken or tampering recorded in it
(the first bad record is named); 2 on a usage error (no such ledger, no such decision id, a
bad filter).

``show``, ``tail`` and ``stats`` take the same filters (:class:`Filters`): ``--since`` and
``--until`` (an ISO date or time, or an age such as ``30m``, ``12h``, ``7d``), ``--decision``,
``--rule``, ``--agent``, ``--session``, ``--user``; with ``--json`` records come out one JSON
object per line, for SIEM pipelines.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time

from clearance.vocab import DECISIONS, AuditExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import TextIO

    from clearance.engine.decision import ApprovalDecision

EXIT_OK, EXIT_BROKEN, EXIT_USAGE = AuditExit.OK, AuditExit.BROKEN, AuditExit.USAGE

#: A ULID as ``decision_id`` makes them: 26 Crockford base32 characters.
ULID = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}\Z")


def looks_like_decision_id(text: str) -> bool:
    return ULID.match(text.strip().upper()) is not None


def ledger_path(ledger: str | None, cwd: str | None = None) -> str:
    """``--ledger`` as given, else the default ledger of the directory."""
    from clearance.engine.ledger import default_ledger_path

    return ledger if ledger else default_ledger_path(cwd or os.getcwd())


class FilterError(ValueError):
    """A filter that cannot be understood (the message says which and why)."""


_AGE_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_when(text: str, *, now: float | None = None) -> float:
    """Seconds since the epoch of ``text``: an age (``30m``, ``12h``, ``7d``, ``2w``: that long
    ago) or an ISO 8601 date or time (UTC unless it names an offset)."""
    from datetime import UTC, datetime

    value = text.strip()
    unit = value[-1:].lower()
    if unit in _AGE_UNITS and value[:-1].isdigit():
        return (time.time() if now is None else now) - int(value[:-1]) * _AGE_UNITS[unit]
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise FilterError(
            f"{text!r} is neither an ISO date/time (2026-12-01, 2026-12-01T09:30Z) nor an age "
            "(30m, 12h, 7d)"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def record_time(record: dict[str, object]) -> float | None:
    value = record.get("time")
    if not isinstance(value, str):
        return None
    try:
        return parse_when(value)
    except FilterError:
        return None


class Filters:
    """Which records ``show``, ``tail`` and ``stats`` consider. Every given filter must hold;
    a record lacking the field (or with a malformed one) does not match it."""

    __slots__ = ("agent", "decisions", "rule", "session", "since", "until", "user")

    def __init__(
        self,
        *,
        since: str | None = None,
        until: str | None = None,
        decision: list[str] | None = None,
        rule: str | None = None,
        agent: str | None = None,
        session: str | None = None,
        user: str | None = None,
    ) -> None:
        self.since = parse_when(since) if since else None
        self.until = parse_when(until) if until else None
        wanted = {d.strip().lower() for item in decision or () for d in item.split(",") if d}
        unknown = wanted - set(DECISIONS)
        if unknown:
            raise FilterError(f"--decision takes allow, ask or deny, not {sorted(unknown)}")
        self.decisions = frozenset(wanted)
        self.rule = rule
        self.agent = agent
        self.session = session
        self.user = user

    @property
    def active(self) -> bool:
        return any(
            (self.since, self.until, self.decisions, self.rule, self.agent, self.session, self.user)
        )

    def match(self, record: dict[str, object]) -> bool:
        decision = record.get("decision")
        d = decision if isinstance(decision, dict) else {}
        if self.since is not None or self.until is not None:
            when = record_time(record)
            if when is None:
                return False
            if self.since is not None and when < self.since:
                return False
            if self.until is not None and when > self.until:
                return False
        if self.decisions and d.get("decision") not in self.decisions:
            return False
        if self.rule is not None and not self._rule_matches(d):
            return False
        if self.agent is not None and self.agent not in (
            record.get("agent"),
            record.get("surface"),
        ):
            return False
        if self.session is not None and record.get("session_id") != self.session:
            return False
        return self.user is None or record.get("user") == self.user

    def _rule_matches(self, d: dict[object, object]) -> bool:
        """``--rule`` names the deciding rule or one that matched, as ``pack/rule`` or just
        ``rule``; or a reason code (``no_rule_matched``)."""
        wanted = self.rule
        if wanted in (d.get("reason_code"), f"({d.get('reason_code')})"):
            return True
        matched = d.get("matched")
        ids = [d.get("policy_id"), *(matched if isinstance(matched, list) else [])]
        return any(isinstance(i, str) and (i == wanted or i.endswith(f"/{wanted}")) for i in ids)


def filtered(path: str, filters: Filters | None) -> Iterable[dict[str, object]]:
    from clearance.engine.ledger import read_records

    for record in read_records(path):
        if filters is None or filters.match(record):
            yield record


def _missing(path: str, err: TextIO) -> int:
    err.write(f"clearance audit: no ledger at {path}\n")
    return EXIT_USAGE


def run_verify(
    ledger: str | None,
    *,
    as_json: bool = False,
    plain: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Walk the hash chain (and the MACs, unless ``plain``); exit 1 naming the first bad
    record or the first tampering an append recorded."""
    from clearance.engine.ledger import verify

    out, err = out or sys.stdout, err or sys.stderr
    path = ledger_path(ledger)
    try:
        result = verify(path, keyed=not plain)
    except FileNotFoundError:
        return _missing(path, err)
    except OSError as exc:
        err.write(f"clearance audit: cannot read {path}: {exc.strerror or exc}\n")
        return EXIT_USAGE
    if as_json:
        out.write(json.dumps({"ledger": path, **result.to_dict()}) + "\n")
    elif result.ok:
        what = "hash chain intact" if plain else "hash chain and MACs intact"
        out.write(f"OK  {path}: {result.records} record(s), {what}\n")
    elif result.kind is None:
        first = result.findings[0]
        out.write(f"TAMPERED  {path}: record {first[0]} records {first[1]}\n")
        out.write(f"  {result.records} record(s) chained and verified, but:\n")
    else:
        out.write(f"BROKEN  {path}: first bad record {result.bad_index} ({result.kind})\n")
        out.write(f"  {result.message}\n")
        out.write(f"  records 0..{result.records - 1} verified\n" if result.records else "")
    if not as_json:
        for index, kind, message in result.findings:
            out.write(f"  finding: record {index} ({kind}): {message}\n")
        for index, note in result.repairs:
            out.write(f"  note: record {index}: {note}\n")
        for note in result.notes:
            out.write(f"  note: {note}\n")
    return EXIT_OK if result.ok else EXIT_BROKEN


def _find(path: str, decision_id: str) -> dict[str, object] | None:
    from clearance.engine.ledger import find_record

    return find_record(path, decision_id.strip().upper())


def run_show(
    decision_id: str | None,
    ledger: str | None,
    *,
    as_json: bool = False,
    filters: Filters | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """The whole record of one decision; without an id, every record the filters match (one
    line each, or one JSON object per line with ``as_json``)."""
    out, err = out or sys.stdout, err or sys.stderr
    path = ledger_path(ledger)
    if not os.path.exists(path):
        return _missing(path, err)
    if decision_id is None:
        _print_records(filtered(path, filters), as_json, out)
        return EXIT_OK
    record = _find(path, decision_id)
    if record is None or (filters is not None and not filters.match(record)):
        err.write(f"clearance audit: no decision {decision_id} in {path}\n")
        return EXIT_USAGE
    if as_json:
        out.write(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
        return EXIT_OK
    out.write(describe_record(record) + "\n")
    return EXIT_OK


def describe_record(record: dict[str, object]) -> str:
    from clearance.cli.commands.render import render_decision
    from clearance.engine.ledger_replay import decision_from_dict

    decision = record.get("decision")
    intent = record.get("intent")
    lines = [
        f"record   {record.get('seq')}  {record.get('time')}  surface {record.get('surface')}"
        + (f"  agent {record.get('agent')}" if record.get("agent") else ""),
    ]
    if record.get("session_id"):
        lines.append(f"session  {record.get('session_id')}")
    if isinstance(intent, dict):
        lines.append(f"intent   {intent.get('tool')} {json.dumps(intent.get('input'))[:200]}")
        lines.append(f"cwd      {intent.get('cwd')}")
    else:
        lines.append("intent   (none: the payload could not be read)")
    lines.append(f"hash     {record.get('hash')}")
    lines.append(f"prev     {record.get('prev')}")
    if isinstance(decision, dict):
        lines += ["", render_decision(decision_from_dict(decision))]
    return "\n".join(lines)


def one_line(record: dict[str, object]) -> str:
    decision = record.get("decision")
    d = decision if isinstance(decision, dict) else {}
    verdict = str(d.get("decision", "?")).upper()
    rule = d.get("policy_id") or f"({d.get('reason_code')})"
    subject = " ".join(str(d.get("subject") or "").split())
    if len(subject) > 60:
        subject = subject[:59] + "…"
    who = str(record.get("agent") or record.get("surface"))
    return (
        f"{record.get('time')}  {record.get('decision_id')}  {who:<11}  {verdict:<5}  "
        f"{rule}  {subject}"
    )


def run_tail(
    ledger: str | None,
    *,
    lines: int = 10,
    follow: bool = False,
    as_json: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
    interval: float = 0.5,
    filters: Filters | None = None,
) -> int:
    """The last ``lines`` records the filters match; with ``follow``, keep printing new ones
    as they come."""
    from collections import deque

    out, err = out or sys.stdout, err or sys.stderr
    path = ledger_path(ledger)
    if lines < 0:
        err.write("clearance audit: -n must be zero or more\n")
        return EXIT_USAGE
    if not os.path.exists(path) and not follow:
        return _missing(path, err)
    last: deque[dict[str, object]] = deque(maxlen=lines)
    if os.path.exists(path):
        last.extend(filtered(path, filters))
    _print_records(last, as_json, out)
    if not follow:
        return EXIT_OK
    try:
        _follow(path, as_json, out, interval, filters)
    except KeyboardInterrupt:
        return EXIT_OK
    return EXIT_OK


def _print_records(records: Iterable[dict[str, object]], as_json: bool, out: TextIO) -> None:
    for record in records:
        out.write((json.dumps(record, sort_keys=True) if as_json else one_line(record)) + "\n")
    out.flush()


def parse_record(raw: bytes) -> dict[str, object] | None:
    from clearance.engine.ledger import parse_record as parse

    return parse(raw)


def _follow(
    path: str, as_json: bool, out: TextIO, interval: float, filters: Filters | None = None
) -> None:
    """Print records appended after now; start over if the file is replaced or shrinks."""
    position = os.path.getsize(path) if os.path.exists(path) else 0
    identity: tuple[int, int] | None = None
    pending = b""
    while True:
        try:
            info = os.stat(path)
        except FileNotFoundError:
            time.sleep(interval)
            continue
        if identity is not None and (info.st_dev, info.st_ino) != identity:
            position, pending = 0, b""
        identity = (info.st_dev, info.st_ino)
        if info.st_size < position:
            position, pending = 0, b""
        if info.st_size > position:
            with open(path, "rb") as fh:
                fh.seek(position)
                chunk = fh.read(info.st_size - position)
            position += len(chunk)
            pending += chunk
            *complete, pending = pending.split(b"\n")
            records = []
            for raw in complete:
                record = parse_record(raw)
                if record is not None and (filters is None or filters.match(record)):
                    records.append(record)
            _print_records(records, as_json, out)
        time.sleep(interval)


def run_stats(
    ledger: str | None,
    *,
    as_json: bool = False,
    filters: Filters | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Counts by decision, rule, program, agent and user (of the records the filters match)."""
    out, err = out or sys.stdout, err or sys.stderr
    path = ledger_path(ledger)
    if not os.path.exists(path):
        return _missing(path, err)
    tables: dict[str, dict[str, int]] = {
        "decision": {},
        "rule": {},
        "program": {},
        "agent": {},
        "user": {},
    }
    total = 0
    for record in filtered(path, filters):
        total += 1
        decision = record.get("decision")
        d = decision if isinstance(decision, dict) else {}
        _count(tables["decision"], str(d.get("decision")))
        _count(tables["rule"], str(d.get("policy_id") or f"({d.get('reason_code')})"))
        _count(tables["agent"], str(record.get("agent") or f"({record.get('surface')})"))
        _count(tables["user"], str(record.get("user") or "(unknown)"))
        facts = record.get("facts")
        programs = (
            {str(f.get("program")) for f in facts if isinstance(f, dict) and f.get("program")}
            if isinstance(facts, list)
            else set()
        )
        for program in sorted(programs):
            _count(tables["program"], program)
    if as_json:
        out.write(json.dumps({"ledger": path, "records": total, **tables}) + "\n")
        return EXIT_OK
    out.write(f"{path}: {total} record(s)\n")
    for name, counts in tables.items():
        out.write(f"\nby {name}\n")
        for key, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            out.write(f"  {count:>6}  {key}\n")
    return EXIT_OK


def _count(table: dict[str, int], key: str) -> None:
    table[key] = table.get(key, 0) + 1


def run_explain_recorded(
    decision_id: str,
    ledger: str | None,
    *,
    cwd: str,
    policies: list[str] | None,
    as_json: bool,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int | None:
    """``clearance explain DECISION_ID``: the trace of a recorded decision, or ``None`` when the
    id is not in the ledger (the caller then explains the text as a command).

    Hooks do not compute traces (it costs time on every tool call), so the trace is rebuilt by
    deciding the recorded intent again -- which executes nothing. When the policy digest equals
    the recorded one, that is the same policy and the trace is the one the decision had;
    otherwise the output says the policy changed since and shows the trace under the current
    one next to the recorded decision. A decision made with exactly some ``--policy`` files is
    explained with those files again unless ``--policy`` says otherwise.
    """
    from clearance.engine.entry import Unreplayable, redecide
    from clearance.engine.ledger_replay import decision_from_dict
    from clearance.engine.policycache import PolicyCache

    out, err = out or sys.stdout, err or sys.stderr
    path = ledger_path(ledger, cwd)
    if not os.path.exists(path):
        return None
    record = _find(path, decision_id)
    if record is None:
        err.write(
            f"clearance explain: no decision {decision_id} in {path}; explaining it as a command\n"
        )
        return None
    recorded = record.get("decision")
    if not isinstance(recorded, dict):
        err.write(f"clearance explain: record {decision_id} holds no decision\n")
        return EXIT_USAGE
    old = decision_from_dict(recorded)
    if old.trace is not None:
        _write_explained(out, as_json, old, None, "recorded trace")
        return EXIT_OK
    recorded_files = record.get("policy_files")
    if policies is None and isinstance(recorded_files, list):
        policies = [str(f) for f in recorded_files]
    again = redecide(record, PolicyCache(policies).get, cwd=cwd, trace=True)
    if isinstance(again, Unreplayable):
        if again.code == "policy":
            err.write(
                f"clearance explain: the policy at {again.where} does not load: {again.error}\n"
            )
            _write_explained(out, as_json, old, None, "the trace cannot be rebuilt")
            return EXIT_USAGE
        why = (
            "no intent was recorded (malformed payload)" if again.code == "no_intent" else again.why
        )
        _write_explained(out, as_json, old, None, why)
        return EXIT_OK
    if again.policy_digest == old.policy_digest:
        note = "trace rebuilt under the same policy (digest matches the record)"
        _write_explained(out, as_json, old.replaced(trace=again.trace), None, note)
    else:
        note = (
            f"the policy changed since this decision (recorded {old.policy_digest[:19] or '-'}, "
            f"now {again.policy_digest[:19]}): the trace below is under the current policy"
        )
        _write_explained(out, as_json, old, again, note)
    return EXIT_OK


def _write_explained(
    out: TextIO,
    as_json: bool,
    recorded: ApprovalDecision,
    current: ApprovalDecision | None,
    note: str,
) -> None:
    from clearance.cli.commands.render import render_decision, render_trace

    if as_json:
        body: dict[str, object] = {"recorded": recorded.to_dict(), "note": note}
        if current is not None:
            body["current"] = current.to_dict()
        out.write(json.dumps(body, indent=2, ensure_ascii=False) + "\n")
        return
    out.write(f"recorded decision ({note})\n")
    if current is None:
        out.write((render_trace(recorded) if recorded.trace else render_decision(recorded)) + "\n")
    else:
        out.write(render_decision(recorded) + "\n\nunder the current policy:\n")
        out.write(render_trace(current) + "\n")
