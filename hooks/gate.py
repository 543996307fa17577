"""The gate's per-line code: one JSON Lines input line to one decision and its output line.

``clearance gate`` (``clearance.cli.commands.gate``) and the decision service's ``/v1/gate`` and
``/v1/decide`` (``clearance.service.app``) answer with exactly this. A line is an intent
``{"id", "tool", "input"}`` (optional ``cwd``, ``session_id``) or a pre-tool hook payload of any
supported agent (recognised by ``hook_event_name``; its ``tool_use_id`` is the id). A line that
is not a valid intent is decided ``deny`` with reason code ``bad_input``; nothing here raises.

Each line is parsed once (the id it echoes comes from the same parse); a line that does not
parse as an intent echoes what a plain JSON reading finds, as before. The output line is
serialised as bytes (nothing decodes it to write it) with orjson when it is installed
(compact, UTF-8), else -- and for anything orjson rejects, such as a lone surrogate from an
input string -- with the standard library in the same compact form. It lives with the hooks
because a line may be any agent's payload, and so that the service does not import the CLI.
"""

from __future__ import annotations

import json
import os

from clearance.engine.decision import failure
from clearance.engine.entry import decide_in_force
from clearance.engine.intents import ToolIntent
from clearance.hooks.base import BadPayload, parse_payload
from clearance.shellparse.paths import normal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import BinaryIO, Final

    from clearance.engine.decision import ApprovalDecision
    from clearance.engine.rules import PolicySet

#: Longest input line decided (bytes); a longer one is ``bad_input``.
MAX_LINE: Final = 5 * 1024 * 1024


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


def parse_line(raw: bytes, default_cwd: str) -> tuple[ToolIntent, str | None, str | None, object]:
    """``(intent, agent, workspace, echoed id)`` of one input line; raises :class:`BadLine`.

    ``workspace`` is ``None`` for a plain intent (the caller looks it up at the intent's
    directory) and the session's project root (``""``: none) for an agent's payload."""
    try:
        data = parse_payload(raw)
    except BadPayload as exc:
        raise BadLine(str(exc).replace("payload", "line", 1)) from None
    if "hook_event_name" in data:
        from clearance.hooks import AGENTS, protocol
        from clearance.hooks.agents import recognize

        ident = data.get("tool_use_id")
        found = recognize(data)
        if found is None:
            raise _Echoed(
                f"hook event {data.get('hook_event_name')!r} is not a pre-tool event of a "
                f"supported agent ({', '.join(AGENTS)})",
                data,
            )
        hook = protocol(found.name)
        try:
            intent, workspace = hook.intent(data, os.environ)
        except BadPayload as exc:
            raise _Echoed(f"{found.name} payload: {exc}", data) from None
        intent.source = "gate"
        return intent, found.name, workspace, data.get("id", ident)
    tool = data.get("tool")
    tool_input = data.get("input")
    if not isinstance(tool, str) or not tool.strip():
        raise _Echoed("an intent needs 'tool' (a non-empty string)", data)
    if not isinstance(tool_input, dict):
        raise _Echoed("an intent needs 'input' (an object)", data)
    cwd = data.get("cwd", default_cwd)
    if not isinstance(cwd, str) or not cwd:
        raise _Echoed("'cwd' must be a non-empty string", data)
    session = data.get("session_id")
    if session is not None and not isinstance(session, str):
        raise _Echoed("'session_id' must be a string", data)
    ident = data.get("id")
    intent = ToolIntent(
        tool,
        tool_input,
        source="gate",
        cwd=normal(cwd if cwd.startswith("/") else os.path.join(default_cwd, cwd)),
        id=None if ident is None else str(ident),
        session_id=session,
    )
    return intent, None, None, ident


class _Echoed(BadLine):
    """A line that parsed but is not an intent: its id is known from the one parse."""

    def __init__(self, message: str, data: dict[str, object]) -> None:
        super().__init__(message)
        self.ident = _id_of(data)


def _id_of(data: object) -> object:
    if not isinstance(data, dict):
        return None
    if "id" in data:
        return data["id"]
    return data.get("tool_use_id") if "hook_event_name" in data else None


