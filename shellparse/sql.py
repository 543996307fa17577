"""Enough SQL (and database-shell meta-commands) to tell a read from a write.

``effects(text, client)`` splits the text into statements (comments and quoted text taken
into account) and answers the set of what they do: ``read``; ``write`` (rows, schema,
grants, settings of the server); ``drop`` (DROP, TRUNCATE); ``code`` (a program runs: psql's
``\\!``, sqlite's ``.shell``, ``COPY … PROGRAM``, an anonymous ``DO`` block, an extension
loaded); ``file_write`` / ``file_read`` with the file named (``\\o out.txt``, ``.import``,
``INTO OUTFILE``); ``unknown`` (SQL from a file, a statement not recognised). Only what is
recognised as a read is a read: every other first word is ``unknown``.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_READ_FIRST: Final = frozenset(
    (
        "select",
        "show",
        "describe",
        "desc",
        "values",
        "table",
        "explain",
        "use",
        "begin",
        "start",
        "commit",
        "rollback",
        "end",
        "savepoint",
        "release",
        "fetch",
        "declare",
        "close",
        "listen",
        "unlisten",
        "set",
        "reset",
        "discard",
        "prepare",
        "deallocate",
        "help",
        "checksum",
    )
)
_WRITE_FIRST: Final = frozenset(
    (
        "insert",
        "update",
        "delete",
        "merge",
        "replace",
        "upsert",
        "create",
        "alter",
        "grant",
        "revoke",
        "comment",
        "rename",
        "lock",
        "vacuum",
        "reindex",
        "cluster",
        "refresh",
        "analyze",
        "analyse",
        "notify",
        "call",
        "security",
        "attach",
        "detach",
        "import",
        "load",
        "flush",
        "kill",
        "optimize",
        "repair",
        "install",
        "uninstall",
        "reassign",
        "import",
    )
)
_DROP_FIRST: Final = frozenset(("drop", "truncate"))
#: Functions with effects beyond reading, wherever they are called (``SELECT setval(…)``).
_EFFECT_FUNCTIONS: Final = re.compile(
    r"\b(pg_terminate_backend|pg_cancel_backend|pg_reload_conf|pg_rotate_logfile|setval|"
    r"nextval|set_config|lo_import|lo_export|lo_unlink|lo_from_bytea|lo_put|pg_read_file|"
    r"pg_read_binary_file|pg_ls_dir|pg_stat_file|dblink|dblink_exec|pg_file_write|"
    r"load_extension|writefile|readfile|edit|fts3_tokenizer|sys_exec|sys_eval|"
    r"pg_advisory_lock|pg_switch_wal|pg_create_restore_point|txid_current)\s*\(",
    re.IGNORECASE,
)
_MODIFYING: Final = re.compile(r"\b(insert|update|delete|merge|into)\b", re.IGNORECASE)
_STRINGS: Final = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|`[^`]*`|\$\$.*?\$\$", re.DOTALL)
_COMMENTS: Final = re.compile(r"--[^\n]*|/\*.*?\*/|#[^\n]*", re.DOTALL)
_FILE_ARG: Final = re.compile(r"'([^']*)'")


def _statements(text: str) -> list[tuple[str, str]]:
    """``(statement with strings blanked, original)`` pairs, split on ``;``."""
    out: list[tuple[str, str]] = []
    blanked = _STRINGS.sub(lambda m: "'" + "_" * (len(m.group()) - 2) + "'", text)
    blanked = _COMMENTS.sub(lambda m: " " * len(m.group()), blanked)
    start = 0
    for i, ch in enumerate(blanked):
        if ch == ";":
            out.append((blanked[start:i], text[start:i]))
            start = i + 1
    out.append((blanked[start:], text[start:]))
    return [(b.strip(), o.strip()) for b, o in out if b.strip()]


def _meta(line: str, client: str, found: dict[str, list[str]]) -> None:
    """A meta-command of the database shell (``\\x`` in psql/mysql, ``.x`` in sqlite)."""
    word, _, rest = line.partition(" ")
    rest = rest.strip()
    name = word.lstrip("\\.").lower()
    target = rest.split()[0] if rest else ""
    if name in ("!", "shell", "system", "setenv", "e", "edit", "ef", "ev", "excel", "pager", "p"):
        found.setdefault("code", [])
    elif name in (
        "o",
        "out",
        "output",
        "once",
        "w",
        "write",
        "g",
        "gx",
        "save",
        "backup",
        "tee",
        "t",
        "lo_export",
    ):
        if target.startswith("|") or target == "-x":
            found.setdefault("code", [])
        elif target and not target.startswith("-"):
            found.setdefault("file_write", []).append(target.strip("'\""))
        elif name in ("o", "out", "output", "g", "gx", "once"):
            found.setdefault("read", [])
        else:
            found.setdefault("unknown", [])
    elif name in ("copy",):
        lowered = rest.lower()
        quoted = _FILE_ARG.findall(rest)
        if " program " in f" {lowered} ":
            found.setdefault("code", [])
        elif " to " in f" {lowered} ":
            if "stdout" in lowered or "pstdout" in lowered:
                found.setdefault("read", [])
            else:
                found.setdefault("file_write", []).extend(quoted or [target])
        else:
            found.setdefault("file_read", []).extend(quoted)
            found.setdefault("write", [])
    elif name in ("import", "lo_import"):
        if target:
            found.setdefault("file_read", []).append(target.strip("'\""))
        found.setdefault("write", [])
    elif name in (
        "i",
        "include",
        "ir",
        "include_relative",
        "read",
        "source",
        ".",
        "gexec",
        "load",
        "open",
        "restore",
    ):
        if name == "load" or (name == "read" and target.startswith("|")):
            found.setdefault("code", [])
        else:
            found.setdefault("unknown", [])  # SQL (or a database) from a file nobody has seen
    elif name in ("password", "cd", "chdir", "connect", "c") and name in ("password",):
        found.setdefault("write", [])
    else:
        found.setdefault("read", [])  # \d, \dt, \l, \x, \timing, .tables, .schema, .mode…


def effects(text: str, client: str = "psql") -> dict[str, list[str]]:
    """What ``text`` does, as ``{effect: [files]}`` (see the module docstring)."""
    found: dict[str, list[str]] = {}
    sql_lines: list[str] = []
    meta_prefix = "." if client == "sqlite3" else "\\"
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith(meta_prefix) or (client != "sqlite3" and line.startswith("\\")):
            _meta(line, client, found)
            continue
        if client in ("mysql", "mariadb") and re.match(
            r"(?i)(system|source|tee|pager|edit)\b", line
        ):
            _meta("\\" + line, client, found)
            continue
        # psql allows a meta-command after SQL on the same line: ``select 1 \g out.txt``
        if client == "psql" and " \\" in line:
            sql, _, meta = line.partition(" \\")
            sql_lines.append(sql)
            _meta("\\" + meta, client, found)
            continue
        sql_lines.append(raw)
    for blanked, original in _statements("\n".join(sql_lines)):
        words = blanked.lstrip("( ").split()
        first = words[0].lower() if words else ""
        lowered = blanked.lower()
        if _EFFECT_FUNCTIONS.search(blanked):
            found.setdefault("write", [])
            if re.search(r"(?i)\b(load_extension|sys_exec|sys_eval)\s*\(", blanked):
                found.setdefault("code", [])
        if first in ("copy",):
            if " program " in f" {lowered} ":
                found.setdefault("code", [])
            elif " to " in f" {lowered} " and "stdout" in lowered:
                found.setdefault("read", [])
            elif " to " in f" {lowered} ":
                found.setdefault("file_write", []).extend(_FILE_ARG.findall(original))
            else:
                found.setdefault("write", [])
        elif first == "do":
            found.setdefault("code", [])
        elif first in _DROP_FIRST:
            found.setdefault("drop", [])
        elif first in _WRITE_FIRST:
            found.setdefault("write", [])
        elif first == "with":
            found.setdefault("write" if _MODIFYING.search(blanked) else "read", [])
        elif first == "pragma":
            found.setdefault("write" if "=" in blanked or "(" in blanked else "read", [])
        elif first in _READ_FIRST:
            if first == "select" and re.search(r"(?i)\binto\s+(outfile|dumpfile)\b", blanked):
                found.setdefault("file_write", []).extend(_FILE_ARG.findall(original))
            elif (
                (first == "select" and re.search(r"(?i)\binto\b|\bfor\s+(update|share)\b", blanked))
                or (
                    first == "explain"
                    and re.search(r"(?i)\banaly[sz]e\b", blanked)
                    and _MODIFYING.search(blanked)
                )
                or (
                    first == "set"
                    and re.search(r"(?i)\b(global|persist|role|session\s+authorization)\b", blanked)
                )
            ):
                found.setdefault("write", [])
            else:
                found.setdefault("read", [])
        elif first == "load" or re.match(r"(?i)load\s+data", blanked):
            found.setdefault("file_read", []).extend(_FILE_ARG.findall(original))
            found.setdefault("write", [])
        else:
            found.setdefault("unknown", [])
    return found


#: redis-cli commands that only read.
REDIS_READS: Final = frozenset(
    [
        "get",
        "mget",
        "strlen",
        "getrange",
        "exists",
        "type",
        "ttl",
        "pttl",
        "keys",
        "scan",
        "sscan",
        "hscan",
        "zscan",
        "hget",
        "hgetall",
        "hkeys",
        "hvals",
        "hlen",
        "hexists",
        "hmget",
        "hstrlen",
        "lrange",
        "llen",
        "lindex",
        "smembers",
        "scard",
        "sismember",
        "smismember",
        "srandmember",
        "zrange",
        "zrangebyscore",
        "zrevrange",
        "zcard",
        "zscore",
        "zrank",
        "zrevrank",
        "zcount",
        "xrange",
        "xrevrange",
        "xlen",
        "xinfo",
        "info",
        "ping",
        "echo",
        "dbsize",
        "time",
        "lastsave",
        "role",
        "memory",
        "object",
        "pfcount",
        "bitcount",
        "getbit",
        "geopos",
        "geodist",
        "georadius_ro",
        "geosearch",
        "dump",
        "randomkey",
        "slowlog",
        "latency",
        "command",
        "client-list",
        "cluster-info",
    ]
)
