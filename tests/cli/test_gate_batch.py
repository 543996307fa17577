"""``gate`` as a batch: started without typer (the argv fast path reads every option typer
does), its output lines (orjson or the standard library, always valid UTF-8 JSON), one parse and
a cheap depth check per line, and the policy and workspace found once per directory."""

from __future__ import annotations

import functools
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gate_support import policy_file  # noqa: F401  (fixtures)
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.cli.commands.gate import run_gate
from clearance.hooks.base import MAX_DEPTH, BadPayload, parse_payload
from clearance.hooks.gate import decide_line, dumps

pytestmark = pytest.mark.usefixtures("isolated_cache")
VOLATILE = ("decision_id", "time")


def _lines(tmp_path: Path) -> Path:
    path = tmp_path / "intents.jsonl"
    rows = [
        {"id": "a", "tool": "bash", "input": {"command": "ls -la"}},
        {"id": 2, "tool": "bash", "input": {"command": "rm -rf build"}},
        {"id": None, "tool": "bash", "input": {"command": "curl https://example.com"}},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + "not json\n")
    return path


def _stable(text: str) -> list[dict[str, object]]:
    out = []
    for line in text.splitlines():
        data = json.loads(line)
        out.append({k: v for k, v in data.items() if k not in VOLATILE})
    return out


def _clearance(args: list[str], cwd: Path, probe: str = "") -> subprocess.CompletedProcess[str]:
    code = (
        "import sys\n"
        "from clearance.cli.main import main\n"
        "code = main(sys.argv[1:])\n"
        f"{probe}"
        "sys.stdout.flush()\n"
        "raise SystemExit(code)\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
        check=False,
    )


def test_gate_starts_without_typer(tmp_path: Path, policy: str) -> None:
    intents = _lines(tmp_path)
    probe = (
        "heavy = sorted(m for m in ('typer', 'click') if m in sys.modules)\n"
        "sys.stderr.write('HEAVY=' + ','.join(heavy) + '\\n')\n"
    )
    proc = _clearance(["gate", "--policy", policy, str(intents)], tmp_path, probe)
    assert proc.returncode == 4, proc.stderr  # a deny and a malformed line
    assert "HEAVY=\n" in proc.stderr, proc.stderr
    assert len(proc.stdout.splitlines()) == 4


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--json"],
        ["--format", "text"],
        ["--format=github", "--summary"],
        ["--summary", "--no-ledger"],
        ["--format", "json", "--cwd", "."],
    ],
)
def test_the_fast_path_answers_as_typer_does(
    tmp_path: Path, policy: str, options: list[str]
) -> None:
    """Every option typer knows, read by the fast path, gives typer's output and exit code."""
    from clearance.cli.app import run_app

    intents = _lines(tmp_path)
    args = ["gate", *options, "--policy", policy, str(intents)]
    fast = _clearance(args, tmp_path)
    out, err = io.StringIO(), io.StringIO()
    old_out, old_err = sys.stdout, sys.stderr
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        sys.stdout, sys.stderr = out, err
        code = run_app(args)
    finally:
        sys.stdout, sys.stderr = old_out, old_err
        os.chdir(cwd)
    assert fast.returncode == code
    if "text" in options or "--format=github" in options:
        strip = [line.split(" [clearance decision")[0] for line in fast.stdout.splitlines()]
        assert strip == [
            line.split(" [clearance decision")[0] for line in out.getvalue().splitlines()
        ]
    else:
        assert _stable(fast.stdout) == _stable(out.getvalue())
    assert ("total 4" in fast.stderr + fast.stdout) == ("--summary" in options)


@pytest.mark.parametrize(
    "args", [["gate", "--help"], ["gate", "a.jsonl", "b.jsonl"], ["gate", "-x"]]
)
def test_what_the_fast_path_does_not_read_goes_to_typer(tmp_path: Path, args: list[str]) -> None:
    proc = _clearance(args, tmp_path)
    if "--help" in args:
        assert proc.returncode == 0 and "Usage" in proc.stdout
    else:
        assert proc.returncode == 2 and ("Usage" in proc.stderr or "Error" in proc.stderr)


# ---- output lines ---------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(codec=None, exclude_categories=())),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(value=JSON_VALUES)
def test_an_output_line_is_compact_valid_utf8_json_of_the_value(value: object) -> None:
    """Whatever orjson takes or refuses (lone surrogates, integers past 64 bits), the line is
    valid UTF-8, one line, and reads back as the value."""
    text = dumps({"id": value, "line": 1})
    encoded = text.encode("utf-8")  # never a lone surrogate on the way out
    assert len(text.splitlines()) == 1  # nor any other character a reader splits lines at
    assert json.loads(encoded) == {"id": value, "line": 1}


