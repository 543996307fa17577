"""Entry point of the ``clearance`` command.

The commands an agent runs once per tool call (``parse``, ``check``, ``hook``) are served
without importing typer; everything else, and any call the fast reader does not understand
(``--help`` included), goes to the typer application in ``clearance.cli.app``.
"""

from __future__ import annotations

import sys


def _fast(args: list[str]) -> int | None:
    if not args:
        return None
    name, rest = args[0], args[1:]
    if name == "parse":
        from clearance.cli.fast_args import read_fast_args, shell_join

        parsed = read_fast_args(
            rest,
            flags=frozenset(("--json",)),
            values=frozenset(("--cwd", "--batch", "--workspace")),
        )
        if parsed is None:
            return None
        from clearance.cli.commands.parse import run_parse

        return run_parse(
            shell_join(parsed.positional) if parsed.positional else None,
            as_json="--json" in parsed.flags,
            cwd=parsed.values.get("--cwd"),
            batch=parsed.values.get("--batch"),
            workspace=parsed.values.get("--workspace"),
        )
    if name in ("check", "explain"):
        from clearance.cli.fast_args import read_fast_args, shell_join

        parsed = read_fast_args(
            rest,
            flags=frozenset(("--json", "--no-ledger")),
            values=frozenset(("--cwd", "--tool", "--input", "--ledger")),
            repeated=frozenset(("--policy",)),
        )
        if parsed is None:
            return None
        from clearance.cli.commands.check import run_check

        return run_check(
            shell_join(parsed.positional) if parsed.positional else None,
            as_json="--json" in parsed.flags,
            policies=parsed.repeated.get("--policy"),
            cwd=parsed.values.get("--cwd"),
            tool=parsed.values.get("--tool"),
            input_json=parsed.values.get("--input"),
            explain=name == "explain",
            ledger=parsed.values.get("--ledger"),
            no_ledger="--no-ledger" in parsed.flags or "--ledger" not in parsed.values,
        )
    if name == "sandbox":
        from clearance.cli.commands.sandbox import run_sandbox

        return run_sandbox(rest)
    if name == "hook" and rest and rest[0] in _HOOK_AGENTS:
        if any(arg in ("-h", "--help") for arg in rest[1:]):
            return None
        from clearance.cli.commands.hook import run_hook

        return run_hook(rest[0], rest[1:])
    return None


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

    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # the descriptor was closed when the process started
            continue
        try:
            stream.flush()
        except Exception:
            code = code or 2  # something the agent should have read was lost: block
    os._exit(code if code in (0, 2) else 2)


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
