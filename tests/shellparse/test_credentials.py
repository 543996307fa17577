"""The credential matcher of file contents: each credential format with a twin that names a
secret without holding one, and files that are not regular are not read."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from clearance.shellparse.credentials import SNIFF_BYTES, credential_shaped, holds_credential


@pytest.mark.parametrize(
    ("fmt", "holds", "twin"),
    [
        ("private-key", "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n", "a PRIVATE KEY is kept safe\n"),
        ("dotenv", "DB_PASSWORD=hunter2\n", "DB_PASSWORD = os.environ['DB_PASSWORD']\n"),
        ("dotenv-export", "export API_TOKEN=abc\n", "api_token = get_token()\n"),
        ("aws-ini", "[default]\naws_secret_access_key = wJalr\n", "[default]\nregion = eu\n"),
        ("netrc", "machine h.example login me password p4ss\n", "password = args.password\n"),
        ("token", "key: AKIAABCDEFGHIJKLMNOP\n", "key: AKIA-example\n"),
        ("js-object", "ghp_" + "a" * 36 + "\n", "  token: options.token,\n"),
    ],
)
def test_file_formats(tmp_path: Path, fmt: str, holds: str, twin: str) -> None:
    (tmp_path / "a").write_text(holds)
    (tmp_path / "b").write_text(twin)
    assert holds_credential(str(tmp_path / "a")), fmt
    assert not holds_credential(str(tmp_path / "b")), fmt


def test_only_the_head_of_a_file_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.write_text("x" * SNIFF_BYTES + "\nAPI_TOKEN=abc\n")
    assert not holds_credential(str(big))  # bounded: a credential file is small


def test_what_is_not_a_regular_file_is_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done: list[bool] = []
    worker = threading.Thread(target=lambda: done.append(holds_credential(str(fifo))))
    worker.start()
    worker.join(5)
    assert done == [False]  # neither blocked on the pipe nor read it
    assert not holds_credential(str(tmp_path))
    assert not holds_credential(str(tmp_path / "missing"))
    link = tmp_path / "link"
    (tmp_path / "target").write_text("API_TOKEN=abc\n")
    link.symlink_to(tmp_path / "target")
    assert not holds_credential(str(link))  # the caller resolves links first


def test_queries_and_urls() -> None:
    assert credential_shaped("https://x.example/?api_key=0123456789abcdef")
    assert not credential_shaped("https://x.example/?page=2")


def test_a_file_read_before_is_read_again_once_it_changes(tmp_path: Path) -> None:
    """The answer is kept per file identity, size and times -- and only for a file that
    last changed longer ago than the clock's tick: what a file holds now is what counts."""
    import time

    from clearance.shellparse import credentials

    plain, key = tmp_path / "plain", tmp_path / "key"
    plain.write_text("# notes\n")
    key.write_text("API_TOKEN=abc\n")
    fresh = tmp_path / "fresh"
    fresh.write_text("# notes\n")
    assert not holds_credential(str(fresh))
    assert not credentials._SNIFFED or all(
        k[1] != fresh.stat().st_ino for k in credentials._SNIFFED
    )
    time.sleep(2.1)  # older than RACY_NS now: kept
    assert not holds_credential(str(plain)) and holds_credential(str(key))
    kept = {k[1]: v for k, v in credentials._SNIFFED.items()}
    assert kept[plain.stat().st_ino] is False and kept[key.stat().st_ino] is True
    # the same inode rewritten (its size and times change): read again, not the answer kept
    with open(plain, "w") as fh:
        fh.write("DB_PASSWORD=hunter2\n")
    assert holds_credential(str(plain))
    with open(key, "w") as fh:
        fh.write("API_TOKEN = get()\n")
    assert not holds_credential(str(key))
