"""``clearance replay --db``: the whole org's recorded intents under a new policy.

The store groups the rows (in SQL) by what a decision depends on -- the intent's tool, input
and directory, the record's workspace and home -- and by the recorded outcome, so each distinct
intent is decided once however many machines proposed it. The distinct intents are decided on
every core (one process each, the policy loaded once per process); nothing is executed. Each
group's recorded outcome is then compared with the new decision, counted with its number of
rows: ``allow->deny``, ``deny->allow``, …; a change to a less strict decision is *looser*.
"""

from __future__ import annotations

import json
import os
from typing import Any

from clearance.engine.decision import is_looser

TYPE_CHECKING = False
if TYPE_CHECKING:
    from psycopg import Connection

    from clearance.engine.rules import PolicySet

_GROUPS = """
SELECT intent::text, workspace, home, decision, rule_id, reason_code, count(*), min(decision_id),
       min(subject)
FROM (
    SELECT jsonb_build_object(
               'tool', record->'intent'->'tool',
               'input', record->'intent'->'input',
               'cwd', COALESCE(record->'intent'->'cwd', record->'cwd')) AS intent,
           record->>'workspace' AS workspace, record->>'home' AS home,
           decision, rule_id, reason_code, decision_id, subject
    FROM decisions
    WHERE jsonb_typeof(record->'intent') = 'object' AND ({since})
) AS rows
GROUP BY intent, workspace, home, decision, rule_id, reason_code
"""

Key = tuple[str, str | None, str | None]
Outcome = tuple[str, str | None, str]


class DbReplayResult:
    def __init__(self) -> None:
        self.records = 0
        self.skipped = 0
        self.distinct = 0
        self.replayed = 0
        self.counts: dict[str, int] = {}
        self.loosened = 0
        self.rule_changes = 0
        self.examples: list[dict[str, object]] = []

    @property
    def distinct_share(self) -> float:
        considered = self.records - self.skipped
        return self.distinct / considered if considered else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "records": self.records,
            "skipped": self.skipped,
            "distinct_intents": self.distinct,
            "distinct_share": round(self.distinct_share, 6),
            "replayed": self.replayed,
            "counts": dict(sorted(self.counts.items())),
            "loosened": self.loosened,
            "rule_changes": self.rule_changes,
            "examples": self.examples,
        }


_POLICY: list[PolicySet] = []


def _init(files: list[str]) -> None:
    from clearance.engine.api import load_policy

    _POLICY[:] = [load_policy(os.getcwd(), files=files)]


def _decide(key: Key) -> Outcome:
    from clearance.engine.api import decide
    from clearance.engine.intents import ToolIntent

    text, workspace, home = key
    data = json.loads(text)
    tool, tool_input, cwd = data.get("tool"), data.get("input"), data.get("cwd")
    if not isinstance(tool, str) or not isinstance(tool_input, dict):
        from clearance.engine.decision import failure

        bad = failure("bad_input", "the record holds no intent")
        return bad.decision, bad.policy_id, bad.reason_code
    cwd = cwd if isinstance(cwd, str) and cwd else "/"
    intent = ToolIntent(tool, tool_input, source="replay", cwd=cwd)
    new = decide(intent, _POLICY[0], cwd=cwd, workspace=workspace, home=home)
    return new.decision, new.policy_id, new.reason_code


def replay_store(
    conn: Connection[Any],
    files: list[str],
    *,
    since: str | None = None,
    processes: int | None = None,
    examples: int = 50,
) -> DbReplayResult:
    """Raises ``PolicyError`` when ``files`` do not load (checked before any work)."""
    import multiprocessing

    from psycopg import sql

    _init(files)  # a broken policy fails here, up front
    result = DbReplayResult()
    where = "time >= %s::timestamptz" if since else "true"
    params: tuple[object, ...] = (since,) if since else ()
    counted = conn.execute(
        sql.SQL("SELECT count(*) FROM decisions WHERE {}").format(sql.SQL(where)),
        params,
    ).fetchone()
    result.records = int(counted[0]) if counted is not None else 0
    groups: dict[Key, list[tuple[Outcome, int, str, str | None]]] = {}
    query = _GROUPS.format(since=where)
    with conn.transaction(), conn.cursor(name="clearance_replay") as cur:
        cur.itersize = 10000
        cur.execute(query.encode(), params)
        considered = 0
        for row in cur:
            intent, workspace, home, decision, rule, code, count, example, subject = row
            key: Key = (str(intent), workspace, home)
            outcome: Outcome = (str(decision), rule, str(code))
            groups.setdefault(key, []).append((outcome, int(count), str(example), subject))
            considered += int(count)
    result.skipped = result.records - considered
    result.distinct = len(groups)
    keys = list(groups)
    workers = processes or os.cpu_count() or 1
    if workers > 1 and len(keys) > 200:
        context = multiprocessing.get_context("fork")
        with context.Pool(workers, initializer=_init, initargs=(files,)) as pool:
            outcomes = pool.map(_decide, keys, chunksize=max(16, len(keys) // (workers * 16)))
    else:
        outcomes = [_decide(key) for key in keys]
    result.replayed = len(keys)
    per_kind: dict[str, int] = {}
    for key, new in zip(keys, outcomes, strict=True):
        for old, count, example, subject in groups[key]:
            if new[0] != old[0]:
                kind = f"{old[0]}->{new[0]}"
                result.counts[kind] = result.counts.get(kind, 0) + count
                looser = is_looser(old[0], new[0])
                if looser:
                    result.loosened += count
                if per_kind.get(kind, 0) < examples:
                    per_kind[kind] = per_kind.get(kind, 0) + 1
                    result.examples.append(
                        {
                            "kind": kind,
                            "looser": looser,
                            "records": count,
                            "decision_id": example,
                            "subject": subject,
                            "old": {"decision": old[0], "policy_id": old[1], "reason_code": old[2]},
                            "new": {"decision": new[0], "policy_id": new[1], "reason_code": new[2]},
                        }
                    )
            elif (new[1], new[2]) != (old[1], old[2]):
                result.rule_changes += count
    return result
