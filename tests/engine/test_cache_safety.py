"""The policy cache trusts nothing in its directory: ownership, modes, links and FIFOs are
checked, anything off is a miss, a broken key is replaced."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from clearance.engine import cache
from clearance.engine.api import load_policy, policy_sources

POLICY = """\
version: 1
id: p
rules:
  - id: no-rm
    decision: deny
    reason: no deletes
    when: {program: rm}
"""


@pytest.fixture
def setup(tmp_path: Path) -> tuple[dict[str, str], Path, str]:
    env = {"CLEARANCE_CACHE_DIR": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    policy_file = tmp_path / "p.yaml"
    policy_file.write_text(POLICY)
    load_policy(str(tmp_path), files=[str(policy_file)], env=env)
    key = cache.key_for(policy_sources(str(tmp_path), [str(policy_file)], env))
    assert cache.load(key, env) is not None
    return env, tmp_path / "cache", key


def test_created_private(setup: tuple[dict[str, str], Path, str]) -> None:
    _, directory, key = setup
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert stat.S_IMODE((directory / "key").stat().st_mode) == 0o600
    assert stat.S_IMODE((directory / f"policy-{key}.json").stat().st_mode) == 0o600
    assert [p.name for p in directory.iterdir() if p.name.endswith(".tmp")] == []


def test_a_readable_key_is_a_miss_then_replaced(setup: tuple[dict[str, str], Path, str]) -> None:
    env, directory, key = setup
    os.chmod(directory / "key", 0o644)
    assert cache.load(key, env) is None
    old = (directory / "key").read_bytes()
    cache.store(key, [], env)
    assert (directory / "key").read_bytes() != old
    assert stat.S_IMODE((directory / "key").stat().st_mode) == 0o600
    assert cache.load(key, env) == []


def test_a_key_of_the_wrong_length_is_replaced_not_left_to_disable_caching(
    setup: tuple[dict[str, str], Path, str],
) -> None:
    env, directory, key = setup
    (directory / "key").write_bytes(b"short")
    assert cache.load(key, env) is None
    cache.store(key, [], env)
    assert len((directory / "key").read_bytes()) == 32
    assert cache.load(key, env) == []


def test_fifos_as_key_or_entry_do_not_hang(setup: tuple[dict[str, str], Path, str]) -> None:
    env, directory, key = setup
    start = time.monotonic()
    entry = directory / f"policy-{key}.json"
    entry.unlink()
    os.mkfifo(entry)
    assert cache.load(key, env) is None
    entry.unlink()
    cache.store(key, [], env)
    (directory / "key").unlink()
    os.mkfifo(directory / "key")
    assert cache.load(key, env) is None
    cache.store(key, [], env)  # the FIFO key is replaced
    assert stat.S_ISREG((directory / "key").lstat().st_mode)
    assert cache.load(key, env) == []
    assert time.monotonic() - start < 5


def test_a_linked_key_or_entry_is_a_miss(
    setup: tuple[dict[str, str], Path, str], tmp_path: Path
) -> None:
    env, directory, key = setup
    entry = directory / f"policy-{key}.json"
    elsewhere = tmp_path / "elsewhere.json"
    os.replace(entry, elsewhere)
    entry.symlink_to(elsewhere)
    assert cache.load(key, env) is None
    entry.unlink()
    os.replace(elsewhere, entry)
    assert cache.load(key, env) is not None
    real_key = tmp_path / "real-key"
    os.replace(directory / "key", real_key)
    (directory / "key").symlink_to(real_key)
    assert cache.load(key, env) is None


def test_entries_of_another_user_or_readable_by_others_are_a_miss(
    setup: tuple[dict[str, str], Path, str],
) -> None:
    env, directory, key = setup
    entry = directory / f"policy-{key}.json"
    os.chmod(entry, 0o644)
    assert cache.load(key, env) is None
    os.chmod(entry, 0o600)
    assert cache.load(key, env) is not None
    if os.geteuid() == 0:
        os.chown(entry, 12345, -1)
        assert cache.load(key, env) is None


def test_an_open_or_linked_cache_directory_is_never_trusted(
    setup: tuple[dict[str, str], Path, str], tmp_path: Path
) -> None:
    env, directory, key = setup
    os.chmod(directory, 0o777)
    assert cache.load(key, env) is None
    cache.store(key, [], env)  # ours: tightened, and used again
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert cache.load(key, env) == []
    target = tmp_path / "target"
    target.mkdir(mode=0o700)
    linked = tmp_path / "linked-cache"
    linked.symlink_to(target)
    env2 = {**env, "CLEARANCE_CACHE_DIR": str(linked)}
    cache.store(key, [], env2)
    assert list(target.iterdir()) == []  # nothing written through the link
    assert cache.load(key, env2) is None


def test_a_broken_policy_is_cached_as_broken_until_a_file_it_names_changes(
    tmp_path: Path,
) -> None:
    from clearance.engine.errors import PolicyError

    env = {"CLEARANCE_CACHE_DIR": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    base = tmp_path / "base.yaml"
    base.write_text("version: 1\nid: base\nrules: [\n")  # broken
    top = tmp_path / "top.yaml"
    top.write_text("version: 1\nid: top\nextends: [base.yaml]\nrules: []\n")
    with pytest.raises(PolicyError) as first:
        load_policy(str(tmp_path), files=[str(top)], env=env)
    assert list((tmp_path / "cache").glob("error-*.json"))
    with pytest.raises(PolicyError) as again:
        load_policy(str(tmp_path), files=[str(top)], env=env)
    assert [str(i) for i in again.value.issues] == [str(i) for i in first.value.issues]
    base.write_text(POLICY.replace("id: p", "id: base"))  # the extended file is fixed
    policy = load_policy(str(tmp_path), files=[str(top)], env=env)
    assert [r.id for r in policy.rules] == ["no-rm"]
