"""``clearance hook install claude-code|gemini-cli|codex [--scope project|user]``.

Adds ``clearance hook <agent>`` to the agent's settings as its pre-tool hook, keeping everything
already there. What the agents do with a settings file they do not like decides the care taken
here: Claude Code drops a file that fails to parse or validate *whole and silently* (every hook
in it is gone and tools run); Gemini CLI and Codex refuse to start. So an existing file that does
not parse, or whose hook section has the wrong shape or types, is never rewritten: the command
refuses (exit 2) and says what is wrong. The result is written in strict JSON or TOML, with
exactly the documented keys, timeouts in the agent's unit (seconds for Claude Code and Codex,
milliseconds for Gemini CLI), then read back and checked before it replaces the file.

TOML is written conservatively: the user's file is never reformatted; a well-formed block is
appended (and the combined text must parse, or nothing is written). Gemini CLI accepts
comments in its JSON; a file with comments is not rewritten (they would be lost) -- the block
to add by hand is printed instead.

Running it twice changes nothing the second time. Warnings name what would stop the hook from
running at all: an untrusted Gemini CLI folder, an untrusted Codex project, Codex's own hook
review, ``disableAllHooks`` in Claude Code.

Only the standard library is used (``tomllib`` reads TOML).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import tomllib
from typing import TypeVar

from clearance.hooks.agents import BY_NAME
from clearance.vocab import InstallExit

_T = TypeVar("_T")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final, TextIO

EXIT_OK, EXIT_REFUSED = InstallExit.OK, InstallExit.REFUSED
SCOPES: Final = ("project", "user")
#: Seconds the agents grant the hook: three times the hook's own deadline
#: (clearance.hooks.supervisor.DEFAULT_DEADLINE_S), so that the hook's timeout answer, process
#: start and the kill of a stuck worker all fit well inside it.
DEFAULT_TIMEOUT_S: Final = 30
DEFAULT_MATCHER: Final = ".*"

#: ``clearance hook NAME`` -> the agent (one registry: :mod:`clearance.hooks.agents`).
TARGETS: Final = BY_NAME


class Refused(Exception):
    """The settings file cannot be safely updated; the message says why and what to do."""


#: What the agent shows when the hook finds no clearance to run (README: "Installing the hook").
NOT_INSTALLED: Final = "clearance is not installed on this machine: see README"


def _sh_double(text: str) -> str:
    """``text`` inside a POSIX double-quoted string."""
    return '"' + re.sub(r'(["\\$`])', r"\\\1", text) + '"'


def launcher(agent: str, pinned: str | None = None) -> str:
    """The hook command written into the agent's settings: a POSIX ``sh -c`` launcher.

    It finds clearance at run time -- on ``PATH`` (``pinned`` is None: project scope, a file
    shared with machines whose paths are not this one's), or at the absolute path ``pinned``
    (user scope) -- and runs ``clearance hook AGENT``. Whenever that cannot give a real answer
    it BLOCKS: exit 2, the reason on stderr and the agent's deny JSON on stdout. That covers
    clearance missing, a relative ``PATH`` hit (a file the agent could plant in the
    workspace), a program that cannot start (a venv whose interpreter is gone exits 126/127),
    and any exit status other than 0 (a decision) or 2 (a block): every one of those would
    otherwise let the tool run.
    """
    spec = BY_NAME[agent]

    def block(why: str) -> str:
        reason = f"{NOT_INSTALLED} ({why})" if "not found" in why else why
        out = ""
        answer = spec.fallback_deny(f"clearance blocked this call: {reason}")
        if answer is not None:
            out = f'printf "%s\\n" {_sh_double(json.dumps(answer))}; '
        return f"{{ {out}echo {_sh_double('clearance hook: ' + reason)} >&2; exit 2; }}"

    if pinned is None:
        find = 'c=$(command -v clearance 2>/dev/null); case "$c" in /*) ;; *) c=; esac'
        missing = "clearance not found on PATH"
    else:
        find = f"c={_sh_double(pinned)}"
        missing = f"{pinned} not found"
    script = (
        f'{find}; [ -n "$c" ] && [ -x "$c" ] || {block(missing)}; '
        '"$c" "$@"; r=$?; [ "$r" -eq 0 ] || [ "$r" -eq 2 ] || '
        + block("clearance hook ended with exit status $r; blocking")
        + "; exit $r"
    )
    # the status in the last message is the shell's: leave it unescaped
    script = script.replace("\\$r;", "$r;")
    return f"sh -c {shlex.quote(script)} clearance hook {agent}"


def _this_clearance(argv0: str | None = None) -> str | None:
    """The absolute path of the ``clearance`` executable running now, if there is one."""
    import shutil

    argv0 = argv0 if argv0 is not None else sys.argv[0]
    if argv0 and os.path.basename(argv0) == "clearance" and os.path.isfile(argv0):
        return os.path.abspath(argv0)
    beside = os.path.join(os.path.dirname(sys.executable), "clearance")
    if os.path.isfile(beside) and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("clearance")
    return os.path.abspath(found) if found else None


def hook_command(agent: str, argv0: str | None = None, scope: str = "project") -> str:
    """The command line the agent will run.

    Project scope (a settings file committed and shared): a launcher that looks ``clearance``
    up on ``PATH`` when the hook runs and blocks when it is not there -- never this machine's
    path, which does not exist on a teammate's. User scope (this machine only): the same
    launcher pinned to this very clearance by absolute path (it still blocks when that path
    disappears); without a ``clearance`` executable it falls back to the PATH lookup.
    """
    if scope == "user":
        pinned = _this_clearance(argv0)
        if pinned is not None:
            return launcher(agent, pinned)
    return launcher(agent)


def _is_ours(command: object, agent: str) -> bool:
    return (
        isinstance(command, str)
        and re.search(rf"clearance\S*'?\s+hook\s+{re.escape(agent)}(\s|$)", command) is not None
    )


def settings_path(agent: str, scope: str, project: str, env: Mapping[str, str]) -> str:
    return BY_NAME[agent].settings_path(scope, project, env)


# ---- JSON settings (Claude Code, Gemini CLI) --------------------------------------------------


def _strip_jsonc(text: str) -> str:
    """``text`` without ``//`` and ``/* */`` comments outside strings."""
    out: list[str] = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _positive(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


#: What a JSON value of each type is called in a refusal.
_JSON_KINDS: Final[dict[type, str]] = {dict: "an object", list: "an array", str: "a string"}


def _json_of(kind: type[_T], value: object, what: str) -> _T:
    """``value``, refused unless it is of the JSON type ``kind`` (object, array, string)."""
    if not isinstance(value, kind):
        raise Refused(f"{what} must be {_JSON_KINDS[kind]}")
    return value


def _check_hooks(hooks: object, where: str, agent: str) -> None:
    """Refuse a hook section the agent would reject (and with it, the whole file)."""
    for event, groups in _json_of(dict, hooks, f"{where}: 'hooks'").items():
        for g, raw_group in enumerate(_json_of(list, groups, f"{where}: hooks.{event}")):
            at = f"{where}: hooks.{event}[{g}]"
            group = _json_of(dict, raw_group, at)
            if "matcher" in group:
                _json_of(str, group["matcher"], f"{at}.matcher")
            for h, raw_entry in enumerate(_json_of(list, group.get("hooks"), f"{at}.hooks")):
                here = f"{at}.hooks[{h}]"
                entry = _json_of(dict, raw_entry, here)
                _json_of(str, entry.get("type"), f"{here}.type")
                if entry["type"] == "command":
                    _json_of(str, entry.get("command"), f"{here}.command")
                if "timeout" in entry:
                    timeout = entry["timeout"]
                    if BY_NAME[agent].format == "toml":  # whole seconds, 0 = none
                        ok = isinstance(timeout, int) and not isinstance(timeout, bool)
                        ok = ok and timeout >= 0
                    else:
                        ok = _positive(timeout)
                    if not ok:
                        raise Refused(f"{here}.timeout must be a positive number, not {timeout!r}")


def _check_claude_extras(data: dict[str, object], where: str) -> None:
    """Keys outside ``hooks`` whose wrong type makes Claude Code drop the file."""
    permissions = data.get("permissions")
    if permissions is not None:
        permissions = _json_of(dict, permissions, f"{where}: 'permissions'")
        for key in ("allow", "deny", "ask", "additionalDirectories"):
            value = permissions.get(key)
            if value is not None and not (
                isinstance(value, list) and all(isinstance(v, str) for v in value)
            ):
                raise Refused(f"{where}: permissions.{key} must be an array of strings")
        mode = permissions.get("defaultMode")
        if mode is not None:
            _json_of(str, mode, f"{where}: permissions.defaultMode")
    env = data.get("env")
    if env is not None and not (
        isinstance(env, dict) and all(isinstance(v, str) for v in env.values())
    ):
        raise Refused(f"{where}: 'env' must be an object of strings")
    for key in ("disableAllHooks", "includeCoAuthoredBy"):
        if key in data and not isinstance(data[key], bool):
            raise Refused(f"{where}: '{key}' must be true or false")
    for key in ("model", "apiKeyHelper", "outputStyle"):
        if key in data:
            _json_of(str, data[key], f"{where}: '{key}'")


def _read_json(path: str, agent: str) -> tuple[dict[str, object], bool]:
    """``(settings, had BOM)``; a missing or blank file is empty settings."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        return {}, False
    bom = raw.startswith(b"\xef\xbb\xbf")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refused(f"{path} is not UTF-8 text; fix it first") from None
    if not text.strip():
        return {}, bom
    try:
        data = json.loads(text)
    except ValueError as exc:
        if BY_NAME[agent].format == "jsonc":
            try:
                json.loads(_strip_jsonc(text))
            except ValueError:
                pass
            else:
                raise Refused(
                    f"{path} has comments, which rewriting it would lose; add the hook by hand"
                ) from None
        consequence = BY_NAME[agent].on_bad_settings
        raise Refused(f"{path} is not valid JSON ({exc}); {consequence}. Fix it first") from None
    if not isinstance(data, dict):
        raise Refused(f"{path} must hold a JSON object")
    return {str(k): v for k, v in data.items()}, bom


def _json_entry(agent: str, command: str, timeout_s: int) -> dict[str, object]:
    spec = BY_NAME[agent]
    return {
        "type": "command",
        "command": command,
        **spec.entry_extras,
        "timeout": spec.timeout_value(timeout_s),
    }


def plan_json(
    agent: str, path: str, command: str, matcher: str, timeout_s: int
) -> tuple[str | None, str]:
    """``(new file text or None when nothing changes, what happened)``."""
    data, bom = _read_json(path, agent)
    event = BY_NAME[agent].pre_event
    if "hooks" in data:
        _check_hooks(data["hooks"], path, agent)
    if BY_NAME[agent].strict_settings:
        _check_claude_extras(data, path)
    wanted = _json_entry(agent, command, timeout_s)
    hooks = data.setdefault("hooks", {})
    assert isinstance(hooks, dict)
    groups = hooks.setdefault(event, [])
    assert isinstance(groups, list)
    for group in groups:
        assert isinstance(group, dict)
        entries = group["hooks"]
        assert isinstance(entries, list)
        for entry in entries:
            assert isinstance(entry, dict)
            if entry.get("type") == "command" and _is_ours(entry.get("command"), agent):
                if all(entry.get(k) == v for k, v in wanted.items()):
                    return (
                        None,
                        f"already installed in {path} ({event}, matcher "
                        f"{group.get('matcher', '(none)')!r}); nothing changed",
                    )
                entry.update(wanted)
                return _dump(data, bom), f"updated the clearance hook in {path} ({event})"
    groups.append({"matcher": matcher, "hooks": [wanted]})
    return _dump(
        data, bom
    ), f"installed the clearance hook in {path} ({event}, matcher {matcher!r})"


def _dump(data: dict[str, object], bom: bool) -> str:
    return ("\ufeff" if bom else "") + json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _verify_json(text: str, path: str, agent: str, command: str) -> None:
    data = json.loads(text.lstrip("\ufeff"))
    _check_hooks(data["hooks"], path, agent)
    if BY_NAME[agent].strict_settings:
        _check_claude_extras(data, path)
    event = BY_NAME[agent].pre_event
    if not any(
        _is_ours(entry.get("command"), agent) and entry.get("command") == command
        for group in data["hooks"][event]
        for entry in group["hooks"]
    ):
        raise Refused(f"internal check failed: the hook is missing from the new {path}")


# ---- TOML settings (Codex) --------------------------------------------------------------------


def toml_string(value: str) -> str:
    """A TOML basic string."""
    out = ['"']
    for c in value:
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c in "\b\t\n\f\r":
            out.append({"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}[c])
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def toml_block(command: str, matcher: str, timeout_s: int) -> str:
    return (
        "\n# clearance: decide every tool call by policy (clearance hook install codex)\n"
        "[[hooks.PreToolUse]]\n"
        f"matcher = {toml_string(matcher)}\n"
        "\n[[hooks.PreToolUse.hooks]]\n"
        'type = "command"\n'
        f"command = {toml_string(command)}\n"
        f"timeout = {int(timeout_s)}\n"
    )


def _read_toml(path: str) -> tuple[str, dict[str, object]]:
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        return "", {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(f"{path} is not UTF-8 text; fix it first") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Refused(
            f"{path} is not valid TOML ({exc}); Codex refuses to start with it. Fix it first"
        ) from None
    return text, data


def plan_toml(path: str, command: str, matcher: str, timeout_s: int) -> tuple[str | None, str]:
    text, data = _read_toml(path)
    hooks = data.get("hooks")
    if hooks is not None:
        if not isinstance(hooks, dict):
            raise Refused(f"{path}: 'hooks' must be a table")
        events = {k: v for k, v in hooks.items() if k != "state"}
        _check_hooks(events, path, "codex")
        for group in events.get("PreToolUse", []):
            for entry in group["hooks"]:
                if _is_ours(entry.get("command"), "codex"):
                    same = entry.get("command") == command and entry.get("timeout") == timeout_s
                    if same:
                        return (
                            None,
                            f"already installed in {path} (PreToolUse, matcher "
                            f"{group.get('matcher', '(none)')!r}); nothing changed",
                        )
                    raise Refused(
                        f"{path} already has a clearance hook ({entry.get('command')!r}, "
                        f"timeout {entry.get('timeout')!r}); edit it by hand (this command "
                        "does not rewrite your TOML)"
                    )
    if text and not text.endswith("\n"):
        text += "\n"
    new = text + toml_block(command, matcher, timeout_s)
    try:
        parsed = tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:
        raise Refused(
            f"{path} defines hooks in a form an appended [[hooks.PreToolUse]] block cannot "
            f"extend ({exc}); add the hook by hand"
        ) from None
    events = parsed["hooks"]
    _check_hooks({k: v for k, v in events.items() if k != "state"}, path, "codex")
    if not any(
        entry.get("command") == command for g in events["PreToolUse"] for entry in g["hooks"]
    ):
        raise Refused(f"internal check failed: the hook is missing from the new {path}")
    return new, f"installed the clearance hook in {path} (PreToolUse, matcher {matcher!r})"


# ---- warnings ---------------------------------------------------------------------------------


def _gemini_trusted(project: str, home: str) -> bool | None:
    """Whether Gemini CLI trusts ``project`` (``None``: cannot tell)."""
    try:
        with open(os.path.join(home, ".gemini", "trustedFolders.json"), encoding="utf-8") as fh:
            rules = json.load(fh)
    except (OSError, ValueError):
        return None
    if not isinstance(rules, dict):
        return None
    path = os.path.abspath(project)
    best: tuple[int, bool] | None = None
    for name, level in rules.items():
        folder = os.path.abspath(str(name))
        if level == "TRUST_PARENT":
            folder = os.path.dirname(folder)
        inside = path == folder or path.startswith(folder.rstrip("/") + "/")
        if inside and (best is None or len(folder) > best[0]):
            best = (len(folder), level in ("TRUST_FOLDER", "TRUST_PARENT"))
    return None if best is None else best[1]


def warnings_for(
    agent: str, scope: str, project: str, path: str, env: Mapping[str, str]
) -> list[str]:
    home = env.get("HOME") or os.path.expanduser("~")
    notes: list[str] = []
    if agent == "gemini-cli":
        if scope == "project":
            trusted = _gemini_trusted(project, home)
            if trusted is not True:
                notes.append(
                    f"Gemini CLI ignores project settings (this hook included) unless the folder "
                    f"{project} is trusted{'' if trusted is None else ' (it is marked untrusted)'}:"
                    " trust it in Gemini CLI (/permissions), or set GEMINI_CLI_TRUST_WORKSPACE=true"
                    " where it runs headless; otherwise tools run without clearance"
                )
        notes.append(
            "Gemini CLI cannot ask in headless mode: clearance answers 'ask' decisions with a "
            "deny that says approval is required"
        )
    if agent == "codex":
        if scope == "project":
            user_config = settings_path("codex", "user", project, env)
            trusted = False
            try:
                with open(user_config, "rb") as fh:
                    projects = tomllib.load(fh).get("projects", {})
                entry = projects.get(os.path.abspath(project), {})
                trusted = isinstance(entry, dict) and entry.get("trust_level") == "trusted"
            except (OSError, tomllib.TOMLDecodeError, AttributeError):
                trusted = False
            if not trusted:
                notes.append(
                    f"Codex reads {path} only for trusted projects: {project} is not marked "
                    f'trust_level = "trusted" in {user_config}; until it is, tools run without '
                    "clearance"
                )
        notes.append(
            "Codex runs a new or changed hook only after it is trusted (Codex's hook review, or "
            "--dangerously-bypass-hook-trust); until then tools run without clearance"
        )
        notes.append(
            "Codex ignores 'ask': clearance answers it with a deny that says approval is required"
        )
    if agent == "claude-code":
        for candidate in {
            path,
            settings_path("claude-code", "user", project, env),
            os.path.join(project, ".claude", "settings.local.json"),
        }:
            try:
                with open(candidate, encoding="utf-8-sig") as fh:
                    data = json.load(fh)
            except (OSError, ValueError):
                continue
            if isinstance(data, dict) and data.get("disableAllHooks") is True:
                notes.append(f"{candidate} sets disableAllHooks: the hook will not run")
    return notes


# ---- the command ------------------------------------------------------------------------------


def _write_atomic(path: str, text: str) -> None:
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o644
    temporary = f"{path}.clearance-{os.getpid()}.tmp"
    with open(temporary, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.chmod(temporary, mode)
    os.replace(temporary, path)


def run_install(
    agent: str,
    *,
    scope: str = "project",
    project: str | None = None,
    command: str | None = None,
    matcher: str = DEFAULT_MATCHER,
    timeout_s: int = DEFAULT_TIMEOUT_S,
    dry_run: bool = False,
    sandbox: bool = False,
    env: Mapping[str, str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    env = os.environ if env is None else env
    if agent not in TARGETS:
        err.write(
            f"clearance hook install: unknown agent {agent!r} (one of {', '.join(TARGETS)})\n"
        )
        return EXIT_REFUSED
    if scope not in SCOPES:
        err.write("clearance hook install: --scope is project or user\n")
        return EXIT_REFUSED
    if timeout_s <= 0:
        err.write("clearance hook install: --timeout must be a positive number of seconds\n")
        return EXIT_REFUSED
    if not matcher:
        err.write("clearance hook install: --matcher must not be empty\n")
        return EXIT_REFUSED
    if project is None:
        from clearance.engine.scopes import repository_root

        project = repository_root(os.getcwd()) or os.getcwd()
    project = os.path.abspath(project)
    path = settings_path(agent, scope, project, env)
    if command is None:
        command = hook_command(agent, scope=scope)
        from clearance.hooks.supervisor import DEFAULT_DEADLINE_S

        if timeout_s < 3 * DEFAULT_DEADLINE_S:
            # the hook must answer (deny, timeout) well before the agent kills it
            command += f" --deadline {max(0.5, round(timeout_s / 3, 1)):g}"
    if sandbox and not command.endswith(" --sandbox"):
        command += " --sandbox"  # allowed shell commands rewritten to run confined
    toml = BY_NAME[agent].format == "toml"
    try:
        if toml:
            new, what = plan_toml(path, command, matcher, timeout_s)
        else:
            new, what = plan_json(agent, path, command, matcher, timeout_s)
            if new is not None:
                _verify_json(new, path, agent, command)
    except Refused as exc:
        err.write(f"clearance hook install: refusing: {exc}\n")
        if toml:
            err.write("the block to add:\n" + toml_block(command, matcher, timeout_s))
        else:
            block = {
                "hooks": {
                    BY_NAME[agent].pre_event: [
                        {"matcher": matcher, "hooks": [_json_entry(agent, command, timeout_s)]}
                    ]
                }
            }
            err.write("the hook to merge in:\n" + json.dumps(block, indent=2) + "\n")
        return EXIT_REFUSED
    if new is not None:
        if dry_run:
            out.write(f"# {path} would become:\n{new}")
            what = "dry run: " + what.replace("installed", "would install").replace(
                "updated", "would update"
            )
        else:
            try:
                _write_atomic(path, new)
            except OSError as os_error:
                err.write(f"clearance hook install: cannot write {path}: {os_error}\n")
                return EXIT_REFUSED
    out.write(what + "\n")
    out.write(f"hook command: {command}\n")
    for note in warnings_for(agent, scope, project, path, env):
        err.write(f"warning: {note}\n")
    return EXIT_OK
