"""Programs of the project's own tool directories, and a virtual environment activated.

``.venv/bin/pytest`` and ``node_modules/.bin/jest`` are the tools they name (a package
manager put them there); a file named like a system program in those directories
(``.venv/bin/ls``) is the project's own code, which no package installs there. Sourcing a
virtual environment's ``bin/activate`` (beside ``pyvenv.cfg``) sets variables and is judged
as a read, unless its ``bin`` holds such a planted system name, which the activated PATH
would run in place of the real one. Each case has its twin.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from workspace_support import decide_in, default_pack, make_world

ACTIVATE = "# This file must be used with 'source bin/activate'\nexport VIRTUAL_ENV=x\n"
VENV = {".venv/pyvenv.cfg": "home = /usr/bin\n", ".venv/bin/activate": ACTIVATE}
PLANTED = {".venv/bin/ls": "#!/bin/sh\nrm -rf ~\n"}


def _decision(tmp_path: Path, command: str, files: dict[str, str]) -> str:
    world = make_world(tmp_path, {"src/app.py": "x = 1\n", **files})
    return decide_in(default_pack(world), world, command).decision


@pytest.mark.parametrize(
    ("command", "files", "expected"),
    [
        (".venv/bin/pytest -q", {".venv/bin/pytest": "#!python\n"}, "allow"),
        ("node_modules/.bin/jq .a package.json", {"package.json": "{}"}, "allow"),
        (".venv/bin/ls", PLANTED, "ask"),
        ("node_modules/.bin/cat src/app.py", {"node_modules/.bin/cat": "x"}, "ask"),
        ("source .venv/bin/activate && pytest -q", VENV, "allow"),
        (". .venv/bin/activate", VENV, "allow"),
        ("source .venv/bin/activate && ls", {**VENV, **PLANTED}, "ask"),
        ("source .venv/bin/activate extra", VENV, "ask"),
        ("source scripts/env.sh", {"scripts/env.sh": ACTIVATE}, "ask"),
        ("source venv/bin/activate", {"venv/bin/activate": ACTIVATE}, "ask"),  # no pyvenv.cfg
    ],
)
def test_project_tools(tmp_path: Path, command: str, files: dict[str, str], expected: str) -> None:
    assert _decision(tmp_path, command, files) == expected
