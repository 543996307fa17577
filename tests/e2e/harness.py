"""Drive the real agent CLIs (Claude Code, Gemini CLI, Codex) against fake model servers.

The shared harness (``run_agent_e2e.sh`` in ``$CLEARANCE_E2E_DIR``, default ``/work/shared/e2e``)
starts one agent CLI offline, makes its fake model propose one shell command, registers a hook
command as the agent's pre-tool hook and prints a JSON summary of what happened. This module finds
that harness and the installed CLIs, runs one scenario and returns the summary as a typed object,
so tests assert on fields instead of poking at untyped JSON.

A missing harness, agent CLI or ``clearance`` binary raises :class:`E2EUnavailable`. The conftest
turns that into a test *failure* (a skipped end-to-end test proves nothing) unless
``CLEARANCE_SKIP_E2E=1`` asks for a skip.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal, NoReturn, TypeVar, get_args

Agent = Literal["claude", "gemini", "codex"]
AGENTS: Final[tuple[Agent, ...]] = get_args(Agent)

# The name each agent has on the ``clearance hook <name>`` command line.
HOOK_NAMES: Final[Mapping[Agent, str]] = {
    "claude": "claude-code",
    "gemini": "gemini-cli",
    "codex": "codex",
}

# Payloads captured from real runs, shipped with the harness in samples/.
SAMPLE_PAYLOADS: Final[Mapping[Agent, str]] = {
    "claude": "claude_pretooluse_stdin.json",
    "gemini": "gemini_beforetool_stdin.json",
    "codex": "codex_pretooluse_stdin.json",
}

DEFAULT_HARNESS_DIR: Final = Path("/work/shared/e2e")
SKIP_ENV: Final = "CLEARANCE_SKIP_E2E"
HARNESS_ENV: Final = "CLEARANCE_E2E_DIR"
AGENTS_ENV: Final = "E2E_AGENTS_DIR"

# One agent run takes 0.5 s (Codex) to 3 s (Gemini CLI). A run that is still going after a minute
# is stuck (e.g. Gemini CLI waiting forever for a confirmation nobody can give in headless mode),
# and failing then is better than the harness's own 120 s default.
DEFAULT_AGENT_TIMEOUT_S: Final = 60
# Seconds the agent grants the hook before killing it (the harness converts it to milliseconds for
# Gemini CLI). A hook killed on timeout lets the tool run in all three agents.
DEFAULT_HOOK_TIMEOUT_S: Final = 30

# Without bypassPermissions, headless Claude Code refuses on its own any command that writes
# outside the project directory, which every marker file does: a hook that failed open would then
# look like a hook that blocked. Bypass mode leaves the hook as the only thing that can stop the
# command. IS_SANDBOX=1 lets Claude Code accept bypass mode when running as root.
CLAUDE_BYPASS_ENV: Final[Mapping[str, str]] = {
    "E2E_AGENT_ARGS": "--permission-mode bypassPermissions",
    "IS_SANDBOX": "1",
}


_T = TypeVar("_T", bool, int, str)
_R = TypeVar("_R")


class E2EUnavailable(RuntimeError):
    """The harness, an agent CLI or the ``clearance`` binary is not installed here."""


class HarnessError(RuntimeError):
    """The harness ran but did not produce a usable summary (a broken run, not a test verdict)."""


def skip_requested() -> bool:
    """True when the environment explicitly opts out of the end-to-end tests."""
    return os.environ.get(SKIP_ENV, "") == "1"


def harness_dir() -> Path:
    """Directory holding ``run_agent_e2e.sh``: ``$CLEARANCE_E2E_DIR`` or the shared default."""
    configured = os.environ.get(HARNESS_ENV, "")
    return Path(configured) if configured else DEFAULT_HARNESS_DIR


def agents_dir() -> Path:
    """Where ``install.sh`` put the agent CLIs: ``$E2E_AGENTS_DIR`` or ``~/.cache/agent-e2e``."""
    configured = os.environ.get(AGENTS_ENV, "")
    return Path(configured) if configured else Path.home() / ".cache" / "agent-e2e"


def clearance_executable() -> Path:
    """The ``clearance`` console script of the environment under test.

    The copy next to the running interpreter comes first, so the tests exercise the project
    installed in the venv that runs them even when ``PATH`` holds another one.
    """
    beside = Path(sys.executable).parent / "clearance"
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("clearance")
    if found:
        return Path(found)
    raise E2EUnavailable(
        f"no `clearance` executable next to {sys.executable} or on PATH; "
        "install the project (pip install -e .) into the environment running the tests"
    )


@dataclass(frozen=True)
class RunSummary:
    """What one agent run did, as reported by ``run_agent_e2e.sh``.

    ``executed`` comes from the agent's own post-tool hook (the tool really ran);
    ``marker_exists`` is the independent file check. ``tool_result_seen_by_model`` is the text the
    fake model server received back for the proposed call: on a block, the agent's wording around
    the hook's reason.
    """

    agent: Agent
    hook_called: bool
    hook_calls: int
    hook_stdin: Mapping[str, object] | None
    hook_stdout: str | None
    hook_stderr: str | None
    hook_exit_code: int | None
    executed: bool
    marker_exists: bool | None
    tool_result_seen_by_model: str | None
    tool_result_is_error: bool | None
    agent_exit_code: int | None
    agent_final_text: str | None
    agent_stderr_tail: str
    model_turns: tuple[str, ...]
    seconds: float
    raw: Mapping[str, object] = field(repr=False)

    @property
    def seen(self) -> str:
        """The model's view of the tool result, ``""`` when none came back."""
        return self.tool_result_seen_by_model or ""

    def describe(self) -> str:
        """A compact dump for assertion messages, so a failure shows what the agent did."""
        return json.dumps(dict(self.raw), indent=2, ensure_ascii=False)


