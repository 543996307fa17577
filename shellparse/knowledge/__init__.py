"""Program knowledge: one ``Spec`` per program, gathered from the modules of this package.

Each module holds one family (files, version control, packages, network, interpreters,
wrappers, system). ``lookup`` is the only entry point the classifier uses.
"""

from __future__ import annotations

from clearance.shellparse.knowledge import (
    build,
    files,
    interpreters,
    network,
    packages,
    system,
    vcs,
    wrappers,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.spec import Spec

PROGRAMS: dict[str, Spec] = {}
for _module in (files, vcs, packages, build, network, interpreters, wrappers, system):
    for _spec in _module.SPECS:
        for _name in _spec.name.split("|"):
            PROGRAMS[_name] = _spec

#: Environment variables that make a program run code of the variable's choosing.
DANGEROUS_VARIABLES = frozenset(
    (
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "LD_AUDIT",
        "DYLD_INSERT_LIBRARIES",
        "DYLD_LIBRARY_PATH",
        "BASH_ENV",
        "ENV",
        "PROMPT_COMMAND",
        "PS4",
        "SHELLOPTS",
        "BASHOPTS",
        "PYTHONSTARTUP",
        "PYTHONPATH",
        "PYTHONHOME",
        "PYTHONINSPECT",
        "NODE_OPTIONS",
        "NODE_PATH",
        "PERL5OPT",
        "PERL5LIB",
        "PERLLIB",
        "RUBYOPT",
        "RUBYLIB",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_EXTERNAL_DIFF",
        "GIT_ASKPASS",
        "GIT_PROXY_COMMAND",
        "GIT_EXEC_PATH",
        "GIT_TEMPLATE_DIR",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_CONFIG_COUNT",
        "GIT_CONFIG_PARAMETERS",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "PAGER",
        "MANPAGER",
        "SYSTEMD_PAGER",
        "EDITOR",
        "VISUAL",
        "BROWSER",
        "LESSOPEN",
        "LESSCLOSE",
        "IFS",
    )
)

#: Of those, the ones whose value is itself a shell command line (analysed as one).
COMMAND_STRING_VARIABLES = frozenset(
    (
        "PROMPT_COMMAND",
        "GIT_SSH_COMMAND",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_EXTERNAL_DIFF",
        "GIT_PROXY_COMMAND",
        "PAGER",
        "MANPAGER",
        "SYSTEMD_PAGER",
        "EDITOR",
        "VISUAL",
        "BROWSER",
        "LESSOPEN",
        "LESSCLOSE",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "GIT_ASKPASS",
    )
)


#: ``python -m`` modules that are not programs of their own (``http.server``, ``venv``).
MODULES: dict[str, Spec] = {}
for _spec in interpreters.MODULES:
    for _name in _spec.name.split("|"):
        MODULES[_name] = _spec


def lookup(name: str) -> Spec | None:
    return PROGRAMS.get(name)


def lookup_module(name: str) -> Spec | None:
    """What ``python -m name`` runs: a module's own spec, else the program of that name
    (``python -m pytest`` is pytest)."""
    return MODULES.get(name) or PROGRAMS.get(name)
