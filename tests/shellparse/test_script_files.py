"""A shell script on disk, run by ``bash FILE`` (``sh``, ``dash``), is read from the machine
and judged by the commands it holds, as ``bash -c`` judges its string: a script that only
reads is allowed, one that deletes a home or prints a key is denied. What it holds counts only
if nothing on the whole line may write it -- an earlier part, a later one a loop runs again,
code that runs, the script itself -- else it is code nobody saw, as it was before. Each case
has its twin, decided by the default pack on a real tree.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from workspace_support import World, decide_in, default_pack, make_world

from clearance.shellparse.handlers.interpreters import MAX_SCRIPT_BYTES

SCRIPTS = {
    "ok.sh": "#!/bin/sh\nset -e\nls -la\ngit status\necho done\n",
    "bad.sh": "#!/bin/sh\nrm -rf ~\n",
    "steal.sh": "#!/bin/bash\ncat ~/.ssh/id_rsa\n",
    "args.sh": 'ls "$1"\n',
    "self.sh": "echo 'rm -rf ~' >> self.sh\n",
    "tests.sh": "npm test\n",
    "big.sh": "echo x\n" * (MAX_SCRIPT_BYTES // 7 + 1),
}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    root = tmp_path_factory.mktemp("scripts")
    workspace, home = make_world(root, SCRIPTS, {".ssh/id_rsa": "KEY\n"})
    Path(workspace, "bin.sh").write_bytes(b"echo a\0b\n")
    os.symlink(Path(home, ".ssh", "id_rsa"), Path(workspace, "key.sh"))
    return workspace, home


def _decided(world: World, command: str) -> str:
    return decide_in(default_pack(world), world, command).decision


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("bash ok.sh", "allow"),
        ("sh -e ok.sh", "allow"),
        ("bash ./ok.sh && bash ok.sh", "allow"),
        ("bash bad.sh", "deny"),
        ("sh steal.sh", "deny"),
        ("bash key.sh", "deny"),  # a link to a key: a secret read, whatever it holds
    ],
)
def test_a_script_is_judged_by_what_it_holds(world: World, command: str, expected: str) -> None:
    assert _decided(world, command) == expected


@pytest.mark.parametrize(
    ("command", "twin"),
    [
        # written earlier on the line, or by a later part a loop runs again
        ("echo 'rm -rf ~' >> ok.sh && bash ok.sh", "echo x >> log.txt && bash ok.sh"),
        ("for i in 1 2; do bash ok.sh; echo x > ok.sh; done", "for i in 1 2; do bash ok.sh; done"),
        ("cp bad.sh copy.sh && bash copy.sh", "cp bad.sh copy.sh && bash ok.sh"),
        # code that runs first may write anything; the script may write itself
        ("npm test && bash ok.sh", "git status && bash ok.sh"),
        ("bash self.sh", "bash ok.sh"),
        ("bash tests.sh", "bash ok.sh"),
        # what the text does not say: an argument, an option not known, a name not known
        ("bash args.sh src", "bash ok.sh"),
        ("bash --rcfile x ok.sh", "bash -x ok.sh"),
        ("bash $SCRIPT", "bash ok.sh"),
        # what cannot be read as a script: too large, not text, not there
        ("bash big.sh", "bash ok.sh"),
        ("bash bin.sh", "bash ok.sh"),
        ("bash missing.sh", "bash ok.sh"),
        # run other ways, the script stays code nobody saw
        ("./ok.sh", "bash ok.sh"),
        ("source ok.sh", "bash ok.sh"),
    ],
)
def test_a_script_not_known_as_it_runs_is_code_nobody_saw(
    world: World, command: str, twin: str
) -> None:
    assert _decided(world, command) != "allow", command
    assert _decided(world, twin) == "allow", twin
