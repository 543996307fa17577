"""``git log -p`` prints every commit's changes: in a repository whose index tracks a secret,
that secret is read (from the real index of a real repository), and nowhere else."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from clearance.shellparse import classify


def _repo(root: Path, files: dict[str, str]) -> Path:
    root.mkdir()
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    return root


@pytest.fixture
def tracked(tmp_path: Path) -> Path:
    return _repo(tmp_path / "tracks", {".env": "API_KEY=x\n", "src/app.py": "print(1)\n"})


@pytest.fixture
def clean(tmp_path: Path) -> Path:
    return _repo(tmp_path / "clean", {"src/app.py": "print(1)\n", "README.md": "# r\n"})


def _reads(command: str, repo: Path) -> list[tuple[str | None, str]]:
    facts = classify(command, cwd=str(repo), home=str(repo.parent / "home"))
    return [(p.resolved, p.source) for c in facts.commands for p in c.paths if p.access == "read"]


@pytest.mark.parametrize("command", ["git log -p", "git log --patch -5", "git whatchanged -p"])
def test_the_whole_history_reads_the_tracked_secret(command: str, tracked: Path) -> None:
    assert (str(tracked / ".env"), "revision") in _reads(command, tracked)


@pytest.mark.parametrize("command", ["git log -p", "git log --patch -5"])
def test_no_tracked_secret_nothing_read(command: str, clean: Path) -> None:
    assert _reads(command, clean) == []


@pytest.mark.parametrize(
    "command", ["git log --oneline", "git log --stat", "git log -p -- src", "git log -p src"]
)
def test_no_patch_or_a_pathspec_reads_no_secret(command: str, tracked: Path) -> None:
    assert all(path != str(tracked / ".env") for path, _ in _reads(command, tracked))


def test_the_text_alone_reads_no_index(tracked: Path) -> None:
    facts = classify("git log -p", cwd=str(tracked), home="/home/u", resolve=False)
    assert [p for c in facts.commands for p in c.paths] == []


@pytest.mark.parametrize("command", ["git -C src log -p", "cd src && git log -p"])
def test_from_a_subdirectory_the_whole_history_still(command: str, tracked: Path) -> None:
    """``git -C src log -p`` walks the same repository's whole history: ``src`` is no
    pathspec."""
    assert (str(tracked / ".env"), "revision") in _reads(command, tracked)


@pytest.mark.parametrize(
    "command", ["git -C src log --oneline", "git -C src log -p app.py", "git -C src log -p -- ."]
)
def test_from_a_subdirectory_a_pathspec_narrows(command: str, tracked: Path) -> None:
    assert all(path != str(tracked / ".env") for path, _ in _reads(command, tracked))


def test_a_nested_repository_is_another_history(tracked: Path) -> None:
    """A repository inside the workspace (its own ``.git``) has its own history: the
    workspace's tracked secret is not in it."""
    nested = tracked / "vendor" / "lib"
    nested.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(nested)], check=True)
    assert all(
        path != str(tracked / ".env") for path, _ in _reads("git -C vendor/lib log -p", tracked)
    )
    assert (str(tracked / ".env"), "revision") in _reads("git -C vendor log -p", tracked)


# --- git diff: the working tree's changes to tracked files ------------------------------------


def _secret_read(command: str, repo: Path) -> bool:
    facts = classify(command, cwd=str(repo), home=str(repo.parent / "home"))
    return any("secret_read" in c.classes for c in facts.commands)


def _edit(repo: Path) -> None:
    (repo / ".env").write_text("API_KEY=changed\n")


def _remove(repo: Path) -> None:
    (repo / ".env").unlink()


@pytest.mark.parametrize("change", [_edit, _remove], ids=["edited", "deleted"])
@pytest.mark.parametrize(
    "command", ["git diff", "git diff HEAD", "git diff -U0", "git diff --stat -p", "git diff ."]
)
def test_git_diff_prints_a_tracked_secret_changed_in_the_working_tree(
    command: str, change: object, tracked: Path
) -> None:
    """``git diff`` shows what changed since the index recorded each file: an edited
    ``.env`` is printed, old line and new, a deleted one whole. Which files changed comes from
    the index's record of each (times, inode, size) against the file's own ``stat``."""
    assert callable(change)
    change(tracked)
    assert (str(tracked / ".env"), "revision") in _reads(command, tracked)
    assert _secret_read(command, tracked)


@pytest.mark.parametrize(
    "command", ["git diff", "git diff HEAD", "git diff -U0", "git diff --stat -p", "git diff ."]
)
def test_git_diff_of_an_unchanged_tracked_secret_reads_nothing(command: str, tracked: Path) -> None:
    """The twin: the secret is tracked, but its file is as the index recorded it (another
    tracked file changed): nothing of it is printed."""
    (tracked / "src" / "app.py").write_text("print(2)\n")
    assert not _secret_read(command, tracked)


