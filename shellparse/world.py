"""Grounding: a part's path facts checked against the machine (see ``resolve`` for the reading).

After the classifier has judged a part from its text, every path it touches is looked up:

- a glob is expanded with bash's rules and each match becomes a fact (``source: glob``);
  the glob stays as a fact of its own, judged as a pattern (what it *could* match);
- every path is resolved through existing links, and those the line made earlier; a
  different target becomes a fact (``source: link``): a deny on either wins;
- a tree the part reads (``grep -r``, ``tar c``, ``cp -r``, ``find … -exec cat {}``) is searched
  for protected files, each a fact (``source: tree``) -- unless the program's own defaults or
  options leave it out (ripgrep's hidden and ignored files, ``git grep``'s untracked ones,
  ``grep --exclude``), which the facts list under ``excluded``;
- the files a filter selects (``grep --include``, ``rg -g``, ``find -name`` feeding ``xargs cat``
  or ``cat "$(find …)"``) are a pattern fact (``source: filter``) judged like a glob.

Whatever cannot be resolved adds the ``unresolved_path`` marker, with the reason in ``why``.
"""

from __future__ import annotations

import os
import re
import stat
import struct

from clearance.shellparse.credentials import holds_credential
from clearance.shellparse.facts import METADATA_WRITERS, PathFact
from clearance.shellparse.findexpr import found_paths, printed, starting_points
from clearance.shellparse.gitcredentials import file_holds_credentials, repository_top
from clearance.shellparse.paths import (
    SYSTEM_PREFIXES,
    anchored_secrets,
    glob_to_regex,
    inside,
    is_normal,
    is_secret,
    secret_names,
    secret_roots,
)
from clearance.shellparse.resolve import (
    GIT_CONFIG_NAMES,
    Entry,
    Problem,
    Resolver,
    Twins,
    has_glob,
    racy,
    segment_matches,
)
from clearance.vocab import READING_PSEUDO_PROGRAMS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

    from clearance.shellparse.classifier import Classifier
    from clearance.shellparse.facts import SimpleCommandFacts

#: Programs that search a tree when given none (``grep -r x`` searches ``.``).
_SEARCH_CWD: Final = frozenset(("rg", "ripgrep", "ag", "ack", "ack-grep"))
_GREPS: Final = frozenset(("grep", "egrep", "fgrep", "zgrep"))


#: Programs whose recursive form changes everything below a directory.
_RECURSIVE_CHANGES: Final = frozenset(
    ("rm", "chmod", "chown", "chgrp", "setfacl", "chattr", "shred")
)


def mark_trees(fact: SimpleCommandFacts) -> None:
    """A recursive delete, chmod or ownership change (``rm -r``, ``chmod -R``, ``find …
    -delete``, ``rsync --delete``) touches everything under its directories: such paths are
    trees, and a protected path below one is touched (the matchers' ``match_tree``)."""
    program = fact.program
    recursive = program in ("find", "rsync") or (
        program in _RECURSIVE_CHANGES and "--recursive" in fact.options
    )
    if not recursive:
        return
    for path in fact.paths:
        if path.access in ("delete", "write") and path.source in ("argument", "option", "glob"):
            if program == "rsync" and path.access == "write":
                continue
            if path.resolved is not None and "/{}" not in path.resolved:
                path.tree = True


def ground(fact: SimpleCommandFacts, classifier: Classifier, resolver: Resolver) -> None:
    """Add to ``fact`` what the machine says about its paths (see the module docstring)."""
    _default_tree(fact, classifier)
    for path in list(fact.paths):
        try:
            _ground_path(fact, path, classifier, resolver)
        except Problem as problem:
            _unresolved(fact, path, problem)
    program = fact.program
    if program in ("ln", "link") or (
        program == "cp" and ({"--symbolic-link", "--link"} & set(fact.options))
    ):
        symbolic = "--symbolic" in fact.options or "--symbolic-link" in fact.options
        _record_links(fact, resolver, symbolic or (program == "ln" and _short(fact, "s")))


def _unresolved(fact: SimpleCommandFacts, path: PathFact, problem: Problem) -> None:
    fact.markers.add("unresolved_path")
    _note(path, f"not resolved ({problem.kind}: {problem.path})")


def _note(path: PathFact, note: str) -> None:
    """Add ``note`` to what the answer says of ``path``."""
    path.why = f"{path.why}; {note}" if path.why else note


def expand_pattern(pattern: str, classifier: Classifier, resolver: Resolver) -> list[str]:
    """What the absolute pattern ``pattern`` expands to on the machine, under the line's
    shell options (``globstar``, ``dotglob``, ``nocaseglob``). Raises ``Problem``."""
    shell = classifier.shell_options
    return resolver.expand(
        pattern,
        globstar="globstar" in shell,
        dotglob="dotglob" in shell,
        nocase="nocaseglob" in shell,
    )


def _short(fact: SimpleCommandFacts, letter: str) -> bool:
    return any(
        a.startswith("-") and not a.startswith("--") and letter in a[1:] for a in fact.argv[1:]
    )


def _derived(
    fact: SimpleCommandFacts,
    classifier: Classifier,
    written: str,
    resolved: str,
    access: str,
    source: str,
    why: str,
    *,
    pattern: bool = False,
    tree: bool = False,
    meta: bool = False,
) -> PathFact | None:
    seen = classifier.seen_paths.get(id(fact))
    if seen is None or len(seen) < len(fact.paths):
        seen = classifier.seen_paths[id(fact)] = {(p.resolved, p.access) for p in fact.paths}
    if (resolved, access) in seen:
        return None
    seen.add((resolved, access))
    found = PathFact(
        written,
        resolved,
        access,
        inside(resolved, classifier.workspace),
        source,
        pattern=pattern,
        tree=tree,
        why=why,
    )
    found.fold = classifier.fold
    found.meta = meta
    fact.paths.append(found)
    classifier.judge(fact, found)
    return found


def _ground_path(
    fact: SimpleCommandFacts, path: PathFact, classifier: Classifier, resolver: Resolver
) -> None:
    resolved = path.resolved
    if resolved is None or path.source in ("link", "tree", "filter"):
        return
    if "/{}" in resolved:
        _found_by_find(fact, path, classifier, resolver)
        return
    if path.pattern:
        if path.meta and path.access == "read":
            return  # names only (``ls *``, ``Glob``): what they list reads nothing
        for match in expand_pattern(resolved, classifier, resolver):
            found = _derived(
                fact,
                classifier,
                path.path,
                match,
                path.access,
                "glob",
                f"matched by {path.path}",
                tree=path.tree,
                meta=path.meta,
            )
            if found is not None:
                _ground_path(fact, found, classifier, resolver)
        return
    real = resolver.real(resolved)
    target = path
    if real != resolved:
        linked = _derived(
            fact,
            classifier,
            path.path,
            real,
            path.access,
            "link",
            f"{resolved} is a link to {real}",
            tree=path.tree,
            meta=path.meta,
        )
        target = linked or path
    if path.access == "write" and not path.tree:
        _overwritten_secret(fact, target, real, classifier, resolver)
    elif path.access == "delete":
        # what is deleted is the name itself (a link, not what it points at), in its directory
        parent, name = resolved.rsplit("/", 1)
        directory = resolver.real(parent or "/")
        own = directory.rstrip("/") + "/" + name
        _overwritten_secret(fact, path, own, classifier, resolver)
        if path.tree:
            _deleted_tree(fact, path, own, classifier, resolver)
    if path.access in ("read", "unknown", "exec") and not path.meta:
        if path.tree:
            _search_tree(fact, target, real, classifier, resolver)
        elif "secret_read" not in fact.classes:
            _hard_linked_secret(fact, target, real, resolver)


