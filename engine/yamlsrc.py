"""YAML with positions: every value keeps the line and column it came from.

Policy errors must name ``file:line:column``; PyYAML's composed node tree has the marks, so
the document is composed (never constructed with arbitrary tags: only the safe schema) and
converted by hand, recording the mark of each value under its path (``("rules", 3, "id")``).
Duplicate mapping keys, which YAML loaders silently merge, are errors here.

A policy file may come from the repository the agent works in, so it is untrusted input, read
within budgets: at most :data:`MAX_BYTES` of text, nesting at most :data:`MAX_DEPTH` deep
(checked on the event stream before anything recursive runs), and at most :data:`MAX_VALUES`
values once aliases are expanded -- a 400-byte "billion laughs" of nested ``*alias`` lists is an
error naming the line where the budget ran out, not gigabytes of lists.
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

#: Largest policy text read (the shipped default pack is under 20 KB).
MAX_BYTES = 1024 * 1024
#: Deepest nesting of mappings and sequences (the default pack needs 10).
MAX_DEPTH = 64
#: Most values a document may hold with its aliases expanded (the default pack: ~1,500).
MAX_VALUES = 200_000
#: Most YAML events (tokens of structure) one document may have.
MAX_EVENTS = 400_000


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
    if len(text) > MAX_BYTES:
        raise YamlError(
            f"policy text is {len(text)} characters, over the limit of {MAX_BYTES}", 1, 1
        )
    try:
        _check_structure(text)
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
    size = _expanded_size(node, {}, 0)
    if size > MAX_VALUES:
        raise YamlError(
            f"the document expands to {size if size < _HUGE else 'astronomically many'} values "
            f"with its aliases, over the limit of {MAX_VALUES} (aliases repeating large parts?)",
            node.start_mark.line + 1,
            node.start_mark.column + 1,
        )
    return Located(_convert(node, (), marks, keys, [MAX_VALUES]), marks, keys)


_HUGE = 1 << 62
_BUSY = -1


def _expanded_size(node: Any, memo: dict[int, int], depth: int) -> int:
    """How many values ``node`` becomes once every alias is expanded, without expanding any:
    each node's size is computed once (aliases share the node object). ``_HUGE`` for a node
    that contains itself."""
    known = memo.get(id(node))
    if known is not None:
        return _HUGE if known == _BUSY else known
    if depth > MAX_DEPTH:
        return _HUGE
    memo[id(node)] = _BUSY
    total = 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            total += _expanded_size(key_node, memo, depth + 1)
            total += _expanded_size(value_node, memo, depth + 1)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            total += _expanded_size(item, memo, depth + 1)
    total = min(total, _HUGE)
    memo[id(node)] = total
    return total


def _check_structure(text: str) -> None:
    """Nesting depth and size, from the event stream (iterative: nothing here recurses)."""
    depth = 0
    for count, event in enumerate(yaml.parse(text, Loader=_Loader)):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlError(f"nesting deeper than {MAX_DEPTH} levels", *_at(event))
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        if count > MAX_EVENTS:
            raise YamlError(f"more than {MAX_EVENTS} YAML events: too large a policy", *_at(event))


def _at(event: Any) -> tuple[int, int]:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def _convert(
    node: Any,
    path: Path,
    marks: dict[Path, tuple[int, int]],
    keys: dict[Path, tuple[int, int]],
    budget: list[int],
) -> object:
    budget[0] -= 1
    if len(path) > MAX_DEPTH:  # an alias of its own ancestor (``&a [*a]``) nests forever
        raise YamlError(
            f"nesting deeper than {MAX_DEPTH} levels (a recursive alias?)",
            node.start_mark.line + 1,
            node.start_mark.column + 1,
        )
    if budget[0] < 0:
        raise YamlError(
            f"the document expands to more than {MAX_VALUES} values (YAML aliases "
            "repeating large parts?): refused",
            node.start_mark.line + 1,
            node.start_mark.column + 1,
        )
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
            out[key] = _convert(value_node, (*path, key), marks, keys, budget)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [
            _convert(item, (*path, i), marks, keys, budget) for i, item in enumerate(node.value)
        ]
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
