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