def _deleted_tree(
    fact: SimpleCommandFacts,
    path: PathFact,
    root: str,
    classifier: Classifier,
    resolver: Resolver,
) -> None:
    """``rm -r DIR`` (``rm -rf deploy``) deletes every file below DIR: a credentials file
    among them is lost as ``rm deploy/keys/id_ed25519`` would lose it, and so is a secret's
    directory that holds anything (``credentials/``). A directory itself, not one a link
    leads to: ``rm -r LINK`` removes the link. A search its bounds stop is unresolved.
    Once the part carries the marker (another operand), it asks already: no search more."""
    if "secret_overwrite" in fact.markers:
        return
    try:
        info = resolver.lstat(root)
        if info is None or not stat.S_ISDIR(info.st_mode):
            return
        members = _secrets_below(root, classifier, resolver)
    except Problem as problem:
        _unresolved(fact, path, problem)
        return
    for member in members:
        if not classifier.protected(member):
            continue
        try:
            kind = resolver.lstat(member)
            is_dir = kind is not None and stat.S_ISDIR(kind.st_mode)
            held = is_dir and bool(resolver.listing(member))
        except Problem as problem:
            _unresolved(fact, path, problem)
            return
        if held:
            fact.markers.add("secret_overwrite")
            _note(path, f"{member}, a credentials directory that holds files, is below {root}")
        else:
            _overwritten_secret(fact, path, member, classifier, resolver)
        if "secret_overwrite" in fact.markers:
            return


def _overwritten_secret(
    fact: SimpleCommandFacts,
    path: PathFact,
    real: str,
    classifier: Classifier,
    resolver: Resolver,
) -> None:
    """A write over, or a delete of, a credentials file that exists here and holds something
    (``> .env``, ``cp x .env``, ``rm deploy/key.pem``, the Write tool): no version control
    keeps it, so what it held is lost. An append (``>> .env``), a file not there yet (``cp
    .env.example .env``) and a change of metadata (``chmod 600 .env``) lose nothing."""
    if fact.program in METADATA_WRITERS or not classifier.protected(real):
        return
    if path.source == "redirect" and any(
        r.mode == "append" and r.target == path.path for r in fact.redirects
    ):
        return
    try:
        info = resolver.lstat(real)
    except Problem:
        return
    if info is None or not stat.S_ISREG(info.st_mode) or info.st_size == 0:
        return
    fact.markers.add("secret_overwrite")
    _note(path, f"{real} is a credentials file that exists here ({info.st_size} bytes)")


def _hard_linked_secret(
    fact: SimpleCommandFacts, path: PathFact, real: str, resolver: Resolver
) -> None:
    """A file with other names (a hard link, ``ln ~/.ssh/id_rsa notes.txt``) is whatever
    they are: its own name says nothing, so it is judged by its content -- a read of a
    credential-shaped one is a secret read."""
    try:
        info = resolver.lstat(real)
    except Problem:
        return
    if info is None or not stat.S_ISREG(info.st_mode) or info.st_nlink < 2:
        return
    if holds_credential(real):
        fact.classes.add("secret_read")
        others = info.st_nlink - 1
        _note(path, f"{real} has {others} other name(s) (a hard link) and holds a credential")


# --- trees ----------------------------------------------------------------------------------

#: How far below a place that holds secrets (``~/.ssh``, ``~/.aws``) the files a tree search
#: watches for other names of are looked for: levels, and entries in all per place.
WATCH_DEPTH: Final = 2
WATCH_ENTRIES: Final = 512


def _watched_secrets(classifier: Classifier, resolver: Resolver) -> dict[tuple[int, int], str]:
    """The secrets with a fixed place (``~/.ssh/id_rsa``, ``~/.aws/credentials``) that have
    other names (a hard link: ``st_nlink`` above one), by (device, inode): a file below a
    searched tree with one of these identities is that secret, whatever it is called there
    -- which its directory entry tells without a ``stat`` (``Twins``). Read once per line:
    whether each place exists, from its directory's listing (kept per process, one ``stat``
    of the directory: forty directories hold the hundred places; the answer kept beside the
    listings, ``_present_places``), a listing of each place
    that is a directory (``WATCH_DEPTH`` levels, ``WATCH_ENTRIES`` entries), a ``stat`` of
    each secret found there. A place that cannot be read is passed over: its files cannot
    be read through another name by this user either."""
    known = resolver.watched
    if known is not None:
        return known
    found: dict[tuple[int, int], str] = {}
    home, fold = classifier.home, classifier.fold
    # bounded on its own (the places, ``WATCH_ENTRIES`` each): the entries it reads are not
    # taken from the line's budget, which the searches themselves spend
    spent = resolver.entries
    for place, entry in _present_places(home, resolver):
        try:
            if entry[3]:
                continue  # a link: what it leads to is no place of its own
            files = _files_below(place, resolver) if entry[1] else [place]
            for file in files:
                if not is_secret(file, home, fold):
                    continue
                meta = resolver.lstat(file)
                if meta is not None and stat.S_ISREG(meta.st_mode) and meta.st_nlink > 1:
                    found[(meta.st_dev, meta.st_ino)] = file
        except Problem:
            continue
    resolver.entries = spent
    resolver.watched = found
    return found


def _present_places(home: str, resolver: Resolver) -> list[tuple[str, Entry]]:
    """The places of ``_watch_places`` that exist, each with its entry in its directory's
    listing (a place that cannot be read is left out). Kept per process and home beside the
    listings it was read from (``_PRESENT``), and reused while each of them is still the
    listing the process keeps for its directory (unchanged since: ``Resolver.listing``, a
    ``stat`` each): the hundred places are looked up again only when one of those
    directories changed."""
    kept = _PRESENT.get(home)
    if kept is not None:
        try:
            if all(resolver.listing(directory) is listing for directory, listing in kept[0]):
                return kept[1]
        except Problem:
            pass
    names: dict[str, dict[str, Entry]] = {}
    read: list[tuple[str, list[Entry]]] = []
    present: list[tuple[str, Entry]] = []
    whole = True
    for place in _watch_places(home):
        try:
            entry = _listed(place, resolver, names, read)
        except Problem:
            whole = False
            continue
        if entry is not None:
            present.append((place, entry))
    if whole:
        if len(_PRESENT) >= 64:
            _PRESENT.clear()
        _PRESENT[home] = (read, present)
    return present


#: Per home: the listings ``_present_places`` read (directory, listing), and what it found.
_PRESENT: Final[dict[str, tuple[list[tuple[str, list[Entry]]], list[tuple[str, Entry]]]]] = {}


def _watch_places(home: str) -> tuple[str, ...]:
    """The places of ``secret_roots`` whose other names a search watches for: not ``/``, not
    under the system's directories. Made once per home."""
    found = _WATCH_PLACES.get(home)
    if found is None:
        found = tuple(
            place
            for place in secret_roots(home)
            if place != "/" and not (place + "/").startswith(SYSTEM_PREFIXES)
        )
        if len(_WATCH_PLACES) >= 64:
            _WATCH_PLACES.clear()
        _WATCH_PLACES[home] = found
    return found


_WATCH_PLACES: Final[dict[str, tuple[str, ...]]] = {}


