"""Inline Python programs judged by what they touch, when they only compute and print.

Each technique a program could use to get out of the closed list (a module held in a
variable, a name both a module and a value, ``_`` attributes, a module reached through
another module's attribute, ``open`` handed around, string-named attribute access, dynamic
code) has a benign twin that the analysis reads; the decisions through the default pack
follow (``python3 -c``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from workspace_support import NOWHERE, decide_in, default_pack, make_world

from clearance.shellparse.pysnippet import analyse


@pytest.fixture(autouse=True)
def _plain_python_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the suite's own PYTHONPATH would move the imports: nothing would be read)
    monkeypatch.delenv("PYTHONPATH", raising=False)


#: (program, whether the analysis reads it)
SNIPPETS = [
    ("print(1)", True),
    ('import json; print(json.load(open("package.json"))["name"])', True),
    ('import json,sys; d=json.load(sys.stdin); print(d["a"])', True),
    ("import sys; print(sys.version)", True),
    ("import os; print(os.getcwd())", True),
    ('from os import path; print(path.join("a","b"))', True),
    ('import os.path; print(os.path.exists("x"))', True),
    ("import datetime; print(datetime.datetime.now())", True),
    ('import re; print(re.sub("a","b","abc"))', True),
    ("import sys; sys.exit(0)", True),
    ('import json; print(json.dumps({"a":1}, indent=2))', True),
    ("import platform; print(platform.system())", True),
    ("import functools; functools.partial(print, 1)()", True),
    ("print([x*2 for x in range(3)])", True),
    ('with open("a") as f: print(f.read())', True),
    ('print(open("a", mode="rb").read())', True),
    ('print(open(file="a").read())', True),
    ('open("a.txt", "w").write("x")', True),
    ("(lambda: 1)()", True),
    ('print("{0.__class__}".format(1))', True),
    # --- the ways out, each refused --------------------------------------------------------
    ('import os; os.system("rm -rf ~")', False),
    ('import os as o; o.remove("x")', False),
    ('import os\nfor x in [1]: os = os\nos.system("x")', False),
    ('import os.path; os.system("x")', False),
    ('from os import system; system("x")', False),
    ("import json as j; x = j", False),
    ('m = __import__("os")', False),
    ("().__class__.__base__.__subclasses__()", False),
    ('import shlex; shlex.os.system("x")', False),
    ('import json; json.codecs.open("x","w")', False),
    ('import random; random._os.system("x")', False),
    ("import re; re.enum", False),
    ("import collections; collections.abc", False),
    ('import subprocess; subprocess.run(["ls"])', False),
    ('x = open; x("/etc/shadow")', False),
    ('list(map(open, ["a"]))', False),
    ('open("a", opener=lambda p,f: 1)', False),
    ('p = open("~/.ssh/id_rsa".replace("~","/root"))', False),
    ('exec("print(1)")', False),
    ('eval("1")', False),
    ('getattr(__builtins__, "open")', False),
    ('import sys; sys.modules["os"].system("x")', False),
    ('import operator; operator.attrgetter("__class__")(())', False),
    ("import os; print(os.environ)", False),
    ("import pickle", False),
    ("import ctypes", False),
    ("def f(): pass", False),
    ("class A: pass", False),
    ('import platform; platform.popen("x")', False),
    ('import sys; sys.stdout = open("x", "w")', False),
    ('import os; p = os.path; p.os.system("x")', False),
    ("import os; print(os.path)", False),
    ("x = [1]; x[0] = 2; print(x)", True),
    ("import os; [print(e) for e in os.listdir('.')]", True),
    ("print((x := 1))", False),
    ("import tomllib, typing", False),
    ("x" * 5000, False),
]


@pytest.mark.parametrize(("code", "read"), SNIPPETS, ids=[c[:40] for c, _ in SNIPPETS])
def test_the_closed_list(code: str, read: bool) -> None:
    assert (analyse(code) is not None) == read


def test_paths_and_their_access() -> None:
    found = analyse('import json; json.load(open("a.json")); open("b.txt", "a").write("x")')
    assert found is not None
    assert found.paths == [("a.json", "read"), ("b.txt", "write")]


def _decision(tmp_path: Path, command: str, files: dict[str, str] | None = None) -> str:
    world = make_world(tmp_path, {"package.json": '{"name": "x"}', **(files or {})})
    return decide_in(default_pack(world), world, command).decision


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("python3 -c 'print(1)'", "allow"),
        ("""python3 -c 'import json; print(json.load(open("package.json"))["name"])'""", "allow"),
        ("""python3 -c 'print(open(".env").read())'""", "deny"),
        ("""python3 -c 'print(open("/etc/shadow").read())'""", "deny"),
        ("""python3 -c 'open("src.py", "w").write("x")'""", "allow"),
        ("""python3 -c 'open("../home/.bashrc", "a").write("x")'""", "deny"),
        ("""python3 -c 'import os; os.system("rm -rf ~")'""", "deny"),
        ("""python3 -c 'import os; os.system("id")'""", "ask"),
    ],
)
def test_decisions(tmp_path: Path, command: str, expected: str) -> None:
    assert _decision(tmp_path, command, {".env": "K=1\n"}) == expected


def test_a_standard_module_shadowed_in_the_directory(tmp_path: Path) -> None:
    # python -c imports from the directory it runs in first: json.py there runs instead
    assert _decision(tmp_path, "python3 -c 'import json; print(1)'", {"re.py": "x"}) != "allow"
    assert _decision(tmp_path / "twin", "python3 -c 'import json; print(1)'") == "allow"


def test_the_environment_moves_the_imports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _decision(tmp_path / "line", "PYTHONPATH=/tmp python3 -c 'print(1)'") != "allow"
    monkeypatch.setenv("PYTHONHOME", "/opt/elsewhere")
    assert _decision(tmp_path / "home", "python3 -c 'print(1)'") != "allow"


def test_pythonpath_is_searched_like_the_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shadowing, clean = tmp_path / "shadowing", tmp_path / "clean"
    (shadowing / "json").mkdir(parents=True)
    (shadowing / "json" / "__init__.py").write_text("x")
    (clean / "mypackage").mkdir(parents=True)
    monkeypatch.setenv("PYTHONPATH", f"{clean}:{shadowing}")
    assert _decision(tmp_path / "a", "python3 -c 'import json; print(1)'") != "allow"
    monkeypatch.setenv("PYTHONPATH", str(clean))
    assert _decision(tmp_path / "b", "python3 -c 'import json; print(1)'") == "allow"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # a program given whole on stdin (heredoc, here-string, a static pipe) is read like -c's
        ("python3 - <<'EOF'\nprint(1)\nEOF", "allow"),
        ("python3 <<'EOF'\nimport json; print(json.dumps({'a': 1}))\nEOF", "allow"),
        ("python3 <<< 'print(2)'", "allow"),
        ("echo 'print(1)' | python3", "allow"),
        ("python3 - x y <<'EOF'\nprint(1)\nEOF", "allow"),
        ("python3 - <<'EOF'\nopen('src.py', 'w').write('x')\nEOF", "allow"),
        # its twins: code that runs, a secret read, text not known, options that change it
        ("python3 - <<'EOF'\nimport os; os.system('id')\nEOF", "ask"),
        ("python3 - <<'EOF'\nprint(open('.env').read())\nEOF", "deny"),
        ("python3 - <<EOF\nprint($x)\nEOF", "ask"),
        ("cat prog.py | python3", "ask"),
        ("python3 -i - <<'EOF'\nprint(1)\nEOF", "ask"),
        ("python3 prog.py <<'EOF'\nprint(1)\nEOF", "ask"),
    ],
)
def test_a_program_on_stdin(tmp_path: Path, command: str, expected: str) -> None:
    assert _decision(tmp_path, command, {".env": "K=1\n", "prog.py": "x"}) == expected


def test_a_program_on_stdin_with_a_shadowed_module(tmp_path: Path) -> None:
    command = "python3 - <<'EOF'\nimport json; print(1)\nEOF"
    assert _decision(tmp_path, command, {"json.py": "x"}) != "allow"
    assert _decision(tmp_path / "twin", command) == "allow"


def test_a_directory_too_large_to_list_is_not_known(tmp_path: Path) -> None:
    from clearance.shellparse.pysnippet import shadowing_files

    for name in ("a.txt", "b.txt", "c.txt"):
        (tmp_path / name).write_text("x")
    assert shadowing_files(str(tmp_path), limit=3) == []
    (tmp_path / "d.txt").write_text("x")
    assert shadowing_files(str(tmp_path), limit=3) is None


def test_a_pythonpath_entry_not_known(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry too large to list may hold a module that shadows: not known, never read as
    a program that only computes; an entry that does not exist holds nothing."""
    large = tmp_path / "large"
    large.mkdir()
    for k in range(20_001):
        (large / f"f{k}").touch()
    monkeypatch.setenv("PYTHONPATH", str(large))
    assert _decision(tmp_path / "a", "python3 -c 'print(1)'") != "allow"
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "missing"))
    assert _decision(tmp_path / "b", "python3 -c 'print(1)'") == "allow"


def test_a_working_directory_not_on_this_machine(tmp_path: Path) -> None:
    """A cwd that does not exist here (the command runs elsewhere, or later) has contents
    that are not known: the program is not read as one that only computes; its twin in a
    directory that exists is."""
    assert decide_in(default_pack(NOWHERE), NOWHERE, "python3 -c 'print(1)'").decision != "allow"
    assert _decision(tmp_path, "python3 -c 'print(1)'") == "allow"
