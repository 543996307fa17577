"""The generated lookups answer what a scan of the tables in order answers.

``_index`` holds the environment families and the autorun patterns split into dictionaries
(``knowledge.patterns``); these tests scan the tables themselves with ``fnmatch`` over names
built from every pattern (each literal, stretched on both sides, nested under directories)
and compare.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from clearance.shellparse.knowledge import environment, patterns
from clearance.shellparse.knowledge.autorun import ECOSYSTEMS, ecosystem_of
from clearance.shellparse.spec import Spec


def _scan_ecosystem(relative: str) -> str | None:
    parts = [p for p in relative.split("/") if p]
    for ecosystem, table in ECOSYSTEMS.items():
        for pattern in table:
            wanted = pattern.split("/")
            for start in range(len(parts) - len(wanted) + 1):
                if all(fnmatchcase(parts[start + i], w) for i, w in enumerate(wanted)):
                    return ecosystem
    return None


def _names_from(pattern: str) -> list[str]:
    literal = pattern.replace("*", "")
    filled = pattern.replace("*", "x")
    return [literal, filled, pattern.replace("*", ""), "a" + filled, filled + "z", "x" + literal]


def test_autorun_lookup_is_the_scan() -> None:
    paths: list[str] = ["", "src/app.py", "README.md", "a/b/c"]
    for table in ECOSYSTEMS.values():
        for pattern in table:
            for name in _names_from(pattern):
                paths += [name, f"web/{name}", f"{name}/inner/file", f"a/{name}/b"]
    assert len(paths) > 500
    for path in paths:
        assert ecosystem_of(path) == _scan_ecosystem(path), path


def test_environment_lookup_is_the_scan() -> None:
    def scan(name: str) -> str:
        exact = {p: v for p, v in reversed(environment.FAMILIES) if "*" not in p}
        if name in exact:
            return exact[name]
        return next((v for p, v in environment.FAMILIES if fnmatchcase(name, p)), "unknown")

    names = ["", "X", "PATH", "MY_VAR", "LD_PRELOAD", "JAVA_TOOL_OPTIONS", "npm_config_x"]
    for pattern, _ in environment.FAMILIES:
        names += _names_from(pattern)
    for name in names:
        assert environment.family_verdict(name) == scan(name), name


def test_split_keeps_the_first_of_overlapping_patterns() -> None:
    table = [("AB*", "first"), ("A*", "second"), ("*Z", "third"), ("A*B*Z", "fourth"), ("AZ", "x")]
    parts = patterns.split(table)
    assert patterns.first(parts, "ABZ") == (0, "first")
    assert patterns.first(parts, "AQZ") == (1, "second")
    assert patterns.first(parts, "QZ") == (2, "third")
    assert patterns.first(parts, "AZ") == (1, "second")
    assert patterns.first(parts, "Q") is None
    only_others = patterns.split([("*A*", "a")])
    assert patterns.first(only_others, "xAx") == (0, "a")
    assert patterns.first(only_others, "xx") is None


def test_option_families_prefix_and_glob() -> None:
    spec = Spec("x", families="--color* --no-* -[0-9] --fmt-?")
    assert spec.in_family("--color") and spec.in_family("--colour") is False
    assert spec.in_family("--no-pager") and spec.in_family("-7")
    assert spec.in_family("--fmt-a") and not spec.in_family("--fmt-ab")
    assert not spec.in_family("--x") and not spec.in_family("-x")
