"""``clearance gate``: one decision per intent line, in order, ids echoed; bad lines denied with
``bad_input`` without stopping; exit status from the strictest decision; CI formats."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gate_support import POLICY, policy_file  # noqa: F401  (fixtures)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clearance.cli.commands.gate import run_gate
from clearance.engine.ledger import read_records, verify

pytestmark = pytest.mark.usefixtures("isolated_cache")


def gate(
    lines: list[str] | bytes,
    policy: str | None,
    *,
    output: str = "json",
    summary: bool = False,
    source: str | None = None,
    cwd: str | None = None,
    ledger: str | None = None,
) -> tuple[int, str, str]:
    data = lines if isinstance(lines, bytes) else "".join(x + "\n" for x in lines).encode()
    out, err = io.StringIO(), io.StringIO()
    code = run_gate(
        source,
        policies=[policy] if policy else None,
        output=output,
        summary=summary,
        cwd=cwd,
        ledger=ledger,
        stdin=io.BytesIO(data) if source is None else None,
        stdout=out,
        stderr=err,
    )
    return code, out.getvalue(), err.getvalue()


def intent(ident: object, command: str, **extra: object) -> str:
    return json.dumps({"id": ident, "tool": "Bash", "input": {"command": command}, **extra})


def decisions(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_one_decision_per_line_in_order_with_ids(policy: str) -> None:
    code, out, _ = gate([intent("a", "ls"), intent(7, "rm -rf x"), intent(None, "cat f")], policy)
    got = decisions(out)
    assert [(d["id"], d["line"], d["decision"]) for d in got] == [
        ("a", 1, "allow"),
        (7, 2, "deny"),
        (None, 3, "allow"),
    ]
    assert got[1]["policy_id"] == "ci/no-rm" and got[1]["reason_code"] == "rule_matched"
    assert all("decision_id" in d and "parts" in d for d in got)
    assert code == 4


def test_exit_status_is_the_strictest(policy: str) -> None:
    assert gate([intent(1, "ls"), intent(2, "cat x")], policy)[0] == 0
    assert gate([intent(1, "ls"), intent(2, "make")], policy)[0] == 3
    assert gate([intent(1, "make"), intent(2, "rm x"), intent(3, "ls")], policy)[0] == 4
    assert gate([], policy)[0] == 0


def test_bad_lines_are_denied_and_processing_continues(policy: str) -> None:
    lines = [
        intent("first", "ls"),
        "{not json",
        "[1, 2]",
        json.dumps({"id": "no-tool", "input": {}}),
        json.dumps({"id": "bad-input", "tool": "Bash", "input": "ls"}),
        json.dumps({"id": "post", "hook_event_name": "PostToolUse", "tool_name": "Bash"}),
        intent("last", "ls"),
    ]
    code, out, _ = gate(lines, policy)
    got = decisions(out)
    assert len(got) == 7
    assert [d["id"] for d in got] == ["first", None, None, "no-tool", "bad-input", "post", "last"]
    assert [d["reason_code"] for d in got[1:6]] == ["bad_input"] * 5
    assert all(d["decision"] == "deny" for d in got[1:6])
    assert got[0]["decision"] == got[6]["decision"] == "allow"
    assert code == 4


def test_blank_lines_are_skipped_without_shifting_anything(policy: str) -> None:
    data = (intent("a", "ls") + "\n\n   \n" + intent("b", "rm x") + "\n\n").encode()
    code, out, _ = gate(data, policy)
    got = decisions(out)
    assert [(d["id"], d["line"]) for d in got] == [("a", 1), ("b", 4)]
    assert code == 4


def test_non_utf8_and_oversized_lines(policy: str) -> None:
    big = b'{"id": "big", "tool": "Bash", "input": {"command": "' + b"a" * (6 << 20) + b'"}}'
    data = b'{"id": "\xff"}\n' + big + b"\n" + intent("after", "ls").encode() + b"\n"
    code, out, _ = gate(data, policy)
    got = decisions(out)
    assert [d["reason_code"] for d in got] == ["bad_input", "bad_input", "rule_matched"]
    assert "longer than" in str(got[1]["reason"])
    assert got[2]["id"] == "after" and got[2]["line"] == 3
    assert code == 4


def test_hook_payloads_of_every_agent_are_understood(policy: str, tmp_path: Path) -> None:
    claude = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "cwd": str(tmp_path),
        "tool_use_id": "toolu_1",
        "tool_input": {"command": "rm -rf x"},
    }
    gemini = {
        "hook_event_name": "BeforeTool",
        "tool_name": "read_file",
        "cwd": str(tmp_path),
        "tool_input": {"file_path": "notes.txt"},
    }
    codex = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "cwd": str(tmp_path),
        "turn_id": "t",
        "tool_use_id": "call_1",
        "tool_input": {"command": "ls"},
    }
    ledger = tmp_path / "gate-ledger.jsonl"
    code, out, _ = gate(
        [json.dumps(p) for p in (claude, gemini, codex)], policy, ledger=str(ledger)
    )
    got = decisions(out)
    assert [d["id"] for d in got] == ["toolu_1", None, "call_1"]
    assert [d["decision"] for d in got] == ["deny", "ask", "allow"]
    assert got[1]["subject"] == str(tmp_path / "notes.txt")  # Gemini's relative path resolved
    assert code == 4
    records = list(read_records(str(ledger)))
    assert [r["agent"] for r in records] == ["claude-code", "gemini-cli", "codex"]
    assert {r["surface"] for r in records} == {"gate"}
    assert verify(str(ledger)).ok


def test_broken_policy_denies_every_line_and_exits_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: 1\nrules: [\n")
    code, out, err = gate([intent(1, "ls"), intent(2, "rm x")], str(broken))
    got = decisions(out)
    assert [d["reason_code"] for d in got] == ["policy_error", "policy_error"]
    assert all(d["decision"] == "deny" for d in got)
    assert code == 2 and "broken.yaml" in err


#: Files opened while :func:`opened_files` records (an audit hook sees every ``open`` and
#: ``os.open``, from compiled code too). Hooks cannot be removed: one is added, once.
_RECORDING: list[list[str]] = []
_HOOKED: set[bool] = set()


def _audit(event: str, args: tuple[object, ...]) -> None:
    if _RECORDING and event == "open" and isinstance(args[0], str):
        _RECORDING[-1].append(os.path.realpath(args[0]))


@contextlib.contextmanager
def opened_files() -> Iterator[list[str]]:
    if not _HOOKED:
        sys.addaudithook(_audit)
        _HOOKED.add(True)
    opened: list[str] = []
    _RECORDING.append(opened)
    try:
        yield opened
    finally:
        _RECORDING.remove(opened)


def reads_of(path: str | Path, lines: list[str], policy: str | None) -> int:
    """How often deciding ``lines`` in one gate batch opens ``path``."""
    with opened_files() as opened:
        code, out, _ = gate(lines, policy)
    assert code == 0 and len(decisions(out)) == len(lines)
    return opened.count(os.path.realpath(path))


def test_policy_is_loaded_once(policy: str) -> None:
    gate([intent(0, "ls")], policy)  # the compiled-policy cache is warm from here on
    once = reads_of(policy, [intent(0, "ls")], policy)
    assert once >= 1
    assert reads_of(policy, [intent(i, "ls") for i in range(20)], policy) == once


def test_scopes_are_loaded_once_per_directory(tmp_path: Path) -> None:
    one, two, same = tmp_path / "one", tmp_path / "two", tmp_path / "one" / "sub"
    for project in (one, two):
        (project / ".git").mkdir(parents=True)
        (project / ".clearance").mkdir()
        (project / ".clearance" / "policy.yaml").write_text(POLICY.replace("id: ci", "id: p"))
    same.mkdir()
    lines = [intent(i, "ls", cwd=str((one, two, same)[i % 3])) for i in range(12)]
    gate(lines, None)  # warm the compiled-policy cache
    files = {d: d / ".clearance" / "policy.yaml" for d in (one, two)}
    once = {d: reads_of(files[d], [intent(0, "ls", cwd=str(d))], None) for d in (one, two)}
    assert all(count >= 1 for count in once.values())
    # one and one/sub have the same policy files in force: one load serves both.
    assert {d: reads_of(files[d], lines, None) for d in (one, two)} == once
    # its twin: a policy file in one/sub is another set in force, loaded on its own
    (same / ".clearance").mkdir()
    (same / ".clearance" / "policy.yaml").write_text(POLICY.replace("id: ci", "id: s"))
    assert reads_of(same / ".clearance" / "policy.yaml", lines, None) == once[one]


def test_text_format(policy: str) -> None:
    code, out, _ = gate([intent("a", "ls"), intent("b", "rm -rf x")], policy, output="text")
    lines = out.splitlines()
    assert lines[0].startswith("line 1 id=a: ALLOW [ci/ls] listing")
    assert lines[1].startswith("line 2 id=b: DENY [ci/no-rm] no deletes in CI (part: rm -rf x)")
    assert code == 4


def test_github_annotations(policy: str, tmp_path: Path) -> None:
    source = tmp_path / "intents.jsonl"
    source.write_text(
        "\n".join([intent("a", "ls"), intent("b", "rm -rf x"), intent("c", "make, 100%")]) + "\n"
    )
    code, out, _ = gate([], policy, output="github", source=str(source))
    lines = out.splitlines()
    assert len(lines) == 2  # allow gives no annotation
    assert lines[0].startswith(
        f"::error file={source},line=2,title=clearance deny%3A ci/no-rm::[ci/no-rm] no deletes"
    )
    assert lines[1].startswith(f"::warning file={source},line=3,title=clearance ask%3A ")
    assert "100%25" in lines[1]
    assert code == 4


def test_summary_table(policy: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    step = tmp_path / "step.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step))
    lines = [intent(1, "ls"), intent(2, "cat a"), intent(3, "rm x"), intent(4, "make"), "oops"]
    code, out, err = gate(lines, policy, summary=True)
    assert code == 4 and len(decisions(out)) == 5  # stdout stays JSON Lines
    assert "ci/ls" in err and "(bad_input)" in err and "total 5: 2 allow, 1 ask, 2 deny" in err
    rows = [line.split() for line in err.splitlines()[1:-1]]
    assert ["deny", "ci/no-rm", "1"] in rows and ["allow", "ci/ls", "2"] in rows
    assert not step.exists()  # only the github format writes the step summary
    _, out, _ = gate(lines, policy, summary=True, output="github")
    assert "total 5" in out
    assert "| deny | `ci/no-rm` | 1 |" in step.read_text()


def test_usage_errors(policy: str, tmp_path: Path) -> None:
    assert gate([], policy, output="xml")[0] == 2
    assert gate([], policy, source=str(tmp_path / "missing.jsonl"))[0] == 2


def test_command_line(policy: str, tmp_path: Path) -> None:
    env = {**os.environ, "CLEARANCE_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run(
        [sys.executable, "-m", "clearance", "gate", "--policy", policy, "--json", "-"],
        input=(intent("x", "ls") + "\n" + intent("y", "make") + "\n").encode(),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 3, proc.stderr
    assert [d["id"] for d in decisions(proc.stdout.decode())] == ["x", "y"]


lines_strategy = st.lists(
    st.one_of(
        st.binary(max_size=40).filter(lambda b: b"\n" not in b and b"\r" not in b),
        st.builds(
            lambda i, c: intent(i, c).encode(),
            st.integers(),
            st.sampled_from(["ls", "rm -rf x", "make", "cat a | grep b", "", "$(x)"]),
        ),
        st.builds(
            lambda v: json.dumps(v).encode(),
            st.dictionaries(
                st.sampled_from(["id", "tool", "input", "cwd", "hook_event_name"]),
                st.none()
                | st.integers()
                | st.text(max_size=5)
                | st.lists(st.integers(), max_size=2),
                max_size=4,
            ),
        ),
    ),
    max_size=12,
)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(lines=lines_strategy)
def test_fuzzed_batches_keep_one_answer_per_line(policy: str, lines: list[bytes]) -> None:
    code, out, _ = gate(b"".join(line + b"\n" for line in lines), policy)
    got = decisions(out)
    expected = [n for n, line in enumerate(lines, 1) if line.strip()]
    assert [d["line"] for d in got] == expected
    for d in got:
        assert d["decision"] in ("allow", "ask", "deny")
        assert d["reason_code"] != "internal_error", d
    verdicts = {str(d["decision"]) for d in got}
    expect = 4 if "deny" in verdicts else 3 if "ask" in verdicts else 0
    assert code == expect


def test_a_bug_on_one_line_denies_that_line_only(policy: str, tmp_path: Path) -> None:
    """A failure inside deciding one line (here the policy lookup raises, as a bug would) is
    that line's internal_error, a deny; the lines around it are decided as usual."""
    from clearance.engine.policycache import PolicyCache
    from clearance.hooks.gate import decide_line

    cache = PolicyCache([policy])
    (tmp_path / "boom").mkdir()

    def lookup(cwd: str) -> object:
        if cwd.endswith("boom"):
            raise RuntimeError("boom")
        return cache.get(cwd)

    lines = [
        {"id": 1, "tool": "bash", "input": {"command": "ls"}},
        {"id": 2, "tool": "bash", "input": {"command": "ls"}, "cwd": "boom"},
        {"id": 3, "tool": "bash", "input": {"command": "ls"}},
    ]
    got = [
        decide_line(json.dumps(line).encode(), n, str(tmp_path), lookup)  # type: ignore[arg-type]
        for n, line in enumerate(lines, 1)
    ]
    assert [d.reason_code for d, *_ in got] == ["rule_matched", "internal_error", "rule_matched"]
    assert got[1][0].decision == "deny" and "boom" in got[1][0].reason
    assert [ident for _, ident, *_ in got] == [1, 2, 3]


