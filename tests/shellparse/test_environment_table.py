"""The environment table (``knowledge/environment.py``): which variables may ride along with a
command, which load code or redirect configuration, and how assignments reach the programs
(a prefix, ``env VAR=…``, ``export`` earlier on the line)."""

from __future__ import annotations

import pytest
from corpus_expect import facts_of

from clearance.shellparse.knowledge import environment
from clearance.shellparse.knowledge.environment import FAMILIES, VERDICTS, family_verdict, judge


def _markers(command: str, program: str) -> set[str]:
    parts = [c for c in facts_of(command).commands if c.program == program]
    assert parts, f"no {program} part in {command!r}"
    return set().union(*(p.markers for p in parts))


def test_the_vocabulary_is_closed() -> None:
    assert {verdict for _, verdict in FAMILIES} <= set(VERDICTS)
    assert family_verdict("SOMETHING_NOBODY_KNOWS") == "unknown"


@pytest.mark.parametrize(
    "name",
    [
        "LD_PRELOAD",
        "LD_AUDIT",
        "GCONV_PATH",
        "JAVA_TOOL_OPTIONS",
        "NODE_OPTIONS",
        "PERL5OPT",
        "RUBYOPT",
        "DOTNET_STARTUP_HOOKS",
        "npm_config_script_shell",
        "YARN_RC_FILENAME",
        "PIP_INDEX_URL",
        "UV_INDEX_URL",
        "CARGO_HOME",
        "GOFLAGS",
        "MAKEFLAGS",
        "MAKEFILES",
        "PYTEST_ADDOPTS",
        "GIT_DIR",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_COUNT",
        "HOME",
        "XDG_CONFIG_HOME",
        "BASH_ENV",
        "PYTHONSTARTUP",
    ],
)
def test_code_families(name: str) -> None:
    assert family_verdict(name) in ("code", "command"), name


@pytest.mark.parametrize(
    "name", ["CI", "NODE_ENV", "RUST_LOG", "FORCE_COLOR", "TZ", "LANG", "LC_ALL", "NO_COLOR"]
)
def test_harmless_names(name: str) -> None:
    assert family_verdict(name) == "harmless"


def test_specific_names_come_before_their_family() -> None:
    assert family_verdict("GIT_AUTHOR_NAME") == "harmless"
    assert family_verdict("GIT_WORK_TREE") == "code"
    assert family_verdict("NODE_ENV") == "harmless"
    assert family_verdict("NODE_EXTRA_CA_CERTS") == "code"


def test_search_paths_inside_the_workspace_only() -> None:
    def where(path: str) -> bool | None:
        return not path.startswith(("/", ".."))

    assert judge("PYTHONPATH", "src", False, where) == "harmless"
    assert judge("PYTHONPATH", "src:lib", False, where) == "harmless"
    assert judge("PYTHONPATH", "src:$PYTHONPATH", False, where) == "harmless"
    assert judge("PYTHONPATH", "/tmp/evil", False, where) == "code"
    assert judge("NODE_PATH", "../other", False, where) == "code"
    assert judge("PYTHONPATH", "$X/lib", True, where) == "unknown"


def test_pagers_that_only_page() -> None:
    def where(path: str) -> bool | None:
        return True

    assert judge("GIT_PAGER", "cat", False, where) == "harmless"
    assert judge("PAGER", "less -R", False, where) == "harmless"
    assert judge("PAGER", "sh -c id", False, where) == "command"
    assert judge("PAGER", "$X", True, where) == "command"


