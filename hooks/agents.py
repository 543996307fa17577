"""The agents clearance guards: one :class:`Agent` object each, the one registry every surface
iterates (``clearance hook NAME``, ``hook install``, ``doctor``, ``gate``'s payload recognition,
the CLI's commands and its last-resort deny).

An :class:`Agent` holds what is true of the agent itself -- where its settings live and in
which format, the pre-tool event its hook is registered under, its timeout unit and default,
how to recognise one of its payloads, what it does with a settings file it cannot use, and the
deny it reads beside exit 2 -- while its protocol module (``module``: payload to intent, the
answer formats) holds the hook's behaviour. Plain data, standard library only: this module is
on the start-up path of every hook call and on the path of the fallback that blocks when
everything else failed to import.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final


class Agent:
    """One agent CLI."""

    __slots__ = (
        "default_timeout_s",
        "deny_reason_at",
        "deny_template",
        "entry_extras",
        "excludes",
        "folder",
        "format",
        "module",
        "name",
        "on_bad_settings",
        "pre_event",
        "requires",
        "settings_file",
        "shell_tool",
        "strict_settings",
        "timeout_unit",
        "title",
        "user_dir_env",
    )

    def __init__(
        self,
        name: str,
        *,
        title: str,
        module: str,
        folder: str,
        settings_file: str,
        format: str,
        pre_event: str,
        shell_tool: str,
        timeout_unit: int,
        default_timeout_s: float | None,
        on_bad_settings: str,
        user_dir_env: str | None = None,
        entry_extras: dict[str, object] | None = None,
        requires: tuple[str, ...] = (),
        excludes: tuple[str, ...] = (),
        deny_template: dict[str, object] | None = None,
        deny_reason_at: tuple[str, ...] = (),
        strict_settings: bool = False,
    ) -> None:
        self.name = name  #: ``clearance hook NAME`` and the ledger's ``agent``
        self.title = title
        self.module = module  #: the protocol module (``PROTOCOL``)
        self.folder = folder  #: settings folder, in the project and in the home
        self.settings_file = settings_file
        self.format = format  #: ``json``, ``jsonc`` (comments allowed) or ``toml``
        self.pre_event = pre_event  #: the event the hook is registered under
        self.shell_tool = shell_tool  #: the agent's shell tool (a doctor's probe)
        self.timeout_unit = timeout_unit  #: settings' timeout unit, in seconds^-1 (1 or 1000)
        self.default_timeout_s = default_timeout_s  #: without ``timeout`` (None: unbounded)
        self.on_bad_settings = on_bad_settings  #: what the agent does with a broken file
        self.user_dir_env = user_dir_env  #: variable that moves the user-level folder
        self.entry_extras = dict(entry_extras or {})  #: extra keys of a hook entry
        self.requires = requires  #: payload keys only this agent's pre-tool payloads have
        self.excludes = excludes  #: payload keys this agent's pre-tool payloads never have
        self.deny_template = deny_template  #: the deny read beside exit 2 (None: stderr only)
        self.deny_reason_at = deny_reason_at  #: where the reason goes in it
        #: the agent drops the whole file when a key outside ``hooks`` has the wrong type
        self.strict_settings = strict_settings

    def settings_path(self, scope: str, project: str, env: Mapping[str, str]) -> str:
        """The settings file of ``scope`` (``project`` or ``user``)."""
        if scope == "project":
            return os.path.join(project, self.folder, self.settings_file)
        base = env.get(self.user_dir_env) if self.user_dir_env else None
        if not base:
            home = env.get("HOME") or os.path.expanduser("~")
            base = os.path.join(home, self.folder)
        return os.path.join(base, self.settings_file)

    def recognizes(self, payload: Mapping[str, object]) -> bool:
        """Whether a pre-tool ``payload`` is one this agent sends."""
        return (
            payload.get("hook_event_name") == self.pre_event
            and all(key in payload for key in self.requires)
            and not any(key in payload for key in self.excludes)
        )

    def fallback_deny(self, reason: str) -> dict[str, object] | None:
        """The deny this agent reads on stdout beside exit 2 (None: it reads only stderr)."""
        if self.deny_template is None:
            return None
        answer: dict[str, object] = {}
        _fill(self.deny_template, answer, self.deny_reason_at, reason)
        return answer

    def timeout_value(self, seconds: float) -> int:
        """``seconds`` in this agent's timeout unit."""
        return int(seconds * self.timeout_unit)

    def timeout_seconds(self, value: object) -> float | None:
        """A ``timeout`` setting in seconds (the agent's default when unset or not a number)."""
        if not isinstance(value, int | float) or isinstance(value, bool):
            return self.default_timeout_s
        if self.format == "toml" and value == 0:
            return None
        return value / self.timeout_unit


def _fill(
    template: dict[str, object], out: dict[str, object], at: tuple[str, ...], reason: str
) -> None:
    for key, value in template.items():
        if isinstance(value, dict):
            inner: dict[str, object] = {}
            _fill(value, inner, at[1:] if at[:1] == (key,) else (), reason)
            out[key] = inner
        else:
            out[key] = reason if at == (key,) else value


_CLAUDE_STYLE_DENY: Final[dict[str, object]] = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "",
    }
}

REGISTRY: Final[tuple[Agent, ...]] = (
    Agent(
        "claude-code",
        title="Claude Code",
        module="clearance.hooks.claude",
        folder=".claude",
        settings_file="settings.json",
        format="json",
        pre_event="PreToolUse",
        shell_tool="Bash",
        timeout_unit=1,
        default_timeout_s=600.0,
        on_bad_settings="Claude Code silently ignores the whole file, hooks included",
        user_dir_env="CLAUDE_CONFIG_DIR",
        excludes=("turn_id",),
        deny_template=_CLAUDE_STYLE_DENY,
        deny_reason_at=("hookSpecificOutput", "permissionDecisionReason"),
        strict_settings=True,
    ),
    Agent(
        "gemini-cli",
        title="Gemini CLI",
        module="clearance.hooks.gemini",
        folder=".gemini",
        settings_file="settings.json",
        format="jsonc",
        pre_event="BeforeTool",
        shell_tool="run_shell_command",
        timeout_unit=1000,
        default_timeout_s=60.0,
        on_bad_settings="Gemini CLI refuses to start with it",
        entry_extras={"name": "clearance"},
        deny_template={"decision": "deny", "reason": ""},
        deny_reason_at=("reason",),
    ),
    Agent(
        "codex",
        title="Codex",
        module="clearance.hooks.codex",
        folder=".codex",
        settings_file="config.toml",
        format="toml",
        pre_event="PreToolUse",
        shell_tool="Bash",
        timeout_unit=1,
        default_timeout_s=None,
        on_bad_settings="Codex refuses to start with it",
        user_dir_env="CODEX_HOME",
        requires=("turn_id",),
    ),
)

#: ``clearance hook NAME`` -> its agent.
BY_NAME: Final[dict[str, Agent]] = {agent.name: agent for agent in REGISTRY}


def recognize(payload: Mapping[str, object]) -> Agent | None:
    """The agent that sends a pre-tool ``payload`` like this one, if any."""
    return next((agent for agent in REGISTRY if agent.recognizes(payload)), None)
