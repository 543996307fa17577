"""Handlers of ``knowledge/network.yaml``: what ``curl`` sends, ``ssh``/``scp``/``rsync``
remotes and remote commands, ``netcat``, database clients, ``gh api``.
"""

from __future__ import annotations

import re

from clearance.shellparse.facts import SCP_TARGET
from clearance.shellparse.handlers.common import Lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.facts import HandlerCall


def gh_api(call: HandlerCall) -> None:
    """``gh api``: a GET unless a method is named (``-X``, ``-XPATCH``, ``--method=PUT``, a
    method-override header) or a field or a body is sent, which makes it a POST."""
    fact = call.fact
    method = ""
    sends = False
    for opt, _, value in call.parsed.options:
        name = opt.name if opt is not None else ""
        if name == "--method":
            method = (value or "").upper()
        elif name in ("--field", "--raw-field", "--input"):
            sends = True
        elif name == "--header" and (value or "").lower().lstrip().startswith("x-http-method"):
            method = "POST"  # an override header names another method than the request's
    if not method:
        method = "POST" if sends else "GET"
    fact.classes.add("vcs_read" if method == "GET" else "vcs_write")
    fact.classes.add("network_read" if method in ("GET", "HEAD") else "network_write")
    for value in call.values("--field"):
        if "=@" in value:  # ``-F body=@file``: the file is sent
            call.add_path(value.split("=@", 1)[1], "read", source="option")
    if method == "DELETE":
        fact.classes.add("vcs_destructive")


def database(call: HandlerCall) -> None:
    """Database clients: where they connect, and what the statements they are given do.

    SQL and meta-commands given on the command line, or on a standard input whose text is
    known, are read (``clearance.shellparse.sql``): reads are reads, writes and DDL writes,
    meta-commands that run programs code, files they write or read paths. SQL from a file or
    from an input nobody has seen is ``unknown``; so is an interactive session."""
    fact, parsed = call.fact, call.parsed
    from clearance.shellparse import sql

    for value in call.values("--host", "-h"):
        call.add_host(value + ":")
    program = fact.program or ""
    found: dict[str, list[str]] = {}
    if program == "redis-cli":
        words = [w.lower() for w in parsed.operands]
        if call.values("--eval"):
            found["code"] = []
        elif words:
            first = words[0]
            name = (
                f"{first}-{words[1]}"
                if len(words) > 1 and first in ("client", "cluster")
                else first
            )
            if name in sql.REDIS_READS or (first == "config" and words[1:2] == ["get"]):
                found["read"] = []
            elif first in ("eval", "evalsha", "fcall", "function", "module", "script", "debug") or (
                first == "config" and words[1:2] == ["set"]  # dir + dbfilename: a file anywhere
            ):
                found["code"] = []
            else:
                found["write"] = []
        else:
            found["unknown"] = []
    elif program in ("mongo", "mongosh"):
        code = call.values("--eval")
        if code and all(_MONGO_READ.rx.fullmatch(x.strip().rstrip(";")) for x in code):
            found["read"] = []
        elif code or parsed.operands[1:]:
            found["code"] = []
        else:
            found["unknown"] = []
    else:
        client = "sqlite3" if program == "sqlite3" else program
        if program == "sqlite3":
            texts = [*call.values("-cmd"), *parsed.operands[1:]]
            files = call.values("-init")
        elif program == "psql":
            texts = call.values("--command")
            files = call.values("--file")
        else:
            texts = call.values("--execute")
            files = []
        for text in texts:
            for effect, names in sql.effects(text, client).items():
                found.setdefault(effect, []).extend(names)
        if files:
            found.setdefault("unknown", [])
        if not texts and not files:
            if fact.stdin_text is not None:
                found.update(sql.effects(fact.stdin_text, client))
            elif fact.stdin is not None:
                found["unknown"] = []  # SQL on an input the analysis cannot see
            elif call.has("--list", "-V", "--version"):
                found["read"] = []
            else:
                found["unknown"] = []  # an interactive session: whatever is typed
    network = "network" in fact.classes
    if "code" in found:
        fact.classes.add("code_exec")
    for name in found.get("file_write", []):
        call.add_path(name, "write")
    for name in found.get("file_read", []):
        call.add_path(name, "read")
    if "unknown" in found:
        fact.classes.add("unknown")
    writes = bool(found.keys() & {"write", "drop", "code", "file_write", "unknown"})
    if "drop" in found:
        fact.classes.add("delete")
    if writes:
        fact.classes.add("write" if "unknown" not in found else "unknown")
        if found.keys() - {"read", "unknown", "file_read"}:
            # statements given inline that change the database or run programs: code on the
            # command line, never allowed unless a rule names it
            fact.markers.add("inline_code")
        if network:
            fact.classes.add("network_write")
    elif found:
        fact.classes.add("read_only")
        if network:
            fact.classes.add("network_read")
        if program == "sqlite3" and parsed.operands:
            # only read: the database file is read, not written
            db = parsed.operands[0]
            for path in fact.paths:
                if path.path == db and path.access == "write":
                    path.access = "read"
            if not any(p.access == "write" for p in fact.paths):
                fact.classes.discard("write")