def _split(path: str) -> tuple[str, str]:
    """``(directory, name)`` of ``path``, the same two strings each time it is asked (a
    string's hash is kept in it: the watched places' directories are looked up by every
    search of every line, ``_listed``). At most 4,096 paths are kept."""
    found = _SPLITS.get(path)
    if found is None:
        parent, _, name = path.rpartition("/")
        found = (parent or "/", name)
        if len(_SPLITS) < 4096:
            _SPLITS[path] = found
    return found


_SPLITS: Final[dict[str, tuple[str, str]]] = {}


def _listed(
    path: str,
    resolver: Resolver,
    names: dict[str, dict[str, Entry]],
    read: list[tuple[str, list[Entry]]],
) -> Entry | None:
    """``path``'s entry in its directory's listing (``None``: not there, or the directory
    not in its own): the entries of each directory are read once per line into ``names``,
    each listing read added to ``read``. Raises ``Problem``."""
    parent, name = _split(path)
    held = names.get(parent)
    if held is None:
        held = {}
        above = None if parent == "/" else _listed(parent, resolver, names, read)
        if parent == "/" or (above is not None and above[1]):
            entries = resolver.listing(parent)
            read.append((parent, entries))
            kept = _NAMES.get(parent)
            if kept is not None and kept[0] is entries:
                held = kept[1]
            else:
                held = {entry[0]: entry for entry in entries}
                if len(_NAMES) >= 256:
                    _NAMES.clear()
                _NAMES[parent] = (entries, held)
        names[parent] = held
    return held.get(name)


#: The entries of a directory's listing by name, beside the listing they were read from
#: (reused while the process's kept listing is the same object: unchanged since).
_NAMES: Final[dict[str, tuple[list[Entry], dict[str, Entry]]]] = {}


def _files_below(place: str, resolver: Resolver) -> list[str]:
    """The regular files below the directory ``place``, ``WATCH_DEPTH`` levels down, at most
    ``WATCH_ENTRIES`` entries read. Raises ``Problem``."""
    files: list[str] = []
    stack = [(place.rstrip("/"), 1)]
    seen = 0
    while stack and seen < WATCH_ENTRIES:
        directory, depth = stack.pop()
        for name, is_dir, _, is_link, _ in resolver.listing(directory):
            seen += 1
            if is_dir:
                if depth < WATCH_DEPTH:
                    stack.append((directory + "/" + name, depth + 1))
            elif not is_link:
                files.append(directory + "/" + name)
    return files


def _default_tree(fact: SimpleCommandFacts, classifier: Classifier) -> None:
    """``grep -r PATTERN`` and ``rg PATTERN`` with no path search the working directory."""
    program = fact.program
    recursive = (
        program in _SEARCH_CWD
        or (program == "git" and (fact.subcommand or "").startswith("grep"))
        or (
            program in _GREPS
            and ("--recursive" in fact.options or "--dereference-recursive" in fact.options)
        )
    )
    if not recursive or "--files" in fact.options:
        return
    if any(p.tree and p.source in ("argument", "option", "glob") for p in fact.paths):
        return
    if fact.stdin in ("pipe", "file", "heredoc", "herestring") and program in _SEARCH_CWD:
        return  # rg reading a pipe searches it, not the directory
    cwd = classifier.current_cwd or classifier.cwd
    if cwd is None or cwd.startswith("\0"):
        return
    roots = [(".", cwd)]
    if program == "git":
        specs = _git_grep_pathspecs(fact.argv)
        if specs:
            from clearance.shellparse.paths import resolve

            roots = [(spec, resolve(spec, cwd, classifier.home) or cwd) for spec in specs]
    for written, root in roots:
        found = PathFact(written, root, "read", inside(root, classifier.workspace), "cwd")
        found.tree = True
        found.pattern = has_glob(written)
        found.why = (
            f"{program} searches the working directory when given no path"
            if written == "."
            else f"{program} searches the pathspec {written}"
        )
        found.fold = classifier.fold
        fact.paths.append(found)
        classifier.judge(fact, found)


def _git_grep_pathspecs(argv: list[str]) -> list[str]:
    """The pathspecs of ``git grep [options] PATTERN [--] [PATHSPEC…]``."""
    try:
        at = argv.index("grep") + 1
    except ValueError:
        return []
    rest = argv[at:]
    if "--" in rest:
        return rest[rest.index("--") + 1 :]
    given_pattern = any(a in ("-e", "-f") or a.startswith(("-e", "-f")) for a in rest)
    operands: list[str] = []
    k = 0
    while k < len(rest):
        arg = rest[k]
        if arg in ("-e", "-f", "--max-depth", "-A", "-B", "-C", "-m", "--threads"):
            k += 2
            continue
        if not arg.startswith("-"):
            operands.append(arg)
        k += 1
    return operands if given_pattern else operands[1:]


#: The agents' search tools that leave out what the repository's ignore files name, as
#: ripgrep does by default: Claude Code's ``Grep`` runs ripgrep without ``--no-ignore`` (it
#: has no field to ask for one), so in a git repository a file ``.gitignore``,
#: ``.git/info/exclude`` or the global excludes name is not searched. Only those files are
#: counted (ripgrep also reads ``.ignore`` and ``.rgignore``: leaving them out can only make
#: the search read more than it does, never less). Hidden files count as searched (whether
#: the tool skips them is not known here), and a ``glob`` filter overrides the ignore rules
#: (ripgrep's ``--glob``). Every other search tool reads every file under its directory.
IGNORE_HONOURING_TOOLS: Final = frozenset({"Grep"})
#: The searchers whose include globs override their ignore rules (ripgrep's ``--glob``).
_GLOBS_OVERRIDE_IGNORES: Final = frozenset(("rg", "ripgrep")) | IGNORE_HONOURING_TOOLS
#: Archivers and copiers that store a link met in a tree as a link, and the options (canonical
#: names) that make them store what it points at instead; scp always does.
_COPIERS_FOLLOWING: Final[dict[str, tuple[str, ...]]] = {
    "tar": ("--dereference",),
    "gtar": ("--dereference",),
    "bsdtar": ("--dereference",),
    "cp": ("--dereference",),
    "rsync": ("--copy-links", "--copy-dirlinks", "--copy-unsafe-links"),
    "scp": (),
}


