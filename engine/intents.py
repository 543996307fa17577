"""Tool intents and the mapping from every agent's tool names onto ours.

An intent is a proposal: a tool name and its input, from some source (an agent hook, CI, our
runner). Shell tools become command facts; read/write/edit tools become one part carrying
the path; fetch tools one part carrying the host. The mapping is data: agent tool name ->
(kind, the input fields that hold the command, path or URL).
"""

from __future__ import annotations

from clearance.shellparse.quoting import join_argv
from clearance.shellparse.tools import (
    carries_secret,
    file_tool_facts,
    opaque_tool_facts,
    urls_in,
    web_tool_facts,
)
from clearance.vocab import TOOL_KINDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.facts import SimpleCommandFacts
    from clearance.vocab import ToolKind

#: Kinds of tool, ours (``clearance.vocab.TOOL_KINDS``).
KINDS: Final = TOOL_KINDS

#: tool name -> (kind, input fields to look in, in order)
TOOLS: Final[dict[str, tuple[ToolKind, tuple[str, ...]]]] = {
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


def tool_kind(tool: str) -> ToolKind:
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


#: Ripgrep file types the agents' grep tools accept, as the names they select.
_RG_TYPES: Final = {
    "py": "*.py",
    "python": "*.py",
    "js": "*.js",
    "ts": "*.ts",
    "rust": "*.rs",
    "go": "*.go",
    "java": "*.java",
    "c": "*.c",
    "cpp": "*.cpp",
    "rb": "*.rb",
    "ruby": "*.rb",
    "md": "*.md",
    "markdown": "*.md",
    "json": "*.json",
    "yaml": "*.y*ml",
    "toml": "*.toml",
    "sh": "*.sh",
    "html": "*.html",
    "css": "*.css",
}

#: Tools whose input selects files by more than one field: tool -> (base directory fields,
#: glob fields that pick files to read, whether the base is a tree that is read).
_SELECTING: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], bool]]] = {
    "Grep": (("path",), ("glob",), True),
    "grep": (("path", "dir_path", "directory"), ("include", "glob"), True),
    "search_file_content": (("dir_path", "path", "directory"), ("include",), True),
    "grep_search": (("dir_path", "path", "directory"), ("include",), True),
    "Glob": (("path",), (), False),
    "glob": (("path", "dir_path", "directory"), (), False),
    "LS": (("path",), (), False),
    "list_directory": (("path", "dir_path", "directory"), (), False),
}


def _strings(value: object) -> list[str]:
    if isinstance(value, str) and value:
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str) and v]
    return []


def file_targets(intent: ToolIntent, kind: str, cwd: str) -> list[tuple[str, str, str]]:
    """Every file a file tool's input selects: ``(value, access, how)`` with ``how`` one of
    ``path``, ``glob`` (a pattern of paths), ``tree`` (a directory read whole), ``meta``
    (names and metadata only), ``filter`` (``DIR/{}/GLOB``: the files a filter picks).
    Raises ``BadIntent`` when the tool's input names nothing."""
    tool = intent.tool
    data = intent.input
    if tool == "apply_patch":
        fields = TOOLS[tool][1]
        text = next((data[f] for f in fields if isinstance(data.get(f), str)), None)
        if not isinstance(text, str) or not text.strip():
            raise BadIntent(f"{tool}: input has no patch ({', '.join(fields)})")
        targets = patch_targets(text)
        if not targets:
            raise BadIntent(f"{tool}: the patch names no file (no '*** Add/Update/Delete File:')")
        return [(path, access, "path") for path, access in targets]
    if tool == "read_many_files":
        out = [
            (value, "read", "glob")
            for field in ("paths", "include")
            for value in _strings(data.get(field))
        ]
        if not out:
            raise BadIntent(f"{tool}: input has no paths")
        return out
    selecting = _SELECTING.get(tool)
    if selecting is not None:
        bases, filters, tree = selecting
        base = next((v for f in bases for v in _strings(data.get(f))), None) or cwd
        if not tree:
            pattern = next(iter(_strings(data.get("pattern"))), None)
            out = [(base, "read", "meta")]
            if pattern is not None and tool in ("Glob", "glob"):
                glob = (
                    pattern if pattern.startswith(("/", "~")) else base.rstrip("/") + "/" + pattern
                )
                out.append((glob, "read", "meta-glob"))
            return out
        out = [(base, "read", "tree")]
        picks = [v for f in filters for v in _strings(data.get(f))]
        picks.extend(_RG_TYPES.get(t, "*") for t in _strings(data.get("type")))
        for pick in picks:
            out.append((base.rstrip("/") + "/{}/" + pick, "read", "filter"))
        return out
    fields = TOOLS.get(tool, (kind, ("path", "file_path")))[1]
    access = {"read": "read", "write": "write", "edit": "write", "list": "read"}[kind]
    for field in fields:
        values = _strings(data.get(field))
        if values:
            how = "meta" if kind == "list" else "path"
            return [(v, access, how) for v in values]
    if kind == "list":
        return [(cwd or ".", "read", "meta")]
    raise BadIntent(f"{tool}: input has no path ({', '.join(fields)})")


