"""Accept exactly what ``bash -n`` accepts, on the corner cases where parsers usually differ.

Each entry says whether bash reads the text as valid. The first test holds the parser to the
table; the second holds the table to bash itself (``bash -n -c``, which reads and never runs),
so an entry cannot encode a wrong belief about bash. Extended globs are the one deliberate
difference and are not listed here.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from clearance.shellparse.parser import parse

VALID = True
INVALID = False

CASES: list[tuple[str, bool]] = [
    # reserved words: where a command starts, only the openers can stand
    ("echo if then fi", VALID),
    ("case x in do) :;; esac", VALID),
    ("for x in do done; do :; done", VALID),
    ("function do { :; }", VALID),
    ("a | time b", VALID),
    ("do su", INVALID),
    ("then x", INVALID),
    ("a; in", INVALID),
    ("esac", INVALID),
    ("}", INVALID),
    ("]]", INVALID),
    ("do() { :; }", INVALID),
    ("coproc do", INVALID),
    ("a | ! b", INVALID),
    ("a | do x", INVALID),
    # negation alone
    ("!", VALID),
    ("! ;", VALID),
    ("a && !", VALID),
    ("time !", VALID),
    # assignments after redirections
    ("echo >x a=b", VALID),
    (">x a=b", VALID),
    ("cmd 2>/dev/null FOO=bar", VALID),
    # subscripts in command position
    ("a[x y]=1 b", VALID),
    ("a[x y] b", VALID),
    ("a[x", INVALID),
    ('a["]"', INVALID),
    ("x=1 a[x", INVALID),
    ("echo a[x", VALID),
    ("declare -A d=([<0]=foo [1]=bar)", VALID),
    ("a=([x y]=1 [2]=b)", VALID),
    ("a=([x", INVALID),
    # ${…}: a plain brace inside is not counted
    ("echo ${x:-{a}b}", VALID),
    ("echo ${a{b}", VALID),
    ("echo ${x:-${y:-{}}", VALID),
    ('echo "${a[@}"', VALID),
    ("echo ${|a}", VALID),
    ("echo ${x", INVALID),
    # $((…)) is read when it runs
    ("echo $((1+2):(3))", VALID),
    ("echo $((a)(b))", VALID),
    ("echo $((echo a) && (echo b))", VALID),
    ("echo $((1 + 2", INVALID),
    # process substitution inside ${…}
    ("echo ${x:-a<(echo hi)}", VALID),
    ("echo ${x/a/<(echo hi)}", VALID),
    # here-document bodies are expanded when the command runs
    ("cat <<E\n$(\nE", VALID),
    ("cat <<E\n`\nE", VALID),
    ("cat <<E\n${\nE", VALID),
    ("cat <<E\nuse `x` here\nE", VALID),
    # line continuations
    ("a &\\\n& b", VALID),
    ("a |\\\n b", VALID),
    ("ec\\\nho x", VALID),
    # file descriptors
    ("echo 2>&1>x", VALID),
    ("echo >1>&2", INVALID),
    ("cat <<<1>x", INVALID),
    # ordinary constructs
    ("f() ( echo )", VALID),
    ("for ((;;)) { :; }", VALID),
    ("coproc X { cat; }", VALID),
    ("time -p ls", VALID),
    ("[[ a =~ ^(a|b)$ ]]", VALID),
    ("case x in a) ;& b) ;;& esac", VALID),
    ("echo `echo \\`echo a\\``", VALID),
    ("cat <<-'E'\n\tx\n\tE", VALID),
    ("a;;", INVALID),
    (";", INVALID),
    ("if", INVALID),
    ("a; }", INVALID),
]


@pytest.mark.parametrize(("text", "valid"), CASES)
def test_parser_agrees_with_bash(text: str, valid: bool) -> None:
    result = parse(text)
    assert result.ok is valid, result.error


BASH = shutil.which("bash")


@pytest.mark.skipif(BASH is None, reason="bash is not installed")
def test_the_table_is_what_bash_says() -> None:
    assert BASH is not None
    wrong = []
    for text, valid in CASES:
        done = subprocess.run(
            [BASH, "-n", "-c", "--", text],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/nonexistent"},
            timeout=10,
            check=False,
        )
        if (done.returncode == 0) is not valid:
            wrong.append((text, done.stderr.decode(errors="replace")))
    assert wrong == []