@pytest.mark.parametrize(
    "command",
    [
        "git diff --stat",  # names and counts, no line
        "git diff --name-only",
        "git diff src",  # a pathspec that leaves the secret out
        "git diff HEAD~1 HEAD",  # two revisions
        "git diff -- src/app.py",
    ],
)
def test_git_diff_that_leaves_the_changed_secret_out_reads_nothing(
    command: str, tracked: Path
) -> None:
    _edit(tracked)
    assert not _secret_read(command, tracked)


def test_git_diff_naming_the_secret_reads_it_as_its_double_dash_form_does(tracked: Path) -> None:
    """``git diff .env`` is ``git diff -- .env``: the file named is read, changed or not."""
    assert _secret_read("git diff .env", tracked)
    assert _secret_read("git diff -- .env", tracked)


def test_git_diff_after_the_index_caught_up_reads_nothing(tracked: Path) -> None:
    """A file touched but not changed differs from the record until git looks again (it
    compares the content then, and records the new times): read until then, not after."""
    import os
    import time

    past = time.time() - 10  # another second than the one recorded, as git compares them
    os.utime(tracked / ".env", (past, past))
    assert _secret_read("git diff", tracked)
    subprocess.run(["git", "-C", str(tracked), "update-index", "--refresh", "-q"], check=False)
    assert not _secret_read("git diff", tracked)


def test_git_diff_of_a_racily_clean_secret_reads_it(tracked: Path) -> None:
    """An entry the index wrote no later than the file's own last change ("racily clean":
    the file may have changed again within the same tick, stat and all) is one git compares
    by content: it may be printed, so it is read; its twin, the index written after, is not."""
    import os

    index = tracked / ".git" / "index"
    assert not _secret_read("git diff", tracked)
    recorded = (tracked / ".env").stat().st_mtime_ns
    os.utime(index, ns=(recorded, recorded))
    assert _secret_read("git diff", tracked)


# --- what commits and the index hold: git show, git diff --cached, git diff A B ----------------