class TestRidingAlong:
    def test_prefix(self) -> None:
        assert "unknown_env" in _markers("ACME=1 npm test", "npm")
        assert "unknown_env" not in _markers("CI=1 npm test", "npm")
        assert "env_code" in _markers("NODE_OPTIONS=--require=x npm test", "npm")

    def test_env_wrapper(self) -> None:
        assert "unknown_env" in _markers("env ACME=1 npm test", "env")
        assert not _markers("env CI=1 npm test", "env")
        assert "env_code" in _markers("env HOME=/tmp git log", "env")

    def test_export_reaches_later_commands(self) -> None:
        assert "unknown_env" in _markers("export ACME=1; npm test", "npm")
        assert "unknown_env" not in _markers("export CI=1; npm test", "npm")
        assert "env_code" in _markers("export PIP_INDEX_URL=https://x.io; pip list", "pip")
        assert "env_code" in _markers("declare -x UV_CACHE_DIR=/tmp; uv sync", "uv")

    def test_export_of_a_variable_set_before(self) -> None:
        assert "env_code" in _markers("GOFLAGS=-toolexec=/tmp/x; export GOFLAGS; go build", "go")
        # exporting what the environment already holds changes nothing
        assert not _markers("export GOFLAGS; go build", "go")

    def test_shell_variables_are_not_the_environment(self) -> None:
        assert not _markers("acme=1; npm test", "npm")
        assert not _markers("MY_OPTIONS='-a'; ls $MY_OPTIONS", "ls") - {"dynamic_argument"}

    def test_usually_exported_names_reach_programs_even_unexported(self) -> None:
        assert "env_code" in _markers("HOME=/tmp/h; git log", "git")

    def test_the_table_loads_only_when_an_assignment_rides_along(self) -> None:
        import subprocess
        import sys

        code = (
            "import sys; from clearance.shellparse import classify; "
            "classify('git status', cwd='/w', home='/h', workspace='/w'); "
            "print('clearance.shellparse.knowledge.environment' in sys.modules); "
            "classify('CI=1 git status', cwd='/w', home='/h', workspace='/w'); "
            "print('clearance.shellparse.knowledge.environment' in sys.modules)"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()
        assert out == ["False", "True"]
        assert environment.named("HOME") and not environment.named("CARGO_HOME")


def test_exact_names_never_follow_a_pattern_that_decides_them_otherwise() -> None:
    """``family_verdict`` looks exact names up first; that equals first-match order only if
    no earlier pattern matches the name with another verdict."""
    from fnmatch import fnmatchcase

    for k, (name, verdict) in enumerate(FAMILIES):
        if any(c in name for c in "*?["):
            continue
        first = next(v for p, v in FAMILIES[: k + 1] if fnmatchcase(name, p))
        assert first == verdict, (name, verdict, first)


def test_first_matching_pattern_wins() -> None:
    from fnmatch import fnmatchcase

    for name in ("GIT_WORK_TREE", "NODE_EXTRA_CA_CERTS", "MY_TOOL_OPTIONS", "ACME_OPTS", "LC_X"):
        expected = next((v for p, v in FAMILIES if fnmatchcase(name, p)), "unknown")
        assert family_verdict(name) == expected, name


@pytest.mark.parametrize(
    ("name", "harmless", "code"),
    [
        ("MAKEFLAGS", "-j8", "-j8 SHELL=/tmp/x"),
        ("MAKEFLAGS", "-j4 --no-print-directory -k", "-f /tmp/evil.mk"),
        ("GNUMAKEFLAGS", "--output-sync=target", "--eval=$(shell id)"),
        ("CC", "clang", "/tmp/gcc"),
        ("CC", "aarch64-linux-gnu-gcc-12", "gcc -B/tmp/tools"),
        ("CXX", "ccache g++", "sh -c id"),
        ("CC", "/usr/bin/clang-17", "./cc"),
    ],
)
def test_values_that_make_a_variable_harmless(name: str, harmless: str, code: str) -> None:
    def where(path: str) -> bool | None:
        return True

    assert judge(name, harmless, False, where) == "harmless", (name, harmless)
    # another value is what the family says: make's flags load code, a compiler is not known
    family = "code" if name.endswith("FLAGS") else "unknown"
    assert judge(name, code, False, where) == family, (name, code)
    assert judge(name, harmless, True, where) == family, (name, "dynamic")


def test_the_clouds_selectors_are_harmless_and_their_pager_a_command() -> None:
    for name in ("AWS_PROFILE", "AWS_REGION", "CLOUDSDK_CORE_PROJECT", "GOOGLE_CLOUD_PROJECT"):
        assert family_verdict(name) == "harmless", name
    assert judge("AWS_PAGER", "", False, lambda path: True) == "harmless"
    assert judge("AWS_PAGER", "sh -c id", False, lambda path: True) == "command"
