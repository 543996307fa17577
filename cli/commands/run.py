"""``clearance run``: the minimal agent runner, and replay of its event logs.

Exit status of a run: 0 final answer; 1 internal error; 2 usage or policy error (the run
refuses to start); 3 turn limit (``--max-turns``); 4 tool-call budget (``--max-tool-calls``);
5 provider error (after the retries the core allows); 130 interrupted.
Replay (``--replay LOG``): 0 done, 2 usage or policy error or unreadable log, 5 provider
error (``--mode model``). The statuses are ``clearance.vocab``'s ``RunExit`` and
``RunReplayExit``.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO, cast

from clearance.vocab import RunExit, RunReplayExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.runner.providers.base import Provider
    from clearance.runner.providers.registry import ProviderName

EXIT_INTERNAL = RunExit.INTERNAL_ERROR
EXIT_USAGE = RunExit.POLICY_ERROR  # a usage error exits like a policy error
EXIT_INTERRUPTED = RunExit.INTERRUPTED


@dataclass(frozen=True)
class RunArgs:
    """The command line of ``clearance run``, as plain values."""

    task: str | None = None
    provider: str = "scripted"
    script: str | None = None
    model: str | None = None
    base_url: str | None = None
    workspace: str | None = None
    log: str | None = None
    policies: list[str] | None = None
    on_ask: str | None = None
    max_turns: int = 30
    max_tool_calls: int = 100
    bash_timeout: float = 120.0
    no_sandbox: bool = False
    ledger: str | None = None
    no_ledger: bool = False
    replay: str | None = None
    mode: str = "trace"
    turn: int | None = None


def _fail(message: str, err: TextIO) -> int:
    err.write(f"clearance run: {message}\n")
    return EXIT_USAGE


def run_run(args: RunArgs, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run (or replay) as the command line says; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        if args.replay is not None:
            return _replay(args, out, err)
        return _run(args, out, err)
    except KeyboardInterrupt:
        err.write("clearance run: interrupted\n")
        return EXIT_INTERRUPTED


def _provider(args: RunArgs, err: TextIO) -> tuple[Provider | None, str]:
    """(provider or None after an error message, the model name to record)."""
    from clearance.runner.providers import ScriptError, make_provider
    from clearance.runner.providers.registry import PROVIDER_NAMES

    if args.provider not in PROVIDER_NAMES:
        _fail(f"--provider must be one of {', '.join(PROVIDER_NAMES)}", err)
        return None, ""
    if args.provider == "scripted" and args.script is None:
        from clearance.runner.bundled_demo import demo_provider

        return demo_provider(), args.model or "scripted"
    try:
        provider = make_provider(
            cast("ProviderName", args.provider),
            script=Path(args.script) if args.script else None,
            model=args.model,
            base_url=args.base_url,
        )
    except (ScriptError, ValueError) as exc:
        _fail(str(exc), err)
        return None, ""
    return provider, args.model or args.provider


def _run(args: RunArgs, out: TextIO, err: TextIO) -> int:
    from clearance.runner.approval import OnAsk, TerminalAsker
    from clearance.runner.bundled_demo import DEMO_TASK, prepare_workspace
    from clearance.runner.core import RunSettings
    from clearance.runner.launch import build_run
    from clearance.runner.progress import Progress

    if args.on_ask not in (None, "deny", "allow"):
        return _fail("--on-ask must be deny or allow", err)
    if args.max_turns < 1 or args.max_tool_calls < 0 or args.bash_timeout <= 0:
        return _fail("--max-turns must be >= 1, --max-tool-calls >= 0, --bash-timeout > 0", err)
    demo = args.provider == "scripted" and args.script is None
    if demo and args.workspace is not None:
        return _fail(
            "the built-in demo runs in a fresh copy of its own project; give --script to "
            "play a script in --workspace",
            err,
        )
    task = args.task
    if task is None:
        if not demo:
            return _fail('give the TASK, e.g. clearance run --script s.yaml "fix the tests"', err)
        task = DEMO_TASK
    provider, model = _provider(args, err)
    if provider is None:
        return EXIT_USAGE
    if demo:
        workspace = prepare_workspace()
        out.write(f"demo: a fresh copy of the demo project in {workspace}\n")
    else:
        workspace = Path(args.workspace or os.getcwd())
        if not workspace.is_dir():
            return _fail(f"--workspace {workspace}: not a directory", err)
    if args.on_ask is None and sys.stdin.isatty():
        asker: OnAsk | TerminalAsker = TerminalAsker(sys.stdin, err)
    else:
        asker = OnAsk("allow" if args.on_ask == "allow" else "deny")
    settings = RunSettings(
        task=task,
        workspace=workspace,
        provider=args.provider,
        model=model,
        max_turns=args.max_turns,
        max_tool_calls=args.max_tool_calls,
        bash_timeout=args.bash_timeout,
        sandbox=not args.no_sandbox,
    )
    log_path = Path(args.log) if args.log else None
    if log_path is not None and log_path.exists():
        return _fail(f"--log {log_path}: the file exists; each run needs a new log", err)
    run = build_run(
        settings,
        provider=provider,
        asker=asker,
        policy_files=args.policies,
        log_path=log_path,
        ledger=Path(args.ledger) if args.ledger else None,
        record_ledger=not args.no_ledger,
        listeners=[Progress(out)],
    )
    result = run.run()
    if result.reason == "policy_error":
        err.write("clearance run: the policy does not load; the run did not start\n")
    elif result.reason == "internal_error" and result.error:
        err.write(f"clearance run: {result.error}\n")
    out.write(f"log: {result.log_path}\n")
    out.write(f"replay: clearance run --replay {result.log_path} --mode trace|dry-run|model\n")
    out.flush()
    return result.exit_code


def _replay(args: RunArgs, out: TextIO, err: TextIO) -> int:
    from clearance.engine.errors import PolicyError
    from clearance.runner import run_replay
    from clearance.runner.events import LogError

    if args.mode not in run_replay.REPLAY_MODES:
        return _fail(f"--mode must be one of {', '.join(run_replay.REPLAY_MODES)}", err)
    if args.task is not None:
        return _fail("--replay takes no TASK: the task is the recorded one", err)
    path = Path(args.replay or "")
    if args.mode == "model" and args.log and Path(args.log).exists():
        return _fail(f"--log {args.log}: the file exists; the replay needs a new log", err)
    try:
        if args.mode == "trace":
            return run_replay.trace(path, out)
        if args.mode == "dry-run":
            return run_replay.dry_run(path, out, policy_files=args.policies)
        provider, model = _provider(args, err)
        if provider is None:
            return RunReplayExit.USAGE
        code, log = run_replay.replay_model(
            path,
            out,
            provider=provider,
            provider_name=args.provider,
            model=model,
            turn=args.turn,
            log_path=Path(args.log) if args.log else None,
        )
        out.write(f"log: {log}\n")
        return code
    except LogError as exc:
        return _fail(str(exc), err)
    except PolicyError as exc:
        for issue in exc.issues:
            err.write(f"clearance: {issue}\n")
        return _fail("the policy does not load", err)
    except ValueError as exc:
        return _fail(str(exc), err)
