"""Entry point of the ``clearance`` command.

The commands an agent runs once per tool call (``parse``, ``check``, ``hook``) and ``gate``
(whose batches ride on its start-up too) are served without importing typer; everything else,
and any call the fast reader does not understand (``--help`` included), goes to the typer
application in ``clearance.cli.app``.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli.fast_args import FastArgs


def _fast(args: list[str]) -> int | None:
    if not args:
        return None
    name, rest = args[0], args[1:]
    if name in ("parse", "check", "explain", "gate"):
        from clearance.cli.fast_args import read_command_args

        parsed = read_command_args(name, rest)
        return None if parsed is None else _run_fast(name, parsed)
    if name == "sandbox":
        from clearance.cli.commands.sandbox import run_sandbox

        return run_sandbox(rest)
    if name == "hook" and rest and rest[0] in _HOOK_AGENTS:
        if any(arg in ("-h", "--help") for arg in rest[1:]):
            return None
        from clearance.cli.commands.hook import run_hook

        return run_hook(rest[0], rest[1:])
    return None


def _run_fast(name: str, parsed: FastArgs) -> int | None:
    """Run ``parse``, ``check``, ``explain`` or ``gate`` with the options the fast reader
    read (``None``: what it read is for typer to judge)."""
    from clearance.cli.fast_args import command_line

    flags, values = parsed.flags, parsed.values
    if name == "parse":
        from clearance.cli.commands.parse import run_parse

        return run_parse(
            command_line(parsed.positional),
            as_json="--json" in flags,
            cwd=values.get("--cwd"),
            batch=values.get("--batch"),
            workspace=values.get("--workspace"),
        )
    if name == "gate":
        jobs = values.get("--jobs", "1")
        if len(parsed.positional) > 1 or not jobs.isdigit():
            return None
        from clearance.cli.commands.gate import run_gate

        return run_gate(
            parsed.positional[0] if parsed.positional else None,
            policies=parsed.repeated.get("--policy"),
            output="json" if "--json" in flags else values.get("--format", "json"),
            summary="--summary" in flags,
            cwd=values.get("--cwd"),
            ledger=None if "--no-ledger" in flags else values.get("--ledger"),
            jobs=int(jobs),
        )
    from clearance.cli.commands.check import run_check

    return run_check(
        command_line(parsed.positional),
        as_json="--json" in flags,
        policies=parsed.repeated.get("--policy"),
        cwd=values.get("--cwd"),
        tool=values.get("--tool"),
        input_json=values.get("--input"),
        explain=name == "explain",
        ledger=values.get("--ledger"),
        no_ledger="--no-ledger" in flags or "--ledger" not in values,
    )


def _hook_agents() -> frozenset[str]:
    from clearance.hooks.agents import BY_NAME

    return frozenset(BY_NAME)


#: ``clearance hook NAME``: served here even on bad options, which must block, not print usage.
_HOOK_AGENTS = _hook_agents()


def _end_hook_process(code: int) -> None:
    """End a hook's process now, skipping interpreter teardown (finalising every module and
    object costs ~6 ms of the hook's budget). The answer is already out: the hook writes it
    with unbuffered ``os.write`` calls, and nothing else is pending."""
    import os

    from clearance.vocab import HookExit

    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # the descriptor was closed when the process started
            continue
        try:
            stream.flush()
        except Exception:
            code = code or HookExit.BLOCKED  # what the agent should have read was lost
    os._exit(code if code in (HookExit.ANSWERED, HookExit.BLOCKED) else HookExit.BLOCKED)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["hook"] and args[1:2] and args[1] in _HOOK_AGENTS:
        try:
            code = _fast(args)
        except BaseException as exc:  # a hook never ends in a traceback: it blocks
            from clearance.cli.commands.hook import _fallback

            code = _fallback(args[1], f"{type(exc).__name__}: {exc}")
    else:
        try:
            code = _fast(args)
        except BrokenPipeError:
            return 0
    if code is not None:
        if argv is None and args[:1] == ["hook"]:
            _end_hook_process(code)
        return code
    from clearance.cli.app import run_app

    return run_app(args)