class _Filters:
    """What a searching program leaves out of a tree, by its defaults and options."""

    __slots__ = (
        "exclude_dirs",
        "excludes",
        "follow",
        "global_ignores",
        "ignore",
        "ignore_files",
        "includes",
        "program",
        "require_git",
        "skip_hidden",
        "tracked",
    )

    def __init__(self, fact: SimpleCommandFacts) -> None:
        program = fact.program or ""
        self.program = program
        self.skip_hidden = False
        self.ignore = False
        self.tracked = False
        self.follow = False
        #: the per-directory ignore files the program reads, lowest precedence first
        self.ignore_files: tuple[str, ...] = ()
        #: ``.gitignore``, ``.git/info/exclude`` and the global excludes count only in a
        #: git repository (ripgrep's default; ``--no-require-git`` lifts it)
        self.require_git = True
        #: the user's global excludes file (``core.excludesFile``) is read
        self.global_ignores = False
        self.includes: list[str] = []
        self.excludes: list[str] = []
        self.exclude_dirs: list[str] = []
        argv = fact.argv[1:]
        if program in ("rg", "ripgrep", "ag"):
            # ``-u`` in a bundle of short flags counts too (``-iuu``); a letter that is the
            # value of an earlier one (``-eu``) is counted as well: never fewer than there are
            unrestricted = sum(a.count("u") for a in argv if re.fullmatch(r"-[A-Za-z0-9]+", a))
            hidden = "--hidden" in argv or "-." in argv or unrestricted >= 2
            # (``--no-ignore-parent``, ``--no-ignore-exclude``: some of the files this reads are
            # left out; taken as none read)
            no_ignore = unrestricted >= 1 or any(
                a
                in (
                    "--no-ignore",
                    "--no-ignore-vcs",
                    "-U",
                    "--skip-vcs-ignores",
                    "--no-ignore-parent",
                    "--no-ignore-exclude",
                )
                for a in argv
            )
            if program == "ag":
                # ag's own spellings (its man page): ``-u``/``--unrestricted`` searches every
                # file, hidden ones too, whatever ignores them; ``-a``/``--all-types`` ignores
                # the ignore files but still skips hidden ones
                if unrestricted or "--unrestricted" in argv:
                    hidden = no_ignore = True
                if "-a" in argv or "--all-types" in argv:
                    no_ignore = True
            self.skip_hidden = not hidden
            self.ignore = not no_ignore
            self.follow = "-L" in argv or "--follow" in argv
            if program == "ag":
                self.ignore_files = (".gitignore", ".hgignore", ".ignore")
                self.require_git = False
            else:
                dot = "--no-ignore-dot" not in argv
                self.ignore_files = (".gitignore", *((".ignore", ".rgignore") if dot else ()))
                self.require_git = "--no-require-git" not in argv
                self.global_ignores = "--no-ignore-global" not in argv
            for value in _values(argv, ("-g", "--glob", "--iglob")):
                (self.excludes if value.startswith("!") else self.includes).append(
                    value.lstrip("!")
                )
        elif program == "git" and (fact.subcommand or "").startswith("grep"):
            self.tracked = "--untracked" not in argv and "--no-index" not in argv
            self.ignore = "--no-exclude-standard" not in argv and not self.tracked
            self.ignore_files = (".gitignore",)
            self.global_ignores = True
        elif program in READING_PSEUDO_PROGRAMS:
            # a file tool's own filters (``Grep`` ``glob``/``type``, ``include`` fields) are
            # given to it as ``DIR/{}/GLOB`` values
            self.includes = [a.split("/{}/", 1)[1] for a in argv if "/{}/" in a]
            if fact.program_raw in IGNORE_HONOURING_TOOLS:
                self.program = fact.program_raw
                self.ignore = True
                self.ignore_files = (".gitignore",)
                self.global_ignores = True
        elif program in _GREPS:
            self.includes = list(_values(argv, ("--include",)))
            self.excludes = list(_values(argv, ("--exclude",)))
            self.exclude_dirs = list(_values(argv, ("--exclude-dir",)))
            self.follow = "-R" in argv or "--dereference-recursive" in argv
        elif program == "zip":
            # zip stores what links point at, unless -y/--symlinks stores the links
            self.follow = not any(
                a == "--symlinks" or (a[:1] == "-" and a[1:2] != "-" and "y" in a[1:]) for a in argv
            )
        elif program in _COPIERS_FOLLOWING:
            # archivers and copiers store a link as a link unless told to store what it points
            # at (``tar -h``, ``cp -L``, ``rsync -L``/``-k``: a link to ``~/.ssh`` copied as
            # the directory it names); scp always copies what links point at
            options = fact.options
            self.follow = program == "scp" or any(o in options for o in _COPIERS_FOLLOWING[program])
        elif program in ("7z", "7za", "7zr", "7zz"):
            # 7-Zip stores what links point at unless -snl stores the links
            self.follow = "-snl" not in argv

    def why_excluded(
        self, path: str, root: str, workspace: str | None, home: str = ""
    ) -> str | None:
        rel = _relative(path, root)
        parts = rel.split("/")
        name = parts[-1]
        if self.skip_hidden and any(p.startswith(".") for p in parts):
            return f"{self.program} skips hidden files and directories by default (no --hidden)"
        for glob in self.excludes:
            if _fnmatch(glob, name) or _fnmatch(glob, rel):
                return f"{self.program} excludes {glob!r}"
        for glob in self.exclude_dirs:
            if any(_fnmatch(glob, p) for p in parts[:-1]):
                return f"{self.program} excludes the directory {glob!r}"
        if self.includes and not any(
            _fnmatch(glob, name) or _fnmatch(glob, rel) for glob in self.includes
        ):
            return f"{self.program} searches only {self.includes}"
        if self.includes and self.program in _GLOBS_OVERRIDE_IGNORES:
            return None  # rg's globs override its ignore rules and hidden-file default
        if self.tracked:
            tracked = _tracked(path, workspace or root)
            if tracked is False:
                return "git grep searches tracked files only, and this one is not tracked"
        if self.ignore:
            top = workspace or root
            git = os.path.lexists(os.path.join(top, ".git"))
            vcs = git or not self.require_git
            names = self.ignore_files if vcs else _outside_git(self.ignore_files)
            extra = _global_ignore_lines(home) if vcs and self.global_ignores and home else []
            found = _ignored(path, top, names, git=vcs, extra=extra)
            if found is not None:
                return f"{self.program} skips files ignored by default ({found})"
        return None


def _relative(path: str, root: str) -> str:
    """``os.path.relpath(path, root)``, by slicing when ``path`` is below ``root`` and both are
    normal (every path a walk builds under its root is)."""
    if is_normal(path) and is_normal(root):
        if root == "/":
            return path[1:] or "."
        if path.startswith(root) and path[len(root) : len(root) + 1] == "/":
            return path[len(root) + 1 :]
    return os.path.relpath(path, root)


