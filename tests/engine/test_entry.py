"""The one entry point (load the policy in force, decide, fail closed), ``redecide`` of a
record, decision ids, and remembered walk bounds."""

from __future__ import annotations

import json
import os
import random
import re
import time
from pathlib import Path

import pytest

from clearance.engine import decision as decision_module
from clearance.engine.decision import ApprovalDecision, new_decision_id, utc_now
from clearance.engine.entry import Unreplayable, decide_in_force, decide_intent, redecide
from clearance.engine.intents import ToolIntent
from clearance.engine.policycache import PolicyCache

POLICY = """\
version: 1
id: p
rules:
  - id: cat
    decision: allow
    reason: reading
    when: {program: cat}
"""


@pytest.fixture
def policy(tmp_path: Path) -> str:
    path = tmp_path / "p.yaml"
    path.write_text(POLICY)
    return str(path)


def bash(command: str, cwd: str) -> ToolIntent:
    return ToolIntent("bash", {"command": command}, cwd=cwd)


def test_every_way_in_decides_alike(tmp_path: Path, policy: str) -> None:
    cwd = str(tmp_path)
    cache = PolicyCache([policy])
    loaded = cache.get(cwd)
    assert not isinstance(loaded, str)
    ways = [
        decide_intent(bash("cat a", cwd), files=[policy]),
        decide_in_force(bash("cat a", cwd), files=[policy])[0],
        decide_in_force(bash("cat a", cwd), policy=loaded)[0],
        decide_in_force(bash("cat a", cwd), policy_for=cache.get, workspace_for=cache.workspace)[0],
    ]
    assert {(d.decision, d.policy_id) for d in ways} == {("allow", "p/cat")}


