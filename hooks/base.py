"""What every agent's pre-tool hook shares: read the payload, decide, record, answer -- and block
on anything that goes wrong.

The agents (Claude Code, Gemini CLI, Codex) run the tool when a hook crashes, exits 1, times out
or prints something they do not understand. So the one rule here is that no path out of
:func:`run` other than a real decision is anything but a *block*: exit 2, a non-empty reason on
stderr, and on stdout the agent's own deny JSON where that agent reads stdout alongside exit 2.
stdout carries exactly one JSON object (or nothing) and never a log line: the hook protocol
owns it.

Post-tool events (``PostToolUse``, ``AfterTool``) arrive after the tool ran; there is nothing
left to allow or deny, so the hook says so on stderr, prints nothing and exits 0 -- blocking
there would only hide the tool's output from the model. Any other event the agent does not
send before a tool runs is an error, and blocks.

Speed: one process per tool call, so this module and the agent modules import only the
standard library at module level; the engine is imported when a payload is ready to decide.
"""

from __future__ import annotations

import json
import os
import sys

from clearance.vocab import HookExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import BinaryIO, Final

    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.intents import ToolIntent
    from clearance.hooks.agents import Agent

#: Largest payload read (bytes). Real payloads are a few KB; a Write of a big file may be MBs.
MAX_PAYLOAD: Final = 5 * 1024 * 1024
#: How much more is read and thrown away after an oversized payload, so that the agent's write
#: to our stdin does not fail with EPIPE before it reads our answer; bounded so that an endless
#: stdin cannot keep the hook running into the agent's timeout (which would let the tool run).
DRAIN_LIMIT: Final = 64 * 1024 * 1024
#: Deepest nesting accepted in a payload; agents send a few levels.
MAX_DEPTH: Final = 64
#: Longest reason handed to the model (it reads the reason verbatim).
MAX_REASON: Final = 2000

#: Reason codes of decisions that are failures, not judgements: the hook blocks with exit 2.
ERROR_CODES: Final = frozenset(("bad_input", "policy_error", "internal_error"))

#: Files touched by the file tools: relative values are resolved against the payload's cwd.
PATH_FIELDS: Final = ("file_path", "path", "dir_path", "absolute_path", "notebook_path")


class BadPayload(Exception):
    """The payload is not one this agent sends before a tool runs (reason code bad_input)."""


class Outcome:
    """What the process prints and how it exits."""

    __slots__ = ("code", "decision", "stderr", "stdout")

    def __init__(
        self,
        code: int,
        stdout: bytes,
        stderr: str,
        decision: ApprovalDecision | None = None,
    ) -> None:
        self.code = code
        self.stdout = stdout
        self.stderr = stderr
        self.decision = decision