def _field(summary: Mapping[str, object], key: str, kind: type[_T]) -> _T:
    value = summary.get(key)
    if not isinstance(value, kind):
        raise HarnessError(f"summary field {key!r} is {value!r}, expected {kind.__name__}")
    return value


def _optional(summary: Mapping[str, object], key: str, kind: type[_T]) -> _T | None:
    value = summary.get(key)
    if value is None:
        return None
    if not isinstance(value, kind):
        raise HarnessError(f"summary field {key!r} is {value!r}, expected {kind.__name__} or null")
    return value


def _object(summary: Mapping[str, object], key: str) -> dict[str, object] | None:
    value = summary.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise HarnessError(f"summary field {key!r} is {value!r}, expected an object or null")
    return {str(k): v for k, v in value.items()}


def _strings(summary: Mapping[str, object], key: str) -> tuple[str, ...]:
    value = summary.get(key)
    if value is None:
        return ()
    if not isinstance(value, list):
        raise HarnessError(f"summary field {key!r} is {value!r}, expected a list")
    return tuple(str(item) for item in value)


def parse_summary(text: str) -> RunSummary:
    """Parse the harness's JSON summary, refusing any shape the tests could misread."""
    try:
        loaded: object = json.loads(text)
    except ValueError as exc:
        raise HarnessError(f"harness printed no JSON summary ({exc}): {text[-2000:]!r}") from exc
    if not isinstance(loaded, dict):
        raise HarnessError(f"harness summary is not a JSON object: {text[-2000:]!r}")
    summary: dict[str, object] = {str(k): v for k, v in loaded.items()}
    agent = _field(summary, "agent", str)
    if agent not in AGENTS:
        raise HarnessError(f"summary names an unknown agent {agent!r}")
    seconds = summary.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise HarnessError(f"summary field 'seconds' is {seconds!r}, expected a number")
    final_text = summary.get("agent_final_text")
    return RunSummary(
        agent=next(a for a in AGENTS if a == agent),
        hook_called=_field(summary, "hook_called", bool),
        hook_calls=_field(summary, "hook_calls", int),
        hook_stdin=_object(summary, "hook_stdin"),
        hook_stdout=_optional(summary, "hook_stdout", str),
        hook_stderr=_optional(summary, "hook_stderr", str),
        hook_exit_code=_optional(summary, "hook_exit_code", int),
        executed=_field(summary, "executed", bool),
        marker_exists=_optional(summary, "marker_exists", bool),
        tool_result_seen_by_model=_optional(summary, "tool_result_seen_by_model", str),
        tool_result_is_error=_optional(summary, "tool_result_is_error", bool),
        agent_exit_code=_optional(summary, "agent_exit_code", int),
        # Claude Code's final text can be JSON null; any other non-string is kept as its JSON.
        agent_final_text=(
            final_text
            if isinstance(final_text, str) or final_text is None
            else json.dumps(final_text)
        ),
        agent_stderr_tail=_optional(summary, "agent_stderr_tail", str) or "",
        model_turns=_strings(summary, "model_turns"),
        seconds=float(seconds),
        raw=summary,
    )


