"""Handlers of ``knowledge/packages.yaml``: installs, ``npm run`` scripts, global installs and
``npx``.
"""

from __future__ import annotations

from clearance.shellparse.handlers.interpreters import CREDENTIAL_NAME

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.facts import HandlerCall, SimpleCommandFacts

# npm-style script names that are the project's own tests, builds and linters.
TEST_SCRIPTS: Final = frozenset(("test", "tests", "test:unit", "test:ci", "unit", "e2e", "spec"))
BUILD_SCRIPTS: Final = frozenset(
    (
        "build",
        "lint",
        "lint:fix",
        "format",
        "fmt",
        "typecheck",
        "type-check",
        "check",
        "tsc",
        "compile",
        "prettier",
        "eslint",
        "check-types",
        "verify",
        "ci",
    )
)


def pip_install(call: HandlerCall) -> None:
    """Requirements given as URLs or paths (``pip install git+https://…``, ``pip install
    ./pkg``) fetch from those hosts or build that directory's code."""
    for value in call.parsed.operands:
        spec = value.split("@", 1)[1].strip() if " @ " in value or "@ " in value else value
        target = spec.split("+", 1)[1] if spec.startswith(("git+", "hg+", "svn+", "bzr+")) else spec
        if "://" in target:
            call.add_host(target)
        elif target.startswith((".", "/", "~")) or target.endswith((".whl", ".tar.gz", ".zip")):
            call.add_path(target, "read")


def _script_classes(fact: SimpleCommandFacts, name: str) -> None:
    base = name.split(":", maxsplit=1)[0]
    if name in TEST_SCRIPTS or base == "test":
        fact.classes.add("test")
    elif name in BUILD_SCRIPTS or base in ("build", "lint", "format", "typecheck"):
        fact.classes.add("build")
    else:
        fact.classes.add("code_exec")


#: npm's configuration that names what scripts run under; npm reads it anywhere before
#: ``--``, after the script's name too (``npm run build --script-shell=./x``).
_SCRIPT_CODE: Final = ("--script-shell", "--node-options")


def _script_decides(call: HandlerCall) -> None:
    """A script's name says whether running it is a test, a build or code: the code the
    ``run`` spec stands for goes, but not code an option brought (``--script-shell PROGRAM``,
    ``--node-options "-r FILE"``: what every script then runs under), before the script's
    name or after it."""
    fact, args = call.fact, call.args
    given = args[: args.index("--")] if "--" in args else args
    brought = (
        call.has("--node-options")
        or any(p.access == "exec" for p in fact.paths)
        or any(a.partition("=")[0] in _SCRIPT_CODE for a in given)
    )
    if brought:
        fact.classes.add("code_exec")
    else:
        fact.classes.discard("code_exec")


def npm_run(call: HandlerCall) -> None:
    fact, parsed = call.fact, call.parsed
    _script_decides(call)
    if not parsed.operands:
        fact.classes.add("read_only")  # lists the scripts
        return
    _script_classes(fact, parsed.operands[0])


def npm_run_implicit(call: HandlerCall) -> None:
    fact = call.fact
    _script_decides(call)
    name = (fact.subcommand or "").split(" ")[-1]
    _script_classes(fact, name)


def npm_global(call: HandlerCall) -> None:
    """Options before the subcommand: ``-g`` makes any install system-wide; a bare ``yarn``
    installs the dependencies."""
    fact, flags, parsed = call.fact, call.flags, call.parsed
    if call.has("--global"):
        fact.classes.add("system")
    # called with the arguments before the subcommand; ``flags`` covers all of them, so a
    # parse that used them all means there is no subcommand
    if fact.program == "yarn" and parsed.rest_index >= len(flags):
        fact.classes.update(("package_install", "network"))


def npx(call: HandlerCall) -> None:
    for opt, _, value in call.parsed.options:
        if opt is not None and opt.name in ("-c", "--call") and value:
            call.nest_shell("npx -c", value)


def uv_version(call: HandlerCall) -> None:
    """``uv version`` prints; ``--bump`` or a new version given writes ``pyproject.toml``."""
    fact, parsed = call.fact, call.parsed
    bumps = any(opt is not None and opt.name == "--bump" for opt, _, _ in parsed.options)
    dry = any(opt is not None and opt.name == "--dry-run" for opt, _, _ in parsed.options)
    if (bumps or parsed.operands) and not dry:
        fact.classes.add("write")
        call.add_path("pyproject.toml", "write", cwd=call.cwd)


def config_get(call: HandlerCall) -> None:
    """``npm config get KEY``: the value of a credential key (``_authToken``, ``_password``,
    ``//registry.example/:_auth``, yarn's ``npmAuthToken``) is a secret."""
    for key in call.parsed.operands:
        if CREDENTIAL_NAME.rx.fullmatch(key.rsplit(":", 1)[-1].lstrip("_")):
            call.fact.classes.add("secret_read")


def poetry_version(call: HandlerCall) -> None:
    """``poetry version`` prints the version; given a version or a bump rule it writes it
    into pyproject.toml (not with ``--dry-run``)."""
    if call.parsed.operands and not call.has("--dry-run"):
        call.fact.classes.add("write")
        call.add_path("pyproject.toml", "write", cwd=call.cwd)


def poetry_config(call: HandlerCall) -> None:
    """``poetry config KEY VALUE`` changes poetry's configuration (the user's, or the
    project's with ``--local``); ``poetry config KEY`` prints one setting, a credential
    (``http-basic.*``, ``pypi-token.*``) among them."""
    fact, operands = call.fact, call.parsed.operands
    if len(operands) > 1:
        fact.classes.discard("read_only")
        fact.classes.add("system")
    elif operands and operands[0].startswith(("http-basic", "pypi-token", "certificates")):
        fact.classes.add("secret_read")


def npm_version(call: HandlerCall) -> None:
    """``npm version`` prints; ``npm version patch`` (any operand) rewrites package.json
    (and the lock file), commits and tags, and runs the package's ``preversion``/``version``
    /``postversion`` scripts."""
    if call.parsed.operands:
        call.fact.classes.discard("read_only")
        call.fact.classes.update(("write", "vcs_write", "code_exec"))
        call.add_path("package.json", "write", cwd=call.cwd)


#: The handlers the tables may name (``handler: packages.NAME``), by name: the registry
#: ``clearance.shellparse.handlers.resolve`` reads.
# fmt: off
HANDLERS: Final = {f.__name__: f for f in (
    config_get, npm_global, npm_run, npm_run_implicit, npm_version, npx, pip_install,
    poetry_config, poetry_version, uv_version,
)}
# fmt: on