@pytest.fixture(params=["loose", "packed"])
def history(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """A repository whose first commit added ``.env`` (beside ``src/app.py``), whose second
    changed ``app.py`` only and whose third changed ``.env``; its objects loose, or packed."""
    root = _repo(tmp_path / "history", {".env": "API_KEY=x\n", "src/app.py": "print(1)\n"})
    git = ["git", "-C", str(root), "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    (root / "src" / "app.py").write_text("print(2)\n")
    subprocess.run([*git, "commit", "-qam", "two"], check=True)
    (root / ".env").write_text("API_KEY=y\n")
    subprocess.run([*git, "commit", "-qam", "three"], check=True)
    if request.param == "packed":
        subprocess.run([*git, "gc", "-q"], check=True)
    return root


def _markers(command: str, repo: Path) -> set[str]:
    facts = classify(command, cwd=str(repo), home=str(repo.parent / "home"))
    return {m for c in facts.commands for m in c.markers}


@pytest.mark.parametrize(
    "command",
    [
        "git show",  # HEAD changed it
        "git show HEAD~2",  # the commit that added it
        "git show HEAD --oneline",
        "git diff HEAD~1 HEAD",
        "git diff HEAD~2..HEAD",
        "git diff HEAD~1",  # the index (as HEAD) against the commit before
        "git diff --cached HEAD~1",
    ],
)
def test_what_commits_hold_of_a_secret_differently_is_printed(command: str, history: Path) -> None:
    """Which side holds the secret otherwise is read from the repository's objects: the
    commits' trees along the secret's path, and the index's record of it."""
    assert (str(history / ".env"), "revision") in _reads(command, history)
    assert _secret_read(command, history)


@pytest.mark.parametrize(
    "command",
    [
        "git show HEAD~1",  # a commit that did not touch it
        "git show --stat",  # names and counts only
        "git show -s",
        "git diff HEAD~2 HEAD~1",  # both hold it alike
        "git diff --cached",  # nothing staged
        "git show src",  # a pathspec that leaves it out
        "git diff HEAD~1 HEAD src",
    ],
)
def test_twins_that_print_nothing_of_the_secret(command: str, history: Path) -> None:
    assert not _secret_read(command, history)
    assert "unresolved_path" not in _markers(command, history)


def test_a_staged_change_of_the_secret_is_printed_by_diff_cached(history: Path) -> None:
    (history / "src" / "app.py").write_text("print(3)\n")
    subprocess.run(["git", "-C", str(history), "add", "src/app.py"], check=True)
    assert not _secret_read("git diff --cached", history)  # the twin: another file staged
    (history / ".env").write_text("API_KEY=z\n")
    subprocess.run(["git", "-C", str(history), "add", ".env"], check=True)
    assert _secret_read("git diff --cached", history)
    assert _secret_read("git diff --staged HEAD", history)


@pytest.mark.parametrize(
    "command", ["git show HEAD@{1}", "git show HEAD~1..HEAD", "git diff A...B"]
)
def test_a_revision_not_read_here_leaves_the_line_unresolved(command: str, history: Path) -> None:
    """The reflog, every commit of a range, a merge base: not read here -- not known, so the
    line is unresolved (never allowed by that), not taken as printing nothing."""
    assert "unresolved_path" in _markers(command, history)


def test_a_stash_that_holds_the_secret_changed_prints_it(history: Path) -> None:
    """``git stash show -p`` prints a stash against the commit it was made on: read from the
    stash's log and the objects, as ``git show``'s commit is. Its twin, a stash of another
    file; names and counts only (``--stat``); a stash that is not there: unresolved."""
    git = ["git", "-C", str(history), "-c", "user.email=a@b", "-c", "user.name=a"]
    (history / ".env").write_text("API_KEY=stashed\n")
    subprocess.run([*git, "stash", "-q"], check=True)
    (history / "src" / "app.py").write_text("print(9)\n")
    subprocess.run([*git, "stash", "-q"], check=True)
    assert not _secret_read("git stash show -p", history)  # stash@{0}: app.py
    for command in ("git stash show -p stash@{1}", "git stash show -p 1", "git stash show 1"):
        assert (str(history / ".env"), "revision") in _reads(command, history), command
    assert not _secret_read("git stash show --stat stash@{1}", history)
    assert "unresolved_path" in _markers("git stash show -p stash@{7}", history)


def test_a_shallow_clones_last_commit_shows_every_tracked_file_as_added(
    history: Path, tmp_path: Path
) -> None:
    """A clone of depth one (a CI checkout) holds its commit without the parents: git takes it
    for a root and ``git show`` prints every tracked file as added -- the secret among them,
    read and not left unknown for the parent's missing objects."""
    shallow = tmp_path / "shallow"
    source = f"file://{history}"
    subprocess.run(["git", "clone", "-q", "--depth", "1", source, str(shallow)], check=True)
    assert (str(shallow / ".env"), "revision") in _reads("git show", shallow)
    assert "unresolved_path" not in _markers("git show", shallow)
    assert "unresolved_path" in _markers("git show HEAD~1", shallow)  # beyond the clone


@pytest.mark.parametrize("packed", [False, True], ids=["loose", "packed"])
def test_a_secret_committed_once_and_untracked_since_is_printed_by_the_commits_that_hold_it(
    tmp_path: Path, packed: bool
) -> None:
    """The classic leak: ``.env`` committed, then ``git rm --cached .env`` -- the index no
    longer tracks it, but the commit that added it and the one that removed it print it
    (``git show``, ``git diff A B``). What differs between the commits is read from their
    trees, whatever the index says now; a later commit that touched other files is the
    twin."""
    root = _repo(tmp_path / "leak", {".env": "API_KEY=x\n", "src/app.py": "print(1)\n"})
    git = ["git", "-C", str(root), "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*git, "commit", "-qm", "added"], check=True)
    subprocess.run([*git, "rm", "-q", "--cached", ".env"], check=True)
    subprocess.run([*git, "commit", "-qm", "untracked"], check=True)
    (root / "src" / "app.py").write_text("print(2)\n")
    subprocess.run([*git, "commit", "-qam", "other"], check=True)
    if packed:
        subprocess.run([*git, "gc", "-q"], check=True)
    for command in (
        "git show HEAD~2",
        "git show HEAD~1",
        "git diff HEAD~2 HEAD",
        "git diff HEAD~2..HEAD~1",
    ):
        assert (str(root / ".env"), "revision") in _reads(command, root), command
    for command in ("git show", "git show HEAD~1 -- src", "git diff HEAD~1 HEAD"):
        assert not _secret_read(command, root), command


def test_before_the_first_commit_the_index_is_compared_with_nothing(tracked: Path) -> None:
    """A repository just made (``.env`` staged, no commit yet): ``git diff --cached`` prints
    every staged file as new, the secret too; ``git show`` has nothing to show -- nothing
    read, nothing unknown. A directory called ``.git`` without a ``HEAD`` is no repository:
    nothing printed, nothing unknown."""
    assert _secret_read("git diff --cached", tracked)
    assert not _secret_read("git show", tracked)
    assert "unresolved_path" not in _markers("git show", tracked)
    (tracked / ".git" / "HEAD").unlink()
    for command in ("git show", "git diff HEAD~1 HEAD", "git diff --cached"):
        assert not _secret_read(command, tracked), command
        assert "unresolved_path" not in _markers(command, tracked), command


@pytest.mark.parametrize(
    "command", ["git diff HEAD~1...HEAD", "git show HEAD~1..HEAD", "git show HEAD@{1}"]
)
def test_what_is_not_read_here_asks_only_where_a_secret_is_tracked(
    command: str, tmp_path: Path
) -> None:
    """The twin of the unresolved revisions: in a repository that tracks no secret, a
    three-dot diff or a range (a branch's review) is judged as before, not asked of for a
    secret committed once that nothing points to."""
    root = _repo(tmp_path / "plain", {"src/app.py": "print(1)\n", "README.md": "# r\n"})
    git = ["git", "-C", str(root), "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    (root / "src" / "app.py").write_text("print(2)\n")
    subprocess.run([*git, "commit", "-qam", "two"], check=True)
    assert "unresolved_path" not in _markers(command, root)
    assert not _secret_read(command, root)