#: mongosh ``--eval`` code that only reads: ``db.users.find({…})``, ``show dbs``…
_MONGO_READ: Final = Lazy(
    r"(?:db\.(?:getCollectionNames|getName|stats|version|serverStatus|hostInfo|listCollections)"
    r"\(\s*\)|db\.(?:getCollection\(['\"][\w.-]+['\"]\)|[\w]+)\.(?:find|findOne|countDocuments|"
    r"estimatedDocumentCount|count|distinct|getIndexes|stats)\([^;]*\)(?:\.(?:limit|sort|skip|"
    r"count|toArray|pretty|explain)\([^;]*\))*|show (?:dbs|databases|collections|users|roles))"
)


_CURL_FILE_OPTIONS: Final = frozenset(
    (
        "--data",
        "--data-binary",
        "--data-ascii",
        "--data-urlencode",
        "--form",
        "--json",
        "--variable",
    )
)


#: curl options that send something besides the request line (data, files, cookies, mail).
#: Options whose ``@file`` value is read from a file: headers (sent with the request), the
#: output format (printed).
_CURL_AT_FILES: Final = frozenset(("--header", "--proxy-header", "--write-out"))


_CURL_SENDS: Final = frozenset(
    (
        *_CURL_FILE_OPTIONS,
        "--data-raw",
        "--form-string",
        "--upload-file",
        "--config",
        "--cookie",
        "--mail-rcpt",
        "--mail-from",
        "--quote",
        "--telnet-option",
        "--variable",
    )
)


_READ_SCHEMES: Final = ("http://", "https://", "ftp://", "ftps://", "file://")


def curl(call: HandlerCall) -> None:
    """Files curl sends: ``-d @file`` (``@-`` is stdin), ``-F name=@file`` / ``name=<file``,
    ``--json @file``, ``--data-urlencode name@file``. A plain GET / HEAD of http(s) or ftp
    URLs is a network read; data, uploads, another method or scheme, an option not known, a
    config file are writes."""
    fact, parsed = call.fact, call.parsed
    urls = [*parsed.operands, *call.values("--url")]
    sends = any(opt is None or opt.name in _CURL_SENDS for opt, _, _ in parsed.options)
    sends = sends or any(
        m.upper() not in ("GET", "HEAD", "OPTIONS") for m in call.values("--request")
    )
    sends = sends or any("://" in u and not u.lower().startswith(_READ_SCHEMES) for u in urls)
    fact.classes.add("network_write" if sends else "network_read")
    for opt, _, value in parsed.options:
        if opt is None or value is None:
            continue
        if opt.name in _CURL_AT_FILES:
            if value.startswith("@") and value != "@-":
                call.add_path(value[1:], "read", source="option")
                if opt.name != "--write-out":
                    fact.classes.discard("network_read")
                    fact.classes.add("network_write")
            continue
        if opt.name not in _CURL_FILE_OPTIONS:
            continue
        path: str | None = None
        if opt.name in ("--form", "--form-string"):
            content = value.split("=", 1)[1] if "=" in value else value
            if opt.name == "--form" and content.startswith(("@", "<")):
                path = content[1:].split(";")[0]
        elif opt.name in ("--data-urlencode", "--variable"):
            _, at, rest = value.partition("@")
            path = rest if at and "=" not in value.split("@", 1)[0] else None
        elif value.startswith("@"):
            path = value[1:]
        if path and path != "-":
            call.add_path(path, "read", source="option")
    for value in call.values("--cookie"):
        if "=" not in value:  # a file of cookies, not a cookie: read, and sent where it matches
            call.add_path(value, "read", source="option")


