"""Handlers of ``knowledge/vcs.py``: git configuration that runs programs, and the paths
and remotes of git's subcommands.
"""

from __future__ import annotations

import re

from clearance.shellparse.handlers.common import _has, _Lazy, _nested, _option_values
from clearance.shellparse.paths import resolve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.facts import HandlerCall, Nested, SimpleCommandFacts


#: git configuration keys whose value is a program git runs, or that load more configuration.
GIT_CODE_KEYS = _Lazy(
    r"""(core\.(pager|editor|sshcommand|hookspath|fsmonitor|gitproxy|askpass|
    attributesfile|excludesfile)|diff\..*\.(textconv|command)|diff\.external|
    merge\..*\.driver|filter\..*\.(clean|smudge|process)|alias\..*|credential\..*helper|
    sequence\.editor|gpg\.(.*\.)?program|pager\..*|man\..*\.(cmd|path)|web\.browser|
    browser\..*\.(cmd|path)|uploadpack\.packobjectshook|remote\..*\.(uploadpack|receivepack)|
    include\.path|includeif\..*\.path|init\.templatedir|sendemail\..*|
    interactive\.difffilter|submodule\..*\.update|protocol\..*\.allow|url\..*\.insteadof|
    core\.sshcommand|ssh\.variant|http\..*proxy.*|notes\.displayref|core\.worktree|
    safe\.directory|(merge|diff)tool\..*\.(cmd|path)|remote\..*\.vcs|
    core\.alternaterefscommand|gpg\..*(program|command)|imap\.tunnel|
    lfs\.customtransfer\..*\.path|lfs\.standalonetransferagent|help\.browser|
    instaweb\..*|core\.hookspath|uploadarchive\.allowunreachable|receive\.procreceiverefs)""",
    re.VERBOSE,
)


#: Keys that send the repository (or its credentials) somewhere else: the next push, fetch
#: or pull talks to whatever they name.
GIT_REDIRECT_KEYS = _Lazy(
    r"remote\..*\.(url|pushurl|proxy|mirror)|url\..*\.(insteadof|pushinsteadof)|"
    r"branch\..*\.(remote|pushremote|merge)|remote\.pushdefault|http\.(.*\.)?(proxy|sslcainfo)|"
    r"credential\..*\.(username|usehttppath)|push\.default"
)


_GIT_SHELL_KEYS = _Lazy(
    r"(core\.(pager|editor|sshcommand|fsmonitor|gitproxy|askpass)|sequence\.editor|"
    r"diff\.external|diff\..*\.(textconv|command)|merge\..*\.driver|"
    r"filter\..*\.(clean|smudge|process)|credential\..*helper|pager\..*|"
    r"uploadpack\.packobjectshook|interactive\.difffilter)"
)


def _git_config_value(key: str, value: str, fact: SimpleCommandFacts, nested: list[Nested]) -> None:
    key = key.lower()
    if GIT_REDIRECT_KEYS.rx.fullmatch(key):
        fact.classes.add("network")  # where the next push or fetch goes
    if not GIT_CODE_KEYS.rx.fullmatch(key):
        return
    fact.classes.add("code_exec")
    fact.markers.add("env_code")
    command = None
    if key.startswith("alias."):
        if value.startswith("!"):
            command = value[1:]
    elif key.startswith(("submodule.", "credential")) and value.startswith("!"):
        command = value[1:]
    elif _GIT_SHELL_KEYS.rx.fullmatch(key):
        command = value
    if command:
        nested.append(_nested(f"git config {key}", shell=command))


def git_global(call: HandlerCall) -> None:
    """``git -c key=value …``: configuration given on the command line, before the
    subcommand; keys that name programs make git run them."""
    c, fact, parsed, env, nested = call.classifier, call.fact, call.parsed, call.env, call.nested
    for opt, spelling, value in parsed.options:
        if opt is not None and opt.name == "-c" and value:
            key, _, setting = value.partition("=")
            _git_config_value(key, setting, fact, nested)
        elif spelling.startswith("--config-env"):
            fact.classes.add("code_exec")
        elif opt is not None and opt.name == "--git-dir" and value:
            # the repository's configuration (pager, hooks, fsmonitor…) is read from there
            where = resolve(value, env.cwd, c.home)
            if not c.workspace or where != c.workspace.rstrip("/") + "/.git":
                fact.classes.add("code_exec")
                fact.markers.add("env_code")
    cwd = env.cwd if c.current_cwd is None else c.current_cwd
    if cwd and c.workspace and _embedded_repository(cwd, c.workspace):
        fact.classes.add("code_exec")
        fact.markers.add("env_code")


def _embedded_repository(cwd: str, workspace: str) -> bool:
    """Whether git run in ``cwd`` would take its configuration from a repository inside the
    workspace other than the workspace's own: a ``.git`` directory below the root (a repository
    written or unpacked by the agent, whose config may name a pager, hooks or an fsmonitor), or
    a ``gitdir:`` file pointing anywhere but the root repository's submodules."""
    import os

    root = workspace.rstrip("/")
    if not root or not cwd.startswith(root + "/"):
        return False
    here = cwd.rstrip("/")
    for _ in range(64):
        if here == root or not here.startswith(root + "/"):
            return False
        marker = here + "/.git"
        try:
            if os.path.isdir(marker):
                return True
            if os.path.isfile(marker):
                with open(marker, encoding="utf-8", errors="replace") as handle:
                    line = handle.readline(4096).strip()
                target = line[len("gitdir:") :].strip() if line.startswith("gitdir:") else ""
                where = resolve(target, here, "/") if target else None
                return where is None or not where.startswith(root + "/.git/modules/")
        except OSError:
            return True
        here = here.rsplit("/", 1)[0]
    return True