def _echo_id(raw: bytes) -> object:
    """The line's ``id`` (or a payload's ``tool_use_id``) as a plain JSON reading finds it,
    for a line the intent reader refused before it had an object."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return _id_of(data)


def decide_line(
    raw: bytes | None,
    number: int,
    directory: str,
    policy_for: Callable[[str], PolicySet | str],
    policy_error: str | None = None,
    workspace_for: Callable[[str], str | None] | None = None,
    home: str | None = None,
) -> tuple[ApprovalDecision, object, ToolIntent | None, str | None, str | None]:
    """One input line decided: ``(decision, echoed id, intent, agent, workspace)``.

    ``raw`` is ``None`` for a line longer than :data:`MAX_LINE`; ``policy_for(cwd)`` is the
    policy set in force at a directory (or its load error as text); ``policy_error`` denies
    every well-formed line; ``workspace_for(cwd)`` is a batch's memo of project roots, ``home``
    the batch's home directory (default: looked up for the line). Never
    raises: a malformed line is ``bad_input``, a bug ``internal_error``.
    """
    ident: object = None
    intent: ToolIntent | None = None
    agent: str | None = None
    workspace: str | None = None
    if raw is None:
        decision = failure("bad_input", f"line {number} is longer than {MAX_LINE} bytes")
        return decision, ident, intent, agent, workspace
    try:
        intent, agent, workspace, ident = parse_line(raw, directory)
    except _Echoed as echoed:
        ident = echoed.ident
        decision = failure("bad_input", f"line {number}: {echoed}")
    except BadLine as bad:
        ident = _echo_id(raw)
        decision = failure("bad_input", f"line {number}: {bad}")
    except Exception as bug:  # a bug: this line is denied, the batch goes on
        ident = _echo_id(raw)
        decision = failure("internal_error", f"line {number}: {bug!r}")
    else:
        if policy_error is not None:
            decision = failure("policy_error", policy_error, tool=intent.tool)
        else:
            decision, _ = decide_in_force(
                intent,
                policy_for=policy_for,
                workspace_for=workspace_for if workspace is None else None,
                cwd=intent.cwd or os.getcwd(),
                workspace=workspace,
                home=home,
            )
    return decision, ident, intent, agent, workspace


def line_output(decision: ApprovalDecision, ident: object, number: int) -> dict[str, object]:
    """The JSON object ``gate`` writes for one line."""
    return {"id": ident, "line": number, **decision.to_dict()}


class _Encoder:
    """orjson's ``dumps`` once looked up (``None``: not installed), never on the hook path."""

    __slots__ = ("dumps", "looked")

    def __init__(self) -> None:
        self.looked = False
        self.dumps: Callable[[object], bytes] | None = None


_ENCODER: Final = _Encoder()


def dumps(value: object) -> str:
    """``value`` as compact JSON text: :func:`dump_bytes`, decoded."""
    return dump_bytes(value).decode("utf-8")


def dump_bytes(value: object) -> bytes:
    """``value`` as compact JSON (no spaces, UTF-8 characters as they are), encoded: orjson
    when it is installed, else -- and for what orjson refuses (a lone surrogate from an input
    string, an integer beyond 64 bits, a float that is not finite) -- the standard library in
    the same form; a lone surrogate is written as its ``\\u`` escape, so the bytes are
    always valid UTF-8. What readers split lines at is escaped (``_one_line``)."""
    encoder = _ENCODER
    if not encoder.looked:
        encoder.looked = True
        try:
            import orjson
        except ImportError:
            encoder.dumps = None
        else:
            encoder.dumps = orjson.dumps
    fast = encoder.dumps
    if fast is not None and _orjson_safe(value):
        try:
            return _one_line(fast(value))
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            pass
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: escaped, as orjson cannot write it either
        data = json.dumps(value, separators=(",", ":")).encode("ascii")
    return _one_line(data)


#: Characters JSON leaves as they are but readers split lines at (``str.splitlines``, JavaScript
#: line terminators), in UTF-8: written as their escapes, so one answer is always one line for
#: everyone. (UTF-8 is self-synchronising: these bytes are these characters wherever they are.)
_LINE_BREAKS: Final = (
    (b"\xc2\x85", b"\\u0085"),
    (b"\xe2\x80\xa8", b"\\u2028"),
    (b"\xe2\x80\xa9", b"\\u2029"),
)


def _one_line(data: bytes) -> bytes:
    if data.isascii():  # (nearly every line: one pass in machine words)
        return data
    if b"\xc2\x85" in data or b"\xe2\x80\xa8" in data or b"\xe2\x80\xa9" in data:
        for char, escape in _LINE_BREAKS:
            data = data.replace(char, escape)
    return data


def _orjson_safe(value: object) -> bool:
    """orjson writes a non-finite float as ``null`` where the standard library keeps its value.
    The only value a line's output takes whole from its input is the echoed ``id``: anything
    but a string, an integer, a finite float, a boolean or null goes to the standard library."""
    if not isinstance(value, dict):
        return True
    ident = value.get("id")
    if ident is None or isinstance(ident, str | int):
        return True
    return isinstance(ident, float) and ident - ident == 0.0


def output_line(decision: ApprovalDecision, ident: object, number: int) -> bytes:
    """The line ``gate`` writes for one input line (with its newline), encoded: the JSON of
    :func:`line_output`, made as two objects joined (``{"id":…,"line":…`` then the decision's
    members), not by copying the decision's twenty members into a new dict first."""
    return _head(ident, number) + b"," + dump_bytes(decision.to_dict())[1:] + b"\n"


def _head(ident: object, number: int) -> bytes:
    """``{"id":…,"line":N`` (no closing brace): written out for the ids a batch's lines carry
    (none, or an integer: its digits, as either encoder writes them), dumped for the others."""
    if ident is None:
        echoed = b"null"
    elif type(ident) is int:  # (not a bool)
        echoed = str(ident).encode("ascii")
    else:
        return dump_bytes({"id": ident, "line": number})[:-1]
    return b'{"id":' + echoed + b',"line":' + str(number).encode("ascii")
