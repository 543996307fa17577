"""``clearance replay --db DSN --policy NEW [--since TIME]``: the org's store, replayed.

Exit status: 0 when no decision became less strict; 4 when any did (unless
``--allow-loosening``); 2 on a usage or policy error, or a store that cannot be read.
"""

from __future__ import annotations

import json
import sys

from clearance.vocab import ReplayExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO


EXIT_OK, EXIT_USAGE, EXIT_LOOSENED = ReplayExit.OK, ReplayExit.USAGE, ReplayExit.LOOSENED


def run_replay_db(
    dsn: str | None,
    *,
    ledger: str | None = None,
    policies: list[str] | None,
    since: str | None = None,
    allow_loosening: bool = False,
    as_json: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    if dsn is None:
        err.write("clearance replay: --since needs --db DSN\n")
        return EXIT_USAGE
    if ledger is not None:
        err.write("clearance replay: give a LEDGER or --db DSN, not both\n")
        return EXIT_USAGE
    if not policies:
        err.write(
            "clearance replay: --db needs --policy FILE (the org's intents come from other "
            "machines: there are no scopes to discover here)\n"
        )
        return EXIT_USAGE
    if since is not None:
        import datetime

        try:
            datetime.datetime.fromisoformat(since)
        except ValueError:
            err.write(
                f"clearance replay: --since {since!r} is not an ISO 8601 date or time "
                "(e.g. 2026-11-01 or 2026-11-01T09:00:00Z)\n"
            )
            return EXIT_USAGE
    from clearance.cli.commands.replay import write_counts
    from clearance.cli.commands.store_db import on_store
    from clearance.engine.errors import PolicyError
    from clearance.service.dbreplay import replay_store

    try:
        result = on_store(
            "replay", dsn, lambda conn: replay_store(conn, policies, since=since), err
        )
    except PolicyError as exc:
        for issue in exc.issues:
            err.write(f"clearance replay: {issue}\n")
        return EXIT_USAGE
    if result is None:
        return EXIT_USAGE
    if as_json:
        out.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
    else:
        out.write(
            f"replayed {result.distinct} distinct intent(s) of {result.records} stored "
            f"decision(s) ({result.distinct_share:.1%} distinct) under {', '.join(policies)} "
            "(nothing executed)\n"
        )
        if result.skipped:
            out.write(f"skipped {result.skipped}: no intent to re-decide\n")
        write_counts(dict(sorted(result.counts.items())), out, width=8)
        for example in result.examples[:20]:
            old_d, new_d = example["old"], example["new"]
            assert isinstance(old_d, dict) and isinstance(new_d, dict)
            subject = " ".join(str(example.get("subject") or "").split())[:70]
            out.write(
                f"  {example['kind']} x{example['records']}  {subject}\n"
                f"      old {old_d['decision']} {old_d['policy_id'] or old_d['reason_code']}"
                f"  ->  new {new_d['decision']} {new_d['policy_id'] or new_d['reason_code']}"
                f"  (e.g. {example['decision_id']})\n"
            )
        if result.rule_changes:
            out.write(f"same decision, another rule: {result.rule_changes}\n")
        if result.loosened:
            out.write(f"{result.loosened} decision(s) became less strict\n")
    if result.loosened and not allow_loosening:
        return EXIT_LOOSENED
    return EXIT_OK
