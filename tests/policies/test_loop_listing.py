"""``for f in $(ls)``: the names ``ls`` prints are what ``*`` matches, judged like ``for f in *``.

Unless a name would split or expand again once substituted unquoted (a blank, a newline or a
glob character: a file named ``x .env`` hands the loop ``.env``), then the values stay unknown
(``unresolved_path``). Decided by the default pack in a real directory.
"""

from __future__ import annotations

import time
from pathlib import Path

from clearance.engine.api import decide, default_pack_path, load_policy
from clearance.engine.intents import ToolIntent


def _decide(tmp_path: Path, names: list[str], command: str) -> str:
    workspace, home = tmp_path / "proj", tmp_path / "home"
    (workspace / ".git").mkdir(parents=True)
    home.mkdir()
    for name in names:
        (workspace / name).write_text("x\n")
    time.sleep(2.1)  # listings younger than the racy window are read, not reused: either works
    policy = load_policy(str(workspace), files=[default_pack_path()], use_cache=False)
    return decide(
        ToolIntent("bash", {"command": command}),
        policy,
        cwd=str(workspace),
        workspace=str(workspace),
        home=str(home),
    ).decision


LOOP = 'for f in $(ls); do cat "$f"; done'


def test_listing_of_sources_is_allowed(tmp_path: Path) -> None:
    assert _decide(tmp_path, ["README.md", "app.py"], LOOP) == "allow"
    assert _decide(tmp_path / "b", ["README.md"], "for f in `ls -1`; do wc -l $f; done") == "allow"


def test_listing_that_holds_a_secret_reads_it(tmp_path: Path) -> None:
    assert _decide(tmp_path, ["README.md", "id_rsa"], LOOP) == "deny"


def test_a_name_that_splits_leaves_the_values_unknown(tmp_path: Path) -> None:
    assert _decide(tmp_path, ["README.md", "x .env"], "for f in $(ls); do cat $f; done") == "ask"
    assert _decide(tmp_path / "b", ["README.md", "e*"], LOOP) == "ask"  # it expands again
