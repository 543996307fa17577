"""Handlers of ``knowledge/vcs.yaml``: git configuration that runs programs, and the paths
and remotes of git's subcommands.
"""

from __future__ import annotations

import os
import re

from clearance.shellparse import gitcredentials
from clearance.shellparse.handlers.common import Lazy
from clearance.shellparse.paths import resolve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from clearance.shellparse.facts import HandlerCall


#: git configuration keys whose value is a program git runs, or that load more configuration.
GIT_CODE_KEYS: Final = Lazy(
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
GIT_REDIRECT_KEYS: Final = Lazy(
    r"remote\..*\.(url|pushurl|proxy|mirror)|url\..*\.(insteadof|pushinsteadof)|"
    r"branch\..*\.(remote|pushremote|merge)|remote\.pushdefault|http\.(.*\.)?(proxy|sslcainfo)|"
    r"credential\..*\.(username|usehttppath)|push\.default"
)


_GIT_SHELL_KEYS: Final = Lazy(
    r"(core\.(pager|editor|sshcommand|fsmonitor|gitproxy|askpass)|sequence\.editor|"
    r"diff\.external|diff\..*\.(textconv|command)|merge\..*\.driver|"
    r"filter\..*\.(clean|smudge|process)|credential\..*helper|pager\..*|"
    r"uploadpack\.packobjectshook|interactive\.difffilter)"
)


def _git_config_value(call: HandlerCall, key: str, value: str) -> None:
    fact = call.fact
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
        call.nest_shell(f"git config {key}", command)


def git_global(call: HandlerCall) -> None:
    """``git -c key=value …``: configuration given on the command line, before the
    subcommand; keys that name programs make git run them."""
    c, fact, env = call.classifier, call.fact, call.env
    for opt, spelling, value in call.parsed.options:
        if opt is not None and opt.name == "-c" and value:
            key, _, setting = value.partition("=")
            _git_config_value(call, key, setting)
        elif spelling.startswith("--config-env"):
            fact.classes.add("code_exec")
        elif opt is not None and opt.name == "--git-dir" and value:
            # the repository's configuration (pager, hooks, fsmonitor…) is read from there
            where = resolve(value, env.cwd, c.home)
            own = c.workspace is not None and where == c.workspace.rstrip("/") + "/.git"
            if not own and not plain_git_dir(where):  # a bare repository read from disk
                fact.classes.add("code_exec")
                fact.markers.add("env_code")
    cwd = env.cwd if call.cwd is None else call.cwd
    if (
        cwd
        and c.workspace
        and (_embedded_repository(cwd, c.workspace) or _foreign_repository(cwd, c.workspace))
    ):
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


def _foreign_repository(cwd: str, workspace: str) -> bool:
    """Whether git run in ``cwd``, outside the workspace (``git -C /tmp/x status``,
    ``cd /tmp/x && git log``), would take its configuration from a repository that may run a
    program: the first ``.git`` above ``cwd`` (or ``cwd`` itself, a bare repository) that is
    not ``plain_git_dir`` -- its config names a pager, an fsmonitor or hooks -- or a ``gitdir:``
    file, whose repository is elsewhere. No repository there: git fails, and runs nothing."""
    import os

    root = workspace.rstrip("/")
    if not cwd.startswith("/") or cwd == root or cwd.startswith(root + "/"):
        return False  # inside the workspace: ``_embedded_repository``; not a known place
    here = cwd.rstrip("/")
    for _ in range(64):
        marker = here + "/.git"
        try:
            if os.path.isdir(marker):
                return not plain_git_dir(marker)
            if os.path.lexists(marker):
                return True
            if os.path.isfile(here + "/HEAD") and os.path.isdir(here + "/objects"):
                return not plain_git_dir(here or "/")
        except OSError:
            return True
        if not here:
            return False
        here = here.rsplit("/", 1)[0]
    return True


def git_config(call: HandlerCall) -> None:
    fact, parsed = call.fact, call.parsed
    reading = call.has(
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
    edits = call.has("--edit") or operands[:1] == ["edit"]
    if operands and operands[0] in ("get", "list"):
        reading = True
    if operands and operands[0] in ("set", "unset", "rename-section", "remove-section", "edit"):
        operands = operands[1:]
        reading = False
    if edits:
        # an editor rewrites the file: whatever it saves, code-running keys included, is
        # not in the text
        fact.classes.update(("vcs_write", "system"))
        return
    if reading or (
        len(operands) < 2
        and not call.has("--unset", "--unset-all", "--edit", "-e", "--add", "--replace-all")
    ):
        # what it prints: every entry (``--list``, ``--get-regexp``…), or one key's values
        one_key = (
            operands[0]
            if len(operands) == 1 and not call.has("--get-regexp", "--get-urlmatch")
            else None
        )
        if call.has("--name-only") and one_key is None:
            return  # the keys alone
        _prints_configuration(call, one_key)
        return
    fact.classes.add("vcs_write")
    if call.has("--global", "--system", "--file", "-f"):
        fact.classes.add("system")
    if len(operands) >= 2:
        _git_config_value(call, operands[0], operands[1])


def _prints_configuration(call: HandlerCall, key: str | None) -> None:
    """A secret read when the configuration git reads here, as this machine has it, holds a
    credential (``gitcredentials``), among ``key``'s values when one key is printed. A file
    given by ``-f`` is judged by its path; ``--blob`` is not known here."""
    c, fact = call.classifier, call.fact
    if call.has("--file", "-f") or not c.machine:
        return
    cwd = call.env.cwd if call.cwd is None else call.cwd
    if call.has("--blob") or cwd is None or gitcredentials.holds_credentials(cwd, c.home, key):
        fact.classes.add("secret_read")


def git_remote(call: HandlerCall) -> None:
    """``git remote -v``, ``get-url``, ``show``: the remotes' URLs, a secret read when one
    of them (or the ``url.<base>.insteadOf`` that rewrites it) holds a credential."""
    c, fact = call.classifier, call.fact
    if not c.machine:
        return
    cwd = call.env.cwd if call.cwd is None else call.cwd
    if cwd is None or gitcredentials.remotes_hold_credentials(cwd, c.home):
        fact.classes.add("secret_read")


def git_ls_remote(call: HandlerCall) -> None:
    """``git ls-remote --get-url`` prints a remote's URL (after ``insteadOf``), as ``git
    remote get-url`` does."""
    if call.has("--get-url"):
        git_remote(call)


def git_clean(call: HandlerCall) -> None:
    """Without pathspecs, ``git clean`` works on the whole directory it runs in."""
    fact = call.fact
    if not call.parsed.operands:
        call.add_path(".", "delete", cwd=call.cwd)
    if call.has("--dry-run"):
        fact.classes.discard("delete")
        fact.classes.discard("vcs_destructive")
        for path in fact.paths:
            if path.access == "delete":
                path.access = "read"


def git_replace(call: HandlerCall) -> None:
    """``git replace A B`` makes every command see B where A is; ``-l`` or nothing lists."""
    fact, parsed = call.fact, call.parsed
    if call.has("--list") or not parsed.operands:
        fact.classes.difference_update(("vcs_write", "vcs_destructive"))
        fact.classes.add("vcs_read")


def git_grep(call: HandlerCall) -> None:
    """``git grep PATTERN PATH…``: paths are searched inside the repository, except with
    ``--no-index`` (or outside a repository), where any file or tree is read."""
    operands = call.parsed.operands
    patterns = call.values("-e", "-f")
    paths = operands if patterns else operands[1:]
    for value in paths:
        call.add_path(value, "read", cwd=call.cwd, tree=True)


def git_symbolic_ref(call: HandlerCall) -> None:
    """``git symbolic-ref HEAD refs/heads/x`` points HEAD elsewhere (one operand reads)."""
    fact, parsed = call.fact, call.parsed
    if len(parsed.operands) >= 2:
        fact.classes.update(("vcs_write", "vcs_destructive"))


def git_revision_paths(call: HandlerCall) -> None:
    """Files read out of the repository: ``REV:PATH`` operands (``git show HEAD:.env``) and
    paths after ``--`` -- a secret committed once is still a secret."""
    args, parsed = call.args, call.parsed
    after_dashes = args[args.index("--") + 1 :] if "--" in args else []
    if call.has("--no-index"):
        # ``git diff --no-index A B`` compares two files anywhere: it reads them both
        for value in parsed.operands:
            call.add_path(value, "read", cwd=call.cwd)
        return
    _history_reads(call, after_dashes)
    printed = _printed(call, after_dashes)
    if printed is not None:
        _worktree_reads(call, printed)
        _object_reads(call, printed)
    # ``git blame [REV] FILE`` prints the file, line by line: its operands are files read
    # (a revision among them is a name that is no file)
    whole = call.fact.subcommand in ("blame", "annotate")
    for value in parsed.operands:
        rev, colon, path = value.partition(":")
        if colon and path and not rev.startswith(("http", "git@")) and "/" not in rev:
            call.add_path(path, "read", source="revision", cwd=call.cwd)
        elif value in after_dashes or whole:
            call.add_path(value, "read", cwd=call.cwd)


#: Options that make a history command print the changes themselves.
_PATCH: Final = frozenset(("--patch", "-p", "-u", "--patch-with-stat", "--patch-with-raw", "-L"))
#: The commands that print the whole history with them (``git show`` prints one commit, most
#: often not one that touched a tracked secret, and judging it so would deny every ``git
#: show`` of a project that tracks a test key; ``git diff`` prints the changes not committed
#: yet, and which tracked files changed is read from the machine: ``_worktree_reads``).
_WHOLE_HISTORY: Final = frozenset(("log", "whatchanged"))


def _prints_changes(call: HandlerCall) -> bool:
    """Whether the command prints the content of every commit it walks."""
    return (call.fact.subcommand or "") in _WHOLE_HISTORY and bool(set(call.fact.options) & _PATCH)


def _history_reads(call: HandlerCall, after_dashes: list[str]) -> None:
    """``git log -p`` over the whole repository prints what its commits hold: every secret
    the index tracks is read (the commit that added ``.env`` shows it whole). A pathspec
    (after ``--``, or an operand naming a file or directory here) narrows that to what it
    names, read as such. Secrets committed once and no longer tracked are not known here."""
    c = call.classifier
    if not c.machine or c.workspace is None or after_dashes or not _prints_changes(call):
        return
    cwd = call.cwd
    if cwd is not None and not _in_repository(cwd, c.workspace):
        return  # another repository (``git -C``)
    here = cwd if cwd is not None else call.env.cwd
    for value in call.parsed.operands:
        if ":" in value:
            return  # ``REV:PATH``: read as it says
        place = resolve(value, here, c.home) if here is not None else None
        if place is None or os.path.lexists(place):
            if place is not None:
                call.add_path(value, "read", source="revision")
            return
    from clearance.shellparse.world import tracked_secret_files

    for path in tracked_secret_files(c.workspace, c.home, c.fold):
        call.add_path(path, "read", source="revision")


#: Options after which ``git diff`` prints names and counts, no line of a file (unless a
#: ``_PATCH`` option asks for the changes too).
_NO_CONTENT: Final = frozenset(
    (
        "--stat",
        "--numstat",
        "--shortstat",
        "--name-only",
        "--name-status",
        "--summary",
        "--dirstat",
        "--dirstat-by-file",
        "--compact-summary",
        "--raw",
        "--no-patch",
        "--quiet",
    )
)


class _Printed:
    """What a ``git diff`` or ``git show`` prints the lines of, read from its words: its
    options, the pathspecs among its operands (files and directories here, each read as its
    ``--`` form is) and its revisions (a range as its two ends; ``""`` for what is not read
    here: a merge base, or every commit of a range ``git show`` walks)."""

    __slots__ = ("cached", "places", "revisions")

    def __init__(self, cached: bool, places: list[str], revisions: list[str]) -> None:
        self.cached = cached
        self.places = places
        self.revisions = revisions

    def narrowed(self, paths: list[str]) -> list[str]:
        """``paths`` under the pathspecs (all of them without one)."""
        places = self.places
        return [
            path
            for path in paths
            if not places or any(path == p or path.startswith(p + "/") for p in places)
        ]


def _printed(call: HandlerCall, after_dashes: list[str]) -> _Printed | None:
    """The ``git diff``/``git show`` of the workspace's repository that prints lines of
    files; ``None`` for another repository (``git -C``), output without the lines
    (``--stat``), paths after ``--`` and ``REV:PATH`` (read as they say)."""
    c = call.classifier
    sub = call.fact.subcommand
    if sub not in ("diff", "show") or after_dashes or "--no-index" in call.fact.options:
        return None
    options = _lines_here(call)
    if options is None:
        return None
    cwd = call.cwd
    here = cwd if cwd is not None else call.env.cwd
    places: list[str] = []
    revisions: list[str] = []
    for value in call.parsed.operands:
        if ":" in value.partition("..")[0]:
            return None
        place = resolve(value, here, c.home) if here is not None else None
        if place is not None and os.path.lexists(place):
            places.append(place.rstrip("/") or "/")
            call.add_path(value, "read", source="revision")
        elif ".." not in value:
            revisions.append(value)
        elif "..." in value or sub == "show":
            revisions += ["", ""]
        else:
            first, _, last = value.partition("..")
            revisions += [first or "HEAD", last or "HEAD"]
    return _Printed(bool(options & {"--cached", "--staged"}), places, revisions)


def _lines_here(call: HandlerCall) -> set[str] | None:
    """The options of a git command that prints lines of files (no ``--stat``-like output
    alone) in the workspace's own repository, read from the machine; ``None`` otherwise
    (another repository: ``git -C``)."""
    c = call.classifier
    options = set(call.fact.options)
    if not c.machine or c.workspace is None or (options & _NO_CONTENT and not options & _PATCH):
        return None
    cwd = call.cwd
    if cwd is not None and not _in_repository(cwd, c.workspace):
        return None
    return options


def _worktree_reads(call: HandlerCall, printed: _Printed) -> None:
    """``git diff`` and ``git diff REV`` print the working tree's changes to the tracked
    files: a tracked secret whose file changed since the index recorded it (``.env`` edited,
    or deleted) is printed, its old lines and its new. Which files changed is read from the
    index's record of each and the file's own ``stat``, as git itself first tells.
    ``--cached`` and two revisions take the working tree out."""
    c = call.classifier
    if call.fact.subcommand != "diff" or printed.cached or len(printed.revisions) > 1:
        return
    assert c.workspace is not None
    from clearance.shellparse.world import changed_in_worktree, tracked_secret_files

    secrets = printed.narrowed(tracked_secret_files(c.workspace, c.home, c.fold))
    for path in changed_in_worktree(c.workspace, secrets):
        call.add_path(path, "read", source="revision")


def _object_reads(call: HandlerCall, printed: _Printed) -> None:
    """What commits and the index hold, printed: ``git show [REV...]`` prints what each
    commit changed against its parents, ``git diff A B`` (``A..B``) what the two commits hold
    differently -- every secret among the paths that differ is read, tracked now or not (a
    ``.env`` committed once and untracked since is in both the commit that added it and the
    one that removed it). ``git diff --cached [REV]`` prints what the index holds unlike the
    commit, ``git diff REV`` what the index holds unlike REV (the working tree's own changes:
    ``_worktree_reads``): a tracked secret is read when its object differs. All of it is
    read from the repository's own objects (``gitobjects``); a side that cannot be read (a
    revision named in a way not read here, an object missing, a bound met) leaves the line
    unresolved."""
    c = call.classifier
    show = call.fact.subcommand == "show"
    revisions = printed.revisions
    if not show and not printed.cached and not revisions:
        return  # the working tree against the index: ``_worktree_reads``
    workspace = c.workspace
    assert workspace is not None
    from clearance.shellparse.gitobjects import Repository
    from clearance.shellparse.paths import is_secret
    from clearance.shellparse.world import git_directory, index_objects, tracked_secret_files

    git = git_directory(workspace)
    if git is None:
        return
    tracked = tracked_secret_files(workspace, c.home, c.fold)
    top = workspace.rstrip("/")
    repository = Repository(git)
    shown: list[str] = []
    unknown = False
    unborn = not revisions and repository.unborn()
    if show and unborn:
        return  # no commit yet: git shows nothing

    def between(old: str | None, new: str | None) -> None:
        """The secrets among what differs between two commits (``None`` ``old``: none)."""
        nonlocal unknown
        paths = None if new is None else repository.changed(old, new)
        if paths is None:
            unknown = True
            return
        found = [top + "/" + p for p in paths if is_secret(top + "/" + p, c.home, c.fold)]
        shown.extend(printed.narrowed(found))

    def commit(revision: str) -> str | None:
        return repository.commit(revision) if revision else None

    if show:
        for revision in revisions or ["HEAD"]:
            mine = commit(revision)
            parents = None if mine is None else repository.parents(mine)
            if mine is None or parents is None:
                unknown = True
                continue
            if not parents:
                between(None, mine)  # a root: every file it holds is added
            for parent in parents:
                between(parent, mine)
    elif len(revisions) > 2 or (printed.cached and len(revisions) > 1):
        unknown = True
    elif len(revisions) == 2:
        older = commit(revisions[0])
        if older is None:
            unknown = True
        else:
            between(older, commit(revisions[1]))
    else:  # the index against a commit (``--cached``: HEAD by default)
        secrets = printed.narrowed(tracked)
        staged = index_objects(workspace, secrets) if secrets else {}
        against = commit(revisions[0] if revisions else "HEAD") if secrets else None
        for path in secrets:
            if unborn:
                committed: str | None = ""  # the index against nothing: all of it is new
            elif against is None:
                committed = None
            else:
                committed = repository.blob_at(against, path[len(top) + 1 :])
            if staged is None or committed is None:
                unknown = True
            elif staged[path] != committed:
                shown.append(path)
    for path in dict.fromkeys(shown):
        call.add_path(path, "read", source="revision")
    # What could not be read is unknown where the index tracks a secret; in a repository
    # that tracks none, only a secret committed once and untracked since could be printed,
    # and asking of every three-dot diff of every repository for that would ask of what is
    # plainly a review of a branch (``git diff main...HEAD``): those stay judged as before
    if unknown and tracked:
        call.fact.markers.add("unresolved_path")


def git_stash_show(call: HandlerCall) -> None:
    """``git stash show -p [stash@{N}]`` prints what a stash holds against the commit it was
    made on: a tracked secret the stash changed is read, told by the repository's objects
    as ``git show``'s is. Without ``-p`` git prints names and counts, unless its
    configuration says otherwise (``stash.showPatch``): taken as printing the lines, but for
    ``--stat`` and its kin. The untracked files a stash took (``-u``) are not read here: the
    line is unresolved."""
    c = call.classifier
    options = _lines_here(call)
    if options is None or c.workspace is None:
        return
    from clearance.shellparse.gitobjects import Repository
    from clearance.shellparse.world import git_directory, tracked_secret_files

    secrets = tracked_secret_files(c.workspace, c.home, c.fold)
    git = git_directory(c.workspace)
    if not secrets or git is None:
        return
    operands = call.parsed.operands
    repository = Repository(git)
    stash = repository.stash(operands[0] if operands else "0") if len(operands) <= 1 else None
    parents = None if stash is None else repository.parents(stash)
    if stash is None or not parents or options & {"--include-untracked", "--only-untracked"}:
        call.fact.markers.add("unresolved_path")
        return
    top = c.workspace.rstrip("/")
    for path in secrets:
        mine = repository.blob_at(stash, path[len(top) + 1 :])
        base = repository.blob_at(parents[0], path[len(top) + 1 :])
        if mine is None or base is None:
            call.fact.markers.add("unresolved_path")
        elif mine != base:
            call.add_path(path, "read", source="revision")


def _in_repository(directory: str, top: str) -> bool:
    """Whether git working in ``directory`` (``git -C``) works in the repository whose top is
    ``top``: the directory is ``top`` or below it, as the machine resolves both, and no
    directory on the way holds a ``.git`` of its own (a nested repository, a submodule)."""
    real, root = os.path.realpath(directory), os.path.realpath(top)
    return real == root or (os.path.isdir(real) and gitcredentials.repository_top(real) == root)


def git_archive(call: HandlerCall) -> None:
    """``git archive TREE-ISH [PATH...]`` writes the paths' committed content (to standard
    output unless ``-o``): each path after the tree-ish is a file read out of the repository,
    as ``git show REV:PATH`` reads one (``git archive HEAD .env`` prints the committed .env)."""
    git_revision_paths(call)  # ``HEAD:dir`` and the paths after ``--``
    args = call.args
    after_dashes = args[args.index("--") + 1 :] if "--" in args else []
    for value in call.parsed.operands[1:]:
        if value not in after_dashes:
            call.add_path(value, "read", source="revision", cwd=call.cwd)


def git_checkout(call: HandlerCall) -> None:
    fact, args, parsed = call.fact, call.args, call.parsed
    discards = "--" in args or "." in parsed.operands or call.has("-f", "--force")
    if fact.subcommand and fact.subcommand.endswith("restore"):
        discards = bool(parsed.operands) and not (
            call.has("--staged", "-S") and not call.has("--worktree", "-W")
        )
    if discards:
        fact.classes.add("vcs_destructive")


def git_push(call: HandlerCall) -> None:
    fact, parsed = call.fact, call.parsed
    for refspec in parsed.operands[1:]:
        if refspec.startswith(("+", ":")):
            fact.classes.add("vcs_destructive")


def git_clone(call: HandlerCall) -> None:
    parsed = call.parsed
    for value in call.values("--config", "-c"):
        key, _, setting = value.partition("=")
        _git_config_value(call, key, setting)
    if len(parsed.operands) == 1:
        url = parsed.operands[0].rstrip("/")
        name = url.rsplit("/", 1)[-1].rsplit(":", 1)[-1]
        name = name[:-4] if name.endswith(".git") else name
        if name:
            call.add_path(name, "write")


#: Bounds on what is read of a repository named by ``--git-dir``.
_GIT_CONFIG_BYTES: Final = 64 * 1024
_GIT_HOOKS_LISTED: Final = 256


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


#: The handlers the tables may name (``handler: vcs.NAME``), by name: the registry
#: ``clearance.shellparse.handlers.resolve`` reads.
# fmt: off
HANDLERS: Final = {f.__name__: f for f in (
    git_archive, git_checkout, git_clean, git_clone, git_config, git_global, git_grep, git_push,
    git_ls_remote, git_remote, git_replace, git_revision_paths, git_stash_show, git_symbolic_ref,
)}
# fmt: on