def _values(argv: list[str], names: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for k, arg in enumerate(argv):
        for name in names:
            if arg == name and k + 1 < len(argv):
                out.append(argv[k + 1])
            elif arg.startswith(name + "="):
                out.append(arg[len(name) + 1 :])
            elif len(name) == 2 and arg.startswith(name) and len(arg) > 2:
                out.append(arg[2:])
    return out


def _fnmatch(glob: str, name: str) -> bool:
    if "/" in glob:
        return re.fullmatch(glob_to_regex(glob, "/", descendants=True), "/" + name) is not None
    return segment_matches(glob, name)


def _selected(name_filter: str, member: str, root: str, deep: bool) -> bool:
    """Whether what find selected by ``name_filter`` under ``root`` reaches ``member``: by its
    own name, or (``deep``: a reader of trees) by a directory's above it."""
    if _fnmatch(name_filter, member.rsplit("/", 1)[-1]):
        return True
    if not deep:
        return False
    below = member[len(root) :] if member.startswith(root) else member
    return any(part and _fnmatch(name_filter, part) for part in below.split("/")[:-1])


def _search_tree(
    fact: SimpleCommandFacts,
    path: PathFact,
    root: str,
    classifier: Classifier,
    resolver: Resolver,
    name_filter: str | None = None,
    opened: bool = False,
) -> None:
    """Protected files under ``root`` that the part would read. ``opened``: each path found
    is given to the program by name (``find … -exec cat {} +``), which opens it and so reads
    what a link to a file points at, whatever its own options."""
    if not resolver.is_dir(root):
        return
    filters = _Filters(fact)
    for include in filters.includes:
        _filter_fact(fact, path, root, include, classifier)
    skip_hidden = filters.skip_hidden and not filters.includes
    # a reader that follows links to files (``grep -R``, ``rg -L``, ``zip -r``, ``git grep``
    # over a tracked file turned link) reads what they point at, whatever their names
    links: list[str] | None = [] if filters.follow or filters.tracked or opened else None
    workspace = classifier.workspace
    tracked = (
        tracked_secrets(workspace, root, classifier.home, classifier.fold, resolver)
        if filters.tracked and workspace is not None
        else None
    )
    #: the configuration files of the git directories the search meets, at any depth
    git_configs: list[str] = []
    watched: dict[tuple[int, int], str] = {}
    twins: Twins | None = None
    if tracked is not None:
        # ``git grep``: the tracked files, which the index lists -- no directory is read
        members = tracked
        fact.excluded.append(
            (root, "git grep searches tracked files only: the index says which are secrets")
        )
    else:
        # a secret with other names may be met under one of them (``ln ~/.ssh/id_rsa notes``)
        if classifier.machine:
            watched = _watched_secrets(classifier, resolver)
        if watched:
            twins = Twins(frozenset(ino for _, ino in watched))
        members = _secrets_below(
            root,
            classifier,
            resolver,
            follow=filters.follow,
            skip_hidden=skip_hidden,
            links=links,
            git_configs=git_configs,
            twins=twins,
        )
    members = members + _configurations_with_credentials(root, classifier, git_configs)
    # a program that reads trees (``tar``, ``grep -r``, ``cp -r``) given a directory find
    # selected by name reads everything below it: a member counts when it or a directory above
    # it (below ``root``) has the name
    deep = path.tree
    for member in members:
        if name_filter is not None and not _selected(name_filter, member, root, deep):
            continue
        why = filters.why_excluded(member, root, classifier.workspace, classifier.home)
        if why is not None:
            fact.excluded.append((member, why))
            continue
        _derived(
            fact,
            classifier,
            path.path,
            member,
            "read",
            "tree",
            f"{member} is under {root}, which {fact.program} reads",
        )

    def linked(link: str) -> tuple[str, str] | None:
        target = resolver.real(link)
        # as for the files met under ``root``, only a protected target is a fact of its own
        # (a tree of many links -- /etc -- would otherwise carry one per link)
        if target != link and classifier.protected(target):
            return target, f"a link to {target}"
        return None

    def twin(name: str) -> tuple[str, str] | None:
        info = resolver.lstat(name)  # the inode number's file system, and a file still
        secret = None if info is None else watched.get((info.st_dev, info.st_ino))
        if secret is None or secret == name:
            return None
        return secret, f"{secret} under another name (a hard link)"

    _other_names(fact, path, root, links or [], linked, name_filter, classifier, filters)
    if twins is not None:
        _other_names(fact, path, root, twins.met, twin, name_filter, classifier, filters)


def _other_names(
    fact: SimpleCommandFacts,
    path: PathFact,
    root: str,
    names: list[str],
    file_of: Callable[[str], tuple[str, str] | None],
    name_filter: str | None,
    classifier: Classifier,
    filters: _Filters,
) -> None:
    """The names met under ``root`` that are another file's (a link to it, a hard link of
    it: ``file_of`` says which file and how, or ``None``; it raises ``Problem``): each one
    the search's filters pass reads that file, a fact of the file's own path."""
    for name in names:
        if name_filter is not None and not _selected(name_filter, name, root, path.tree):
            continue
        if filters.why_excluded(name, root, classifier.workspace, classifier.home) is not None:
            continue
        try:
            found = file_of(name)
        except Problem as problem:
            _unresolved(fact, path, problem)
            continue
        if found is not None:
            target, how = found
            _derived(
                fact,
                classifier,
                path.path,
                target,
                "read",
                "tree",
                f"{name} (under {root}, which {fact.program} reads) is {how}",
            )


def _secrets_below(
    root: str,
    classifier: Classifier,
    resolver: Resolver,
    *,
    follow: bool = False,
    skip_hidden: bool = False,
    links: list[str] | None = None,
    git_configs: list[str] | None = None,
    twins: Twins | None = None,
) -> list[str]:
    """The secrets under ``root`` a walk finds, by name (``.env``, ``id_rsa``) or by place
    (``~/.config/gh/hosts.yml``, where ``root`` holds one), not descending into them.
    ``links``, ``git_configs`` and ``twins`` collect as ``Resolver.secret_walk``'s do.
    Raises ``Problem``."""
    names = secret_names(classifier.fold)
    placed = anchored_secrets(root, classifier.home, classifier.fold)
    if placed is None:
        # only names can make a file under ``root`` a secret: the fast search
        return resolver.secret_walk(
            root,
            names,
            follow=follow,
            skip_hidden=skip_hidden,
            links=links,
            git_configs=git_configs,
            twins=twins,
        )
    walked = resolver.walk(root, follow=follow, skip_hidden=skip_hidden, links=links, twins=twins)
    if git_configs is not None:
        git_configs.extend(
            m
            for m in walked
            if "/.git/" in m
            and m.rsplit("/", 1)[-1] in GIT_CONFIG_NAMES
            and os.path.isfile(m)  # (a submodule may be called ``config``)
        )
    return [m for m in walked if names.match(m.rsplit("/", 1)[-1]) or placed.match(m)]


def _configurations_with_credentials(
    root: str, classifier: Classifier, met: list[str] | None = None
) -> list[str]:
    """The git configuration files of the repositories a search reads that hold a
    credential: ``root``'s own (``root`` a repository's top, or its ``.git``) and those
    ``met`` below it (every ``.git/config`` of the repositories, submodules and worktrees
    under a directory of projects). A search that reads one prints the token, whatever the
    file is called (``gitcredentials``)."""
    if not classifier.machine:
        return []
    found = [os.path.join(root, ".git", "config")]
    if os.path.basename(root) == ".git":
        found.append(os.path.join(root, "config"))
    for path in met or ():
        if path not in found:
            found.append(path)
    return [f for f in found if file_holds_credentials(f, classifier.home)]


def _filter_fact(
    fact: SimpleCommandFacts, path: PathFact, root: str, glob: str, classifier: Classifier
) -> None:
    pattern = root.rstrip("/") + "/{}/" + glob.lstrip("/")
    _derived(
        fact,
        classifier,
        glob,
        pattern,
        "read",
        "filter",
        f"the files under {root} that {glob!r} selects",
        pattern=True,
    )


def _found_by_find(
    fact: SimpleCommandFacts, path: PathFact, classifier: Classifier, resolver: Resolver
) -> None:
    """``find ROOT -name NAME -exec cat {} ;`` reads ``ROOT/{}/NAME``: every file below
    ROOT that NAME selects (all of them without a NAME)."""
    assert path.resolved is not None
    root, _, name = path.resolved.partition("/{}")
    name = name.strip("/")
    path.pattern = True
    classifier.judge(fact, path)
    if path.access not in ("read", "unknown", "exec"):
        return
    if path.meta and path.access == "read":
        return  # names and metadata only (``-exec ls -l {}``, ``stat``, ``du``): nothing read
    root = root or "/"
    if has_glob(root):
        return
    real = resolver.real(root)
    # the program opens each path found, so a link to a file is read through
    _search_tree(fact, path, real, classifier, resolver, name_filter=name or None, opened=True)


def follows_links(argv: list[str]) -> bool:
    """Whether ``find`` (its arguments after the name) descends into the directories links
    point at (``-L``, the ``-follow`` test): what it finds is then anywhere those links lead,
    not under its starting points."""
    first, _ = starting_points(argv)
    return "-L" in argv[:first] or "-follow" in argv


def selection_of(find: SimpleCommandFacts, cwd: str | None, home: str) -> list[str]:
    """The files a ``find`` selects, as ``ROOT/{}/NAME`` patterns (``ROOT/{}`` without a
    ``-name``); ``[]`` when its roots are not known."""
    from clearance.shellparse.paths import resolve

    argv = find.argv[1:]
    if follows_links(argv) or "-files0-from" in argv:
        return []  # found wherever links lead, or under starting points a file holds
    first, k = starting_points(argv)
    bases: list[str] = []
    for root in argv[first:k] or ["."]:
        base = resolve(root, cwd, home)
        if base is None:
            return []
        bases.append(base)
    return found_paths(bases, printed(argv, k))


def add_selection(
    fact: SimpleCommandFacts,
    written: str,
    patterns: list[str],
    classifier: Classifier,
    resolver: Resolver,
) -> None:
    """``fact`` reads what a ``find`` upstream selected (``find … | xargs cat``,
    ``cat "$(find …)"``)."""
    placeholder = next((p for p in fact.paths if p.path == written), None)
    access = "read" if placeholder is None else placeholder.access
    # a reader of trees (``xargs tar c``, ``xargs grep -r``) reads below each directory found
    tree = placeholder is not None and placeholder.tree
    for pattern in patterns:
        tracked = pattern.endswith("/{}/" + TRACKED)
        found = _derived(
            fact,
            classifier,
            written,
            pattern,
            access,
            "filter",
            f"every file git tracks under {pattern[: -len(TRACKED) - 4]}, none a secret"
            if tracked
            else f"the files the line selects upstream: {pattern}",
            pattern=True,
            tree=tree,
        )
        if found is not None and not tracked:
            try:
                _found_by_find(fact, found, classifier, resolver)
            except Problem as problem:
                _unresolved(fact, found, problem)


# --- what git ls-files prints ----------------------------------------------------------------

#: The name standing for "every other tracked file" in a ``git ls-files`` selection.
TRACKED: Final = "{tracked}"
_TRACKED_SECRETS: Final[
    dict[tuple[str, tuple[int, int, int, int, int], str, str, bool], list[str]]
] = {}
#: The directories holding tracked files below a prefix, with their tracked names.
_TRACKED_DIRS: Final[
    dict[tuple[str, tuple[int, int, int, int, int], str], dict[str, set[str]]]
] = {}


#: Variables of git's environment that move the repository it finds or its work tree.
_GIT_PLACES: Final = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES")


def printed_toplevel(fact: SimpleCommandFacts, cwd: str | None, home: str, text: str) -> str | None:
    """What ``git rev-parse --show-toplevel`` prints in ``cwd``: the directory above it (or
    itself) that holds ``.git``, with a newline, as this machine has it. ``None`` (the output
    stays unknown) for any other spelling, with no known cwd, when the line names a ``GIT_``
    variable, when the environment sets one that moves the repository or its configuration
    (``GIT_DIR``, ``GIT_WORK_TREE``, ``GIT_CONFIG…``…), or when a configuration file names
    another work tree (``core.worktree``)."""
    if fact.argv != ["git", "rev-parse", "--show-toplevel"] or fact.assignments or fact.redirects:
        return None
    if cwd is None or "GIT_" in text:
        return None
    if any(name in _GIT_PLACES or name.startswith("GIT_CONFIG") for name in os.environ):
        return None
    directory = repository_top(cwd)
    if directory is None:
        return None
    dot_git = os.path.join(directory, ".git")
    configs = _user_git_configs(home)
    if os.path.isdir(dot_git):
        configs.append(os.path.join(dot_git, "config"))
    for config in configs:
        try:
            with open(config, encoding="utf-8", errors="replace") as handle:
                if "worktree" in handle.read(1 << 20).lower():
                    return None
        except FileNotFoundError:
            continue
        except OSError:
            return None
    return directory + "\n"


#: The most tracked secrets a history printer is said to read (more: the first ones, sorted).
MAX_TRACKED_SECRETS: Final = 64


def tracked_secret_files(root: str, home: str, fold: bool) -> list[str]:
    """The files the index of the repository at ``root`` tracks that are secrets, by name or
    by a fixed place: what ``git log -p`` prints from the repository's objects. The working
    tree is not listed (history does not come from it): this costs the index's reading and
    the name test of ``tracked_secrets``, both kept while the index is unchanged."""
    index = _index_file(root)
    if index is None:
        return []
    stamp = _stamp(index)
    tracked = _index(root)
    if stamp is None or tracked is None:
        return []
    found = _secret_entries(root, tracked[0], "", root, home, fold, (index, stamp, "", home, fold))
    return found[:MAX_TRACKED_SECRETS]


def tracked_selection(root: str, cwd: str, home: str, fold: bool, resolver: Resolver) -> list[str]:
    """What ``git ls-files`` without a pathspec prints in ``cwd`` of the repository at
    ``root``, as a selection: each tracked file below ``cwd`` that is a secret (by name, or by
    a fixed place such as ``~/.ssh``), then ``CWD/{}/{tracked}`` for all the others -- none a
    secret. ``[]`` when the index cannot be read, lists a link or a submodule below ``cwd``
    (read through, they reach what the index does not say) or more than ``MAX_MATCHES``
    secrets: the reader's files stay unknown."""
    found = tracked_secrets(root, cwd, home, fold, resolver)
    if found is None:
        return []
    return [*found, cwd.rstrip("/") + "/{}/" + TRACKED]


def tracked_secrets(
    root: str, directory: str, home: str, fold: bool, resolver: Resolver
) -> list[str] | None:
    """The files the index of the repository at ``root`` tracks below ``directory`` that
    are secrets; ``None`` when that cannot be said (see ``tracked_selection``) -- or when a
    tracked file has become a link in the working tree (``rm notes && ln -s ~/.ssh/id_rsa
    notes``: a reader follows it, and the index still says "file"). Each directory holding
    tracked files is listed for that (listings are reused while unchanged)."""
    from clearance.shellparse.resolve import MAX_MATCHES

    index = _index_file(root)
    rel = os.path.relpath(directory, root)
    if index is None or rel == ".." or rel.startswith("../"):
        return None
    stamp = _stamp(index)
    tracked = _index(root)
    if stamp is None or tracked is None:
        return None
    entries, links = tracked
    prefix = "" if rel == "." else rel + "/"
    if any(not prefix or link.startswith(prefix) for link in links):
        return None
    key = (index, stamp, prefix, home, fold)
    places = _TRACKED_DIRS.get(key[:3])
    if places is None:
        places = {}
        top = root.rstrip("/")
        for entry in entries:
            if not prefix or entry.startswith(prefix):
                folder, _, name = (top + "/" + entry).rpartition("/")
                places.setdefault(folder, set()).add(name)
        if len(_TRACKED_DIRS) >= 64:
            _TRACKED_DIRS.clear()
        if not racy(stamp[3]) and not racy(stamp[4]):
            _TRACKED_DIRS[key[:3]] = places
    for folder, names_there in places.items():
        try:
            listing = resolver.listing(folder)
        except Problem:
            return None
        if any(is_link and name in names_there for name, _, _, is_link, _ in listing):
            return None
    found = _secret_entries(root, entries, prefix, directory, home, fold, key)
    return None if len(found) > MAX_MATCHES else found


def _secret_entries(
    root: str,
    entries: set[str],
    prefix: str,
    directory: str,
    home: str,
    fold: bool,
    key: tuple[str, tuple[int, int, int, int, int], str, str, bool],
) -> list[str]:
    """The index's ``entries`` below ``prefix`` that are secrets (a name on their way, or a
    fixed place under ``directory``), as paths under ``root``, sorted; at most one more than
    ``MAX_MATCHES`` (more than that: too many to say). Kept under ``key`` (the index and its
    stamp, ``prefix``, ``home``, ``fold``) while the index is unchanged."""
    from clearance.shellparse.resolve import MAX_MATCHES

    found = _TRACKED_SECRETS.get(key)
    if found is not None:
        return found
    names = secret_names(fold)
    placed = anchored_secrets(directory, home, fold)
    top = root.rstrip("/")
    found = []
    for entry in entries:
        if prefix and not entry.startswith(prefix):
            continue
        path = top + "/" + entry
        if any(names.match(part) for part in entry.split("/")) or (
            placed is not None and placed.match(path)
        ):
            found.append(path)
            if len(found) > MAX_MATCHES:
                break
    found.sort()
    if len(_TRACKED_SECRETS) >= 64:
        _TRACKED_SECRETS.clear()
    stamp = key[1]
    if not racy(stamp[3]) and not racy(stamp[4]):
        _TRACKED_SECRETS[key] = found
    return found


# --- links the line creates ------------------------------------------------------------------


def _record_links(fact: SimpleCommandFacts, resolver: Resolver, symbolic: bool) -> None:
    """``ln [-s] TARGET LINK`` (or ``TARGET… DIR``), ``link``, ``cp -s``/``cp -l``: later
    parts see the link. A hard link is the target under another name (``ln .env x && cat
    x`` reads ``.env``): it is followed like a symbolic one, its target taken from the cwd."""
    operands: list[str] = []
    directory: str | None = None
    args = fact.argv[1:]
    k = 0
    while k < len(args):
        arg = args[k]
        if arg == "--":
            operands.extend(args[k + 1 :])
            break
        if arg in ("-t", "--target-directory") and k + 1 < len(args):
            directory = args[k + 1]
            k += 2
            continue
        if arg.startswith("--target-directory="):
            directory = arg.split("=", 1)[1]
        elif arg in ("-S", "--suffix"):
            k += 2
            continue
        elif not arg.startswith("-") or arg == "-":
            operands.append(arg)
        k += 1
    if directory is not None:
        operands.append(directory)  # every operand is a target, linked into it
    written = [p for p in fact.paths if p.source in ("argument", "option")]
    resolved = {p.path: p.resolved for p in written}
    if len(operands) < 2:
        return
    *targets, last = operands
    where = resolved.get(last)
    if where is None:
        return
    into_dir = len(targets) > 1 or directory is not None or resolver.is_dir(where)
    for written_target in targets:
        name = os.path.basename(written_target.rstrip("/"))
        link = os.path.join(where, name) if into_dir else where
        target = written_target
        if not symbolic:
            # a hard link names the target's own file: found from the cwd, links followed
            found = resolved.get(written_target)
            if found is None:
                continue
            target = found
        elif not target.startswith("/"):
            # a relative target is relative to the link's directory
            target = os.path.normpath(os.path.join(os.path.dirname(link), target))
        resolver.add_link(link, target)


# --- ignore files and the git index -----------------------------------------------------------


def _outside_git(names: tuple[str, ...]) -> tuple[str, ...]:
    """The ignore files that count outside a git repository (``.ignore``, ``.rgignore``)."""
    return tuple(n for n in names if n not in (".gitignore",))


def _user_git_configs(home: str) -> list[str]:
    """The user's git configuration files, in the order git reads them (the later wins):
    ``$XDG_CONFIG_HOME/git/config`` (default ``~/.config``), then ``~/.gitconfig``."""
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    return [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]


def _global_ignore_lines(home: str) -> list[str]:
    """The user's global excludes (git's ``core.excludesFile``, by default
    ``$XDG_CONFIG_HOME/git/ignore``), as git and ripgrep read them. When git would be told
    to read other configuration (``GIT_CONFIG_GLOBAL``, ``GIT_CONFIG_NOSYSTEM``…), none."""
    if any(k in os.environ for k in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_DIR")):
        return []
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    chosen = os.path.join(xdg, "git", "ignore")
    for config in _user_git_configs(home):
        section = ""
        for raw in _text_lines(config):
            line = raw.strip()
            if line.startswith("["):
                section = line.strip("[]").strip().lower()
                continue
            key, eq, value = line.partition("=")
            if eq and section == "core" and key.strip().lower() == "excludesfile":
                value = value.strip().strip('"')
                chosen = home + value[1:] if value.startswith("~/") else value
    return _text_lines(chosen) if chosen.startswith("/") else []


#: Files read for the facts (ignore files, git indexes), kept per process with the identity,
#: size and times of the file when read: reused only while one ``stat`` says it is unchanged.
_FILES: Final[dict[str, tuple[tuple[int, int, int, int, int], object]]] = {}


def _stamp(path: str) -> tuple[int, int, int, int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _text_lines(path: str) -> list[str]:
    """The lines of a small text file (the first 256 KiB); ``[]`` when it cannot be read."""
    stamp = _stamp(path)
    if stamp is None:
        return []
    cached = _FILES.get(path)
    if cached is not None and cached[0] == stamp and isinstance(cached[1], list):
        return cached[1]
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read(256 * 1024).splitlines()
    except OSError:
        return []
    _keep(path, stamp, lines)
    return lines


def _keep(path: str, stamp: tuple[int, int, int, int, int], value: object) -> None:
    if racy(stamp[3]) or racy(stamp[4]):
        return  # changed a moment ago: a change within the clock's tick would not show
    if len(_FILES) >= 1024:
        _FILES.clear()
    _FILES[path] = (stamp, value)


def _ignored(
    path: str,
    root: str,
    names: tuple[str, ...],
    *,
    git: bool,
    extra: list[str],
) -> str | None:
    """Which ignore file ignores ``path`` -- the global excludes (``extra``), then the
    repository's ``.git/info/exclude`` (with ``git``), then ``names`` in each directory from
    ``root`` down to ``path``'s own: the last matching line wins and ``!`` re-includes --
    or ``None``. Unreadable or odd lines never ignore."""
    rel_dirs = os.path.relpath(os.path.dirname(path), root).split("/")
    if rel_dirs[:1] == [".."]:
        return None
    directories = [root]
    for part in rel_dirs:
        if part not in ("", "."):
            directories.append(os.path.join(directories[-1], part))
    verdict: str | None = None
    sources: list[tuple[str, str, list[str]]] = [(root, "the global excludes file", extra)]
    if git:
        info = os.path.join(root, ".git", "info", "exclude")
        sources.append((root, ".git/info/exclude", _text_lines(info)))
    for directory in directories:
        for name in names:
            where = os.path.join(directory, name)
            sources.append((directory, os.path.relpath(where, root), _text_lines(where)))
    for base, label, lines in sources:
        rel = "/" + os.path.relpath(path, base)
        for raw in lines:
            line = raw.rstrip()
            if not line or line.startswith("#"):
                continue
            negated = line.startswith("!")
            dir_only = line.endswith("/")
            body = line[1:] if negated else line
            body = body.rstrip("/")
            if not body:
                continue
            try:
                regex = glob_to_regex(body, "/", descendants=not dir_only)
                if dir_only:
                    regex += "/.*"
                if re.fullmatch(regex, rel, re.DOTALL):
                    verdict = None if negated else f"{label}: {line}"
            except re.error:
                continue
    return verdict


def _tracked(path: str, root: str) -> bool | None:
    """Whether the git index at ``root`` lists ``path``; ``None`` when it cannot be read."""
    entries = _index_entries(root)
    if entries is None:
        return None
    return os.path.relpath(path, root) in entries


def _index_file(root: str) -> str | None:
    """The git index of the repository whose top is ``root`` (a ``gitdir:`` file followed)."""
    git = git_directory(root)
    return None if git is None else os.path.join(git, "index")


def git_directory(root: str) -> str | None:
    """The git directory of the repository whose top is ``root`` (a ``gitdir:`` file
    followed)."""
    git = os.path.join(root, ".git")
    try:
        if os.path.isfile(git):
            with open(git, encoding="utf-8") as f:
                line = f.readline().strip()
            if not line.startswith("gitdir:"):
                return None
            git = os.path.join(root, line[len("gitdir:") :].strip())
    except OSError:
        return None
    # a directory called .git is no repository without its HEAD (git says so, and prints
    # nothing of it)
    return git if os.path.isfile(os.path.join(git, "HEAD")) else None


#: What a git index records of each file, big-endian, in its first 40 bytes: ctime and mtime
#: (seconds, nanoseconds), device, inode, mode, uid, gid, size (each cut to 32 bits).
INDEX_STAT: Final = struct.Struct(">10I")


def changed_in_worktree(root: str, paths: list[str]) -> list[str]:
    """The tracked files among ``paths`` (under the repository's top ``root``) whose change
    ``git diff`` would print: the working tree's file no longer matches what the index
    recorded of it (its times, inode or size), is gone, or was written within the clock's
    tick of the index itself (git then compares the content: "racily clean"). What the index
    does not say -- it cannot be read, or a path is not in it -- counts as changed."""
    if not paths:
        return []
    found = _index_records(root, paths)
    if found is None:
        return list(paths)
    records, written = found
    return [
        path
        for path in paths
        if path not in records or _differs(path, INDEX_STAT.unpack(records[path][:40]), written)
    ]


def index_objects(root: str, paths: list[str]) -> dict[str, str] | None:
    """The object the index of the repository at ``root`` holds for each of ``paths`` (40
    hex digits; ``""``: not in the index); ``None`` when the index cannot be read."""
    found = _index_records(root, paths)
    if found is None:
        return None
    records = found[0]
    return {path: records[path][40:60].hex() if path in records else "" for path in paths}


def _index_records(root: str, paths: list[str]) -> tuple[dict[str, bytes], int] | None:
    """What the index of the repository at ``root`` records of each of ``paths`` (absolute,
    under ``root``) that it holds: its entry's first 60 bytes (``INDEX_STAT``, then the
    object's name), by path; and when the index was written. ``None``: it cannot be read."""
    index = _index_file(root)
    if index is None:
        return None
    top = root.rstrip("/")
    by_entry = {os.path.relpath(path, top): path for path in paths}
    stats: dict[str, bytes] = {}
    stamp = _stamp(index)  # (its modification time: when the index was written)
    data = _index_bytes(index)
    if stamp is None or data is None:
        return None
    if parse_index(data, None, set(by_entry), stats) is None:
        return None
    return {by_entry[entry]: record for entry, record in stats.items()}, stamp[3]


def _differs(path: str, recorded: tuple[int, ...], index_written: int) -> bool:
    """Whether the file at ``path`` may hold other content than the index entry ``recorded``
    (``INDEX_STAT``'s fields) says, by git's own test of its stat data."""
    try:
        info = os.lstat(path)
    except OSError:
        return True  # gone: ``git diff`` prints it whole, as removed lines
    ctime_s, ctime_ns, mtime_s, mtime_ns, _dev, inode, _mode, _uid, _gid, size = recorded
    mtime = mtime_s * 1_000_000_000 + mtime_ns
    return (
        info.st_mtime_ns != mtime
        or info.st_ctime_ns != ctime_s * 1_000_000_000 + ctime_ns
        or info.st_size & 0xFFFFFFFF != size
        or info.st_ino & 0xFFFFFFFF != inode
        or mtime >= index_written
    )


def _index_entries(root: str) -> set[str] | None:
    """The paths the git index of the repository at ``root`` tracks (``None``: unreadable)."""
    found = _index(root)
    return None if found is None else found[0]


def _index(root: str) -> tuple[set[str], set[str]] | None:
    """(tracked paths, those of them that are links or submodules), kept while unchanged."""
    index = _index_file(root)
    if index is None:
        return None
    stamp = _stamp(index)
    cached = _FILES.get(index)
    if stamp is not None and cached is not None and cached[0] == stamp:
        known = cached[1]
        return known if isinstance(known, tuple) else None
    data = _index_bytes(index)
    if data is None:
        return None
    links: set[str] = set()
    entries = parse_index(data, links)
    found = None if entries is None else (entries, links)
    if stamp is not None:
        _keep(index, stamp, found if found is not None else False)
    return found


#: Most of an index file read (bytes): past it the entries are cut short, and ``parse_index``
#: refuses what it cannot read whole.
MAX_INDEX_BYTES: Final = 64 * 1024 * 1024


def _index_bytes(index: str) -> bytes | None:
    """The index file's bytes, at most ``MAX_INDEX_BYTES`` (``None``: it cannot be read)."""
    try:
        with open(index, "rb") as f:
            return f.read(MAX_INDEX_BYTES)
    except OSError:
        return None


def parse_index(
    data: bytes,
    links: set[str] | None = None,
    wanted: set[str] | None = None,
    stats: dict[str, bytes] | None = None,
) -> set[str] | None:
    """The paths of a git index (versions 2, 3 and 4); ``None`` if it is not one. ``links``
    collects those that are not plain files: symbolic links and submodules; ``stats`` the
    recorded file data of the ``wanted`` paths (``INDEX_STAT``: times, device, inode, mode,
    owner, size as git saw the file when it last wrote the entry, then the object's name)."""
    if len(data) < 12 or data[:4] != b"DIRC":
        return None
    version = int.from_bytes(data[4:8], "big")
    count = int.from_bytes(data[8:12], "big")
    if version not in (2, 3, 4):
        return None
    out: set[str] = set()
    at = 12
    previous = b""
    for _ in range(count):
        if at + 62 > len(data):
            return None
        flags = int.from_bytes(data[at + 60 : at + 62], "big")
        mode = int.from_bytes(data[at + 24 : at + 28], "big")
        start = at
        at += 62
        if version >= 3 and flags & 0x4000:
            at += 2
        if version == 4:
            strip, at = _varint(data, at)
            end = data.index(b"\0", at)
            name = previous[: len(previous) - strip] + data[at:end]
            at = end + 1
        else:
            end = data.index(b"\0", at)
            name = data[at:end]
            length = end - start
            at = start + ((length + 8) // 8) * 8
        previous = name
        text = name.decode("utf-8", "surrogateescape")
        out.add(text)
        if stats is not None and wanted is not None and text in wanted:
            stats[text] = data[start : start + 60]
        if links is not None and mode >> 12 in (0o12, 0o16):  # 120000 link, 160000 gitlink
            links.add(text)
    return out


def _varint(data: bytes, at: int) -> tuple[int, int]:
    byte = data[at]
    at += 1
    value = byte & 0x7F
    while byte & 0x80:
        value += 1
        byte = data[at]
        at += 1
        value = (value << 7) + (byte & 0x7F)
    return value, at
