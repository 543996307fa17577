"""Tool intents and the mapping from every agent's tool names onto ours.

An intent is a proposal: a tool name and its input, from some source (an agent hook, CI, our
runner). Shell tools become command facts; read/write/edit tools become one part carrying
the path; fetch tools one part carrying the host. The mapping is data: agent tool name ->
(kind, the input fields that hold the command, path or URL).
"""

from __future__ import annotations

import re

from clearance.shellparse.facts import SimpleCommandFacts
from clearance.shellparse.quoting import join_argv

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.classifier import Classifier
    from clearance.shellparse.expand import Env

#: Kinds of tool, ours. ``agent`` tools act only inside the agent (plans, todo lists).
KINDS = ("shell", "read", "write", "edit", "fetch", "search", "list", "agent", "unknown")

#: tool name -> (kind, input fields to look in, in order)
TOOLS: dict[str, tuple[str, tuple[str, ...]]] = {
    # our runner
    "bash": ("shell", ("command",)),
    "read_file": ("read", ("path", "file_path", "absolute_path")),
    "write_file": ("write", ("path", "file_path", "absolute_path")),
    "edit_file": ("edit", ("path", "file_path")),
    "glob": ("list", ("path", "dir_path", "directory")),
    "grep": ("list", ("path", "dir_path", "directory")),
    # Claude Code
    "Bash": ("shell", ("command",)),
    "Read": ("read", ("file_path",)),
    "Write": ("write", ("file_path",)),
    "Edit": ("edit", ("file_path",)),
    "MultiEdit": ("edit", ("file_path",)),
    "NotebookEdit": ("edit", ("notebook_path",)),
    "NotebookRead": ("read", ("notebook_path",)),
    "Glob": ("list", ("path",)),
    "Grep": ("list", ("path",)),
    "LS": ("list", ("path",)),
    "WebFetch": ("fetch", ("url",)),
    "WebSearch": ("search", ("query",)),
    "Task": ("agent", ()),
    "Agent": ("agent", ()),
    "TodoWrite": ("agent", ()),
    "TodoRead": ("agent", ()),
    "ExitPlanMode": ("agent", ()),
    "BashOutput": ("agent", ()),
    "KillShell": ("agent", ()),
    "KillBash": ("agent", ()),
    # Gemini CLI
    "run_shell_command": ("shell", ("command",)),
    "read_many_files": ("read", ("paths", "include")),
    "replace": ("edit", ("file_path",)),
    "list_directory": ("list", ("path", "dir_path")),
    "search_file_content": ("list", ("path", "dir_path")),
    "grep_search": ("list", ("dir_path", "path")),
    "web_fetch": ("fetch", ("prompt", "url")),
    "google_web_search": ("search", ("query",)),
    "save_memory": ("agent", ()),
    "write_todos": ("agent", ()),
    # Codex
    "shell": ("shell", ("command", "cmd")),
    "local_shell": ("shell", ("command", "cmd")),
    "exec_command": ("shell", ("cmd", "command")),
    "container.exec": ("shell", ("cmd", "command")),
    "apply_patch": ("edit", ("command", "input", "patch")),
    "update_plan": ("agent", ()),
    "view_image": ("read", ("path",)),
}

_URL = re.compile(r"https?://[^\s\"'<>)]+")
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$", re.M)


class ToolIntent:
    """A proposed action. ``source`` says who proposed it (``claude-code``, ``gate``, …)."""

    __slots__ = ("cwd", "id", "input", "session_id", "source", "tool")

    def __init__(
        self,
        tool: str,
        input: dict[str, object],
        *,
        source: str = "cli",
        cwd: str | None = None,
        id: str | None = None,
        session_id: str | None = None,
    ) -> None:
        self.tool = tool
        self.input = input
        self.source = source
        self.cwd = cwd
        self.id = id
        self.session_id = session_id

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "tool": self.tool,
            "input": self.input,
            "source": self.source,
            "cwd": self.cwd,
            "session_id": self.session_id,
        }


class BadIntent(Exception):
    """The intent's input lacks what its tool needs (reason code ``bad_input``)."""


def tool_kind(tool: str) -> str:
    found = TOOLS.get(tool)
    if found is not None:
        return found[0]
    return "unknown"


def shell_command(intent: ToolIntent) -> str:
    """The command line of a shell intent (Codex sends argv lists: ``["bash", "-lc", …]``)."""
    fields = TOOLS.get(intent.tool, ("shell", ("command", "cmd")))[1]
    for field in fields:
        value = intent.input.get(field)
        if isinstance(value, str):
            if not value.strip():
                raise BadIntent(f"{intent.tool}: empty {field!r}")
            return value
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return join_argv([str(v) for v in value])
        if value is not None:
            raise BadIntent(f"{intent.tool}: {field!r} must be a string or a list of strings")
    raise BadIntent(f"{intent.tool}: input has no {' or '.join(repr(f) for f in fields)}")


def file_part(
    intent: ToolIntent, kind: str, classifier: Classifier, env: Env
) -> tuple[SimpleCommandFacts, str]:
    """The one part of a file tool: its path(s) with the access the tool makes."""
    fields = TOOLS.get(intent.tool, (kind, ("path", "file_path")))[1]
    paths: list[str] = []
    for field in fields:
        value = intent.input.get(field)
        if isinstance(value, str) and value:
            paths.extend(_patch_paths(value) if intent.tool == "apply_patch" else [value])
        elif isinstance(value, list):
            paths.extend(str(v) for v in value if isinstance(v, str) and v)
        if paths:
            break
    access = {"read": "read", "write": "write", "edit": "write", "list": "read"}[kind]
    if not paths:
        if kind == "list":
            paths = [env.cwd or "."]
        else:
            raise BadIntent(f"{intent.tool}: input has no path ({', '.join(fields)})")
    program = {"read": "read_file", "write": "write_file", "edit": "edit_file", "list": "list"}[
        kind
    ]
    fact = SimpleCommandFacts([program, *paths], " ".join(paths), 0, 0)
    fact.program = fact.program_raw = program
    fact.classes.add("read_only" if access == "read" else "write")
    for value in paths:
        classifier.add_path(fact, value, access, env, source="tool")
    for path_fact in fact.paths:
        path_fact.source = "tool"
    return fact, " ".join(paths)


def _patch_paths(patch: str) -> list[str]:
    found = [a or b for a, b in _PATCH_FILE.findall(patch)]
    return [p.strip() for p in found if p.strip()]


def fetch_part(intent: ToolIntent, kind: str) -> tuple[SimpleCommandFacts, str]:
    fields = TOOLS.get(intent.tool, (kind, ("url",)))[1]
    text = ""
    for field in fields:
        value = intent.input.get(field)
        if isinstance(value, str) and value:
            text = value
            break
    program = "web_fetch" if kind == "fetch" else "web_search"
    fact = SimpleCommandFacts([program, text], text, 0, len(text))
    fact.program = fact.program_raw = program
    fact.classes.update(("network", "network_read", "read_only"))
    if kind == "fetch":
        urls = _URL.findall(text) if not text.startswith(("http://", "https://")) else [text]
        if not urls:
            raise BadIntent(f"{intent.tool}: no URL in its input")
        from clearance.shellparse.classifier import hosts_in

        for url in urls:
            for host in hosts_in(url):
                if host not in fact.hosts:
                    fact.hosts.append(host)
    return fact, text


def agent_part(intent: ToolIntent) -> SimpleCommandFacts:
    fact = SimpleCommandFacts([intent.tool], intent.tool, 0, 0)
    fact.program = fact.program_raw = intent.tool
    return fact
