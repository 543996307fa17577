"""Files named by interpreter code in calls that delete, write or read them: judged beside the
code (which stays code that runs), each technique with a twin the scan must not report."""

from __future__ import annotations

import pytest

from clearance.shellparse.handlers.interpreters import embedded_paths

CASES = [
    ("import shutil; shutil.rmtree('/home')", [("/home", "delete", True)]),
    ("require('fs').rmSync('/', {recursive: true})", [("/", "delete", True)]),
    ('FileUtils.rm_rf("/srv")', [("/srv", "delete", True)]),
    ('use File::Path; rmtree("/home")', [("/home", "delete", True)]),
    ("import os; os.remove('/etc/passwd')", [("/etc/passwd", "delete", False)]),
    ("fs.unlinkSync('a.txt')", [("a.txt", "delete", False)]),
    ("fs.appendFileSync('/root/.bashrc', 'x')", [("/root/.bashrc", "write", False)]),
    ("file_put_contents('/etc/cron.d/x', $a);", [("/etc/cron.d/x", "write", False)]),
    ('puts File.read(".env")', [(".env", "read", False)]),
    ("echo file_get_contents('.env');", [(".env", "read", False)]),
    ("fopen('/etc/profile', 'a');", [("/etc/profile", "write", False)]),
    ("open('/root/.bashrc', 'a').write('x')", [("/root/.bashrc", "write", False)]),
    ("open('.env').read()", [(".env", "read", False)]),
    ("open('out.txt', mode='w')", [("out.txt", "write", False)]),
    ("Path('/root/.profile').write_text('x')", [("/root/.profile", "write", False)]),
    ("Path('k.pem').unlink()", [("k.pem", "delete", False)]),
]

#: Twins: the same calls on no literal, and code that only mentions the names.
TWINS = [
    "shutil.rmtree(path)",
    "fs.rmSync(dir, {recursive: true})",
    "open(name).read()",
    "print('rmtree')",
    "x = readFileSync",
    "Path(p).unlink()",
]


@pytest.mark.parametrize(("code", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_a_literal_path_in_a_file_call_is_found(
    code: str, expected: list[tuple[str, str, bool]]
) -> None:
    assert embedded_paths(code) == expected


@pytest.mark.parametrize("code", TWINS)
def test_no_literal_no_path(code: str) -> None:
    assert embedded_paths(code) == []
