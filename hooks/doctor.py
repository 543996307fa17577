"""``clearance doctor [--agent A] [--project DIR]``: would every installed hook really run, and
block when it must?

For each agent whose settings name a clearance hook (or the one ``--agent`` names):

* the settings file is one the agent will load -- it parses and its hook section has the shape
  the agent accepts (Claude Code drops a bad file whole and silently; Gemini CLI and Codex
  refuse to start), and nothing switches hooks off (``disableAllHooks``);
* the hook sees every tool (its matcher), and the agent's timeout for it leaves room for the
  hook's own deadline (an agent that kills a hook on its timeout runs the tool);
* the hook command resolves and answers a probe payload, in the agent's own format, within
  that timeout;
* the trust settings that would make the agent skip the hook are in place (Gemini CLI's
  trusted folders for project settings; Codex's project trust and its hook trust);
* the policy in force at the project loads, and the ledger is writable.

Each finding is printed with what to do about it; the exit status is 1 when anything would
let a tool run unguarded (``FAIL``), 0 otherwise (``warn`` lines are advice).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import tomllib

from clearance.hooks.agents import BY_NAME, REGISTRY
from clearance.hooks.install import (
    Refused,
    _check_claude_extras,
    _check_hooks,
    _gemini_trusted,
    _is_ours,
    _strip_jsonc,
    settings_path,
)
from clearance.vocab import DoctorExit, HookExit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final, TextIO

#: Matchers that select every tool.
ALL_TOOLS: Final = frozenset(("", "*", ".*", "^.*$"))


class Finding:
    __slots__ = ("agent", "fix", "level", "text")

    def __init__(self, level: str, agent: str, text: str, fix: str = "") -> None:
        self.level, self.agent, self.text, self.fix = level, agent, text, fix

    def line(self) -> str:
        out = f"{self.level:<4}  {self.agent}: {self.text}"
        return out + (f"\n      fix: {self.fix}" if self.fix else "")


class Hook:
    """One clearance hook entry found in a settings file."""

    __slots__ = ("command", "matcher", "path", "scope", "timeout_s")

    def __init__(
        self, path: str, scope: str, command: str, matcher: str, timeout_s: float | None
    ) -> None:
        self.path, self.scope, self.command = path, scope, command
        self.matcher, self.timeout_s = matcher, timeout_s


def _load(agent: str, path: str) -> dict[str, object] | None:
    """The settings at ``path`` (None when there is no file); :class:`Refused` when the agent
    would drop or refuse it."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Refused(f"{path} cannot be read ({exc})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refused(f"{path} is not UTF-8") from None
    spec = BY_NAME[agent]
    if spec.format == "toml":
        try:
            data: object = tomllib.loads(text)
        except tomllib.TOMLDecodeError as bad:
            raise Refused(f"{path} is not valid TOML ({bad}): {spec.on_bad_settings}") from None
    elif not text.strip():
        return {}
    else:
        try:
            data = json.loads(_strip_jsonc(text) if spec.format == "jsonc" else text)
        except ValueError as invalid:
            raise Refused(f"{path} is not valid JSON ({invalid}): {spec.on_bad_settings}") from None
    if not isinstance(data, dict):
        raise Refused(f"{path} does not hold an object")
    hooks = data.get("hooks")
    if hooks is not None:
        events = (
            {k: v for k, v in hooks.items() if k != "state"}
            if spec.format == "toml" and isinstance(hooks, dict)
            else hooks
        )
        _check_hooks(events, path, agent)
    if spec.strict_settings:
        _check_claude_extras(data, path)
    return {str(k): v for k, v in data.items()}


