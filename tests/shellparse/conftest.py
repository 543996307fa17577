"""Shared fixtures of the shell-parser tests: the corpus, and a structural dump of the AST.

The corpus (``commands.txt``, ``scripts.jsonl``, ``baseline_failures.jsonl``) lives outside the
repository: ``CLEARANCE_CORPUS``, else ``../shared/corpus`` next to the checkout, else
``/work/shared/corpus``. Tests that need it FAIL when it is absent -- a coverage test that skips
proves nothing -- unless ``CLEARANCE_SKIP_CORPUS=1`` asks for a skip.
"""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def corpus_dir() -> Path:
    configured = os.environ.get("CLEARANCE_CORPUS")
    if configured:
        return Path(configured)
    for candidate in (REPO.parent / "shared" / "corpus", Path("/work/shared/corpus")):
        if (candidate / "commands.txt").is_file():
            return candidate
    return REPO.parent / "shared" / "corpus"


class Corpus:
    """The corpus files, with what ``bash -n`` said about each entry."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.commands = (root / "commands.txt").read_text(encoding="utf-8").split("\n")
        if self.commands and self.commands[-1] == "":
            self.commands.pop()
        self.command_sources: list[list[str]] = []
        with (root / "commands.jsonl").open(encoding="utf-8") as fh:
            for line in fh:
                self.command_sources.append(json.loads(line)["src"])
        self.scripts: list[str] = []
        self.script_sources: list[str] = []
        with (root / "scripts.jsonl").open(encoding="utf-8") as fh:
            for line in fh:
                record = json.loads(line)
                self.scripts.append(record["text"])
                self.script_sources.append(record["src"])
        #: (kind, index) of every entry ``bash -n`` rejects; kind is ``command`` or ``script``.
        self.bash_rejects: set[tuple[str, int]] = set()
        with (root / "baseline_failures.jsonl").open(encoding="utf-8") as fh:
            for line in fh:
                record = json.loads(line)
                if not record["bash_n"]:
                    self.bash_rejects.add((record["kind"], record["i"]))

    def bash_accepts(self, kind: str, index: int) -> bool:
        return (kind, index) not in self.bash_rejects


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    root = corpus_dir()
    if not (root / "commands.txt").is_file():
        message = f"corpus not found at {root} (set CLEARANCE_CORPUS)"
        if os.environ.get("CLEARANCE_SKIP_CORPUS") == "1":
            pytest.skip(message)
        pytest.fail(message)
    return Corpus(root)


def node_fields(node: object) -> list[str]:
    """The names of a node's fields, read from its class's attribute descriptors: slot members
    in pure Python, getset descriptors in the compiled build (which keeps no ``__slots__``)."""
    names: set[str] = set()
    for cls in type(node).__mro__:
        for name, value in vars(cls).items():
            if name.startswith("__"):
                continue
            if inspect.ismemberdescriptor(value) or inspect.isgetsetdescriptor(value):
                names.add(name)
    return sorted(names)


def dump_ast(node: object) -> object:
    """Every field of every node, recursively, as plain lists, tuples and dicts.

    Two parses produced the same tree exactly when their dumps are equal: node classes are
    slotted (native classes when compiled), so the fields are known, and offsets are part of
    the comparison.
    """
    if node is None or isinstance(node, str | int | bool):
        return node
    if isinstance(node, list):
        return [dump_ast(item) for item in node]
    if isinstance(node, tuple):
        return tuple(dump_ast(item) for item in node)
    names = node_fields(node)
    if not names:
        raise TypeError(f"not an AST node: {node!r}")
    fields: dict[str, object] = {"node": type(node).__name__}
    for name in names:
        fields[name] = dump_ast(getattr(node, name))
    return fields


@pytest.fixture(scope="session")
def ast_dump() -> Callable[[object], object]:
    return dump_ast
