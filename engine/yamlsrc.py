"""YAML with positions: every value keeps the line and column it came from.

Policy errors must name ``file:line:column``; PyYAML's composed node tree has the marks, so
the document is composed (never constructed with arbitrary tags: only the safe schema) and
converted by hand, recording the mark of each value under its path (``("rules", 3, "id")``).
Duplicate mapping keys, which YAML loaders silently merge, are errors here.
"""

from __future__ import annotations

import yaml

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    Path = tuple[str | int, ...]

try:
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml is part of the usual wheels
    _Loader = yaml.SafeLoader

_BOOL_TRUE = frozenset(("true", "yes", "on", "y"))


class YamlError(Exception):
    """A YAML document that cannot be read, with 1-based position."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class Located:
    """A loaded document and where each of its values (and mapping keys) stands."""

    def __init__(
        self,
        data: object,
        marks: dict[Path, tuple[int, int]],
        keys: dict[Path, tuple[int, int]] | None = None,
    ) -> None:
        self.data = data
        self.marks = marks
        self.keys = keys or {}

    def position(self, path: Path, *, key: bool = False) -> tuple[int, int]:
        """Line and column of ``path`` (of its key, with ``key``), or of its closest ancestor
        that has one."""
        if key and path in self.keys:
            return self.keys[path]
        while True:
            found = self.marks.get(path)
            if found is not None:
                return found
            if not path:
                return (1, 1)
            path = path[:-1]


def load(text: str) -> Located:
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        column = mark.column + 1 if mark is not None else 1
        raise YamlError(f"YAML syntax: {exc.problem or exc}", line, column) from None
    except yaml.YAMLError as exc:
        raise YamlError(f"YAML: {exc}", 1, 1) from None
    marks: dict[Path, tuple[int, int]] = {}
    keys: dict[Path, tuple[int, int]] = {}
    if node is None:
        return Located(None, marks, keys)
    return Located(_convert(node, (), marks, keys), marks, keys)


def _convert(
    node: Any, path: Path, marks: dict[Path, tuple[int, int]], keys: dict[Path, tuple[int, int]]
) -> object:
    marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict[str, object] = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            if not isinstance(key, str):
                key = str(key)
            if key in out:
                raise YamlError(
                    f"duplicate key {key!r}",
                    key_node.start_mark.line + 1,
                    key_node.start_mark.column + 1,
                )
            keys[(*path, key)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = _convert(value_node, (*path, key), marks, keys)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, (*path, i), marks, keys) for i, item in enumerate(node.value)]
    return _scalar(node)


def _scalar(node: Any) -> object:
    tag = node.tag
    value = node.value
    if tag.endswith(":str") or node.style in ("'", '"', "|", ">"):
        return value
    if tag.endswith(":null"):
        return None
    if tag.endswith(":bool"):
        return value.lower() in _BOOL_TRUE
    if tag.endswith(":int"):
        try:
            return int(value.replace("_", ""), 0)
        except ValueError:
            return value
    if tag.endswith(":float"):
        try:
            return float(value.replace("_", ""))
        except ValueError:
            return value
    return value