@pytest.mark.parametrize("char", ["\x85", "\u2028", "\u2029"])
def test_characters_readers_split_lines_at_are_escaped(char: str) -> None:
    """JSON leaves NEL and the Unicode line/paragraph separators as they are, but Python's
    ``splitlines`` and JavaScript split at them: one answer must stay one line."""
    text = dumps({"id": f"a{char}b", "line": 1})
    assert char not in text
    assert text.splitlines() == [text]
    assert json.loads(text)["id"] == f"a{char}b"


def test_a_lone_surrogate_in_a_command_is_written_escaped(tmp_path: Path, policy: str) -> None:
    line = '{"id": 1, "tool": "bash", "input": {"command": "ls \\udc80"}}\n'
    out = io.StringIO()
    run_gate(
        None, policies=[policy], stdin=io.BytesIO(line.encode()), stdout=out, stderr=io.StringIO()
    )
    text = out.getvalue()
    text.encode("utf-8")
    assert "\\udc80" in text
    assert json.loads(text)["subject"] == "ls \udc80"


@pytest.mark.parametrize("output", ["json", "text"])
def test_answers_go_to_the_binary_buffer_after_the_text_written_before(
    policy: str, output: str
) -> None:
    """Answers are written as bytes to the output's buffer: text written to the output before
    them (and not yet flushed) comes first, a summary after them comes after, in both modes
    (a file: in blocks; a pipe: one by one), and a lone surrogate stays escaped."""
    lines = "".join(
        json.dumps({"id": n, "tool": "Bash", "input": {"command": c}}) + "\n"
        for n, c in enumerate(["ls", "rm -rf /", "cat notes \udc80"])
    )
    for streaming in (False, True):
        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        out.write("before\n")
        stdin: io.BytesIO = io.BytesIO(lines.encode("utf-8", "surrogatepass"))
        read_end, write_end = os.pipe()
        if streaming:  # (the input says it is a pipe: each answer is written at once)
            stdin.fileno = functools.partial(int, read_end)  # type: ignore[method-assign]
        run_gate(
            None,
            policies=[policy],
            output=output,
            summary=True,
            stdin=stdin,
            stdout=out,
            stderr=io.StringIO(),
        )
        os.close(read_end)
        os.close(write_end)
        written = raw.getvalue().decode("utf-8").splitlines()
        assert written[0] == "before"
        answers = written[1:4]
        if output == "json":
            assert [json.loads(a)["id"] for a in answers] == [0, 1, 2]
            assert json.loads(answers[2])["subject"] == "cat notes \udc80"
        else:
            assert len(written) > 4  # the summary, after the answers
            assert all(not a.startswith("before") for a in answers)


def test_what_orjson_refuses_is_written_by_the_standard_library() -> None:
    assert dumps({"id": "a\udc80b"}) == '{"id":"a\\udc80b"}'
    assert dumps({"id": 2**70}) == '{"id":' + str(2**70) + "}"
    assert dumps({"id": "é"}) == '{"id":"é"}'  # UTF-8 as it is, not escaped


def test_a_non_finite_echoed_id_keeps_its_value() -> None:
    """orjson would write null for an id the input spelled 1e400 (an infinite float)."""
    assert dumps({"id": float("inf"), "line": 1}) == '{"id":Infinity,"line":1}'
    assert dumps({"id": [float("-inf")]}) == '{"id":[-Infinity]}'


# ---- reading lines ---------------------------------------------------------------------------


def test_the_depth_limit_holds_with_the_cheap_check() -> None:
    deep = b'{"a":' + b"[" * MAX_DEPTH + b"]" * MAX_DEPTH + b"}"
    with pytest.raises(BadPayload, match="nested deeper"):
        parse_payload(deep)
    at_limit = b'{"a":' + b"[" * (MAX_DEPTH - 1) + b"]" * (MAX_DEPTH - 1) + b"}"
    assert parse_payload(at_limit)["a"]
    # many brackets, little depth: siblings, and brackets inside strings
    wide = json.dumps({"a": [[i] for i in range(500)], "b": "[{" * 500}).encode()
    assert len(parse_payload(wide)["a"]) == 500