def _gate_process(
    policy: str, tmp_path: Path, source: str, unbuffered: bool = False
) -> subprocess.Popen[bytes]:
    # the interpreter's own buffering as a user's shell has it: not unbuffered -- or, with
    # ``unbuffered``, as CI runners and agents often start it (the output is then raw)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    env["CLEARANCE_CACHE_DIR"] = str(tmp_path / "cache")
    return subprocess.Popen(
        [sys.executable, "-m", "clearance", "gate", "--policy", policy, source],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )


@pytest.mark.parametrize("unbuffered", [False, True])
def test_a_pipe_gets_each_answer_before_it_sends_the_next_line(
    policy: str, tmp_path: Path, unbuffered: bool
) -> None:
    """A coprocess (an agent's wrapper, a service) sends one intent and waits for its answer
    before the next: each answer must reach it while the gate still waits for input."""
    import select

    proc = _gate_process(policy, tmp_path, "-", unbuffered)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for ident, command, verdict in (("a", "ls", "allow"), ("b", "rm -rf x", "deny")):
            proc.stdin.write((intent(ident, command) + "\n").encode())
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, f"no answer to line {ident!r} while the gate waits for more input"
            answer = json.loads(proc.stdout.readline())
            assert (answer["id"], answer["decision"]) == (ident, verdict)
        proc.stdin.close()
        assert proc.stdout.read() == b""
        assert proc.wait(timeout=60) == 4
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("unbuffered", [False, True])
def test_a_file_is_answered_whole_and_in_order(
    policy: str, tmp_path: Path, unbuffered: bool
) -> None:
    """The twin: from a file the answers may go out in blocks, and are the same lines, in
    order, all of them (more than one block's worth) -- also to the raw output of an
    unbuffered interpreter."""
    source = tmp_path / "intents.jsonl"
    commands = ["ls", "rm -rf x", "cat a"] * 400
    source.write_text("".join(intent(i, c) + "\n" for i, c in enumerate(commands)))
    proc = _gate_process(policy, tmp_path, str(source), unbuffered)
    out, _ = proc.communicate(timeout=300)
    got = decisions(out.decode())
    assert [d["id"] for d in got] == list(range(len(commands)))
    assert [d["decision"] for d in got[:3]] == ["allow", "deny", "allow"]
    assert proc.returncode == 4


def test_a_raw_output_gets_every_byte_of_a_block() -> None:
    """A raw file may take part of a write: the rest is written after it, and an output that
    takes nothing is an error, not a loop."""
    import io

    from clearance.cli.commands.gate import _write_all

    class Narrow(io.RawIOBase):
        def __init__(self, most: int) -> None:
            self.most = most
            self.got = bytearray()

        def writable(self) -> bool:
            return True

        def write(self, data: object) -> int:
            chunk = bytes(data)[: self.most]  # type: ignore[call-overload]
            self.got += chunk
            return len(chunk)

    block = bytes(range(256)) * 40
    narrow = Narrow(7)
    _write_all(narrow, block)
    assert bytes(narrow.got) == block
    with pytest.raises(OSError, match="took none"):
        _write_all(Narrow(0), b"x")
