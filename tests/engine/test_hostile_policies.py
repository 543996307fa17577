"""A repository's own policy file is untrusted input: every load answers quickly -- a policy, or
an error naming file:line -- whatever the file holds (alias bombs, deep nesting, FIFOs,
megabytes, regexes that backtrack, oversized examples)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clearance.engine.api import decide, load_policy
from clearance.engine.errors import PolicyError
from clearance.engine.intents import ToolIntent
from clearance.engine.loader import MAX_EXAMPLES, load_pack
from clearance.engine.regex import compile_regex, problem

#: Every load below must answer within this (a hook's whole budget is a few seconds).
BOUND = 2.0

HEADER = "version: 1\nid: hostile\nrules:\n"

#: 9 lists of 9 aliases, 9 levels deep: 9**9 values once expanded, in under 400 bytes.
ALIAS_BOMB = (
    HEADER
    + "  - {id: r, decision: allow, reason: x, when: {program: ls}}\n"
    + 'x0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    + "".join(f"x{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 9))
)


pytestmark = pytest.mark.usefixtures("isolated_cache")


def project(tmp_path: Path, text: str) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / ".clearance").mkdir()
    (root / ".clearance" / "policy.yaml").write_text(text)
    return root


def timed_error(root: Path) -> tuple[float, list[str]]:
    start = time.monotonic()
    try:
        load_policy(str(root))
    except PolicyError as exc:
        return time.monotonic() - start, [str(issue) for issue in exc.issues]
    return time.monotonic() - start, []


def test_an_alias_bomb_is_refused_in_milliseconds(tmp_path: Path) -> None:
    assert len(ALIAS_BOMB) < 600
    root = project(tmp_path, ALIAS_BOMB)
    elapsed, issues = timed_error(root)
    assert elapsed < BOUND
    assert issues and "aliases" in issues[0] and "policy.yaml:" in issues[0]


def test_a_recursive_alias_and_deep_nesting_are_refused(tmp_path: Path) -> None:
    for text in (
        HEADER + "  - &r {id: r, decision: allow, reason: x, when: {any: [*r]}}\n",
        HEADER
        + "  - {id: r, decision: allow, reason: x, when: "
        + "{not: " * 200
        + "{program: ls}"
        + "}" * 200
        + "}\n",
        "x: " + "[" * 5000 + "]" * 5000 + "\n",
    ):
        root = project(tmp_path / str(len(text)), text)
        elapsed, issues = timed_error(root)
        assert elapsed < BOUND and issues, text[:80]


def test_ordinary_anchors_still_load(tmp_path: Path) -> None:
    text = (
        HEADER
        + "  - {id: a, decision: allow, reason: x, when: &ls {program: ls}}\n"
        + "  - {id: b, decision: ask, reason: y, when: *ls}\n"
    )
    policy = load_policy(str(project(tmp_path, text)))
    assert [r.id for r in policy.rules][:2] == ["a", "b"]


def test_a_megabyte_policy_and_a_fifo_policy_are_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text(HEADER + "# " + "x" * 2_000_000 + "\n")
    start = time.monotonic()
    with pytest.raises(PolicyError, match="over the limit"):
        load_pack(str(big), "project")
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    with pytest.raises(PolicyError, match="FIFO"):
        load_pack(str(fifo), "project")
    assert time.monotonic() - start < BOUND


def test_a_backtracking_regex_in_its_own_examples_is_linear(tmp_path: Path) -> None:
    evil = "a" * 3000 + "!"
    text = HEADER + (
        "  - id: evil\n"
        "    decision: deny\n"
        "    reason: catastrophic\n"
        "    when: {regex: '^(a+)+$'}\n"
        "    examples:\n"
        f"      no_match: ['echo {evil}']\n"
    )
    root = project(tmp_path, text)
    start = time.monotonic()
    policy = load_policy(str(root))
    intent = ToolIntent("Bash", {"command": "echo hi"}, cwd=str(root))
    decide(intent, policy, cwd=str(root))
    again = ToolIntent("Bash", {"command": "a" * 20000 + "!"}, cwd=str(root))
    decide(again, policy, cwd=str(root))
    assert time.monotonic() - start < BOUND


def test_unsupported_regex_features_are_errors_at_file_line(tmp_path: Path) -> None:
    text = HEADER + (
        "  - id: fine\n    decision: allow\n    reason: x\n    when: {program: ls}\n"
        "  - id: lookahead\n    decision: deny\n    reason: x\n    when: {regex: 'rm(?= -rf)'}\n"
    )
    _, issues = timed_error(project(tmp_path, text))
    assert len(issues) == 1
    assert ":11:" in issues[0] and "[rule lookahead]" in issues[0] and "linear time" in issues[0]
    assert problem(r"(a)\1") is not None
    assert problem(r"rm\s+-rf\Z") is None  # Python's \Z is translated
    assert compile_regex(r"x\Z").search("ax") and not compile_regex(r"x\Z").search("xa")


def test_too_many_or_too_long_examples_are_refused(tmp_path: Path) -> None:
    many = json.dumps(["ls"] * (MAX_EXAMPLES + 1))
    text = HEADER + (
        f"  - id: many\n    decision: allow\n    reason: x\n    when: {{program: ls}}\n"
        f"    examples: {{match: {many}}}\n"
    )
    _, issues = timed_error(project(tmp_path, text))
    assert issues and "over the limit" in issues[0]
    long = "ls " + "a" * 10_000
    text = HEADER + (
        f"  - id: long\n    decision: allow\n    reason: x\n    when: {{program: ls}}\n"
        f"    examples: {{match: ['{long}']}}\n"
    )
    _, issues = timed_error(project(tmp_path / "b", text))
    assert issues and "characters" in issues[0]


def test_the_hook_in_a_hostile_repository_blocks_quickly(tmp_path: Path) -> None:
    root = project(tmp_path, ALIAS_BOMB)
    payload = {
        "session_id": "s",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "echo hi"},
    }
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "clearance", "hook", "claude-code"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    elapsed = time.monotonic() - start
    assert proc.returncode == 2, proc
    assert "policy" in proc.stderr and "aliases" in proc.stderr
    assert elapsed < 10  # a cold interpreter; the load itself is milliseconds


# ---- fuzz: whatever the file holds, a load answers within the bound ---------------------------

_SCALARS = st.sampled_from(
    ["ls", "rm", "'(a+)+$'", "'rm(?=x)'", "'[unclosed'", "deny", "allow", "~", "1e999", "!!str"]
)
_FRAGMENTS = st.sampled_from(
    [
        "  - {id: r, decision: allow, reason: x, when: {program: ls}}\n",
        "  - {id: r, decision: deny, reason: x, when: {regex: %s}}\n",
        "  - &A {id: q, decision: ask, reason: x, when: {argv: [%s]}}\n",
        "  - *A\n",
        "x: &B [%s, %s, %s]\n",
        "y: &C [*B, *B, *B, *B, *B, *B, *B, *B]\n",
        "z: [*C, *C, *C, *C, *C, *C, *C, *C]\n",
        "    examples: {match: [%s], no_match: [%s]}\n",
        "  - {id: n, decision: deny, reason: x, when: {not: {not: {not: {program: %s}}}}}\n",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n",
        "extends: [%s]\n",
        "\t\x00\n",
    ]
)


@st.composite
def policy_texts(draw: st.DrawFn) -> str:
    parts = [HEADER]
    for fragment in draw(st.lists(_FRAGMENTS, max_size=12)):
        filled = fragment
        while "%s" in filled:
            filled = filled.replace("%s", draw(_SCALARS), 1)
        parts.append(filled)
    if draw(st.booleans()):
        parts.append(draw(st.text(max_size=200)))
    return "".join(parts)


@settings(
    max_examples=60,
    deadline=BOUND * 1000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=policy_texts())
def test_every_policy_load_answers_within_the_bound(tmp_path: Path, text: str) -> None:
    path = tmp_path / "fuzz.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        load_policy(str(tmp_path), files=[str(path)], use_cache=False)
    except PolicyError as exc:
        assert exc.issues  # an error names where, never a traceback