class Protocol:
    """One agent's hook protocol, built on the agent's registry entry (its name and pre-tool
    event come from there, written once). Subclasses set the answer formats."""

    def __init__(self, agent: Agent) -> None:
        #: The agent (:mod:`clearance.hooks.agents`): ``agent.pre_event`` is the
        #: ``hook_event_name`` sent before a tool runs (decided).
        self.agent = agent
        #: The agent's name on the ``clearance hook NAME`` command line (and in the ledger).
        self.name = agent.name

    #: ``hook_event_name`` values sent after a tool ran (acknowledged, never blocked).
    post_events: frozenset[str] = frozenset()
    #: Environment variable holding the agent's project directory, if it sets one.
    project_env: str | None = None
    #: An agent that cannot ask a human from a hook gets an ask as a deny whose reason starts
    #: with this (``""``: it can ask).
    ask_prefix = ""

    # ---- answers (subclasses) --------------------------------------------------------------

    def refusal(self, decision: str, reason: str) -> str:
        """The reason of a non-allow answer: an ask this agent cannot put to a human says so."""
        return self.ask_prefix + reason if decision == "ask" else reason

    def answer(self, decision: str, reason: str) -> bytes:
        """stdout for a decision (exit 0)."""
        raise NotImplementedError

    def blocked(self, reason: str) -> bytes:
        """stdout that goes with exit 2: the agent's deny as its registry entry writes it
        (``Agent.fallback_deny``, the one the CLI's last resort prints too), or nothing if
        the agent reads only stderr then."""
        deny = self.agent.fallback_deny(reason)
        return b"" if deny is None else dumps(deny)

    def rewrite(self, reason: str, tool_input: dict[str, object]) -> bytes:
        """stdout for an allow that runs ``tool_input`` instead (``--sandbox``). An agent
        that cannot rewrite a tool's input must not be given ``--sandbox``: this blocks."""
        raise BadPayload(f"{self.name} cannot rewrite a tool's input, so --sandbox is unsupported")

    # ---- payload to intent -----------------------------------------------------------------

    def normalize(
        self, tool: str, tool_input: dict[str, object], cwd: str
    ) -> tuple[str, dict[str, object], str]:
        """Agent-specific reshaping: ``(tool, input, directory the tool runs in)``."""
        return tool, tool_input, cwd

    def intent(
        self, payload: dict[str, object], env: dict[str, str] | os._Environ[str]
    ) -> tuple[ToolIntent, str]:
        """The intent a pre-tool payload proposes, and the workspace to judge it in."""
        from clearance.engine.intents import ToolIntent

        tool = payload.get("tool_name")
        if not isinstance(tool, str) or not tool.strip():
            raise BadPayload(f"'tool_name' must be a non-empty string, got {_kind(tool)}")
        tool_input = payload.get("tool_input")
        if not isinstance(tool_input, dict):
            raise BadPayload(f"'tool_input' must be an object, got {_kind(tool_input)}")
        cwd = payload.get("cwd")
        if not isinstance(cwd, str) or not cwd:
            raise BadPayload(f"'cwd' must be a non-empty string, got {_kind(cwd)}")
        if not os.path.isabs(cwd) or "\0" in cwd:
            raise BadPayload(f"'cwd' must be an absolute path, got {cwd!r}")
        cwd = os.path.normpath(cwd)
        session = payload.get("session_id")
        if session is not None and not isinstance(session, str):
            raise BadPayload(f"'session_id' must be a string, got {_kind(session)}")
        call_id = payload.get("tool_use_id")
        if call_id is not None and not isinstance(call_id, str):
            raise BadPayload(f"'tool_use_id' must be a string, got {_kind(call_id)}")
        tool, data, run_cwd = self.normalize(tool, dict(tool_input), cwd)
        intent = ToolIntent(
            tool, data, source=self.name, cwd=run_cwd, id=call_id, session_id=session
        )
        # the workspace comes from the session's directory, never from a directory field the
        # model wrote (``dir_path``, ``workdir``): that one is a path the command runs in
        return intent, self.workspace(cwd, env)

    def workspace(self, cwd: str, env: dict[str, str] | os._Environ[str]) -> str:
        """The project root holding the session's ``cwd`` (``workspace_of``); ``""`` when it
        belongs to no project."""
        from clearance.engine.scopes import workspace_of

        return workspace_of(cwd, env.get("HOME")) or ""


def resolve_paths(tool_input: dict[str, object], cwd: str) -> dict[str, object]:
    """``tool_input`` with relative file paths made absolute against ``cwd``."""
    out = dict(tool_input)
    for field in PATH_FIELDS:
        value = out.get(field)
        if isinstance(value, str) and value and not value.startswith(("/", "~")):
            out[field] = os.path.normpath(os.path.join(cwd, value))
    return out


def _kind(value: object) -> str:
    if value is None:
        return "nothing"
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    for kind, name in names.items():
        if isinstance(value, kind):
            return f"{name} ({json.dumps(value)[:40]})" if kind is str else name
    return "a number" if isinstance(value, int | float) else type(value).__name__


# ---- reading ----------------------------------------------------------------------------------


def read_payload(stream: BinaryIO, limit: int = MAX_PAYLOAD) -> bytes:
    """At most ``limit`` bytes of stdin; more is an error (and the rest is drained)."""
    chunks: list[bytes] = []
    total = 0
    while total <= limit:
        chunk = stream.read(limit + 1 - total)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if total > limit:
        drained = 0
        while drained < DRAIN_LIMIT:
            chunk = stream.read(min(1 << 20, DRAIN_LIMIT - drained))
            if not chunk:
                break
            drained += len(chunk)
        raise BadPayload(f"payload larger than {limit // (1024 * 1024)} MB")
    return b"".join(chunks)


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


#: The one JSON decoder of payloads (``json.loads`` with an argument builds a new one on
#: every call), made on first use, and its scanner: ``JSONDecoder.decode`` is the scanner
#: called between two whitespace matches, in Python -- here the same steps without them.
_DECODER: Final[list[json.JSONDecoder]] = []
_SCANNER: Final[list[Callable[[str, int], tuple[object, int]]]] = []

#: What JSON counts as whitespace (``json.decoder.WHITESPACE``).
_JSON_SPACE: Final = " \t\n\r"


