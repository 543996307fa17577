"""Helpers for runner tests: an isolated environment, a small policy, scripted runs.

The runner tests use their own policy (`POLICY`) rather than the shipped default pack, so
they test the runner and not the tuning of the default rules; the demo tests are the ones
that run under the default pack.
"""

from __future__ import annotations

import signal
import textwrap
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from runner_support import POLICY, Finished, MakeRun, PlayRun, script

from clearance.runner.approval import Asker, OnAsk
from clearance.runner.core import AgentRun, RunSettings
from clearance.runner.events import Listener, read_events
from clearance.runner.launch import build_run
from clearance.runner.providers.base import Provider
from clearance.runner.retry import RetryPolicy


@pytest.fixture(scope="session")
def policy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("policy-cache")


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, policy_cache: Path) -> Iterator[None]:
    """No user or managed policy, a shared policy cache, and a private temporary dir."""
    monkeypatch.setenv("CLEARANCE_CACHE_DIR", str(policy_cache))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("CLEARANCE_MANAGED_POLICY", raising=False)
    yield


@pytest.fixture(autouse=True)
def stop_signals_at_their_defaults() -> Iterator[None]:
    """The runner's tests send this process stop signals and expect what an interactive start
    gives (SIGINT raises KeyboardInterrupt, the others their defaults); a suite started in the
    background by a shell without job control inherits SIGINT and SIGQUIT ignored. Restored
    after each test."""
    stops = (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTERM)
    saved = {signum: signal.getsignal(signum) for signum in stops}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for signum in stops[1:]:
        signal.signal(signum, signal.SIG_DFL)
    yield
    for signum, handler in saved.items():
        if handler is not None:  # (None: a handler not set from Python, left as it is)
            signal.signal(signum, handler)


@pytest.fixture
def policy_file(tmp_path: Path) -> str:
    path = tmp_path / "policy.yaml"
    path.write_text(textwrap.dedent(POLICY))
    return str(path)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    (path / "notes.txt").write_text("alpha\nbeta\ngamma\n")
    return path


@pytest.fixture
def make_run(workspace: Path, policy_file: str, tmp_path: Path) -> MakeRun:
    def make(
        provider: Provider | str,
        *,
        asker: Asker | None = None,
        policies: Sequence[str] | None = None,
        record_ledger: bool = False,
        ledger: Path | None = None,
        sleep: Callable[[float], None] | None = None,
        listeners: Sequence[Listener] = (),
        **settings: object,
    ) -> AgentRun:
        chosen = script(provider) if isinstance(provider, str) else provider
        options: dict[str, object] = {
            "task": "do the task",
            "workspace": workspace,
            "retry": RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=1.0),
            **settings,
        }
        return build_run(
            RunSettings(**options),  # type: ignore[arg-type]
            provider=chosen,
            asker=asker or OnAsk("deny"),
            policy_files=list(policies) if policies is not None else [policy_file],
            record_ledger=record_ledger,
            ledger=ledger,
            home=str(tmp_path / "home"),
            sleep=sleep or (lambda seconds: None),
            listeners=listeners,
        )

    return make


@pytest.fixture
def play(make_run: MakeRun) -> PlayRun:
    def play_(provider: Provider | str, **options: object) -> Finished:
        run = make_run(provider, **options)
        result = run.run()
        return Finished(result, read_events(result.log_path).events, run)

    return play_
