"""Programs known only by what they print about themselves: ``--help`` and ``--version``.

An agent often asks a tool for its version before it uses it (``kind version``,
``vim --version``). For the programs here nothing else is known: an option is an
``unknown_option``, an operand a path accessed in a way not known, a subcommand an
``unknown_program`` -- so ``vim -c '!id'``, ``nano ~/.bashrc`` or ``minikube delete`` are
judged as before, and only a lone help or version request prints (``only_prints``).

``_alone`` is a program of operands (an editor, a pager, a viewer); ``_commands`` one with
subcommands, where ``help`` and ``version`` print too. ``flags`` spells the program's own help
and version options where they differ (``pg_dump -h`` names a host, ``-V`` is its version).
"""

from __future__ import annotations

from clearance.shellparse.spec import Spec

_HELP = "-h/--help --version"


def _alone(names: str, flags: str = _HELP) -> Spec:
    """A program of operands whose only known options print its help or version."""
    return Spec(names, "", operands="unknown", flags=flags)


def _commands(names: str, flags: str = _HELP) -> Spec:
    """A program of subcommands, none of them known (``help`` and ``version`` print)."""
    return Spec(names, "", subcommands={}, flags=flags)


SPECS = [
    # editors and terminal programs
    _alone("vim|nvim|vi|gvim|vimdiff|nvi|elvis|kak|hx|micro"),
    _alone("emacs|emacsclient|nano|pico|joe|mcedit|ne"),
    _alone("tig|lazygit|gitui|fzf|sk|ranger|nnn|vifm|ncdu|bottom"),
    _alone("ctop", "-h/--help -v/--version"),
    _alone("zoxide|watchexec|dive|lldb|jupyter|ansible|ansible-playbook"),
    # build tools and language managers outside the build tables
    _commands("rake|rails|nim|nimble|autoconf|automake|libtool|pyenv|rbenv|nodenv|nvm|asdf|mise"),
    _commands("twine|buf|syft|cosign|ansible-galaxy|git-lfs"),
    # cluster, cloud and infrastructure CLIs whose subcommands are not in the tables
    _commands("kind|minikube|k3d|k9s|kustomize|skaffold|tilt|eksctl|sam|bq|crictl|ctr"),
    _commands("vagrant|packer|etcdctl|consul|nomad|boundary|waypoint|argocd|flux|istioctl"),
    # database dumps and servers: ``-h`` names a host, and an operand is a database (read
    # whole, not a file of unknown access): any operand is a program nothing is known about
    _commands("pg_dump|pg_dumpall|pg_restore|pg_ctl|initdb|mysqldump", "--help -V/--version"),
    _commands("mongodump|mongorestore", "--help --version"),
]