def _hooks_in(agent: str, scope: str, path: str, data: Mapping[str, object]) -> list[Hook]:
    spec = BY_NAME[agent]
    hooks = data.get("hooks")
    event = spec.pre_event
    groups = hooks.get(event, []) if isinstance(hooks, dict) else []
    found: list[Hook] = []
    for group in groups if isinstance(groups, list) else []:
        for entry in group.get("hooks", []) if isinstance(group, dict) else []:
            command = entry.get("command") if isinstance(entry, dict) else None
            if entry.get("type") == "command" and _is_ours(command, agent):
                seconds = spec.timeout_seconds(entry.get("timeout"))
                matcher = group.get("matcher", "")
                found.append(Hook(path, scope, str(command), str(matcher), seconds))
    return found


def _deadline(command: str, env: Mapping[str, str]) -> float:
    from clearance.hooks.supervisor import DEADLINE_ENV, DEFAULT_DEADLINE_S

    match = re.search(r"--deadline[= ]([0-9.]+)", command)
    text = match.group(1) if match else env.get(DEADLINE_ENV)
    try:
        return float(text) if text else DEFAULT_DEADLINE_S
    except ValueError:
        return DEFAULT_DEADLINE_S


def probe_payload(agent: str, project: str) -> dict[str, object]:
    tool_input = {"command": "echo clearance-doctor-probe"}
    payload: dict[str, object] = {
        "session_id": "clearance-doctor",
        "cwd": project,
        "tool_name": BY_NAME[agent].shell_tool,
        "tool_input": tool_input,
        "hook_event_name": BY_NAME[agent].pre_event,
        "transcript_path": os.devnull,
    }
    return payload


def _answer_ok(agent: str, code: int, stdout: str) -> str | None:
    """None when the probe's answer is a decision the agent reads; else what is wrong."""
    if code == HookExit.BLOCKED:
        return f"the hook BLOCKS every call (exit {code})"
    if code != HookExit.ANSWERED:
        return f"the hook exits {code}, which the agent treats as 'run the tool'"
    from clearance.hooks import protocol

    hook = protocol(agent)
    # the shapes this agent reads: its protocol's own allow and deny
    shapes = [hook.answer(d, "r").strip() for d in ("allow", "deny")]
    text = stdout.strip()
    if not text:
        return None if b"" in shapes else "the hook printed no answer"
    try:
        answer = json.loads(text)
    except ValueError:
        return f"the hook printed something that is not one JSON object: {text[:120]!r}"
    expected = [_shape(json.loads(s)) for s in shapes if s]
    if _shape(answer) not in expected:
        return f"the hook's answer is not in {BY_NAME[agent].title}'s format: {text[:160]!r}"
    return None


def _shape(value: object, depth: int = 0) -> object:
    """The keys of a JSON answer, nested (values other than objects do not count); below 16
    levels, ``"too deep"`` (no agent's format is that deep)."""
    if depth >= 16:
        return "too deep"
    if isinstance(value, dict):
        return {k: _shape(v, depth + 1) for k, v in value.items()}
    return None