def git_config(call: HandlerCall) -> None:
    fact, parsed, nested = call.fact, call.parsed, call.nested
    reading = _has(
        fact,
        "--get",
        "--get-all",
        "--get-regexp",
        "--list",
        "-l",
        "--show-origin",
        "--get-urlmatch",
        "--name-only",
        "--show-scope",
    )
    operands = list(parsed.operands)
    if operands and operands[0] in ("get", "list"):
        reading = True
    if operands and operands[0] in ("set", "unset", "rename-section", "remove-section", "edit"):
        operands = operands[1:]
        reading = False
    if reading or (
        len(operands) < 2
        and not _has(fact, "--unset", "--unset-all", "--edit", "-e", "--add", "--replace-all")
    ):
        return
    fact.classes.add("vcs_write")
    if _has(fact, "--global", "--system", "--file", "-f"):
        fact.classes.add("system")
    if len(operands) >= 2:
        _git_config_value(operands[0], operands[1], fact, nested)


def git_clean(call: HandlerCall) -> None:
    """Without pathspecs, ``git clean`` works on the whole directory it runs in."""
    c, fact, parsed, env = call.classifier, call.fact, call.parsed, call.env
    if not parsed.operands:
        c.add_path(fact, ".", "delete", env, cwd=c.current_cwd)
    if _has(fact, "--dry-run"):
        fact.classes.discard("delete")
        fact.classes.discard("vcs_destructive")
        for path in fact.paths:
            if path.access == "delete":
                path.access = "read"


def git_replace(call: HandlerCall) -> None:
    """``git replace A B`` makes every command see B where A is; ``-l`` or nothing lists."""
    fact, parsed = call.fact, call.parsed
    if _has(fact, "--list") or not parsed.operands:
        fact.classes.difference_update(("vcs_write", "vcs_destructive"))
        fact.classes.add("vcs_read")


def git_grep(call: HandlerCall) -> None:
    """``git grep PATTERN PATH…``: paths are searched inside the repository, except with
    ``--no-index`` (or outside a repository), where any file or tree is read."""
    c, fact, parsed, env = call.classifier, call.fact, call.parsed, call.env
    operands = parsed.operands
    patterns = _option_values(parsed, "-e", "-f")
    paths = operands if patterns else operands[1:]
    for value in paths:
        c.add_path(fact, value, "read", env, cwd=c.current_cwd, tree=True)


def git_symbolic_ref(call: HandlerCall) -> None:
    """``git symbolic-ref HEAD refs/heads/x`` points HEAD elsewhere (one operand reads)."""
    fact, parsed = call.fact, call.parsed
    if len(parsed.operands) >= 2:
        fact.classes.update(("vcs_write", "vcs_destructive"))


def git_revision_paths(call: HandlerCall) -> None:
    """Files read out of the repository: ``REV:PATH`` operands (``git show HEAD:.env``) and
    paths after ``--`` -- a secret committed once is still a secret."""
    c, fact, args, parsed, env = call.classifier, call.fact, call.args, call.parsed, call.env
    after_dashes = args[args.index("--") + 1 :] if "--" in args else []
    if _has(fact, "--no-index"):
        # ``git diff --no-index A B`` compares two files anywhere: it reads them both
        for value in parsed.operands:
            c.add_path(fact, value, "read", env, cwd=c.current_cwd)
        return
    for value in parsed.operands:
        rev, colon, path = value.partition(":")
        if colon and path and not rev.startswith(("http", "git@")) and "/" not in rev:
            c.add_path(fact, path, "read", env, source="revision", cwd=c.current_cwd)
        elif value in after_dashes:
            c.add_path(fact, value, "read", env, cwd=c.current_cwd)


def git_checkout(call: HandlerCall) -> None:
    fact, args, parsed = call.fact, call.args, call.parsed
    discards = "--" in args or "." in parsed.operands or _has(fact, "-f", "--force")
    if fact.subcommand and fact.subcommand.endswith("restore"):
        discards = bool(parsed.operands) and not (
            _has(fact, "--staged", "-S") and not _has(fact, "--worktree", "-W")
        )
    if discards:
        fact.classes.add("vcs_destructive")


def git_push(call: HandlerCall) -> None:
    fact, parsed = call.fact, call.parsed
    for refspec in parsed.operands[1:]:
        if refspec.startswith(("+", ":")):
            fact.classes.add("vcs_destructive")


def git_clone(call: HandlerCall) -> None:
    c, fact, parsed, env, nested = call.classifier, call.fact, call.parsed, call.env, call.nested
    for value in _option_values(parsed, "--config", "-c"):
        key, _, setting = value.partition("=")
        _git_config_value(key, setting, fact, nested)
    if len(parsed.operands) == 1:
        url = parsed.operands[0].rstrip("/")
        name = url.rsplit("/", 1)[-1].rsplit(":", 1)[-1]
        name = name[:-4] if name.endswith(".git") else name
        if name:
            c.add_path(fact, name, "write", env)
