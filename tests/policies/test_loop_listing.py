"""``for f in $(ls)``: the names ``ls`` prints are what ``*`` matches, judged like ``for f in *``.

Unless a name would split or expand again once substituted unquoted (a blank, a newline or a
glob character: a file named ``x .env`` hands the loop ``.env``), then the values stay unknown
(``unresolved_path``). Decided by the default pack in a real directory.
"""

from __future__ import annotations

import time
from pathlib import Path

from workspace_support import decide_in, default_pack, make_world


def _decide(tmp_path: Path, names: list[str], command: str) -> str:
    world = make_world(tmp_path, dict.fromkeys(names, "x\n"))
    time.sleep(2.1)  # listings younger than the racy window are read, not reused: either works
    return decide_in(default_pack(world), world, command).decision


LOOP = 'for f in $(ls); do cat "$f"; done'


def test_listing_of_sources_is_allowed(tmp_path: Path) -> None:
    assert _decide(tmp_path, ["README.md", "app.py"], LOOP) == "allow"
    assert _decide(tmp_path / "b", ["README.md"], "for f in `ls -1`; do wc -l $f; done") == "allow"


def test_listing_that_holds_a_secret_reads_it(tmp_path: Path) -> None:
    assert _decide(tmp_path, ["README.md", "id_rsa"], LOOP) == "deny"


def test_a_name_that_splits_leaves_the_values_unknown(tmp_path: Path) -> None:
    assert _decide(tmp_path, ["README.md", "x .env"], "for f in $(ls); do cat $f; done") == "ask"
    assert _decide(tmp_path / "b", ["README.md", "e*"], LOOP) == "ask"  # it expands again