_SSH_OPTION: Final = Lazy(r"\s*([^=\s]*)(\s*=\s*|\s+|)(.*)", re.DOTALL)


def ssh(call: HandlerCall) -> None:
    fact, parsed = call.fact, call.parsed
    for _opt, spelling, value in parsed.options:
        if value is None:
            continue
        if spelling == "-o":
            # ``-o Key=value`` or ``-o 'Key value'``: whichever separator comes first
            key, _, setting = _SSH_OPTION.rx.match(value).groups()  # type: ignore[union-attr]
            if key.lower() in (
                "proxycommand",
                "localcommand",
                "knownhostscommand",
                "remotecommand",
                "match",
            ):
                fact.classes.add("code_exec")
                call.nest_shell(f"ssh -o {key}", setting)
        elif spelling in ("-L", "-R", "-D", "-W", "-w"):
            fact.classes.add("process_control")
    if len(parsed.operands) == 1:
        fact.classes.add("remote_code_exec")  # an interactive shell over there


def ssh_transfer(call: HandlerCall) -> None:
    """scp/sftp: every operand but the last is a source; ``host:path`` operands are remote."""
    fact, operands = call.fact, call.parsed.operands
    fact.paths = [p for p in fact.paths if p.path not in operands]
    tree = call.has("-r")
    for k, value in enumerate(operands):
        if _remote_operand(value):
            call.add_host(value)
        elif k == len(operands) - 1 and len(operands) > 1:
            call.add_path(value, "write")
        else:
            call.add_path(value, "read", tree=tree)


def _remote_operand(value: str) -> bool:
    return "://" in value or (
        SCP_TARGET.match(value) is not None and not value.startswith(("/", "."))
    )


def rsync(call: HandlerCall) -> None:
    """rsync: like scp (``host:path`` is remote), reading whole trees."""
    fact, operands = call.fact, call.parsed.operands
    fact.paths = [p for p in fact.paths if p.path not in operands or p.source != "argument"]
    for k, value in enumerate(operands):
        if _remote_operand(value):
            call.add_host(value)
        elif k == len(operands) - 1 and len(operands) > 1:
            call.add_path(value, "write")
            if "delete" in fact.classes:
                call.add_path(value, "delete")
        else:
            call.add_path(value, "read", tree=True)
            if call.has("--remove-source-files"):
                call.add_path(value, "delete")
    if fact.hosts:
        fact.classes.add("network")
        # to a remote destination is an upload; from remote sources only, a fetch
        upload = len(operands) > 1 and _remote_operand(operands[-1])
        fact.classes.add("network_write" if upload else "network_read")
    if call.has("--dry-run"):
        # ``rsync -n``: lists what it would do; nothing is written or deleted (the remote
        # shell and --rsync-path still run, and were judged as commands of their own)
        for path in fact.paths:
            if path.access in ("write", "delete"):
                path.access = "read"
        fact.classes.difference_update(("write", "delete"))


def netcat(call: HandlerCall) -> None:
    """nc/ncat/socat: ``-e``/``-c`` and socat's ``EXEC:``/``SYSTEM:`` hand the connection to a
    program -- a remote shell."""
    fact, args = call.fact, call.args
    fact.paths = [p for p in fact.paths if p.source != "argument"]
    for i, arg in enumerate(args):
        if arg in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") and i + 1 < len(args):
            fact.classes.update(("code_exec", "remote_code_exec"))
            call.nest_shell(f"{fact.program} {arg}", args[i + 1])
        upper = arg.upper()
        for prefix in ("EXEC:", "SYSTEM:"):
            if upper.startswith(prefix):
                fact.classes.update(("code_exec", "remote_code_exec"))
                command = arg[len(prefix) :].split(",")[0]
                call.nest_shell(f"{fact.program} {prefix}", command)
        if upper.startswith(("TCP-LISTEN:", "UDP-LISTEN:", "OPENSSL-LISTEN:", "UNIX-LISTEN:")):
            fact.classes.add("process_control")
        elif fact.program == "socat" and upper.startswith(("OPEN:", "FILE:", "CREATE:")):
            call.add_path(arg.split(":", 1)[1].split(",")[0], "unknown")


#: The handlers the tables may name (``handler: network.NAME``), by name: the registry
#: ``clearance.shellparse.handlers.resolve`` reads.
# fmt: off
HANDLERS: Final = {f.__name__: f for f in (
    curl, database, gh_api, netcat, rsync, ssh, ssh_transfer,
)}
# fmt: on
