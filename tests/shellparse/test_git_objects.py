"""``gitobjects.Repository`` against git itself, on a real repository: every revision
spelling it reads names the commit ``git rev-parse`` names, every path the object git names
(``""`` where there is none), every commit's parents git's -- with the objects loose, and
again packed (``git gc``: deltas against other objects, offsets and names), and with a
revision it does not read (the reflog, a range) answered as not known, never as another
commit."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from clearance.shellparse.gitobjects import Repository

PATHS = [".env", "d/e/big.txt", "f1.txt", "s.txt", "d", "d/e", "nope", "d/nope/x", ".env/x"]
REVISIONS = ["HEAD", "@", "HEAD~1", "HEAD~5", "HEAD^", "HEAD^2", "HEAD~1^2", "HEAD^1~3"]
REVISIONS += ["v1", "v2", "v2~2", "main", "side", "refs/tags/v2", "refs/heads/side"]


def _git(repo: Path, *args: str) -> str | None:
    command = ["git", "-C", str(repo), *args]
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("objects") / "repo"
    root.mkdir()
    run = ["git", "-C", str(root), "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    for i in range(1, 31):
        (root / "d" / "e").mkdir(parents=True, exist_ok=True)
        (root / "d" / "e" / "big.txt").write_text("".join(f"{n}\n" for n in range(i * 50)))
        (root / ".env").write_text(f"KEY={i}\n")
        (root / f"f{i % 5}.txt").write_text(f"{i}\n")
        subprocess.run([*run, "add", "-A"], check=True)
        subprocess.run([*run, "commit", "-qm", f"c{i}"], check=True)
        if i == 10:
            subprocess.run([*run, "tag", "v1"], check=True)
        if i == 20:
            subprocess.run([*run, "tag", "-a", "v2", "-m", "two"], check=True)
    subprocess.run([*run, "checkout", "-qb", "side", "HEAD~3"], check=True)
    (root / "s.txt").write_text("s\n")
    subprocess.run([*run, "add", "-A"], check=True)
    subprocess.run([*run, "commit", "-qm", "side"], check=True)
    subprocess.run([*run, "checkout", "-q", "main"], check=True)
    subprocess.run([*run, "merge", "-q", "--no-edit", "side"], check=True)
    return root


def _mismatches(repo: Path) -> list[tuple[str, ...]]:
    wrong: list[tuple[str, ...]] = []
    short = _git(repo, "rev-parse", "--short=7", "HEAD~7") or ""
    full = _git(repo, "rev-parse", "HEAD~7") or ""
    for revision in [*REVISIONS, short, full]:
        repository = Repository(str(repo / ".git"))
        mine = repository.commit(revision)
        theirs = _git(repo, "rev-parse", "--verify", "-q", revision + "^{commit}")
        if mine != theirs:
            wrong.append(("commit", revision, str(mine), str(theirs)))
        if mine is None:
            continue
        for path in PATHS:
            found = Repository(str(repo / ".git")).blob_at(mine, path)
            expected = _git(repo, "rev-parse", "-q", "--verify", f"{mine}:{path}") or ""
            if found != expected:
                wrong.append(("object", revision, path, str(found), expected))
        parents = (_git(repo, "rev-list", "--parents", "-n1", mine) or "").split()[1:]
        if repository.parents(mine) != parents:
            wrong.append(("parents", revision))
    return wrong


def test_loose_objects_read_as_git_reads_them(repo: Path) -> None:
    assert _mismatches(repo) == []


def _packed(repo: Path, tmp_path: Path) -> Path:
    """A copy of ``repo`` with every object in a pack (deltas against each other)."""
    packed = tmp_path / "packed"
    subprocess.run(["git", "clone", "-q", "--mirror", str(repo), str(packed / ".git")], check=True)
    subprocess.run(["git", "-C", str(packed), "gc", "-q", "--aggressive"], check=True)
    return packed


def test_packed_objects_read_as_git_reads_them(repo: Path, tmp_path: Path) -> None:
    packed = _packed(repo, tmp_path)
    assert not list((packed / ".git" / "objects").glob("??/*"))  # every object in a pack
    assert _mismatches(packed) == []


@pytest.mark.parametrize("revision", ["HEAD@{1}", "HEAD~1..HEAD", "no-such-branch", "zzzz", "a"])
def test_what_it_does_not_read_is_not_known(repo: Path, revision: str) -> None:
    assert Repository(str(repo / ".git")).commit(revision) is None


def test_a_damaged_object_is_not_known(repo: Path, tmp_path: Path) -> None:
    """A loose object that does not inflate is no answer (not an exception, not a guess)."""
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(repo / ".git", broken / ".git")
    head = _git(repo, "rev-parse", "HEAD") or ""
    loose = broken / ".git" / "objects" / head[:2] / head[2:]
    loose.parent.mkdir(exist_ok=True)
    if loose.exists():
        loose.chmod(0o700)
    loose.write_bytes(b"not zlib")
    repository = Repository(str(broken / ".git"))
    assert Repository(str(repo / ".git")).commit(head) == head
    assert repository.commit(head) is None
    assert repository.commit("HEAD") is None
    assert repository.blob_at(head, ".env") is None
    assert repository.parents(head) is None


@pytest.mark.parametrize("packed", [False, True], ids=["loose", "packed"])
def test_what_changed_between_two_commits_is_what_git_diff_names(
    repo: Path, tmp_path: Path, packed: bool
) -> None:
    """``Repository.changed`` against ``git diff --name-only`` (and, for a root commit,
    ``git diff-tree --root``): commits near and far apart, a merge and its parents, a tag."""
    if packed:
        repo = _packed(repo, tmp_path)
    repository = Repository(str(repo / ".git"))
    pairs = [("HEAD~1", "HEAD"), ("HEAD~5", "HEAD"), ("v1", "v2"), ("HEAD^2", "HEAD"), ("v2", "v1")]
    for old, new in pairs:
        a, b = repository.commit(old), repository.commit(new)
        assert a is not None and b is not None
        expected = sorted((_git(repo, "diff", "--name-only", a, b) or "").split())
        assert sorted(repository.changed(a, b) or []) == expected, (old, new)
    root = _git(repo, "rev-list", "--max-parents=0", "HEAD") or ""
    named = _git(repo, "diff-tree", "--root", "--no-commit-id", "-r", "--name-only", root)
    assert sorted(repository.changed(None, root) or []) == sorted((named or "").split())


@pytest.mark.parametrize("packed", [False, True], ids=["loose", "packed"])
def test_what_it_inflates_is_bounded(repo: Path, tmp_path: Path, packed: bool) -> None:
    """Every byte inflated -- objects, deltas and what they rebuild -- counts against one
    budget per repository read: past it the answer is not known, however large the objects
    (the default budget answers the same questions)."""
    if packed:
        repo = _packed(repo, tmp_path)
    head = _git(repo, "rev-parse", "HEAD") or ""
    root = _git(repo, "rev-list", "--max-parents=0", "HEAD") or ""
    assert Repository(str(repo / ".git")).changed(root, head)
    tight = Repository(str(repo / ".git"), budget=100)  # less than one commit object
    assert tight.changed(root, head) is None
    assert tight.inflated > 100
