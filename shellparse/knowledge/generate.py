"""The tables' generator: ``<table>.yaml`` -> ``_data/<table>.json``, then ``_index.py``.

``python -m clearance.shellparse.knowledge`` runs it. The YAML is what people edit; the JSON
is what loads (``knowledge.table_sections``), without YAML on the hook path. A test holds the
committed JSON and index to what this module makes of the YAML.

The vocabulary of a table file:

``programs``
    a mapping: each key is a program's names, separated by spaces (``"ls dir vdir"``), its
    value the program's entry. ``interpreters.yaml`` also has ``modules``, the same for the
    Python modules ``python -m`` runs.
an entry
    a mapping whose keys are ``Spec``'s keyword arguments (``spec.py`` says what each means):
    ``classes``, ``operands`` (a role, or a list of roles), ``options``, ``flags``, ``short``,
    ``long``, ``families``, ``abbrev``, ``permute``, ``single_dash_long``, ``number``,
    ``own_options``, ``prints_help``, ``handler``, ``default`` (an entry), ``subcommands``.
    ``name`` is the spec's name, by default the key's names joined by ``|``; an entry with
    no key of its own (a ``default``) gives it. An empty entry (``true:`` with nothing) is a
    program with the defaults.
``flags`` / ``short`` / ``long`` / ``families``
    a string, or a list of strings joined by single spaces (so a shared piece, an alias, can
    be one item of it).
``options``
    a list; an item is a mapping of ``Opt``'s keyword arguments, either ``name`` (one option:
    its spellings joined by ``/``, ``"-r/-R/--recursive"``) or ``names`` (several options
    alike but for their names: ``"-u/--user -g/--group"``), with ``value``, ``role``,
    ``adds``, ``operands``, ``ends``, ``nargs``; or a list of such items (an alias of a shared
    list: its options, in place).
``subcommands``
    a mapping like ``programs``: a key of several names (``"ls list"``) is one spec under each
    name. ``<<: *shared`` merges a shared mapping in (the YAML merge key).
``handler``
    ``family.function``: a function that ``clearance.shellparse.handlers.<family>`` lists in
    its ``HANDLERS`` (``clearance.shellparse.handlers.resolve``); any other name is an error
    that names the file and the entry.

A fact used in several places is written once, with a YAML anchor (``&name``) and aliases
(``*name``): the generator keeps the sharing, so an aliased entry, option or list is one object
when the table loads, as it was one in the file (and a long ``flags`` string given several
times is one string).
"""

from __future__ import annotations

import json
import os
from typing import Any

import yaml

from clearance.shellparse import knowledge
from clearance.shellparse.handlers import resolve
from clearance.shellparse.spec import _split_families

HERE = os.path.dirname(os.path.abspath(__file__))

SPEC_KEYS = frozenset(
    (
        "name",
        "classes",
        "operands",
        "options",
        "flags",
        "short",
        "long",
        "families",
        "abbrev",
        "permute",
        "single_dash_long",
        "number",
        "own_options",
        "prints_help",
        "handler",
        "default",
        "subcommands",
    )
)
OPT_KEYS = frozenset(("name", "names", "value", "role", "adds", "operands", "ends", "nargs"))
_JOINED = frozenset(("flags", "short", "long", "families"))
_STRINGS = frozenset(("classes", "number", "handler"))
_BOOLS = frozenset(("abbrev", "permute", "single_dash_long", "own_options", "prints_help"))


class TableError(ValueError):
    """A table file that does not say what the vocabulary allows."""


class _UniqueKeys(yaml.SafeLoader):
    """YAML, refusing a key given twice in one mapping (a second program of the same name
    would silently replace the first)."""


def _mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    """A mapping whose own keys are distinct (a key merged in with ``<<`` may be given
    again: the mapping's own value replaces the merged one, in the merged one's place)."""
    seen: set[object] = set()
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            continue
        key = loader.construct_object(key_node)
        if key in seen:
            raise TableError(f"line {key_node.start_mark.line + 1}: {key!r} is given twice")
        seen.add(key)
    loader.flatten_mapping(node)
    return loader.construct_mapping(node)


_UniqueKeys.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


