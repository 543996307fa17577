"""Handlers for the knowledge this module's tables cannot say in data: apt's ``-o`` hooks,
gpg's operations, task runners that run a command they are given.

Each is named by a ``Spec`` (``handler="apt_option"``) and called like the handlers of
``clearance.shellparse.handlers`` (which re-exports them), after the table was applied.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.classifier import Classifier, Nested
    from clearance.shellparse.expand import Env
    from clearance.shellparse.facts import SimpleCommandFacts
    from clearance.shellparse.options import ParsedArgs

    Args = list[str]
    Flags = list[int]


def _nested(label: str, **kwargs: object) -> Nested:
    from clearance.shellparse.classifier import Nested

    return Nested(label, **kwargs)  # type: ignore[arg-type]


#: Words in an apt configuration key that make its value a command apt runs (the hooks), or
#: a program or method it executes instead of its own.
_APT_COMMAND_KEYS = ("invoke", "install-pkgs")
_APT_CODE_KEYS = ("proxyautodetect", "dir", "dpkg::path", "dpkg::options", "dpkg::tools")


def apt_option(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """apt's ``-o KEY=VALUE``: a ``*::Pre-Invoke``/``Post-Invoke``/``Pre-Install-Pkgs`` hook
    is a shell command apt runs (judged as one; the part is code execution); ``Dir::*``,
    ``Dpkg::Path``/``Options``/``Tools`` and proxy auto-detection scripts name programs apt
    runs (code execution). ``-c FILE`` reads a configuration that may hold hooks (code)."""
    for opt, _, value in parsed.options:
        if opt is None:
            continue
        if opt.name == "--config-file":
            fact.classes.add("code_exec")
            continue
        if opt.name != "--option" or value is None:
            continue
        key, _, setting = value.partition("=")
        key = key.strip().lower().rstrip(":")
        if any(word in key for word in _APT_COMMAND_KEYS):
            fact.classes.add("code_exec")
            if setting.strip():
                nested.append(_nested(f"{fact.program} -o {key}", shell=setting))
        elif key.startswith(_APT_CODE_KEYS) or "::dir" in key or "::bin" in key:
            fact.classes.add("code_exec")


def gpg(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """gpg without an operation guesses one from its input -- decrypting, usually -- so it
    may read with the secret key: a secret read (``knowledge.crypto``)."""
    if not any(opt is not None and opt.adds for opt, _, _ in parsed.options):
        fact.classes.add("secret_read")


#: Bounds on what is read of a repository named by ``--git-dir``.
_GIT_CONFIG_BYTES = 64 * 1024
_GIT_HOOKS_LISTED = 256


def _git_config_keys(text: str) -> list[str] | None:
    """The keys (``section.subsection.name``, lower case) a git configuration file sets, or
    ``None`` when a line is not understood (fail closed)."""
    keys: list[str] = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line[0] == "[":
            end = line.find("]")
            if end < 0:
                return None
            header = line[1:end].strip()
            name, _, sub = header.partition(" ")
            sub = sub.strip()
            if sub:
                if len(sub) < 2 or sub[0] != '"' or sub[-1] != '"':
                    return None
                section = f"{name}.{sub[1:-1]}"
            else:
                section = name
            line = line[end + 1 :].strip()
            if not line or line[0] in "#;":
                continue
        if not section:
            return None
        name = line.split("=", 1)[0].strip()
        if not name or not all(ch.isalnum() or ch == "-" for ch in name):
            return None
        keys.append(f"{section}.{name}".lower())
    return keys


def plain_git_dir(path: str | None) -> bool:
    """Whether the repository at ``path`` (a ``--git-dir``, resolved) is one git can be run
    against without running anything it names: its ``config`` (read now, bounded) sets no key
    that names a program or pulls in another file, it shares no configuration through a
    ``commondir``, and its ``hooks`` holds only git's ``*.sample`` files. Anything unreadable,
    too large or not understood is not plain."""
    import os

    if not path or not os.path.isdir(path):
        return False
    from clearance.shellparse.handlers import GIT_CODE_KEYS

    try:
        if os.path.lexists(os.path.join(path, "commondir")):
            return False
        config = os.path.join(path, "config")
        if os.path.lexists(config):
            if os.path.islink(config) or os.path.getsize(config) > _GIT_CONFIG_BYTES:
                return False
            with open(config, encoding="utf-8", errors="strict") as handle:
                keys = _git_config_keys(handle.read(_GIT_CONFIG_BYTES))
            if keys is None or any(GIT_CODE_KEYS.rx.fullmatch(key) for key in keys):
                return False
        hooks = os.path.join(path, "hooks")
        if os.path.lexists(hooks):
            if os.path.islink(hooks) or not os.path.isdir(hooks):
                return False
            names = os.listdir(hooks)
            if len(names) > _GIT_HOOKS_LISTED:
                return False
            if any(not name.endswith(".sample") for name in names):
                return False
    except (OSError, UnicodeDecodeError):
        return False
    return True


def unzip(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """unzip: listing, testing and printing (``-l -t -v -Z -p``) write nothing; extracting
    writes the archive's members under ``-d`` (``shellparse.archives``)."""
    from clearance.shellparse import archives

    names = {opt.name for opt, _, _ in parsed.options if opt is not None}
    if names & {"-l", "-t", "-v", "-Z", "-p"}:
        fact.classes.discard("write")
        return
    archive = parsed.operands[0] if parsed.operands else None
    destination = next((v for o, _, v in parsed.options if o is not None and o.name == "-d"), None)
    archives.record(c, fact, archive, destination, env, "zip", c.current_cwd)


#: Options of task runners (just, go-task) that print the recipes and run none.
_TASK_LISTING = frozenset(("--list", "--summary", "--show", "--dump", "--variables"))
#: Recipe and target names that publish: a network write (``make deploy``, ``just release``).
_PUBLISHING = ("deploy", "publish", "release", "upload", "ship")


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


def task_runner(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """just / go-task: listing the recipes runs none (read only); a recipe named for
    publishing is a network write; ``--command`` is unwrapped by the table."""
    names = {opt.name for opt, _, _ in parsed.options if opt is not None}
    if names & _TASK_LISTING and "--command" not in names:
        fact.classes.discard("build")
        fact.classes.add("read_only")
        return
    if "--command" not in names:
        publishes(fact, parsed.operands)


def uv_version(
    c: Classifier,
    fact: SimpleCommandFacts,
    args: Args,
    flags: Flags,
    parsed: ParsedArgs,
    env: Env,
    nested: list[Nested],
) -> None:
    """``uv version`` prints; ``--bump`` or a new version given writes ``pyproject.toml``."""
    bumps = any(opt is not None and opt.name == "--bump" for opt, _, _ in parsed.options)
    dry = any(opt is not None and opt.name == "--dry-run" for opt, _, _ in parsed.options)
    if (bumps or parsed.operands) and not dry:
        fact.classes.add("write")
        c.add_path(fact, "pyproject.toml", "write", env, cwd=c.current_cwd)
