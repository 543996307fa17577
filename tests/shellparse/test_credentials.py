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


# --- the literal runs looked for before the expression (``_may_hold``) ----------------------


def test_the_folds_are_all_that_re_takes_for_an_ascii_letter() -> None:
    """``_ASCII_FOLDS`` is every character beyond ASCII that ``re`` matches case-insensitively
    with an ASCII letter, on this Python: a new one would let a match through unfolded."""
    import re
    import string

    from clearance.shellparse.credentials import _ASCII_FOLDS

    letter = re.compile("(?i)[a-z]")
    found = {}
    for code in range(0x80, 0x110000):
        char = chr(code)
        if letter.fullmatch(char):
            found[code] = "".join(
                c for c in string.ascii_lowercase if re.fullmatch("(?i)" + c, char)
            )
    assert found == _ASCII_FOLDS


#: Text every branch of the file expression matches, spelled with what case-insensitive
#: matching allows (the exotic folds included), each beside junk that holds none of the runs.
_MATCHING = [
    "AKIA" + "Z" * 16,
    "ak\u0130a" + "Q" * 16,  # dotted capital I
    "as\u0131a" + "0" * 16,  # dotless i
    "gh\u017f_" + "a" * 30,  # long s
    "GHP_" + "b" * 30,
    "github_pat_" + "c" * 40,
    "GLPAT-" + "d" * 20,
    "\u017f\u212a-proj-" + "e" * 20,  # long s, Kelvin sign
    "xoxb-" + "f" * 10,
    "AIza" + "g" * 35,
    "YA29." + "h" * 20,
    "npm_" + "i" * 36,
    "PyPI-" + "j" * 50,
    "-----BEGIN OPENSSH PRIVATE KEY-----",
    "eyJ" + "k" * 10 + ".eyJ" + "l" * 10 + "." + "m" * 10,
    "export GITHUB_TOKEN=x",
    "MY_APIKEY=x",
    "ACCESS_KEY_ID=x",
    "PRIVATEKEY=x",
    "CREDENTIALS=x",
    "DB_PASSWD=x",
    "  AWS_SECRET_ACCESS_KEY = x",
    "aw\u017f_se\u017f\u017fion_token=x",
    "machine h login u password p",
    "default password p",
]


@pytest.mark.parametrize("text", _MATCHING)
def test_what_the_expression_matches_holds_a_run(text: str) -> None:
    from clearance.shellparse.credentials import _IN_FILE, _may_hold

    for framed in (text, "\x00\xff junk\n" + text + "\n\ufffd more"):
        assert _IN_FILE.rx.search(framed) is not None, framed
        assert _may_hold(framed), framed


def test_an_executable_without_the_runs_is_not_searched(tmp_path: Path) -> None:
    """Bytes of a program (not UTF-8, NULs, no token): no run, no match -- and with a token
    inside, found as before."""
    from clearance.shellparse.credentials import _may_hold

    body = bytes(range(256)).replace(b"=", b"").replace(b"\n", b"") * 200
    plain = tmp_path / "plain"
    plain.write_bytes(body)
    assert not _may_hold(body.decode("utf-8", "replace"))
    assert not holds_credential(str(plain))
    keyed = tmp_path / "keyed"
    keyed.write_bytes(body[:20000] + b"\nAKIAABCDEFGHIJKLMNOP\n" + body[20000:])
    assert holds_credential(str(keyed))


def test_no_match_without_a_run() -> None:
    """Text made of the runs' pieces, of their case variants and folds: wherever the
    expression matches, a run is there (``_may_hold`` never hides a match)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from clearance.shellparse.credentials import _DOTENV_RUNS, _FOLDED_RUNS, _IN_FILE, _may_hold

    pieces = [r[: len(r) // 2] for r in _FOLDED_RUNS + _DOTENV_RUNS]
    pieces += [r[len(r) // 2 :] for r in _FOLDED_RUNS + _DOTENV_RUNS]
    pieces += [r.upper() for r in _FOLDED_RUNS] + list(_MATCHING)
    pieces += ["\u0130", "\u0131", "\u017f", "\u212a", "=", " ", "\n", "_", "-", "x" * 12]
    pieces += ["password", "passw", "machine", "export ", "\t", "ord"]

    @settings(max_examples=3000, deadline=None, database=None)
    @given(st.lists(st.sampled_from(pieces), max_size=12).map("".join))
    def check(text: str) -> None:
        if _IN_FILE.rx.search(text) is not None:
            assert _may_hold(text), text

    check()