def check_hook(agent: str, hook: Hook, project: str, env: Mapping[str, str]) -> list[Finding]:
    out: list[Finding] = []
    where = f"{hook.path} ({hook.scope})"
    if hook.matcher not in ALL_TOOLS:
        out.append(
            Finding(
                "warn",
                agent,
                f"{where}: the hook's matcher {hook.matcher!r} leaves other tools unjudged",
                f"use matcher '.*' (clearance hook install {agent} --scope {hook.scope})",
            )
        )
    deadline = _deadline(hook.command, env)
    if hook.timeout_s is not None and hook.timeout_s < 2 * deadline:
        out.append(
            Finding(
                "FAIL",
                agent,
                f"{where}: the agent kills the hook after {hook.timeout_s:g} s, too close to "
                f"the hook's own deadline of {deadline:g} s (a killed hook lets the tool run)",
                f"raise the timeout to at least {3 * deadline:g} s, or lower --deadline",
            )
        )
    from clearance.hooks import protocol

    hook_env = dict(env)
    project_env = protocol(agent).project_env
    if project_env:
        hook_env[project_env] = project
    limit = hook.timeout_s if hook.timeout_s is not None else 600.0
    began = time.monotonic()
    try:
        proc = subprocess.run(
            ["/bin/sh", "-c", hook.command],
            input=json.dumps(probe_payload(agent, project)).encode(),
            capture_output=True,
            cwd=project,
            env=hook_env,
            timeout=limit,
            check=False,
        )
    except subprocess.TimeoutExpired:
        out.append(
            Finding(
                "FAIL",
                agent,
                f"{where}: the hook did not answer the probe within {limit:g} s; the agent "
                "would run the tool",
                "run `clearance hook " + agent + "` by hand with a payload to see why",
            )
        )
        return out
    took = time.monotonic() - began
    problem = _answer_ok(agent, proc.returncode, proc.stdout.decode("utf-8", "replace"))
    if problem is not None:
        said = proc.stderr.decode("utf-8", "replace").strip()[-400:]
        out.append(
            Finding(
                "FAIL",
                agent,
                f"{where}: {problem}" + (f": {said}" if said else ""),
                "install clearance on this machine (see README), or fix what the reason says",
            )
        )
    elif hook.timeout_s is not None and took > hook.timeout_s / 3:
        out.append(
            Finding(
                "warn",
                agent,
                f"{where}: the probe took {took:.2f} s, over a third of the agent's timeout",
            )
        )
    else:
        out.append(Finding("ok", agent, f"{where}: the hook answered the probe in {took:.2f} s"))
    return out


def check_trust(
    agent: str, hooks: list[Hook], project: str, env: Mapping[str, str]
) -> list[Finding]:
    home = env.get("HOME") or os.path.expanduser("~")
    out: list[Finding] = []
    scopes = {h.scope for h in hooks}
    if agent == "gemini-cli" and "project" in scopes:
        trusted = _gemini_trusted(project, home)
        if trusted is not True and env.get("GEMINI_CLI_TRUST_WORKSPACE", "") != "true":
            out.append(
                Finding(
                    "FAIL",
                    agent,
                    f"{project} is not a trusted folder: Gemini CLI ignores its project "
                    "settings, this hook included",
                    "trust it in Gemini CLI (/permissions), or set "
                    "GEMINI_CLI_TRUST_WORKSPACE=true where it runs headless",
                )
            )
    if agent == "codex":
        user_config = settings_path("codex", "user", project, env)
        try:
            with open(user_config, "rb") as fh:
                config: dict[str, object] = tomllib.load(fh)
        except (OSError, tomllib.TOMLDecodeError):
            config = {}
        if "project" in scopes:
            projects = config.get("projects")
            entry = projects.get(os.path.abspath(project)) if isinstance(projects, dict) else None
            if not (isinstance(entry, dict) and entry.get("trust_level") == "trusted"):
                out.append(
                    Finding(
                        "FAIL",
                        agent,
                        f"{project} is not a trusted Codex project: Codex loads "
                        ".codex/config.toml as a disabled layer",
                        f'add [projects."{os.path.abspath(project)}"] trust_level = "trusted" '
                        f"to {user_config}",
                    )
                )
        hooks_table = config.get("hooks")
        state = hooks_table.get("state") if isinstance(hooks_table, dict) else None
        trusted_any = isinstance(state, dict) and any(
            isinstance(v, dict) and v.get("trusted_hash") for v in state.values()
        )
        if not trusted_any:
            out.append(
                Finding(
                    "FAIL",
                    agent,
                    "no Codex hook trust is recorded: Codex skips a new or changed hook until "
                    "it is reviewed",
                    "review and trust the hook in Codex (/hooks), or run Codex with "
                    "--dangerously-bypass-hook-trust in automation that vets its hooks",
                )
            )
    return out