def test_a_policy_that_does_not_load_is_a_deny_naming_every_issue(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: 1\nid: b\nrules:\n  - id: x\n    decision: maybe\n")
    decision, policy = decide_in_force(bash("cat a", str(tmp_path)), files=[str(broken)])
    assert policy is None
    assert (decision.decision, decision.reason_code) == ("deny", "policy_error")
    assert decision.errors and all("broken.yaml" in e for e in decision.errors)
    cache = PolicyCache([str(broken)])
    via_batch, _ = decide_in_force(bash("cat a", str(tmp_path)), policy_for=cache.get)
    assert (via_batch.decision, via_batch.reason_code) == ("deny", "policy_error")


def test_a_bug_while_finding_the_policy_fails_closed(tmp_path: Path) -> None:
    def lookup(cwd: str) -> str:
        raise RuntimeError("lookup broke")

    decision, _ = decide_in_force(bash("cat a", str(tmp_path)), policy_for=lookup)
    assert (decision.decision, decision.reason_code) == ("deny", "internal_error")
    assert "lookup broke" in decision.reason


def _record(command: str, cwd: str, **extra: object) -> dict[str, object]:
    return {
        "intent": {"tool": "bash", "input": {"command": command}, "cwd": cwd, "id": "t1"},
        "workspace": cwd,
        "home": cwd,
        **extra,
    }


def test_redecide_decides_the_record_as_recorded(tmp_path: Path, policy: str) -> None:
    cache = PolicyCache([policy])
    again = redecide(_record("cat a", str(tmp_path)), cache.get, trace=True)
    assert isinstance(again, ApprovalDecision)
    assert (again.decision, again.policy_id) == ("allow", "p/cat")
    assert again.trace  # explain's rebuilt trace


def test_redecide_says_why_a_record_cannot_be_decided_again(tmp_path: Path, policy: str) -> None:
    cache = PolicyCache([policy])
    cut = redecide(_record("cat a", str(tmp_path), bounded={"intent.input": 1}), cache.get)
    assert isinstance(cut, Unreplayable) and cut.code == "bounded"
    empty = redecide({"intent": None}, cache.get)
    assert isinstance(empty, Unreplayable) and empty.code == "no_intent"
    broken = PolicyCache([str(tmp_path / "missing.yaml")])
    failed = redecide(_record("cat a", str(tmp_path)), broken.get)
    assert isinstance(failed, Unreplayable) and failed.code == "policy"
    assert failed.where == str(tmp_path) and failed.error


def test_decision_ids_are_ulids_unique_and_time_ordered() -> None:
    ids = [new_decision_id() for _ in range(5000)]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{26}", i) for i in ids)
    later = new_decision_id(time.time() + 1)
    assert later[:10] > ids[-1][:10]
    # the time part is the milliseconds, big-endian in Crockford base32
    assert new_decision_id(0.0)[:10] == "0000000000"
    assert new_decision_id(1.0)[:10] == "00000000Z8"  # 1000 ms = 31*32 + 8


def test_the_time_part_is_right_across_the_32_ms_steps_of_its_cache() -> None:
    """The first nine characters are kept for 32 ms, the tenth made per millisecond: in any
    order of calls, over and across those steps, the time part is the milliseconds' own."""

    def encoded(millis: int) -> str:
        digits = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
        return "".join(digits[(millis >> shift) & 31] for shift in range(45, -5, -5))

    base = 1_765_000_000_000  # a time of this era (ms)
    steps = [base + d for d in (0, 1, 31, 32, 33, 63, 64, 31, 0, 1024, 1023, 32 * 32 * 32)]
    steps += [base + d for d in random.Random(3).sample(range(100_000), 300)]
    for millis in steps:
        assert new_decision_id(millis / 1000 + 0.0001)[:10] == encoded(millis), millis


def test_the_random_part_is_the_drawn_bytes_in_crockford_base32() -> None:
    """The 80 random bits are the next 16 bytes the process drew, each giving the Crockford
    character of its low five bits -- over a whole buffer and into the next one; and every
    character appears in every place (five bits each, not fewer)."""
    crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    new_decision_id()  # this process has drawn its buffer
    seen: list[set[str]] = [set() for _ in range(16)]
    refills = 0
    for _ in range(1000):  # past the end of one 4096-byte buffer, and of the next
        start = decision_module._CLOCK.used
        drawn = decision_module._CLOCK.entropy[start : start + 16]
        made = new_decision_id()
        if len(drawn) < 16:  # a fresh buffer was drawn for this id
            refills += 1
            drawn = decision_module._CLOCK.entropy[:16]
            assert decision_module._CLOCK.used == 16
        assert made[10:] == "".join(crockford[b & 31] for b in drawn)
        for place, char in enumerate(made[10:]):
            seen[place].add(char)
    assert refills >= 3
    assert all(len(chars) == 32 for chars in seen)


def test_a_forked_child_draws_its_own_ids() -> None:
    new_decision_id()  # the parent holds random bytes for its next ids
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.write(write, json.dumps([new_decision_id() for _ in range(50)]).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    with os.fdopen(read) as fh:
        child = json.loads(fh.read())
    parent = [new_decision_id() for _ in range(50)]
    assert not {c[10:] for c in child} & {p[10:] for p in parent}


def test_the_time_is_iso_utc_with_milliseconds() -> None:
    assert utc_now(0.0) == "1970-01-01T00:00:00.000Z"
    assert utc_now(1_700_000_000.25) == "2023-11-14T22:13:20.250Z"
    assert utc_now(1_700_000_001.999) == "2023-11-14T22:13:21.999Z"
    decision = ApprovalDecision("allow", "default", "x")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", decision.time)


def test_a_walk_past_its_bound_stays_unresolved_when_met_again(tmp_path: Path) -> None:
    """A tree deeper than the walk's depth bound: every search of it in the process is
    unresolved (the remembered bound), and a small tree searched after it is still searched."""
    from clearance.engine.api import decide, default_pack_path, load_policy

    deep = tmp_path / "deep"
    path = deep
    for i in range(40):
        path = path / f"d{i}"
    path.mkdir(parents=True)
    (path / "notes.txt").write_text("x")
    small = tmp_path / "small"
    small.mkdir()
    (small / ".env").write_text("SECRET=1")
    (tmp_path / ".git").mkdir()
    policy = load_policy(str(tmp_path), files=[default_pack_path()], use_cache=False)
    cwd = str(tmp_path)

    def judge(command: str) -> tuple[str, set[str]]:
        decision = decide(bash(command, cwd), policy, cwd=cwd, workspace=cwd, home=cwd)
        return decision.decision, {m for p in decision.parts for m in p.markers}

    first = judge("grep -r needle deep")
    second = judge("grep -r needle deep")
    assert first == second
    assert first[0] != "allow" and "unresolved_path" in first[1]
    assert judge("grep -r needle small")[0] == "deny"  # the .env under it is found
    assert judge("grep -r needle deep/d0/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11")[0] == "allow"
