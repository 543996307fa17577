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

import json
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import BinaryIO, TextIO

    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.intents import ToolIntent
    from clearance.engine.rules import PolicySet

MAX_LINE = 5 * 1024 * 1024
FORMATS = ("json", "text", "github", "sarif")

EXIT_ALLOW, EXIT_INTERNAL, EXIT_USAGE, EXIT_ASK, EXIT_DENY = 0, 1, 2, 3, 4


class BadLine(Exception):
    """The line is not an intent (reason code bad_input)."""


def read_lines(stream: BinaryIO, limit: int = MAX_LINE) -> Iterator[tuple[int, bytes | None]]:
    """``(line number, bytes)``; ``None`` for a line longer than ``limit`` (not kept)."""
    number = 0
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        number += 1
        if len(raw) > limit and not raw.endswith(b"\n"):
            while True:  # skip the rest of the oversized line
                more = stream.readline(1 << 20)
                if not more or more.endswith(b"\n"):
                    break
            yield number, None
            continue
        yield number, raw


def parse_line(raw: bytes, default_cwd: str) -> tuple[ToolIntent, str | None, str | None]:
    """``(intent, agent, workspace)`` of one input line; raises :class:`BadLine`."""
    from clearance.engine.intents import ToolIntent
    from clearance.hooks import AGENTS, protocol
    from clearance.hooks.base import BadPayload, parse_payload

    try:
        data = parse_payload(raw)
    except BadPayload as exc:
        raise BadLine(str(exc).replace("payload", "line", 1)) from None
    if "hook_event_name" in data:
        from clearance.hooks.agents import recognize

        event = data.get("hook_event_name")
        found = recognize(data)
        if found is not None:
            agent = found.name
        else:
            raise BadLine(
                f"hook event {event!r} is not a pre-tool event of a supported agent "
                f"({', '.join(AGENTS)})"
            )
        hook = protocol(agent)
        try:
            intent, workspace = hook.intent(data, os.environ)
        except BadPayload as exc:
            raise BadLine(f"{agent} payload: {exc}") from None
        intent.source = "gate"
        return intent, agent, workspace
    tool = data.get("tool")
    tool_input = data.get("input")
    if not isinstance(tool, str) or not tool.strip():
        raise BadLine("an intent needs 'tool' (a non-empty string)")
    if not isinstance(tool_input, dict):
        raise BadLine("an intent needs 'input' (an object)")
    cwd = data.get("cwd", default_cwd)
    if not isinstance(cwd, str) or not cwd:
        raise BadLine("'cwd' must be a non-empty string")
    session = data.get("session_id")
    if session is not None and not isinstance(session, str):
        raise BadLine("'session_id' must be a string")
    ident = data.get("id")
    intent = ToolIntent(
        tool,
        tool_input,
        source="gate",
        cwd=os.path.normpath(os.path.join(default_cwd, cwd)),
        id=None if ident is None else str(ident),
        session_id=session,
    )
    return intent, None, None