@dataclass(frozen=True)
class Harness:
    """A located harness plus agent install; :meth:`run` performs one scenario."""

    directory: Path
    agents: Path

    @property
    def script(self) -> Path:
        return self.directory / "run_agent_e2e.sh"

    @classmethod
    def locate(cls) -> Harness:
        """Find the harness and the agents directory, or say exactly what is missing."""
        directory, agents = harness_dir(), agents_dir()
        harness = cls(directory=directory, agents=agents)
        if not harness.script.is_file() or not os.access(harness.script, os.X_OK):
            raise E2EUnavailable(
                f"agent e2e harness not found: {harness.script} is missing or not executable "
                f"(set {HARNESS_ENV} to the directory holding run_agent_e2e.sh)"
            )
        return harness

    def agent_binary(self, agent: Agent) -> Path:
        return self.agents / "node_modules" / ".bin" / agent

    def install_agents(self) -> None:
        """Install the pinned agent CLIs with the harness's ``install.sh`` (npm ci; about
        20 s and 760 MB the first time), so that ``python -m pytest`` on a fresh machine
        runs the end-to-end tests instead of failing on a missing tool. One process
        installs; the others wait on the lock. ``CLEARANCE_E2E_INSTALL=0`` turns it off."""
        if os.environ.get("CLEARANCE_E2E_INSTALL", "1") == "0":
            return
        import fcntl
        import subprocess

        self.agents.mkdir(parents=True, exist_ok=True)
        with open(self.agents / ".clearance-install.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if all(self.agent_binary(a).exists() for a in ("claude", "gemini", "codex")):
                return
            result = subprocess.run(
                [str(self.directory / "install.sh")],
                env={**os.environ, AGENTS_ENV: str(self.agents)},
                capture_output=True,
                text=True,
                timeout=900,
                check=False,
            )
            if result.returncode != 0:
                raise E2EUnavailable(
                    "installing the agent CLIs failed (needs node >= 20 and the npm "
                    f"registry): {(result.stdout + result.stderr)[-1500:]}"
                )

    def require_agent(self, agent: Agent) -> None:
        """Raise :class:`E2EUnavailable` unless ``agent``'s CLI is installed (installing the
        pinned CLIs first when they are missing)."""
        binary = self.agent_binary(agent)
        if not binary.exists():
            self.install_agents()
        if not binary.exists() or not os.access(binary, os.X_OK):
            raise E2EUnavailable(
                f"{agent} CLI not installed at {binary}: run "
                f"`{AGENTS_ENV}={self.agents} {self.directory / 'install.sh'}` "
                f"(or point {AGENTS_ENV} at the directory install.sh used)"
            )

    def run(
        self,
        agent: Agent,
        hook_command: str,
        command: str,
        *,
        marker: Path,
        claude_bypass: bool = True,
        agent_timeout_s: int = DEFAULT_AGENT_TIMEOUT_S,
        hook_timeout_s: int = DEFAULT_HOOK_TIMEOUT_S,
        extra_env: Mapping[str, str] | None = None,
    ) -> RunSummary:
        """Run ``agent`` once: its model proposes ``command``, ``hook_command`` is the hook.

        ``marker`` is the file the command would create; the harness deletes it first and reports
        whether it exists afterwards. ``claude_bypass`` runs Claude Code in bypassPermissions mode
        (see :data:`CLAUDE_BYPASS_ENV`); pass False to check that an allow from the hook is what
        lets a command through Claude Code's own permission prompt.
        """
        self.require_agent(agent)
        env = dict(os.environ)
        # PYTHONSAFEPATH (tests/conftest.py, against an installed copy) would keep the shared
        # harness's fake model servers from importing their siblings: not ours to confine
        for inherited in (
            "E2E_AGENT_ARGS",
            "E2E_CLAUDE_ARGS",
            "IS_SANDBOX",
            "E2E_KEEP",
            "PYTHONSAFEPATH",
        ):
            env.pop(inherited, None)
        env.update(
            {
                AGENTS_ENV: str(self.agents),
                "E2E_MARKER": str(marker),
                "E2E_TIMEOUT": str(agent_timeout_s),
                "E2E_HOOK_TIMEOUT": str(hook_timeout_s),
            }
        )
        if agent == "claude" and claude_bypass:
            env.update(CLAUDE_BYPASS_ENV)
        env.update(extra_env or {})
        try:
            proc = subprocess.run(
                [str(self.script), agent, hook_command, command],
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                # The script's own timeout covers the agent; this covers server start-up,
                # summary writing and a hook that outlives the agent.
                timeout=agent_timeout_s + 60,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise HarnessError(f"{self.script} {agent} did not finish: {exc}") from exc
        if proc.returncode != 0:
            raise HarnessError(
                f"{self.script} {agent} exited {proc.returncode}: "
                f"stderr={proc.stderr[-2000:]!r} stdout={proc.stdout[-2000:]!r}"
            )
        summary = parse_summary(proc.stdout)
        if summary.agent != agent:
            raise HarnessError(f"asked for {agent}, summary is for {summary.agent}")
        return summary


@dataclass
class E2ESession:
    """What a test uses: run an agent, find ``clearance``, build hook command lines and payloads.

    Nothing is looked up until a test asks, so a missing piece surfaces inside the test body as a
    failure with the install instructions; ``on_unavailable`` decides fail versus skip.
    """

    on_unavailable: Callable[[E2EUnavailable], NoReturn]
    _harness: Harness | None = field(default=None, init=False, repr=False)

    def _available(self, lookup: Callable[[], _R]) -> _R:
        try:
            return lookup()
        except E2EUnavailable as exc:
            missing = exc
        # Outside the except block, so the report is the message and not a chained traceback.
        return self.on_unavailable(missing)

    def harness(self) -> Harness:
        if self._harness is None:
            self._harness = self._available(Harness.locate)
        return self._harness

    def run(
        self,
        agent: Agent,
        hook_command: str,
        command: str,
        *,
        marker: Path,
        claude_bypass: bool = True,
    ) -> RunSummary:
        """:meth:`Harness.run` with the default timeouts."""
        harness = self.harness()
        self._available(lambda: harness.require_agent(agent))
        return harness.run(agent, hook_command, command, marker=marker, claude_bypass=claude_bypass)

    def clearance(self) -> Path:
        return self._available(clearance_executable)

    def clearance_hook(self, agent: Agent, policy: Path | str) -> str:
        """Shell command line that runs ``clearance hook <agent> --policy POLICY``."""
        return shlex.join(
            [str(self.clearance()), "hook", HOOK_NAMES[agent], "--policy", str(policy)]
        )

    def payload(self, agent: Agent, command: str, cwd: Path) -> dict[str, object]:
        """A real pre-tool payload captured from ``agent`` (``samples/``), proposing ``command``
        from the directory ``cwd``.

        Lets a test feed the hook exactly what the agent sends without starting the agent. The
        captured ``cwd`` was a temporary project that no longer exists; a real agent's cwd
        does (the hook records its decision in that project's ledger).
        """
        path = self.harness().directory / "samples" / SAMPLE_PAYLOADS[agent]
        loaded: object = self._available(lambda: _read_json(path))
        if not isinstance(loaded, dict) or not isinstance(loaded.get("tool_input"), dict):
            raise HarnessError(f"{path} is not a pre-tool payload with a tool_input object")
        payload: dict[str, object] = {str(k): v for k, v in loaded.items()}
        payload["tool_input"] = {**loaded["tool_input"], "command": command}
        payload["cwd"] = str(cwd)
        return payload


def _read_json(path: Path) -> object:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise E2EUnavailable(f"sample payload {path} is not readable: {exc}") from exc
    try:
        loaded: object = json.loads(text)
    except ValueError as exc:
        raise HarnessError(f"sample payload {path} is not JSON: {exc}") from exc
    return loaded
