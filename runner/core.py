"""The core loop: owns the run, asks the model, takes each proposal through the pipeline.

The core is the only part that decides whether the run goes on. Each turn it projects the
event log into a request, calls the provider (retrying as `RetryPolicy` says, every
failure and retry recorded), records the turn, and hands every proposed call to the
intent pipeline. It stops on a final answer (a turn without tool calls), the turn limit,
the tool-call budget, a provider failure it will not retry, a policy error, or an
interrupt, and on every one of those paths the last event is `run.finished` with the
reason, written with SIGINT held back and fsynced.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from clearance import __version__
from clearance.engine.errors import PolicyError
from clearance.runner.providers.base import Provider
from clearance.runner.providers.types import ProviderError, Usage
from clearance.vocab import RUN_EXIT

from . import logs
from .approval import Approver
from .audit import Audit
from .events import EventLog, LogWriteError, RunEndReason, sigint_deferred
from .observation import budget_text
from .pipeline import IntentPipeline, Proposal
from .projection import next_request
from .prompt import system_prompt
from .retry import RetryPolicy
from .tools.base import DEFAULT_BASH_TIMEOUT, DEFAULT_OUTPUT_CAP
from .tools.runtime import ToolRuntime
from .tools.status import Status
from .turn import Turn, collect

#: Exit status of `clearance run` for each way a run ends (``clearance.vocab.RunExit``).
EXIT_CODES: dict[str, int] = RUN_EXIT


@dataclass(frozen=True)
class RunSettings:
    """What a run is asked to do and the limits it runs under."""

    task: str
    workspace: Path
    provider: str = "scripted"
    model: str = "scripted"
    max_turns: int = 30
    max_tool_calls: int = 100
    max_tokens: int = 4096
    bash_timeout: float = DEFAULT_BASH_TIMEOUT
    output_cap: int = DEFAULT_OUTPUT_CAP
    #: Run bash commands in the sandbox (``--no-sandbox``: False, and the log says so).
    sandbox: bool = True
    retry: RetryPolicy = field(default_factory=RetryPolicy)


@dataclass(frozen=True)
class RunResult:
    """How a run ended; `exit_code` is what `clearance run` exits with."""

    run_id: str
    reason: RunEndReason
    log_path: Path
    final_answer: str | None = None
    error: str | None = None
    turns: int = 0
    tool_calls: int = 0

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.reason]


class AgentRun:
    """One run: a provider, an approver, a tool runtime, and the event log they all feed."""

    def __init__(
        self,
        settings: RunSettings,
        *,
        provider: Provider,
        approver: Approver,
        audit: Audit,
        runtime: ToolRuntime,
        log: EventLog,
        sleep: Callable[[float], None] = time.sleep,
        diagnostics: Any = None,
    ) -> None:
        self.settings = settings
        #: The operator's diagnostics (``runner/logs.py``): what the event log cannot say.
        self.diag = diagnostics if diagnostics is not None else logs.logger(log.run_id)
        self.provider = provider
        self.approver = approver
        self.audit = audit
        self.runtime = runtime
        self.log = log
        self.sleep = sleep
        self.pipeline = IntentPipeline(
            log=log, runtime=runtime, approver=approver, audit=audit, workspace=settings.workspace
        )
        self.turns = 0
        self.tool_calls = 0
        self.usage = Usage()
        self._pending: list[Proposal] = []

    @property
    def run_id(self) -> str:
        return self.log.run_id

    def run(self) -> RunResult:
        """Run to the end. Never raises for an interrupt; a bug is recorded, then raised.

        SIGTERM, SIGHUP (a closed terminal) and SIGQUIT are treated like Ctrl-C while the run
        lasts, so a killed run (a CI timeout) still ends its log with `run.finished`, and the
        tool's process tree is killed on the way out.
        """
        with _sigterm_interrupts():
            return self._run()

    def _run(self) -> RunResult:
        reason: RunEndReason = "internal_error"
        final: str | None = None
        error: str | None = None
        try:
            policy_problem = self._start()
            if policy_problem is not None:
                reason, error = "policy_error", policy_problem
            else:
                reason, final, error = self._loop()
        except KeyboardInterrupt:
            reason = "interrupted"
        except PolicyError as exc:  # a policy reloaded after a grant broke
            reason, error = "policy_error", "\n".join(str(issue) for issue in exc.issues)
        except LogWriteError as exc:  # a full disk: the run cannot go on unrecorded
            reason, error = "internal_error", str(exc)
            self.diag.error("event_log_write_failed", error=error, log=str(self.log.path))
        except BaseException as exc:
            error = repr(exc)
            self.diag.exception("run_crashed", error=error)
            raise
        finally:
            self._finish(reason, final, error)
            if reason == "policy_error":
                self.diag.warning("policy_error", error=error)
            self.diag.info(
                "run_finished",
                reason=reason,
                exit_code=RUN_EXIT[reason],
                turns=self.turns,
                tool_calls=self.tool_calls,
            )
        return RunResult(
            self.run_id,
            reason,
            self.log.path,
            final_answer=final,
            error=error,
            turns=self.turns,
            tool_calls=self.tool_calls,
        )

    # --- start and finish ----------------------------------------------------------

    def _start(self) -> str | None:
        """Record `run.started`, with the policy in force; the policy problem, if any."""
        settings = self.settings
        policy: dict[str, object]
        problem: str | None = None
        try:
            sources = self.approver.sources()
            loaded = self.approver.load()
            policy = {
                "sources": [{"scope": scope, "file": path} for scope, path in sources],
                "digest": loaded.digest,
            }
        except PolicyError as exc:
            problem = "\n".join(str(issue) for issue in exc.issues) or str(exc)
            policy = {"errors": [issue.to_dict() for issue in exc.issues]}
        self.log.emit(
            "run.started",
            task=settings.task,
            workspace=str(settings.workspace),
            home=self.approver.home,
            provider=settings.provider,
            model=settings.model,
            system=system_prompt(settings.workspace),
            tools=self.runtime.toolbox.names,
            limits={
                "max_turns": settings.max_turns,
                "max_tool_calls": settings.max_tool_calls,
                "max_tokens": settings.max_tokens,
                "bash_timeout_s": settings.bash_timeout,
                "output_cap": settings.output_cap,
                "max_attempts": settings.retry.max_attempts,
            },
            on_ask=self.approver.asker.name,
            sandbox=_sandbox_state(settings.sandbox),
            policy=policy,
            ledger=self.audit.location,
            artifacts=str(self.runtime.ctx.artifacts),
            version=__version__,
        )
        return problem

    def _finish(self, reason: RunEndReason, final: str | None, error: str | None) -> None:
        """Close every open intent, record `run.finished`, fsync; SIGINT waits till done.
        When the log cannot take it (a full disk), it is closed without: every line in it
        is still whole."""
        with sigint_deferred():
            if self.log.closed:
                return
            try:
                self._write_finish(reason, final, error)
            except LogWriteError as exc:
                self.diag.error("run_finished_unrecorded", reason=reason, error=str(exc))
                with contextlib.suppress(OSError):
                    self.log.close()

    def _write_finish(self, reason: RunEndReason, final: str | None, error: str | None) -> None:
        if not self.log.events:  # interrupted before the start was recorded
            self.log.emit("run.started", task=self.settings.task, incomplete=True)
        for proposal in self._pending:
            self.pipeline.interrupted(proposal)
        self._pending = []
        self.log.emit(
            "run.finished",
            reason=reason,
            final_answer=final,
            error=error,
            turns=self.turns,
            tool_calls=self.tool_calls,
            usage=self.usage.model_dump(),
        )
        self.log.close()

    # --- the loop ------------------------------------------------------------------

    def _loop(self) -> tuple[RunEndReason, str | None, str | None]:
        settings = self.settings
        while True:
            if self.turns >= settings.max_turns:
                return "turn_limit", None, f"reached --max-turns {settings.max_turns}"
            turn_number = self.turns + 1
            turn = self._model_turn(turn_number)
            if isinstance(turn, ProviderError):
                return "provider_error", None, f"{turn.kind}: {turn.message}"
            self.turns = turn_number
            self._record(turn_number, turn)
            if not self._pending:
                return "final_answer", turn.text, None
            while self._pending:
                proposal = self._pending[0]
                if self.tool_calls >= settings.max_tool_calls:
                    for left in self._pending:
                        self.pipeline.close(
                            left, Status.BUDGET_EXHAUSTED, budget_text(settings.max_tool_calls)
                        )
                    self._pending = []
                    return (
                        "budget_limit",
                        None,
                        f"reached --max-tool-calls {settings.max_tool_calls}",
                    )
                self.tool_calls += 1
                self.pipeline.handle(proposal)
                self._pending.pop(0)

    def _model_turn(self, number: int) -> Turn | ProviderError:
        """Ask the model for turn `number`, retrying what the retry policy allows."""
        specs = self.runtime.toolbox.specs()
        attempt = 1
        while True:
            request = next_request(
                self.log.events,
                model=self.settings.model,
                tools=specs,
                max_tokens=self.settings.max_tokens,
            )
            self.log.emit(
                "model.request",
                turn=number,
                attempt=attempt,
                model=request.model,
                messages=len(request.messages),
                tools=[spec.name for spec in request.tools],
            )
            turn = collect(self.provider.stream(request))
            if turn.failure is None:
                return turn
            failure = turn.failure
            self.log.emit(
                "provider.error",
                turn=number,
                attempt=attempt,
                error=failure.model_dump(mode="json"),
                discarded={"text": turn.text, "tool_calls": len(turn.calls)},
            )
            delay = self.settings.retry.delay(failure, attempt)
            self.diag.warning(
                "provider_error",
                turn=number,
                attempt=attempt,
                kind=str(failure.kind),
                message=failure.message,
                retry_in_s=delay,
            )
            if delay is None:
                return failure
            self.log.emit(
                "provider.retry",
                turn=number,
                attempt=attempt + 1,
                delay_s=delay,
                after=str(failure.kind),
            )
            self.sleep(delay)
            attempt += 1

    def _record(self, number: int, turn: Turn) -> None:
        """Record a complete turn: its text, its proposals, then its finish."""
        if turn.text:
            self.log.emit("model.text", turn=number, text=turn.text)
        self._pending = [Proposal.of(call) for call in turn.calls]
        for proposal in self._pending:
            self.pipeline.propose(proposal, turn=number)
        self.usage = Usage(
            input_tokens=self.usage.input_tokens + turn.usage.input_tokens,
            output_tokens=self.usage.output_tokens + turn.usage.output_tokens,
        )
        self.log.emit(
            "model.finished",
            turn=number,
            reason=str(turn.reason),
            usage=turn.usage.model_dump(),
            tool_calls=len(self._pending),
        )


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """Raise `KeyboardInterrupt` on SIGTERM, SIGHUP and SIGQUIT inside the block (main
    thread only). A signal this process was started ignoring stays ignored: under `nohup`
    (SIGHUP ignored) a closed terminal does not end the run."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = {
        signum: signal.signal(signum, interrupt)
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
        if signal.getsignal(signum) is not signal.SIG_IGN
    }
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _sandbox_state(enabled: bool) -> dict[str, object]:
    """What `run.started` says about confinement: off (`--no-sandbox`), or on and whether a
    sandbox can be set up here (if not, the policy's `sandbox.unavailable` decides each
    allowed command)."""
    if not enabled:
        return {"enabled": False, "by": "--no-sandbox"}
    from clearance.sandbox.probe import probe

    backend = probe()
    return {
        "enabled": True,
        "backend": "bubblewrap" if backend.available else None,
        "bwrap": backend.path,
        "unavailable": backend.problem,
    }