def _echo_id(raw: bytes) -> object:
    """The line's ``id`` (or a payload's ``tool_use_id``) as given, when the line parses."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    if "id" in data:
        return data["id"]
    return data.get("tool_use_id") if "hook_event_name" in data else None


class Summary:
    def __init__(self) -> None:
        self.by_decision: dict[str, int] = {"allow": 0, "ask": 0, "deny": 0}
        self.by_rule: dict[tuple[str, str], int] = {}

    def add(self, decision: ApprovalDecision) -> None:
        self.by_decision[decision.decision] = self.by_decision.get(decision.decision, 0) + 1
        rule = decision.policy_id or f"({decision.reason_code})"
        key = (decision.decision, rule)
        self.by_rule[key] = self.by_rule.get(key, 0) + 1

    def rows(self) -> list[tuple[str, str, int]]:
        order = {"deny": 0, "ask": 1, "allow": 2}
        return sorted(
            ((d, r, n) for (d, r), n in self.by_rule.items()),
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


def decide_line(
    raw: bytes | None,
    number: int,
    directory: str,
    policy_for: Callable[[str], PolicySet | str],
    policy_error: str | None = None,
) -> tuple[ApprovalDecision, object, ToolIntent | None, str | None, str | None]:
    """One input line decided: ``(decision, echoed id, intent, agent, workspace)``.

    ``raw`` is ``None`` for a line longer than :data:`MAX_LINE`; ``policy_for(cwd)`` is the
    policy set in force at a directory (or its load error as text); ``policy_error`` denies
    every well-formed line. Never raises: a malformed line is ``bad_input``, a bug
    ``internal_error``. ``clearance serve`` answers with exactly this, through
    :func:`line_output`.
    """
    from clearance.engine.decision import failure

    ident: object = None
    intent: ToolIntent | None = None
    agent: str | None = None
    workspace: str | None = None
    if raw is None:
        decision = failure("bad_input", f"line {number} is longer than {MAX_LINE} bytes")
        return decision, ident, intent, agent, workspace
    ident = _echo_id(raw)
    try:
        intent, agent, workspace = parse_line(raw, directory)
    except BadLine as exc:
        decision = failure("bad_input", f"line {number}: {exc}")
    except Exception as crash:  # a bug: this line is denied, the batch goes on
        decision = failure("internal_error", f"line {number}: {crash!r}")
    else:
        if policy_error is not None:
            decision = failure("policy_error", policy_error, tool=intent.tool)
        else:
            decision = _decide(intent, workspace, policy_for)
    return decision, ident, intent, agent, workspace


def line_output(decision: ApprovalDecision, ident: object, number: int) -> dict[str, object]:
    """The JSON object ``gate`` writes for one line."""
    return {"id": ident, "line": number, **decision.to_dict()}


def run_gate(
    source: str | None,
    *,
    policies: list[str] | None,
    output: str = "json",
    summary: bool = False,
    cwd: str | None = None,
    ledger: str | None = None,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    from clearance.engine.ledger_replay import PolicyCache

    out = stdout or sys.stdout
    err = stderr or sys.stderr
    if output not in FORMATS:
        err.write(f"clearance gate: --format must be one of {', '.join(FORMATS)}\n")
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
    sarif = None
    if output == "sarif":
        from clearance.cli.commands.sarif import SarifLog

        sarif = SarifLog(directory, shown_source)
    totals = Summary()
    worst = EXIT_ALLOW
    saw_policy_error = policy_error is not None
    saw_internal = False
    try:
        for number, raw in read_lines(stream):
            if raw is not None and not raw.strip():
                continue
            decision, ident, intent, agent, workspace = decide_line(
                raw, number, directory, policy_cache.get, policy_error
            )
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
                    err.write(f"clearance gate: {problem}\n")
                    return EXIT_INTERNAL
            totals.add(decision)
            worst = max(
                worst, {"allow": EXIT_ALLOW, "ask": EXIT_ASK, "deny": EXIT_DENY}[decision.decision]
            )
            if sarif is not None:
                sarif.add(decision, number)
            else:
                _print(out, output, decision, ident, number, shown_source)
    finally:
        if stream is not stdin and shown_source is not None:
            stream.close()
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


def _decide(
    intent: ToolIntent, workspace: str | None, policy_for: Callable[[str], PolicySet | str]
) -> ApprovalDecision:
    from clearance.engine.api import decide
    from clearance.engine.decision import failure

    cwd = intent.cwd or os.getcwd()
    policy = policy_for(cwd)
    if isinstance(policy, str):
        return failure("policy_error", f"policy error: {policy}", tool=intent.tool)
    return decide(intent, policy, cwd=cwd, workspace=workspace)


def _print(
    out: TextIO,
    output: str,
    decision: ApprovalDecision,
    ident: object,
    number: int,
    source: str | None,
) -> None:
    if output == "json":
        out.write(json.dumps(line_output(decision, ident, number)) + "\n")
    elif output == "text":
        out.write(text_line(decision, ident, number) + "\n")
    else:
        annotation = github_annotation(decision, source, number)
        if annotation is not None:
            out.write(annotation + "\n")
