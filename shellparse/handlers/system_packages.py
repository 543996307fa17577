"""Handlers of ``knowledge/system_packages.yaml``: apt's ``-o`` hooks and configuration files."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.facts import HandlerCall


#: Words in an apt configuration key that make its value a command apt runs (the hooks), or
#: a program or method it executes instead of its own.
_APT_COMMAND_KEYS: Final = ("invoke", "install-pkgs")
_APT_CODE_KEYS: Final = ("proxyautodetect", "dir", "dpkg::path", "dpkg::options", "dpkg::tools")


def apt_option(call: HandlerCall) -> None:
    """apt's ``-o KEY=VALUE``: a ``*::Pre-Invoke``/``Post-Invoke``/``Pre-Install-Pkgs`` hook
    is a shell command apt runs (judged as one; the part is code execution); ``Dir::*``,
    ``Dpkg::Path``/``Options``/``Tools`` and proxy auto-detection scripts name programs apt
    runs (code execution). ``-c FILE`` reads a configuration that may hold hooks (code)."""
    fact = call.fact
    for opt, _, value in call.parsed.options:
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
                call.nest_shell(f"{fact.program} -o {key}", setting)
        elif key.startswith(_APT_CODE_KEYS) or "::dir" in key or "::bin" in key:
            fact.classes.add("code_exec")


#: The handlers the tables may name (``handler: system_packages.NAME``), by name: the registry
#: ``clearance.shellparse.handlers.resolve`` reads.
# fmt: off
HANDLERS: Final = {f.__name__: f for f in (
    apt_option,
)}
# fmt: on
