"""``clearance replay LEDGER [--policy FILE]… [--allow-loosening] [--json]``.

Re-decides every recorded intent (``clearance.engine.ledger_replay``; nothing is executed) and
prints what changed: counts by kind (``allow->deny``, ``deny->allow``, …) and each change with
its old and new rule. The ledger is verified first: replaying a tampered ledger would review
intents nobody proposed, so a broken chain is an error.

Exit status: 0 when no decision became less strict; 4 when any did (unless
``--allow-loosening``); 2 on a usage or policy error, an unreadable or tampered ledger.
"""

from __future__ import annotations

import json
import sys

from clearance.vocab import ReplayExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import TextIO

    from clearance.engine.ledger_replay import Change, ReplayResult


EXIT_OK, EXIT_USAGE, EXIT_LOOSENED = ReplayExit.OK, ReplayExit.USAGE, ReplayExit.LOOSENED


def run_replay(
    ledger: str,
    *,
    policies: list[str] | None,
    allow_loosening: bool = False,
    as_json: bool = False,
    plain: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    from clearance.engine.errors import PolicyError
    from clearance.engine.ledger import read_records, verify
    from clearance.engine.ledger_replay import replay

    out, err = out or sys.stdout, err or sys.stderr
    try:
        checked = verify(ledger, keyed=not plain)
    except FileNotFoundError:
        err.write(f"clearance replay: no ledger at {ledger}\n")
        return EXIT_USAGE
    except OSError as exc:
        err.write(f"clearance replay: cannot read {ledger}: {exc.strerror or exc}\n")
        return EXIT_USAGE
    for index, kind, message in checked.findings:
        err.write(f"clearance replay: warning: record {index} ({kind}): {message}\n")
    if checked.kind is not None:
        err.write(
            f"clearance replay: {ledger} fails verification at record {checked.bad_index} "
            f"({checked.kind}): {checked.message}; refusing to replay a ledger that was "
            "tampered with or damaged (see clearance audit verify)\n"
        )
        return EXIT_USAGE
    try:
        result = replay(read_records(ledger), files=policies)
    except PolicyError as exc:
        for issue in exc.issues:
            err.write(f"clearance replay: {issue}\n")
        return EXIT_USAGE
    if as_json:
        out.write(json.dumps({"ledger": ledger, **result.to_dict()}, ensure_ascii=False) + "\n")
    else:
        _report(result, policies, out)
    for error in result.errors:
        err.write(f"clearance replay: {error}\n")
    if result.errors:
        return EXIT_USAGE
    if result.loosened and not allow_loosening:
        return EXIT_LOOSENED
    return EXIT_OK


def _rule(decision: object, code: object) -> str:
    return str(decision) if decision else f"({code})"


def _line(change: Change) -> str:
    old = change.old
    new = change.new
    subject = " ".join(str(old.get("subject") or new.subject).split())
    if len(subject) > 70:
        subject = subject[:69] + "…"
    mark = "  LOOSER" if change.looser else ""
    return (
        f"  #{change.index} {change.record.get('decision_id')}  {change.kind}{mark}\n"
        f"      {subject}\n"
        f"      old {old.get('decision')} {_rule(old.get('policy_id'), old.get('reason_code'))}"
        f"  ->  new {new.decision} {_rule(new.policy_id, new.reason_code)}"
    )


def write_counts(counts: Mapping[str, int], out: TextIO, *, width: int) -> None:
    """The changed decisions, counted by kind (``allow->deny``…), the less strict marked, or
    that none changed (a ledger's replay and the org store's)."""
    from clearance.engine.decision import is_looser

    if not counts:
        out.write("no decision changed\n")
        return
    out.write(f"{sum(counts.values())} decision(s) changed:\n")
    for kind, count in counts.items():
        old, _, new = kind.partition("->")
        mark = "  (less strict)" if is_looser(old, new) else ""
        out.write(f"  {kind:<12} {count:>{width}}{mark}\n")


def _report(result: ReplayResult, policies: list[str] | None, out: TextIO) -> None:
    under = ", ".join(policies) if policies is not None else "the scopes at each record's cwd"
    out.write(
        f"replayed {result.replayed} of {result.records} record(s) under {under} "
        "(nothing executed)\n"
    )
    if result.skipped:
        out.write(f"skipped {len(result.skipped)}: no intent to re-decide or no policy\n")
    write_counts(result.counts, out, width=5)
    if result.changes:
        out.write("\n")
        for change in result.changes:
            out.write(_line(change) + "\n")
    if result.rule_changes:
        out.write(f"\nsame decision, another rule: {len(result.rule_changes)}\n")
        for change in result.rule_changes:
            out.write(_line(change) + "\n")
    loosened = len(result.loosened)
    if loosened:
        out.write(f"\n{loosened} decision(s) became less strict\n")
