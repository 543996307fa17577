"""Handlers of ``knowledge/build.py``: what ``make``, Maven, Gradle and ``cmake -E`` run, and
check-only runs of formatters and linters.
"""

from __future__ import annotations

from clearance.shellparse.expand import DYNAMIC
from clearance.shellparse.handlers.common import _has, _Lazy, _nested, _option_values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.facts import HandlerCall


#: Options that make a formatter report instead of rewriting (canonical spellings).
_CHECK_OPTIONS = (
    "--check",
    "--check-only",
    "--diff",
    "-d",
    "-l",
    "--list",
    "-n",
    "--dry-run",
    "--list-different",
    "--lint",
    "--verify",
)


def check_only(call: HandlerCall) -> None:
    fact = call.fact
    if _has(fact, *_CHECK_OPTIONS):
        fact.classes.discard("write")
        for path in fact.paths:
            if path.access == "write" and path.source == "argument":
                path.access = "read"


#: make variables whose value is the program that runs every recipe line.
_MAKE_SHELL_VARIABLES = frozenset(("SHELL", "MAKESHELL", ".SHELLFLAGS", "MAKEFLAGS"))


def make(call: HandlerCall) -> None:
    """``make VAR=value`` overrides the Makefile; ``SHELL=prog`` runs every recipe with it."""
    c, fact, parsed, env = call.classifier, call.fact, call.parsed, call.env
    for value in parsed.operands:
        name, eq, setting = value.partition("=")
        if eq and name.strip() in _MAKE_SHELL_VARIABLES:
            fact.markers.add("env_code")
            fact.classes.add("code_exec")
            if name.strip() in ("SHELL", "MAKESHELL") and setting:
                c.add_path(fact, setting, "exec", env, source="argument")


#: Maven goals that run a program or the application (``exec:exec``, ``spring-boot:run``) and
#: those that publish.
_MAVEN_RUNS = _Lazy(r"^(?:exec|antrun|groovy|gplus|jshell):|:(?:run|dev|start|exec|execute)$")


_MAVEN_PUBLISHES = _Lazy(r"^(?:deploy|release:|site-deploy|jib:build$|deploy:|gpg:sign-and-deploy)")


def maven(call: HandlerCall) -> None:
    """Goals and phases: plugins that run programs are code; deploy/release publish.
    ``-Dexec.executable=…`` / ``-Dexec.args`` name the program ``exec:exec`` runs."""
    fact, parsed = call.fact, call.parsed
    for goal in parsed.operands:
        if _MAVEN_RUNS.rx.search(goal):
            fact.classes.add("code_exec")
        if _MAVEN_PUBLISHES.rx.match(goal):
            fact.classes.update(("network", "network_write"))
    for value in _option_values(parsed, "--define"):
        if value.startswith(("exec.", "maven.repo", "altDeploymentRepository")):
            fact.classes.add("code_exec")


_GRADLE_RUNS = _Lazy(r"(?:^|:)(?:run|bootRun|exec|javaExec|runShadow|appRun|jettyRun|quarkusDev)$")


_GRADLE_PUBLISHES = _Lazy(r"(?:^|:)(?:publish\w*|uploadArchives|deploy\w*|release\w*|jib)$")


def gradle(call: HandlerCall) -> None:
    """Tasks that run the application are code; publishing tasks are network writes; a dry
    run (``-m``) only lists the tasks."""
    fact, parsed = call.fact, call.parsed
    for task in parsed.operands:
        if _GRADLE_RUNS.rx.search(task):
            fact.classes.add("code_exec")
        if _GRADLE_PUBLISHES.rx.search(task):
            fact.classes.update(("network", "network_write"))


#: ``cmake -E`` commands: what each does to its operands.
_CMAKE_E_DELETE = frozenset(("rm", "remove", "remove_directory"))


_CMAKE_E_WRITE = frozenset(
    ("make_directory", "touch", "touch_nocreate", "create_symlink", "create_hardlink")
)


_CMAKE_E_READ = frozenset(
    (
        "echo",
        "echo_append",
        "cat",
        "compare_files",
        "md5sum",
        "sha1sum",
        "sha256sum",
        "sha512sum",
        "capabilities",
        "environment",
        "sleep",
        "true",
        "false",
        "help",
    )
)


def cmake_tool(call: HandlerCall) -> None:
    """``cmake -E CMD …``: a portable command set. ``env``/``chdir``/``time`` run a command
    (unwrapped); ``rm``/``copy``/``tar``… act on their operands; one not known is code."""
    c, fact, args, flags, env, nested = (
        call.classifier,
        call.fact,
        call.args,
        call.flags,
        call.env,
        call.nested,
    )
    if "-E" not in args:
        return
    at = args.index("-E") + 1
    if at >= len(args):
        return
    command, rest, rest_flags = args[at], args[at + 1 :], flags[at + 1 :]
    words = [(a, f) for a, f in zip(rest, rest_flags, strict=False) if not a.startswith("-")]
    if command == "env":
        k = 0
        while k < len(rest) and (rest[k].startswith("-") or "=" in rest[k]):
            k += 1
        if k < len(rest):
            nested.append(_nested("cmake -E env", argv=rest[k:], flags=rest_flags[k:]))
    elif command in ("chdir", "time") and rest:
        start = 1 if command == "chdir" else 0
        if command == "chdir":
            c.add_path(fact, rest[0], "read", env)
        if start < len(rest):
            nested.append(
                _nested(f"cmake -E {command}", argv=rest[start:], flags=rest_flags[start:])
            )
    elif command in _CMAKE_E_DELETE:
        for value, flag in words:
            c.add_path(fact, value, "delete", env, dynamic=bool(flag & DYNAMIC))
    elif command in _CMAKE_E_WRITE:
        for value, flag in words:
            c.add_path(fact, value, "write", env, dynamic=bool(flag & DYNAMIC))
    elif command.startswith(("copy", "rename")) and words:
        for value, flag in words[:-1]:
            c.add_path(fact, value, "read", env, dynamic=bool(flag & DYNAMIC))
            if command == "rename":
                c.add_path(fact, value, "delete", env, dynamic=bool(flag & DYNAMIC))
        c.add_path(fact, words[-1][0], "write", env, dynamic=bool(words[-1][1] & DYNAMIC))
    elif command in _CMAKE_E_READ:
        for value, flag in words:
            if "/" in value or "." in value:
                c.add_path(fact, value, "read", env, dynamic=bool(flag & DYNAMIC))
    else:
        # tar, server, a command not listed: what it does is not known
        fact.classes.add("code_exec")
