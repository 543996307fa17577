"""``clearance gate``: a batch of intents in (JSON Lines), one decision per intent out.

Input lines are either intents ``{"id", "tool", "input"}`` (optional ``cwd``, ``session_id``)
or a pre-tool hook payload of any supported agent (recognised by ``hook_event_name``:
``BeforeTool`` is Gemini CLI, ``PreToolUse`` with a ``turn_id`` is Codex, other
``PreToolUse`` payloads are Claude Code; their ``tool_use_id`` is the id).

Output (``--format json``, the default; ``--json`` is the same): exactly one JSON object per
intent, in input order -- the decision's own fields (``ApprovalDecision.to_dict``) with two
more next to them: ``id``, the input's ``id`` echoed as given (``null`` when the line has none
or could not be read), and ``line``, the 1-based input line number. A line that is not a valid
intent is decided ``deny`` with reason code ``bad_input``, and processing continues.

Read from a pipe (``clearance gate -`` as a coprocess), each answer is written and flushed as
soon as its line is decided, so the other end may wait for it before it sends the next; read
from a file, the answers go out in blocks.

Blank lines (only whitespace) are not intents: they are skipped and produce no output. Because
ids are echoed from the input and every output carries its ``line``, a skipped blank line
shifts nothing.

``--format text`` prints one readable line per intent; ``--format github`` prints GitHub Actions
annotations (``::error`` for deny, ``::warning`` for ask, nothing for allow) pointing at the
input file and line; ``--format sarif`` prints one SARIF 2.1.0 log at the end (see
``clearance.cli.commands.sarif``) for code scanning. ``--summary`` adds a table of counts by
decision and rule (on stderr with JSON and SARIF output, so stdout stays machine-readable;
also appended to ``$GITHUB_STEP_SUMMARY`` when set).

The policy is loaded once -- exactly the ``--policy`` files, or the scopes in force at each
intent's directory, once per distinct directory -- and reused for every line.

Exit status: 2 on a usage or policy error; else 1 if an internal error decided any line; else
4 if anything was denied (a malformed line included), 3 if something asks, 0 if all allowed.
With ``--ledger FILE`` every decision is also recorded there; one that cannot be recorded stops
the gate with exit 1 (a gate asked to audit must not pass unaudited intents).
"""

from __future__ import annotations

import io
import json
import os
import sys

from clearance.vocab import EXIT_FOR_DECISION, DecisionExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import BinaryIO, Final, TextIO

    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.intents import ToolIntent
    from clearance.engine.policycache import PolicyCache

FORMATS: Final = ("json", "text", "github", "sarif")

EXIT_ALLOW, EXIT_INTERNAL, EXIT_USAGE = (
    DecisionExit.ALLOW,
    DecisionExit.INTERNAL,
    DecisionExit.USAGE,
)


class WorkersFailed(Exception):
    """``--jobs``: a worker process failed; the lines after the last answered are undecided."""


class Summary:
    def __init__(self) -> None:
        self.by_decision: dict[str, int] = {"allow": 0, "ask": 0, "deny": 0}
        #: (decision, deciding rule, reason code when no rule decided) -> count: strings the
        #: decisions hold, counted without a string made per line
        self.by_rule: dict[tuple[str, str, str], int] = {}

    def add(self, decision: ApprovalDecision) -> None:
        self.by_decision[decision.decision] = self.by_decision.get(decision.decision, 0) + 1
        verdict, rule = decision.decision, decision.policy_id
        key = (verdict, rule, "") if rule else (verdict, "", decision.reason_code)
        self.by_rule[key] = self.by_rule.get(key, 0) + 1

    def rows(self) -> list[tuple[str, str, int]]:
        """(decision, the rule that decided or ``(reason code)``, count), most first."""
        order = {"deny": 0, "ask": 1, "allow": 2}
        return sorted(
            ((d, r or f"({c})", n) for (d, r, c), n in self.by_rule.items()),
            key=lambda row: (order.get(row[0], 3), -row[2], row[1]),
        )

    def text(self) -> str:
        rows = self.rows()
        width = max([len("rule"), *(len(r) for _, r, _ in rows)])
        lines = [f"{'decision':<8}  {'rule':<{width}}  count"]
        lines += [f"{d:<8}  {r:<{width}}  {n:>5}" for d, r, n in rows]
        total = sum(self.by_decision.values())
        counts = ", ".join(f"{n} {d}" for d, n in self.by_decision.items())
        lines.append(f"total {total}: {counts}")
        return "\n".join(lines)

    def markdown(self) -> str:
        lines = ["| decision | rule | count |", "|---|---|---:|"]
        lines += [f"| {d} | `{r}` | {n} |" for d, r, n in self.rows()]
        return "\n".join(lines)