class _Compiler:
    """One table's YAML structure -> its JSON structure, the nodes used more than once
    (aliases, several names for one entry) put in ``shared`` once."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.counts: dict[int, int] = {}
        self.keep: list[object] = []
        self.shared: list[list[Any]] = []
        self.refs: dict[int, Any] = {}

    def fail(self, path: str, message: str) -> TableError:
        return TableError(f"{self.where}: {path}: {message}")

    # -- how often each node is used: more than once makes it shared
    def count(self, node: object, times: int = 1) -> bool:
        """Count a use of ``node``; ``True`` the first time (its children are counted then)."""
        key = id(node)
        self.keep.append(node)
        seen = key in self.counts
        self.counts[key] = self.counts.get(key, 0) + times
        return not seen

    def count_entry(self, entry: object, times: int = 1) -> None:
        if not self.count(entry, times) or not isinstance(entry, dict):
            return
        for key, value in entry.items():
            if key == "options":
                self.count_options(value)
            elif key == "default":
                self.count_entry(value)
            elif key == "subcommands" and self.count(value) and isinstance(value, dict):
                for names, sub in value.items():
                    self.count_entry(sub, len(str(names).split()))

    def count_options(self, items: object) -> None:
        if self.count(items) and isinstance(items, list):
            for item in items:
                if isinstance(item, list):
                    self.count_options(item)
                else:
                    self.count(item)

    def shared_node(self, node: object) -> bool:
        return isinstance(node, (dict, list)) and self.counts.get(id(node), 0) > 1

    def share(self, node: object, kind: str, build: Any) -> Any:
        """``node`` built once: its JSON (unshared) or its index in ``shared``."""
        if not self.shared_node(node):
            return build()
        key = id(node)
        if key not in self.refs:
            self.shared.append([kind, build()])
            self.refs[key] = len(self.shared) - 1
        return self.refs[key]

    # -- the nodes
    def entry(self, entry: object, path: str, name: str | None) -> Any:
        return self.share(entry, "S", lambda: self.spec(entry, path, name))

    def spec(self, entry: object, path: str, name: str | None) -> dict[str, Any]:
        if entry is None:
            entry = {}
        if not isinstance(entry, dict):
            raise self.fail(path, "an entry is a mapping")
        unknown = sorted(set(entry) - SPEC_KEYS)
        if unknown:
            raise self.fail(path, f"unknown keys {unknown}")
        out: dict[str, Any] = {}
        given = entry.get("name", name)
        if not isinstance(given, str) or not given:
            raise self.fail(path, "the entry needs a name")
        out["name"] = given
        for key, value in entry.items():
            if key == "name":
                continue
            where = f"{path}/{key}"
            if key in _JOINED:
                out[key] = self.joined(value, where)
            elif key in _STRINGS:
                if not isinstance(value, str):
                    raise self.fail(where, "a string")
                out[key] = value
            elif key in _BOOLS:
                if not isinstance(value, bool):
                    raise self.fail(where, "true or false")
                out[key] = value
            elif key == "operands":
                out[key] = self.operands(value, where)
            elif key == "options":
                out[key] = self.share(value, "L", lambda v=value, w=where: self.options(v, w))
            elif key == "default":
                out[key] = self.entry(value, where, None)
            elif key == "subcommands":
                out[key] = self.share(value, "D", lambda v=value, w=where: self.subs(v, w))
        handler = out.get("handler")
        if handler is not None and resolve(handler) is None:
            raise self.fail(path, f"unknown handler {handler!r} (not in its module's HANDLERS)")
        try:
            _split_families(out.get("families", ""))
        except ValueError as exc:
            raise self.fail(path, str(exc)) from None
        return out

    def joined(self, value: object, path: str) -> str:
        if isinstance(value, str):
            return value
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return " ".join(value)
        raise self.fail(path, "a string or a list of strings")

    def operands(self, value: object, path: str) -> str | list[str]:
        if isinstance(value, str):
            return value
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return list(value)
        raise self.fail(path, "a role or a list of roles")

    def options(self, items: object, path: str) -> list[Any]:
        if not isinstance(items, list):
            raise self.fail(path, "a list of options")
        out: list[Any] = []
        for i, item in enumerate(items):
            where = f"{path}[{i}]"
            if isinstance(item, list):
                # a shared list in place: its options are the same objects in each list
                if self.shared_node(item):
                    for sub in item:
                        self.counts[id(sub)] = max(2, self.counts.get(id(sub), 0))
                out.extend(self.options(item, where))
            else:
                out.extend(self.opt(item, where, self.shared_node(items)))
        return out

    def opt(self, item: object, path: str, in_shared: bool) -> list[Any]:
        if not isinstance(item, dict):
            raise self.fail(path, "an option is a mapping")
        unknown = sorted(set(item) - OPT_KEYS)
        if unknown:
            raise self.fail(path, f"unknown keys {unknown}")
        if ("name" in item) == ("names" in item):
            raise self.fail(path, "an option has either name or names")
        rest = {k: v for k, v in item.items() if k not in ("name", "names")}
        if "operands" in rest:
            rest["operands"] = self.operands(rest["operands"], f"{path}/operands")
        if "name" in item:
            if in_shared:
                self.counts[id(item)] = max(2, self.counts.get(id(item), 0))
            return [self.share(item, "O", lambda: {"names": item["name"], **rest})]
        names = item["names"]
        if not isinstance(names, str):
            raise self.fail(path, "names is a string")
        built = [{"names": token, **rest} for token in names.split()]
        if not (in_shared or self.shared_node(item)):
            return built
        key = id(item)
        if key not in self.refs:
            first = len(self.shared)
            self.shared.extend(["O", node] for node in built)
            self.refs[key] = list(range(first, len(self.shared)))
        refs: list[Any] = self.refs[key]
        return refs

    def subs(self, value: object, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, "subcommands are a mapping")
        out: dict[str, Any] = {}
        for key, entry in value.items():
            names = str(key).split()
            where = f"{path}/{key}"
            built = self.entry(entry, where, "|".join(names))
            for name in names:
                if name in out:
                    raise self.fail(where, f"subcommand {name!r} is given twice")
                out[name] = built
        return out

    def sections(self, data: object) -> dict[str, Any]:
        if not isinstance(data, dict) or "programs" not in data:
            raise TableError(f"{self.where}: a table is a mapping with programs")
        unknown = sorted(set(data) - {"programs", "modules"})
        if unknown:
            raise TableError(f"{self.where}: unknown sections {unknown}")
        for entries in data.values():
            for names, entry in entries.items():
                self.count_entry(entry, len(str(names).split()))
        out: dict[str, Any] = {}
        for section, entries in data.items():
            if not isinstance(entries, dict):
                raise TableError(f"{self.where}: {section} is a mapping")
            nodes = []
            for key, entry in entries.items():
                nodes.append(self.entry(entry, f"{section}/{key}", "|".join(str(key).split())))
            out[section] = nodes
        return {"strings": _intern_flags([self.shared, out]), "shared": self.shared, **out}


def _intern_flags(root: object) -> list[str]:
    """The ``flags`` strings given more than once (an alias: npm's flags under each of its
    subcommands), listed once and replaced by their index, so that the JSON holds them once
    and the table one object for each."""
    specs: list[dict[str, Any]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("flags"), str):
                specs.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(root)
    counts: dict[str, int] = {}
    for spec in specs:
        counts[spec["flags"]] = counts.get(spec["flags"], 0) + 1
    strings: list[str] = []
    index: dict[str, int] = {}
    for spec in specs:
        flags = spec["flags"]
        if counts[flags] > 1 and len(flags) >= 40:
            if flags not in index:
                index[flags] = len(strings)
                strings.append(flags)
            spec["flags"] = index[flags]
    return strings


def compile_table(table: str) -> str:
    """The JSON text of ``table``'s YAML (checked: it loads)."""
    name = f"{table}.yaml"
    with open(os.path.join(HERE, name), encoding="utf-8") as fh:
        return compile_text(fh.read(), name)


