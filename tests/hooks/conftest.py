"""Fixtures for the hook tests: a policy, a project directory, and a way to call a hook.

``hook(agent, payload)`` runs the hook body in-process (fast, for the many protocol and fuzz
cases); ``hook_process`` runs the real ``clearance hook`` command in a subprocess (for what only
a process shows: exit status, closed pipes, the fast path in ``clearance.cli.main``).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hookcases import POLICY, Result

from clearance.hooks import protocol
from clearance.hooks.base import handle

Hook = Callable[..., Result]


@pytest.fixture(autouse=True)
def isolated(isolated_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CLEARANCE_MANAGED_POLICY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    (path / ".git").mkdir(parents=True)
    (path / "src").mkdir()
    return path


@pytest.fixture
def policy(tmp_path: Path) -> Path:
    path = tmp_path / "policy.yaml"
    path.write_text(POLICY)
    return path


@pytest.fixture
def hook(policy: Path) -> Hook:
    def call(
        agent: str,
        stdin: bytes | dict[str, object],
        *args: str,
        env: dict[str, str] | None = None,
        default_policy: bool = True,
    ) -> Result:
        data = json.dumps(stdin).encode() if isinstance(stdin, dict) else stdin
        argv = [*(["--policy", str(policy)] if default_policy else []), *args]
        outcome = handle(protocol(agent), argv, io.BytesIO(data), env or {})
        code = None if outcome.decision is None else outcome.decision.reason_code
        return Result(outcome.code, outcome.stdout.decode(), outcome.stderr, code)

    return call


@pytest.fixture
def hook_process(policy: Path, tmp_path: Path) -> Hook:
    def call(
        agent: str,
        stdin: bytes | dict[str, object],
        *args: str,
        default_policy: bool = True,
        **popen: object,
    ) -> Result:
        data = json.dumps(stdin).encode() if isinstance(stdin, dict) else stdin
        argv = [
            sys.executable,
            "-m",
            "clearance",
            "hook",
            agent,
            *(["--policy", str(policy)] if default_policy else []),
            *args,
        ]
        env = {**os.environ, "CLEARANCE_CACHE_DIR": str(tmp_path / "cache")}
        proc = subprocess.run(
            argv, input=data, capture_output=True, timeout=60, env=env, check=False
        )
        return Result(
            proc.returncode,
            proc.stdout.decode("utf-8", "replace"),
            proc.stderr.decode("utf-8", "replace"),
        )

    return call