def _decoder() -> json.JSONDecoder:
    if not _DECODER:
        import json.scanner

        _DECODER.append(json.JSONDecoder(parse_constant=_no_constant))
        _SCANNER.append(json.scanner.make_scanner(_DECODER[0]))  # type: ignore[arg-type]
    return _DECODER[0]


def _decode(text: str) -> object:
    """``_decoder().decode(text)``: the same value, the same errors."""
    _decoder()
    start = 0  # (the blanks before the value, counted: no copy of the text without them)
    while start < len(text) and text[start] in _JSON_SPACE:
        start += 1
    try:
        loaded, end = _SCANNER[0](text, start)
    except StopIteration as missing:
        raise json.JSONDecodeError("Expecting value", text, missing.value) from None
    if end != len(text):
        end = len(text) - len(text[end:].lstrip(_JSON_SPACE))
        if end != len(text):
            raise json.JSONDecodeError("Extra data", text, end)
    return loaded


def parse_payload(data: bytes) -> dict[str, object]:
    """The payload as a JSON object; anything else is :class:`BadPayload`."""
    if not data or data.isspace():  # (``not data.strip()``, without copying it)
        raise BadPayload("empty payload (expected a JSON object on stdin)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadPayload(f"payload is not UTF-8 (byte {exc.start})") from None
    try:
        loaded = _decode(text)
    except RecursionError:
        raise BadPayload("payload is nested too deeply") from None
    except ValueError as invalid:
        raise BadPayload(f"payload is not JSON: {invalid}") from None
    if not isinstance(loaded, dict):
        raise BadPayload(f"payload must be a JSON object, got {_kind(loaded)}")
    # Nesting needs a bracket per level: with no more brackets than the limit in the whole
    # text (counted in C), the walk over every value is not needed.
    if data.count(b"[") + data.count(b"{") > MAX_DEPTH and _depth(loaded, MAX_DEPTH) > MAX_DEPTH:
        raise BadPayload(f"payload is nested deeper than {MAX_DEPTH} levels")
    return loaded


def _depth(value: object, limit: int) -> int:
    """Nesting depth of ``value``, iteratively (and stopping once past ``limit``)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                return deepest
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def event_of(payload: dict[str, object]) -> str:
    event = payload.get("hook_event_name")
    if not isinstance(event, str) or not event:
        raise BadPayload(f"'hook_event_name' must be a non-empty string, got {_kind(event)}")
    return event


# ---- reasons ----------------------------------------------------------------------------------


def _short(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def reason_for(decision: ApprovalDecision) -> str:
    """The reason the model reads: ``[rule id] reason (part: …)``, with the reason code in place
    of a rule id when a default or a fail-closed marker decided, and the decision id."""
    tag = decision.policy_id or decision.reason_code
    text = f"[{tag}] {decision.reason}"
    trigger = decision.trigger
    if trigger is not None:
        index = trigger.get("part")
        if isinstance(index, int) and 0 <= index < len(decision.parts):
            part = decision.parts[index]
            shown = " ".join(part.argv) or part.text
            if shown:
                text += f" (part: {_short(shown, 120)})"
        elif index is None:
            text += " (the command as a whole)"
    text += f" [clearance decision {decision.decision_id}]"
    return _cap(text)


def error_reason(decision: ApprovalDecision) -> str:
    """The reason for a block on an error: what went wrong, with its reason code."""
    return _cap(
        f"clearance blocked this call because it could not judge it: "
        f"[{decision.reason_code}] {decision.reason}"
    )


def _cap(text: str) -> str:
    # A lone surrogate (from a payload string) would make the answer invalid UTF-8 or, escaped,
    # a JSON string some agents (serde_json in Codex) reject -- and a rejected answer runs.
    text = text.encode("utf-8", "replace").decode("utf-8")
    text = text.strip() or "blocked by clearance"
    return text if len(text) <= MAX_REASON else text[: MAX_REASON - 1] + "…"


# ---- the hook ---------------------------------------------------------------------------------


class HookArgs:
    __slots__ = ("ledger", "no_ledger", "policies", "sandbox")

    def __init__(self) -> None:
        self.policies: list[str] | None = None
        self.ledger: str | None = None
        self.no_ledger = False
        #: ``--sandbox``: an allowed shell command is rewritten to run confined.
        self.sandbox = False


def option_value(args: list[str], i: int) -> tuple[str, int] | str:
    """The value of the option at ``args[i]`` (``--name=value``, or ``--name value``) and the
    index of the word that held it; or why it has none (``--name needs a value``,
    ``empty --name``). Shared by the hook's argv and ``clearance sandbox``'s."""
    name, eq, value = args[i].partition("=")
    if not eq:
        if i + 1 >= len(args):
            return f"{name} needs a value"
        i += 1
        value = args[i]
    if not value:
        return f"empty {name}"
    return value, i


def parse_hook_args(args: list[str]) -> HookArgs:
    """``[--policy FILE]… [--ledger FILE | --no-ledger] [--sandbox]``; anything else is an
    error (that blocks: a misconfigured hook must not let tools run)."""
    out = HookArgs()
    i = 0
    while i < len(args):
        arg = args[i]
        name = arg.partition("=")[0]
        if name in ("--policy", "--ledger") and arg.startswith("--"):
            taken = option_value(args, i)
            if isinstance(taken, str):
                raise BadPayload(f"bad hook arguments: {taken}")
            value, i = taken
            if name == "--policy":
                out.policies = [*(out.policies or []), os.path.abspath(value)]
            else:
                out.ledger = os.path.abspath(value)
        elif arg == "--no-ledger":
            out.no_ledger = True
        elif arg == "--sandbox":
            out.sandbox = True
        else:
            raise BadPayload(f"bad hook arguments: unexpected {arg!r}")
        i += 1
    if out.ledger is not None and out.no_ledger:
        raise BadPayload("bad hook arguments: --ledger and --no-ledger together")
    return out


def handle(
    protocol: Protocol,
    args: list[str],
    stdin: BinaryIO,
    env: dict[str, str] | os._Environ[str] | None = None,
) -> Outcome:
    """Everything between stdin and the answer; any exception escaping is a bug the caller
    turns into a block."""
    from clearance.engine.decision import failure

    env = os.environ if env is None else env
    intent: ToolIntent | None = None
    workspace: str | None = None
    options: HookArgs | None = None
    updated: dict[str, object] | None = None
    try:
        options = parse_hook_args(args)
        payload = parse_payload(read_payload(stdin))
        event = event_of(payload)
        if event in protocol.post_events:
            return Outcome(
                HookExit.ANSWERED,
                b"",
                f"clearance hook {protocol.name}: {event} arrives after the tool ran; clearance "
                "decides only before a tool runs, so there is nothing to do\n",
            )
        if event != protocol.agent.pre_event:
            raise BadPayload(
                f"hook event {event!r} is not one {protocol.name} sends before a tool runs "
                f"(expected {protocol.agent.pre_event})"
            )
        intent, workspace = protocol.intent(payload, env)
    except BadPayload as exc:
        decision = failure("bad_input", str(exc))
    else:
        decision, updated = _decide(
            intent, workspace, options.policies, payload if options.sandbox else None
        )
    if options is not None and not options.no_ledger:
        problem = _record(protocol, decision, intent, workspace, options)
        if problem is not None and decision.reason_code not in ERROR_CODES:
            decision = failure("internal_error", problem, tool=intent.tool if intent else "")
            updated = None
    return _answer(protocol, decision, updated)


def _decide(
    intent: ToolIntent,
    workspace: str,
    files: list[str] | None,
    sandbox_payload: dict[str, object] | None = None,
) -> tuple[ApprovalDecision, dict[str, object] | None]:
    """The decision, and (``--sandbox``: the payload is given) the tool input rewritten to
    run an allowed shell command confined."""
    from clearance.engine.entry import decide_in_force

    decision, policy = decide_in_force(
        intent, files=files, cwd=intent.cwd or os.getcwd(), workspace=workspace
    )
    if policy is None or sandbox_payload is None or decision.decision != "allow":
        return decision, None
    from clearance.sandbox.plan import confine_tool_input
    from clearance.sandbox.settings import settings_of

    tool_input = sandbox_payload.get("tool_input")
    assert isinstance(tool_input, dict)
    return confine_tool_input(
        decision, settings_of(policy), tool_input, policies=files, workspace=workspace
    )


def _record(
    protocol: Protocol,
    decision: ApprovalDecision,
    intent: ToolIntent | None,
    workspace: str | None,
    options: HookArgs,
) -> str | None:
    """Append the decision to the ledger; an error message if that failed.

    A payload too broken to name its directory is recorded only in an explicit ``--ledger``:
    the process's own directory is no place to create a ledger in.
    """
    from clearance.engine.ledger import Ledger, LedgerError, default_ledger_path

    ledger = options.ledger
    if ledger is None:
        if intent is None or not intent.cwd:
            return None
        ledger = default_ledger_path(intent.cwd)
    try:
        Ledger(ledger).append(
            decision,
            intent,
            surface="hook",
            agent=protocol.name,
            session_id=intent.session_id if intent is not None else None,
            workspace=workspace,
            home=os.path.expanduser("~"),
            policy_files=options.policies,
        )
    except LedgerError as exc:
        return (
            f"the decision could not be recorded in the audit ledger ({exc}); "
            "pass --ledger FILE or --no-ledger to the hook"
        )
    return None


def _answer(
    protocol: Protocol, decision: ApprovalDecision, updated: dict[str, object] | None = None
) -> Outcome:
    if decision.reason_code in ERROR_CODES:
        reason = error_reason(decision)
        stderr = f"clearance hook {protocol.name}: {reason}\n"
        return Outcome(HookExit.BLOCKED, protocol.blocked(reason), stderr, decision)
    if updated is not None and decision.decision == "allow":
        return Outcome(
            HookExit.ANSWERED, protocol.rewrite(reason_for(decision), updated), "", decision
        )
    return Outcome(
        HookExit.ANSWERED, protocol.answer(decision.decision, reason_for(decision)), "", decision
    )


def blocked_outcome(protocol: Protocol | None, name: str, problem: str) -> Outcome:
    """The block for a failure outside :func:`handle` (a bug, an import that failed)."""
    reason = _cap(f"clearance blocked this call because it failed: [internal_error] {problem}")
    stdout = b""
    if protocol is not None:
        try:
            stdout = protocol.blocked(reason)
        except Exception:
            stdout = b""
    return Outcome(HookExit.BLOCKED, stdout, f"clearance hook {name}: {reason}\n")


def dumps(answer: dict[str, object]) -> bytes:
    """One JSON object, one line: what the agents parse."""
    return (json.dumps(answer, ensure_ascii=False) + "\n").encode("utf-8", "replace")


def pre_tool_use(
    decision: str, reason: str | None = None, updated_input: dict[str, object] | None = None
) -> bytes:
    """An answer in the ``PreToolUse`` form (Claude Code and Codex read it):
    ``hookSpecificOutput`` with the ``permissionDecision``, then its reason and the
    ``updatedInput`` when given (nothing else: Codex runs the tool on an unknown key)."""
    output: dict[str, object] = {"hookEventName": "PreToolUse", "permissionDecision": decision}
    if reason is not None:
        output["permissionDecisionReason"] = reason
    if updated_input is not None:
        output["updatedInput"] = updated_input
    return dumps({"hookSpecificOutput": output})


def emit(outcome: Outcome) -> int:
    """Write the outcome to fds 1 and 2 and return the exit status. A stdout the agent cannot
    read (closed pipe) turns any answer into a block: exit 2."""
    code = outcome.code
    try:
        _write_all(1, outcome.stdout)
    except OSError:
        code = HookExit.BLOCKED
        if not outcome.stderr:
            outcome.stderr = "clearance hook: could not write the answer to stdout; blocking\n"
    if outcome.stderr:
        try:  # noqa: SIM105 -- contextlib is not worth its import on the hook's path
            _write_all(2, outcome.stderr.encode("utf-8", "replace"))
        except OSError:
            pass
    return code


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def answer_once(
    protocol: Protocol,
    agent: str,
    args: list[str],
    stdin: Callable[[], BinaryIO],
    deliver: Callable[[Outcome], int],
) -> int:
    """One hook call: decide (every failure a block, even an exit or an interrupt), hand the
    answer to ``deliver``, and only then -- never changing or delaying the answer -- export
    the decision over OTLP when ``CLEARANCE_OTLP_ENDPOINT`` is set. The supervised worker
    and the in-process body (``run``) both answer through here."""
    try:
        outcome = handle(protocol, args, stdin())
    except BaseException as exc:
        outcome = blocked_outcome(protocol, agent, f"{type(exc).__name__}: {exc}")
    code = deliver(outcome)
    endpoint = os.environ.get("CLEARANCE_OTLP_ENDPOINT")
    if endpoint and outcome.decision is not None:
        from clearance.hooks.otlp import export_detached

        export_detached(outcome.decision, agent, endpoint)
    return code


def _stdin() -> BinaryIO:
    return sys.stdin.buffer


def run(protocol: Protocol, args: list[str]) -> int:
    """The process body of ``clearance hook <agent>`` in this process (no fork, no deadline):
    never anything but a decision or a block."""
    return answer_once(protocol, protocol.name, args, _stdin, emit)