def file_part(
    intent: ToolIntent,
    kind: str,
    *,
    cwd: str,
    home: str,
    workspace: str | None,
    resolve: bool = True,
) -> tuple[SimpleCommandFacts, str]:
    """The one part of a file tool: every path its input selects, with the access the tool
    makes, checked against the machine when ``resolve``; and the subject judged."""
    targets = file_targets(intent, kind, cwd or ".")
    if any("\0" in value for value, _, _ in targets):
        # no file system takes such a name: the tool would fail, and nothing can be judged
        raise BadIntent(f"{intent.tool}: a path holds a NUL byte")
    fact = file_tool_facts(
        kind, targets, cwd=cwd, home=home, workspace=workspace, resolve=resolve, tool=intent.tool
    )
    return fact, " ".join(value for value, _, _ in targets)


def patch_targets(patch: str) -> list[tuple[str, str]]:
    """The files an ``apply_patch`` patch touches, read as codex-rs reads its headers (each
    line trimmed): ``*** Add File:`` writes, ``*** Delete File:`` deletes, ``*** Update
    File:`` writes, and its ``*** Move to:`` writes the new path and deletes the old."""
    out: list[tuple[str, str]] = []
    for raw in patch.splitlines():
        line = raw.strip()
        for prefix, access in (
            ("*** Add File: ", "write"),
            ("*** Delete File: ", "delete"),
            ("*** Update File: ", "write"),
            ("*** Move to: ", "write"),
        ):
            if line.startswith(prefix):
                path = line[len(prefix) :].strip()
                if not path:
                    continue
                if prefix == "*** Move to: " and out:
                    out.append((out[-1][0], "delete"))
                out.append((path, access))
    return out


def fetch_part(intent: ToolIntent, kind: str, home: str = "/") -> tuple[SimpleCommandFacts, str]:
    fields = TOOLS.get(intent.tool, (kind, ("url",)))[1]
    text = ""
    for field in fields:
        value = intent.input.get(field)
        if isinstance(value, str) and value:
            text = value
            break
    urls: list[str] = []
    if kind == "fetch":
        urls = urls_in(text)
        if not urls:
            raise BadIntent(f"{intent.tool}: no URL in its input")
    words = [v for v in intent.input.values() if isinstance(v, str)]
    return web_tool_facts(kind, text, urls, words=words, home=home), text


def agent_part(intent: ToolIntent) -> SimpleCommandFacts:
    return opaque_tool_facts(intent.tool)


__all__ = [
    "KINDS",
    "TOOLS",
    "BadIntent",
    "ToolIntent",
    "agent_part",
    "carries_secret",
    "fetch_part",
    "file_part",
    "file_targets",
    "patch_targets",
    "shell_command",
    "tool_kind",
]