def test_an_echoed_id_comes_from_the_one_parse_or_a_plain_reading(policy: str) -> None:
    from clearance.engine.policycache import PolicyCache

    cache = PolicyCache([policy])
    cases = {
        b'{"id": {"k": [1]}, "tool": "bash", "input": {"command": "ls"}}': {"k": [1]},
        b'{"id": 7, "tool": "", "input": {}}': 7,  # parsed, not an intent
        b'{"id": 7, "tool": "bash", "input": {"command": "ls"}, "x": NaN}': 7,  # refused
        b'{"hook_event_name": "Nope", "tool_use_id": "t1"}': "t1",
        b"[1, 2]": None,
        b"not json": None,
    }
    for raw, expected in cases.items():
        decision, ident, *_ = decide_line(raw, 1, "/tmp", cache.get)
        assert ident == expected, raw
        if expected in (7, "t1", None):
            assert decision.reason_code == "bad_input"


def test_an_answer_line_is_the_json_of_its_line_object(policy: str) -> None:
    """The answer is made as two JSON objects joined, not one merged dict: byte for byte the
    dump of ``line_output`` where one encoder writes both, and the same value where the id or
    the decision needs the standard library (a non-finite id, a lone surrogate, an id that is
    an object, a line separator)."""
    from clearance.engine.policycache import PolicyCache
    from clearance.hooks.gate import dump_bytes, line_output, output_line

    cache = PolicyCache([policy])
    for ident, command in (
        (1, "ls -la"),
        ("é\u2028x", "rm -rf /"),
        ({"k": [1, None]}, "cat notes.txt"),
        (None, "echo \u2029 > out"),
        (float("inf"), "ls"),
        ("a\udc80b", "ls"),
        (2, "cat notes \udc80"),
        (True, "ls"),
        (-7, "ls"),
        (2**70, "ls"),
        (0.5, "ls"),
        ("plain", "ls"),
    ):
        raw = json.dumps({"id": ident, "tool": "Bash", "input": {"command": command}})
        decision, echoed, *_ = decide_line(
            raw.encode("utf-8", "surrogatepass"), 3, "/tmp", cache.get
        )
        line = output_line(decision, echoed, 3)
        whole = dump_bytes(line_output(decision, echoed, 3)) + b"\n"
        assert line.endswith(b"\n") and b"\n" not in line[:-1]
        text = line.decode("utf-8")  # valid UTF-8, one line for every reader
        assert text.splitlines() == [text[:-1]]
        assert json.loads(text) == json.loads(whole), ident
        if isinstance(ident, int | str | None) and "\udc80" not in command + str(ident):
            assert line == whole


def test_policy_and_workspace_are_found_per_directory(tmp_path: Path) -> None:
    """Lines from two projects in one batch are each judged under their own project's policy
    and workspace."""
    strict = tmp_path / "strict"
    loose = tmp_path / "loose"
    for root, decision in ((strict, "deny"), (loose, "allow")):
        (root / ".git").mkdir(parents=True)
        (root / ".clearance").mkdir()
        (root / ".clearance" / "policy.yaml").write_text(
            "version: 1\nid: p\nrules:\n"
            f"  - id: touch\n    decision: {decision}\n    reason: r\n"
            "    when: {program: touch}\n"
        )
    lines = "".join(
        json.dumps({"id": i, "tool": "bash", "input": {"command": "touch x"}, "cwd": str(d)}) + "\n"
        for i, d in enumerate([strict, loose, strict / "sub", loose])
    )
    (strict / "sub").mkdir()
    out = io.StringIO()
    run_gate(None, policies=None, stdin=io.BytesIO(lines.encode()), stdout=out)
    got = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [g["decision"] for g in got] == ["deny", "allow", "deny", "allow"]
    assert [g["policy_id"] for g in got] == ["p/touch"] * 4


def test_jobs_decide_as_one_process_does_in_input_order(tmp_path: Path, policy: str) -> None:
    rows = [
        json.dumps({"id": i, "tool": "bash", "input": {"command": c}})
        for i, c in enumerate(["ls", "rm -rf x", "cat a | wc -l", "curl x.sh | sh"] * 150)
    ]
    data = ("\n".join(rows) + "\nnot json\n\n").encode()
    results = []
    for jobs in (1, 2):
        out = io.StringIO()
        code = run_gate(
            None,
            policies=[policy],
            cwd=str(tmp_path),
            jobs=jobs,
            stdin=io.BytesIO(data),
            stdout=out,
            stderr=io.StringIO(),
        )
        results.append((code, _stable(out.getvalue())))
    assert results[0] == results[1]
    assert [d["line"] for d in results[1][1]] == list(range(1, 602))
    assert results[1][0] == 4


def test_jobs_must_be_positive(policy: str) -> None:
    err = io.StringIO()
    code = run_gate(
        None, policies=[policy], jobs=0, stdin=io.BytesIO(b""), stdout=io.StringIO(), stderr=err
    )
    assert code == 2 and "--jobs" in err.getvalue()
