"""Handlers of ``knowledge/build.yaml``: what ``make``, Maven, Gradle and ``cmake -E`` run, and
check-only runs of formatters and linters.
"""

from __future__ import annotations

from clearance.shellparse.expand import DYNAMIC
from clearance.shellparse.handlers.common import Lazy, word_set

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.facts import HandlerCall, SimpleCommandFacts


#: Options that make a formatter report instead of rewriting (canonical spellings).
_CHECK_OPTIONS: Final = (
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


def response_files(call: HandlerCall) -> None:
    """``gcc @FILE``, ``javac @argfile``, ``ld @FILE``: the file's words are more arguments,
    read at run time -- options this line does not show (``-fplugin=x.so``, ``-wrapper``), so
    judged as an unknown option; the file itself is read."""
    for value in call.parsed.operands:
        if value.startswith("@") and len(value) > 1:
            call.fact.markers.add("unknown_option")
            call.add_path(value[1:], "read", source="option")


#: javac's options that name where annotation processors are looked for.
_JAVAC_PROCESSOR_PATHS: Final = ("-processorpath", "--processor-path", "--processor-module-path")
_JAVAC_CLASS_PATHS: Final = ("-cp", "-classpath", "--class-path", "-p", "--module-path")
_JAVAC_SOURCE_PATHS: Final = ("-sourcepath", "--source-path")


def javac(call: HandlerCall) -> None:
    """``javac -cp lib/a.jar:lib/b Main.java``: the class, module and source paths are read,
    each entry of the list; a processor path -- and a class or module path unless
    ``-proc:none`` -- is where the annotation processors that run during the compile come
    from, so one from outside the workspace is code (``_reads_code_from_outside``)."""
    response_files(call)
    found: set[str] = set()
    for options, runs in (
        (_JAVAC_PROCESSOR_PATHS, True),
        (_JAVAC_CLASS_PATHS, not call.has("-proc:none")),
        (_JAVAC_SOURCE_PATHS, False),
    ):
        # one value per option given, whatever its spelling (``-cp`` or ``-classpath``)
        for value in call.values(*options):
            # ``lib/*``: every jar in lib
            entries = [e.removesuffix("/*") or "/" for e in value.split(":") if e]
            for entry in entries:
                call.add_path(entry, "read", source="option")
            if runs:
                found.update(entries)
    _reads_code_from_outside(call, found)


def check_only(call: HandlerCall) -> None:
    fact = call.fact
    if call.has(*_CHECK_OPTIONS):
        fact.classes.discard("write")
        for path in fact.paths:
            if path.access == "write" and path.source == "argument":
                path.access = "read"


#: make variables whose value is the program that runs every recipe line.
_MAKE_SHELL_VARIABLES: Final = frozenset(("SHELL", "MAKESHELL", ".SHELLFLAGS", "MAKEFLAGS"))


#: make variables whose value is a program the recipes run (GNU make's implicit rules and
#: the conventions of Makefiles): ``make CC=clang`` runs clang.
_MAKE_COMMAND_VARIABLES: Final = frozenset(
    (
        "CC",
        "CXX",
        "CPP",
        "FC",
        "F77",
        "LD",
        "AR",
        "AS",
        "RANLIB",
        "STRIP",
        "NM",
        "OBJCOPY",
        "OBJDUMP",
        "LEX",
        "YACC",
        "M4",
        "RM",
        "INSTALL",
        "MAKE",
        "PYTHON",
        "PYTHON3",
        "PERL",
        "RUBY",
        "NODE",
        "NPM",
        "GO",
        "CARGO",
        "RUSTC",
        "JAVA",
        "JAVAC",
        "DOCKER",
        "SED",
        "AWK",
    )
)
#: A make function call, a variable reference or a shell operator in a variable's value.
_MAKE_EXPANDED: Final = Lazy(r"\$[({]|`|[;|&<>]|\$\$")


#: Names of the standard input: a makefile read from there is text nobody reviewed.
_STDIN_NAMES: Final = frozenset(("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"))


def runs_what_it_reads(call: HandlerCall) -> None:
    """A test run (or a build) executes the files it is given -- test modules and the
    ``conftest.py`` beside them, a makefile, a configuration that names plugins. Given from
    outside the workspace (``pytest /tmp/x``, ``make -f ~/x.mk``), or from where the text does
    not say, they are code nobody vouches for."""
    _reads_code_from_outside(call, None)


def configuration_runs(call: HandlerCall) -> None:
    """A linter's configuration names plugins it loads and runs (mypy's ``plugins``, pylint's
    ``load-plugins``, an ``eslint.config.js`` or ``prettier.config.js`` is code itself): one
    given by an option from outside the workspace, or from where the text does not say
    (``eslint -c /tmp/x.js .``), is code nobody vouches for. The files it checks are only
    read (``eslint ../other/src`` is a read)."""
    fact = call.fact
    for path in fact.paths:
        if (
            path.source == "option"
            and path.access == "read"
            and not path.meta
            and path.inside_workspace is not True
        ):
            fact.classes.add("code_exec")
            return


def go_test(call: HandlerCall) -> None:
    """``go test DIR``: a package given by a directory (``./pkg``, ``/tmp/x/...``) is a
    read of it, and ``runs_what_it_reads``; an import path is a module's package."""
    for value, dynamic in call.operands():
        if value.startswith(("/", ".", "~")) or dynamic:
            call.add_path(value.removesuffix("/...") or "/", "read", dynamic=dynamic)
    runs_what_it_reads(call)


def go_fmt(call: HandlerCall) -> None:
    """``go fmt ./pkg``: a package given by a directory is rewritten in it."""
    for value, dynamic in call.operands():
        if value.startswith(("/", ".", "~")) or dynamic:
            call.add_path(value.removesuffix("/...") or "/", "write", dynamic=dynamic)


def make(call: HandlerCall) -> None:
    """``make VAR=value`` overrides the Makefile; ``SHELL=prog`` runs every recipe with it.
    A target named for publishing (``deploy``, ``release``) is a network write. A makefile
    read from the standard input or from outside the workspace is code nobody vouches for."""
    fact, operands = call.fact, call.parsed.operands
    if any(value in _STDIN_NAMES for value in call.values("--file")):
        fact.classes.add("code_exec")
        fact.markers.add("stdin_code")
    runs_what_it_reads(call)
    if not call.has("--just-print"):
        publishes(fact, operands)
    for value in operands:
        name, eq, setting = value.partition("=")
        if eq and _MAKE_EXPANDED.rx.search(setting):
            # ``make V='$(shell rm -rf ~)'``: make expands the value (and the recipes paste
            # it into shell lines), so a function call or a shell operator in it is code
            fact.classes.add("code_exec")
        words = setting.split()
        # ``make CC='sh -c …'``, ``RM='rm -rf ~'``: the recipes run the value as a command
        # (with arguments of their own after it); a bare program name (``CC=clang``,
        # ``PYTHON=python3``) is what the Makefile runs anyway
        command = eq and name.strip() in _MAKE_COMMAND_VARIABLES
        if command and words and (len(words) > 1 or "/" in words[0]):
            call.nest_shell(f"make {name.strip()}=", setting)
        if eq and name.strip() in _MAKE_SHELL_VARIABLES:
            fact.markers.add("env_code")
            fact.classes.add("code_exec")
            if name.strip() in ("SHELL", "MAKESHELL") and setting:
                call.add_path(setting, "exec")


def _goals(call: HandlerCall, runs: Lazy, publishing: Lazy) -> None:
    """A build tool's goals or tasks (its operands): those ``runs`` matches run the
    application or a program (code), those ``publishing`` matches deploy or release (network
    writes)."""
    classes = call.fact.classes
    for goal in call.parsed.operands:
        if runs.rx.search(goal):
            classes.add("code_exec")
        if publishing.rx.search(goal):
            classes.update(("network", "network_write"))


#: Maven goals that run a program or the application (``exec:exec``, ``spring-boot:run``) and
#: those that publish.
_MAVEN_RUNS: Final = Lazy(r"^(?:exec|antrun|groovy|gplus|jshell):|:(?:run|dev|start|exec|execute)$")


_MAVEN_PUBLISHES: Final = Lazy(
    r"^(?:deploy|release:|site-deploy|jib:build$|deploy:|gpg:sign-and-deploy)"
)


def maven(call: HandlerCall) -> None:
    """Goals and phases: plugins that run programs are code; deploy/release publish.
    ``-Dexec.executable=…`` / ``-Dexec.args`` name the program ``exec:exec`` runs."""
    _goals(call, _MAVEN_RUNS, _MAVEN_PUBLISHES)
    _build_file_outside(call, "--file")
    for value in call.values("--define"):
        if value.startswith(("exec.", "maven.repo", "altDeploymentRepository")):
            call.fact.classes.add("code_exec")


_GRADLE_RUNS: Final = Lazy(
    r"(?:^|:)(?:run|bootRun|exec|javaExec|runShadow|appRun|jettyRun|quarkusDev)$"
)


_GRADLE_PUBLISHES: Final = Lazy(r"(?:^|:)(?:publish\w*|uploadArchives|deploy\w*|release\w*|jib)$")


def gradle(call: HandlerCall) -> None:
    """Tasks that run the application are code; publishing tasks are network writes; a dry
    run (``-m``) only lists the tasks."""
    _goals(call, _GRADLE_RUNS, _GRADLE_PUBLISHES)
    _build_file_outside(call, "--settings-file")


def _build_file_outside(call: HandlerCall, *options: str) -> None:
    """A build definition given from outside the workspace (``mvn -f /tmp/x/pom.xml``,
    ``gradle -b ~/x.gradle``), or from where the text does not say, is code nobody vouches
    for: its plugins and tasks run."""
    _reads_code_from_outside(call, set(call.values(*options)))


def _reads_code_from_outside(call: HandlerCall, named: set[str] | None) -> None:
    """Code, where the part reads a file from outside the workspace (or from where the text
    does not say) and runs it: among ``named`` (the values of the options that name it), or
    any file it reads (``None``)."""
    fact = call.fact
    for path in fact.paths:
        if (
            path.access == "read"
            and not path.meta
            and path.inside_workspace is not True
            and (named is None or path.path in named)
        ):
            fact.classes.add("code_exec")
            return


#: ``cmake -E`` commands: what each does to its operands.
_CMAKE_E_DELETE: Final = word_set("rm remove remove_directory")
_CMAKE_E_WRITE: Final = word_set(
    "make_directory touch touch_nocreate create_symlink create_hardlink"
)
_CMAKE_E_READ: Final = word_set(
    "echo echo_append cat compare_files md5sum sha1sum sha256sum sha512sum capabilities "
    "environment sleep true false help"
)


def cmake_tool(call: HandlerCall) -> None:
    """``cmake -E CMD …``: a portable command set. ``env``/``chdir``/``time`` run a command
    (unwrapped); ``rm``/``copy``/``tar``… act on their operands; one not known is code."""
    args, flags = call.args, call.flags
    if "-E" not in args:
        return
    at = args.index("-E") + 1
    if at >= len(args):
        return
    command, rest, rest_flags = args[at], args[at + 1 :], flags[at + 1 :]
    words = [
        (a, bool(f & DYNAMIC))
        for a, f in zip(rest, rest_flags, strict=False)
        if not a.startswith("-")
    ]
    if command == "env":
        k = 0
        while k < len(rest) and (rest[k].startswith("-") or "=" in rest[k]):
            k += 1
        if k < len(rest):
            call.nest_argv("cmake -E env", rest[k:], rest_flags[k:])
    elif command in ("chdir", "time") and rest:
        start = 1 if command == "chdir" else 0
        if command == "chdir":
            call.add_path(rest[0], "read")
        if start < len(rest):
            call.nest_argv(f"cmake -E {command}", rest[start:], rest_flags[start:])
    elif command in _CMAKE_E_DELETE:
        for value, dynamic in words:
            call.add_path(value, "delete", dynamic=dynamic)
    elif command in _CMAKE_E_WRITE:
        for value, dynamic in words:
            call.add_path(value, "write", dynamic=dynamic)
    elif command.startswith(("copy", "rename")) and words:
        for value, dynamic in words[:-1]:
            call.add_path(value, "read", dynamic=dynamic)
            if command == "rename":
                call.add_path(value, "delete", dynamic=dynamic)
        call.add_path(words[-1][0], "write", dynamic=words[-1][1])
    elif command in _CMAKE_E_READ:
        for value, dynamic in words:
            if "/" in value or "." in value:
                call.add_path(value, "read", dynamic=dynamic)
    else:
        # tar, server, a command not listed: what it does is not known
        call.fact.classes.add("code_exec")


#: Options of task runners (just, go-task) that print the recipes and run none.
_TASK_LISTING: Final = frozenset(("--list", "--summary", "--show", "--dump", "--variables"))
#: Recipe and target names that publish: a network write (``make deploy``, ``just release``).
_PUBLISHING: Final = ("deploy", "publish", "release", "upload", "ship")


def publishes(fact: SimpleCommandFacts, targets: list[str]) -> None:
    """Recipes or targets named for publishing (``deploy``, ``publish:npm``, ``release-prod``)
    send the project somewhere: network writes, whatever else they do."""
    for target in targets:
        if "=" in target:
            continue  # ``make VAR=value``
        name = target.lower()
        if any(name == p or name.startswith((p + ":", p + "-", p + "_")) for p in _PUBLISHING):
            fact.classes.update(("network", "network_write"))
            return


def task_runner(call: HandlerCall) -> None:
    """just / go-task: listing the recipes runs none (read only); a recipe named for
    publishing is a network write; ``--command`` is unwrapped by the table."""
    fact, parsed = call.fact, call.parsed
    names = {opt.name for opt, _, _ in parsed.options if opt is not None}
    if names & _TASK_LISTING and "--command" not in names:
        fact.classes.discard("build")
        fact.classes.add("read_only")
        return
    if "--command" not in names:
        publishes(fact, parsed.operands)


#: The handlers the tables may name (``handler: build.NAME``), by name: the registry
#: ``clearance.shellparse.handlers.resolve`` reads.
# fmt: off
HANDLERS: Final = {f.__name__: f for f in (
    check_only, cmake_tool, configuration_runs, go_fmt, go_test, gradle, javac, make, maven,
    response_files, runs_what_it_reads, task_runner,
)}
# fmt: on
