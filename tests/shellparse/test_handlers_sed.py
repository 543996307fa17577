"""sed scripts: which commands execute, write or read files (``e``, ``s///e``, ``w``, ``r``),
through ``sed_effects`` and through whole command lines."""

from __future__ import annotations

import pytest
from corpus_expect import facts_of

from clearance.shellparse.handlers.files import sed_effects


@pytest.mark.parametrize(
    ("script", "effects"),
    [
        ("s/a/b/g", []),
        ("1,20p", []),
        ("/start/,/end/d", []),
        ("y/abc/xyz/", []),
        ("1e rm -rf ~", [("exec", "rm -rf ~")]),
        ("e", [("exec", "")]),
        ("$e id", [("exec", "id")]),
        ("s/x/id/e", [("exec", "")]),
        ("s/x/y/gew out.txt", [("exec", ""), ("write", "out.txt")]),
        ("s/x/y/w out.txt", [("write", "out.txt")]),
        ("w /home/u/.bashrc", [("write", "/home/u/.bashrc")]),
        ("/re/W log.txt", [("write", "log.txt")]),
        ("r /etc/passwd", [("read", "/etc/passwd")]),
        ("1R notes.txt", [("read", "notes.txt")]),
        ("a\\\nappended e text", []),
        ("i hello e world", []),
        ("s/a\\/e/b/", []),
        ("s|/|e|", []),
        ("/e/d", []),
        ("# comment e\np", []),
        ("1{e id\n}", [("exec", "id")]),
        ("p;e date", [("exec", "date")]),
        (":loop;b loop", []),
    ],
)
def test_sed_effects(script: str, effects: list[tuple[str, str]]) -> None:
    assert sed_effects(script) == effects


def _sed(command: str) -> tuple[set[str], set[str], set[tuple[str, str | None]], list[str]]:
    facts = facts_of(command)
    sed = next(c for c in facts.commands if c.program == "sed")
    others = [c.program or "?" for c in facts.commands if c is not sed]
    return sed.classes, sed.markers, {(p.access, p.resolved) for p in sed.paths}, others


def test_print_is_read_only() -> None:
    classes, markers, paths, others = _sed("sed -n '1,5p' a.txt")
    assert classes == {"read_only"}
    assert markers == set()
    assert paths == {("read", "/work/proj/a.txt")}
    assert others == []


def test_in_place_writes_the_files() -> None:
    classes, _, paths, _ = _sed("sed -i 's/a/b/' a.txt b.txt")
    assert "write" in classes
    assert paths == {("write", "/work/proj/a.txt"), ("write", "/work/proj/b.txt")}


def test_in_place_with_suffix_and_expression() -> None:
    _, _, paths, _ = _sed("sed -i.bak -e 's/a/b/' -e 's/c/d/' a.txt")
    assert paths == {("write", "/work/proj/a.txt")}


def test_bsd_in_place_empty_suffix() -> None:
    _, markers, paths, others = _sed("sed -i '' '1e touch /tmp/pwned' a.txt")
    assert "inline_code" in markers
    assert paths == {("write", "/work/proj/a.txt")}
    assert others == ["touch"]


def test_exec_command_runs_nested() -> None:
    facts = facts_of("sed '1e cat ~/.ssh/id_rsa' x")
    cat = next(c for c in facts.commands if c.program == "cat")
    assert "secret_read" in cat.classes
    assert cat.via == ["sed e"]


def test_write_command_in_expression_option() -> None:
    _, markers, paths, _ = _sed("sed -n -e 'w /home/u/.profile' x")
    assert ("write", "/home/u/.profile") in paths
    assert "sensitive_write" in markers


def test_script_from_file_is_read() -> None:
    _, _, paths, _ = _sed("sed -f edits.sed a.txt")
    assert ("read", "/work/proj/edits.sed") in paths
    assert ("read", "/work/proj/a.txt") in paths


def test_substitute_exec_flag_is_inline_code() -> None:
    classes, markers, _, _ = _sed("sed 's/^/echo /e' list.txt")
    assert "code_exec" in classes and "inline_code" in markers