def check_project(project: str, env: Mapping[str, str]) -> list[Finding]:
    out: list[Finding] = []
    try:
        from clearance.engine.api import load_policy
        from clearance.engine.errors import PolicyError

        try:
            load_policy(project, env=env)
        except PolicyError as exc:
            out.append(
                Finding(
                    "FAIL",
                    "policy",
                    f"the policy in force does not load: {exc.summary()}",
                    "fix the file:line named (every hook call blocks until then)",
                )
            )
        else:
            out.append(Finding("ok", "policy", f"the policy in force at {project} loads"))
    except Exception as crash:  # a doctor reports, it does not crash
        out.append(Finding("FAIL", "policy", f"loading the policy failed: {crash}"))
    from clearance.engine.ledger import default_ledger_path

    ledger = default_ledger_path(project)
    directory = os.path.dirname(ledger)
    existing = directory
    while existing and not os.path.exists(existing):
        existing = os.path.dirname(existing)
    writable = (
        os.access(ledger, os.W_OK)
        if os.path.lexists(ledger)
        else bool(existing) and os.access(existing, os.W_OK | os.X_OK)
    )
    if os.path.islink(ledger) or (os.path.lexists(ledger) and not os.path.isfile(ledger)):
        writable = False
    if writable:
        out.append(Finding("ok", "ledger", f"{ledger} is writable"))
    else:
        out.append(
            Finding(
                "FAIL",
                "ledger",
                f"{ledger} cannot be written: every hook call will block",
                f"make {existing or directory} writable for this user",
            )
        )
    return out


def run_doctor(
    agent: str | None = None,
    *,
    project: str | None = None,
    env: Mapping[str, str] | None = None,
    out: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    env = os.environ if env is None else env
    if agent is not None and agent not in BY_NAME:
        out.write(f"clearance doctor: unknown agent {agent!r} (one of {', '.join(BY_NAME)})\n")
        return DoctorExit.USAGE
    if project is None:
        from clearance.engine.scopes import repository_root

        project = repository_root(os.getcwd()) or os.getcwd()
    project = os.path.abspath(project)
    findings: list[Finding] = []
    installed = 0
    for name in [agent] if agent else [spec.name for spec in REGISTRY]:
        hooks: list[Hook] = []
        for scope in ("project", "user"):
            path = settings_path(name, scope, project, env)
            try:
                data = _load(name, path)
            except Refused as exc:
                findings.append(
                    Finding(
                        "FAIL",
                        name,
                        str(exc),
                        "fix the file (clearance hook install refuses to touch it)",
                    )
                )
                continue
            if data is None:
                continue
            if name == "claude-code" and data.get("disableAllHooks") is True:
                findings.append(
                    Finding(
                        "FAIL",
                        name,
                        f"{path} sets disableAllHooks: no hook runs",
                        "remove disableAllHooks",
                    )
                )
            hooks.extend(_hooks_in(name, scope, path, data))
        if name == "claude-code":
            local = os.path.join(project, ".claude", "settings.local.json")
            try:
                data = _load(name, local)
            except Refused as exc:
                findings.append(Finding("FAIL", name, str(exc), "fix or remove the file"))
                data = None
            if data and data.get("disableAllHooks") is True:
                findings.append(
                    Finding(
                        "FAIL",
                        name,
                        f"{local} sets disableAllHooks: no hook runs",
                        "remove disableAllHooks",
                    )
                )
        if not hooks:
            if agent is not None:
                findings.append(
                    Finding(
                        "FAIL",
                        name,
                        "no clearance hook is installed: tools run unguarded",
                        f"clearance hook install {name} --scope project",
                    )
                )
            continue
        installed += 1
        for hook in hooks:
            findings.extend(check_hook(name, hook, project, env))
        findings.extend(check_trust(name, hooks, project, env))
    if not installed and agent is None:
        findings.append(
            Finding(
                "FAIL",
                "clearance",
                f"no agent has a clearance hook for {project}",
                "clearance hook install claude-code|gemini-cli|codex --scope project",
            )
        )
    findings.extend(check_project(project, env))
    for finding in findings:
        out.write(finding.line() + "\n")
    failed = sum(f.level == "FAIL" for f in findings)
    out.write(
        f"{failed} problem(s) would let tools run unguarded\n" if failed else "all checks passed\n"
    )
    return DoctorExit.FAILED if failed else DoctorExit.OK