def compile_text(source: str, name: str) -> str:
    """The JSON text of a table's YAML ``source`` (``name`` in errors), checked: it loads."""
    try:
        data = yaml.load(source, Loader=_UniqueKeys)
    except yaml.YAMLError as exc:
        raise TableError(f"{name}: {exc}") from None
    except TableError as exc:
        raise TableError(f"{name}: {exc}") from None
    compiled = _Compiler(name).sections(data)
    text = _dumps(compiled)
    try:
        knowledge.decode(json.loads(text), name)
    except (TypeError, ValueError) as exc:
        raise TableError(f"{name}: {exc}") from None
    return text


def _dumps(compiled: dict[str, Any]) -> str:
    """One line per node, so that a change to a table shows as a change to a few lines."""
    parts = []
    for section, nodes in compiled.items():
        body = ",\n".join(json.dumps(n, ensure_ascii=False, separators=(",", ":")) for n in nodes)
        parts.append(f"{json.dumps(section)}: [\n{body}\n]")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main() -> int:
    texts = {table: compile_table(table) for table in knowledge.TABLES}  # first: all or none
    os.makedirs(knowledge.DATA_DIR, exist_ok=True)
    for table, text in texts.items():
        path = os.path.join(knowledge.DATA_DIR, f"{table}.json")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"wrote {path}")
    knowledge._tables.clear()
    path = os.path.join(HERE, "_index.py")
    text = knowledge.index_source()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"wrote {path}")
    return 0