def _clean(text: str) -> str:
    """Text safe to print: a lone surrogate from an input string becomes ``?``."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _escape_data(text: str) -> str:
    text = _clean(text)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(decision: ApprovalDecision, source: str | None, line: int) -> str | None:
    """``::error``/``::warning`` for a deny/ask (allow: nothing)."""
    if decision.decision == "allow":
        return None
    from clearance.hooks.base import reason_for

    level = "error" if decision.decision == "deny" else "warning"
    props = []
    if source is not None:
        props.append(f"file={_escape_property(source)}")
        props.append(f"line={line}")
    title = f"clearance {decision.decision}: {decision.policy_id or decision.reason_code}"
    props.append(f"title={_escape_property(title)}")
    subject = f" -- {decision.subject}" if decision.subject else ""
    return f"::{level} {','.join(props)}::{_escape_data(reason_for(decision) + subject)}"


def text_line(decision: ApprovalDecision, ident: object, line: int) -> str:
    from clearance.hooks.base import reason_for

    shown = "" if ident is None else f" id={_clean(str(ident))}"
    return f"line {line}{shown}: {decision.decision.upper()} {reason_for(decision)}"


def run_gate(
    source: str | None,
    *,
    policies: list[str] | None,
    output: str = "json",
    summary: bool = False,
    cwd: str | None = None,
    ledger: str | None = None,
    jobs: int = 1,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    from clearance.engine.policycache import PolicyCache

    out = stdout or sys.stdout
    err = stderr or sys.stderr
    if output not in FORMATS:
        err.write(f"clearance gate: --format must be one of {', '.join(FORMATS)}\n")
        return EXIT_USAGE
    if jobs < 1:
        err.write("clearance gate: --jobs must be 1 or more\n")
        return EXIT_USAGE
    directory = os.path.abspath(cwd or os.getcwd())
    policy_cache = PolicyCache(policies)
    if policies is not None:
        from clearance.engine.errors import PolicyError

        try:
            policy_cache.get(directory, strict=True)
        except PolicyError as exc:
            # Still one decision per line (deny, policy_error), so consumers see every intent.
            policy_error: str | None = f"policy error: {exc.summary()}"
            for issue in exc.issues:
                err.write(f"clearance gate: {issue}\n")
        else:
            policy_error = None
    else:
        policy_error = None
    try:
        stream = (
            stdin
            if stdin is not None
            else (
                sys.stdin.buffer if source in (None, "-") else open(source, "rb")  # noqa: SIM115
            )
        )
    except OSError as os_error:
        err.write(f"clearance gate: {source}: {os_error.strerror or os_error}\n")
        return EXIT_USAGE
    shown_source = None if source in (None, "-") else source
    answers = _Answers(out, streaming=not _regular_file(stream))
    sarif = None
    if output == "sarif":
        from clearance.cli.commands.sarif import SarifLog

        sarif = SarifLog(directory, shown_source)
    totals = Summary()
    worst: int = EXIT_ALLOW
    saw_policy_error = policy_error is not None
    saw_internal = False
    try:
        lines = _intent_lines(stream)
        if jobs > 1 and ledger is None:
            decided = _in_parallel(lines, jobs, policies, directory, policy_error)
        else:
            decided = _in_order(lines, directory, policy_cache, policy_error)
        for number, decision, ident, intent, agent, workspace in decided:
            if decision.reason_code == "policy_error":
                saw_policy_error = True
            elif decision.reason_code == "internal_error":
                saw_internal = True
            if ledger is not None:
                from clearance.cli.commands.ledger_write import record

                problem = record(
                    ledger,
                    decision,
                    intent,
                    surface="gate",
                    agent=agent,
                    workspace=workspace,
                    policy_files=policies,
                )
                if problem is not None:
                    answers.flush()
                    err.write(f"clearance gate: {problem}\n")
                    return EXIT_INTERNAL
            totals.add(decision)
            worst = max(worst, EXIT_FOR_DECISION[decision.decision])
            if sarif is not None:
                sarif.add(decision, number)
            else:
                _print(answers.write, output, decision, ident, number, shown_source)
                answers.answered()
    except WorkersFailed as failed:
        answers.flush()
        err.write(f"clearance gate: {failed}; the lines after the last answer were not decided\n")
        return EXIT_INTERNAL
    finally:
        if stream is not stdin and shown_source is not None:
            stream.close()
    answers.flush()
    if sarif is not None:
        out.write(json.dumps(sarif.document(), indent=2) + "\n")
    if summary:
        target = err if output in ("json", "sarif") else out
        target.write(totals.text() + "\n")
        step_summary = os.environ.get("GITHUB_STEP_SUMMARY")
        if output in ("github", "sarif") and step_summary:
            try:
                with open(step_summary, "a", encoding="utf-8") as fh:
                    fh.write("### clearance gate\n\n" + totals.markdown() + "\n")
            except OSError as os_error:
                err.write(f"clearance gate: cannot write $GITHUB_STEP_SUMMARY: {os_error}\n")
    out.flush()
    if saw_policy_error:
        return EXIT_USAGE
    if saw_internal:
        return EXIT_INTERNAL
    return worst


Decided = tuple[int, "ApprovalDecision", object, "ToolIntent | None", str | None, str | None]


def _in_order(
    lines: Iterator[tuple[int, bytes | None]],
    directory: str,
    policy_cache: PolicyCache,
    policy_error: str | None,
) -> Iterator[Decided]:
    from clearance.hooks.gate import decide_line

    settled = False
    home = os.path.expanduser("~")  # the batch's environment does not change
    for number, raw in lines:
        decision, ident, intent, agent, workspace = decide_line(
            raw, number, directory, policy_cache.get, policy_error, policy_cache.workspace, home
        )
        if not settled:
            settled = True
            settle_heap()
        yield number, decision, ident, intent, agent, workspace


def settle_heap() -> None:
    """After a batch's first decision, what it loaded (modules, knowledge tables, the compiled
    policy) lives as long as the batch: out of the cyclic collector's sight from here
    (``gc.freeze``), else every full collection walks all of it again, every few thousand
    lines. A decision's own objects die young and almost never in cycles, so the youngest
    generation is collected less often too (its memory stays bounded by the threshold).
    Once per process (a ``--jobs`` worker's, or the batch's own)."""
    if _SETTLED:
        return
    _SETTLED.append(True)
    import gc

    gc.freeze()
    gc.set_threshold(GC_YOUNG, 10, 10)


#: Whether this process has settled its heap.
_SETTLED: Final[list[bool]] = []


#: Allocations between two collections of the youngest generation during a batch.
GC_YOUNG: Final = 50_000


#: ``--jobs``: lines a worker decides at a time, and chunks in flight per worker.
CHUNK_LINES: Final = 256
CHUNKS_AHEAD: Final = 2

#: A worker's batch state (``--jobs``): its own policy cache, the directory, the policy error.
_WORKER: Final[list[tuple[PolicyCache, str, str | None]]] = []


def _start_worker(policies: list[str] | None, directory: str, policy_error: str | None) -> None:
    from clearance.engine.policycache import PolicyCache

    _WORKER[:] = [(PolicyCache(policies), directory, policy_error)]


def _decide_chunk(
    chunk: list[tuple[int, bytes | None]],
) -> list[tuple[int, ApprovalDecision, object]]:
    from clearance.hooks.gate import decide_line

    cache, directory, policy_error = _WORKER[0]
    out = []
    home = os.path.expanduser("~")
    for number, raw in chunk:
        decision, ident, *_ = decide_line(
            raw, number, directory, cache.get, policy_error, cache.workspace, home
        )
        out.append((number, decision, ident))
    settle_heap()
    return out


def _in_parallel(
    lines: Iterator[tuple[int, bytes | None]],
    jobs: int,
    policies: list[str] | None,
    directory: str,
    policy_error: str | None,
) -> Iterator[Decided]:
    """The lines decided by ``jobs`` forked workers, in input order; a worker that dies stops
    the gate (``BrokenProcessPool`` reaches the caller: exit 1, never a missing deny)."""
    import itertools
    import multiprocessing
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(
        jobs,
        mp_context=context,
        initializer=_start_worker,
        initargs=(policies, directory, policy_error),
    ) as pool:
        pending: deque[Future[list[tuple[int, ApprovalDecision, object]]]] = deque()
        exhausted = False
        while True:
            while not exhausted and len(pending) < jobs * CHUNKS_AHEAD:
                chunk = list(itertools.islice(lines, CHUNK_LINES))
                if not chunk:
                    exhausted = True
                    break
                pending.append(pool.submit(_decide_chunk, chunk))
            if not pending:
                return
            try:
                done = pending.popleft().result()
            except Exception as exc:  # a worker died (killed, out of memory): stop, exit 1
                raise WorkersFailed(f"a --jobs worker failed: {exc!r}") from None
            for number, decision, ident in done:
                yield number, decision, ident, None, None, None


def _print(
    write: Callable[[bytes], object],
    output: str,
    decision: ApprovalDecision,
    ident: object,
    number: int,
    source: str | None,
) -> None:
    if output == "json":
        from clearance.hooks.gate import output_line

        write(output_line(decision, ident, number))
    elif output == "text":
        write((text_line(decision, ident, number) + "\n").encode("utf-8", "backslashreplace"))
    else:
        annotation = github_annotation(decision, source, number)
        if annotation is not None:
            write((annotation + "\n").encode("utf-8", "backslashreplace"))


def _intent_lines(stream: BinaryIO) -> Iterator[tuple[int, bytes | None]]:
    """The input's lines but the blank ones, one at a time: a line is decided before the next
    is read (a pipe's other end may wait for the answer before it writes more). A generator
    function, not an expression: the compiled build read a generator expression here to the
    end of the input before the first answer."""
    from clearance.hooks.gate import read_lines

    for number, raw in read_lines(stream):
        if raw is None or raw.strip():
            yield number, raw


def _regular_file(stream: BinaryIO) -> bool:
    """Whether the input is a file on disk (not a pipe, a terminal or a socket)."""
    import stat

    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError):  # io.UnsupportedOperation: in memory, whole already
        return True


#: How much output a batch read from a file keeps before writing it (characters).
_BLOCK: Final = 1 << 16


class _Answers:
    """Where the decisions go, as bytes: to the output's binary buffer (what was written to
    it as text is flushed first, so the order holds) -- or, when the interpreter runs
    unbuffered (``PYTHONUNBUFFERED``, ``-u``: the text output's buffer is then the raw file,
    which may take part of a write), to that file, every byte written -- or, to an output
    without one (text in memory), decoded. Read from a pipe, a terminal or a socket, each
    answer is written and flushed as soon as its line is decided: the other end may wait for
    it before it sends the next line. Read from a file, they go out in blocks (nobody waits
    on one answer), whatever buffering the interpreter was started with."""

    __slots__ = ("binary", "out", "pending", "raw", "size", "streaming")

    def __init__(self, out: TextIO, *, streaming: bool) -> None:
        self.out = out
        buffer = getattr(out, "buffer", None)
        self.binary: io.BufferedIOBase | None = (
            buffer if isinstance(buffer, io.BufferedIOBase) else None
        )
        self.raw: io.RawIOBase | None = buffer if isinstance(buffer, io.RawIOBase) else None
        self.streaming = streaming
        self.pending: list[bytes] = []
        self.size = 0

    def write(self, data: bytes) -> None:
        if self.streaming:
            self._emit(data)
            return
        self.pending.append(data)
        self.size += len(data)
        if self.size >= _BLOCK:
            self.flush()

    def answered(self) -> None:
        """One line's answer is complete."""
        if self.streaming:
            self._flush_out()

    def flush(self) -> None:
        if self.pending:
            self._emit(b"".join(self.pending))
            self.pending.clear()
            self.size = 0
        self._flush_out()

    def _emit(self, data: bytes) -> None:
        binary = self.binary
        raw = self.raw
        if binary is not None:
            self.out.flush()  # (text written before, by anyone, goes first)
            binary.write(data)
        elif raw is not None:
            self.out.flush()
            _write_all(raw, data)
        else:
            self.out.write(data.decode("utf-8"))

    def _flush_out(self) -> None:
        if self.binary is not None:
            self.binary.flush()
        self.out.flush()


def _write_all(raw: io.RawIOBase, data: bytes) -> None:
    """Every byte of ``data`` to a raw file, which may take part of a write; one that takes
    none (a non-blocking output that would block) is an error, not a loop."""
    view = memoryview(data)
    while view:
        written = raw.write(view)
        if not written:
            raise OSError(f"the output took none of {len(view)} bytes")
        view = view[written:]
