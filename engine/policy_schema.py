"""The policy file schema (pydantic): what a valid policy YAML is.

Only the loader uses these models. Once a file validates, its normalised dump is what the
compiled-policy cache stores, so a hook that hits the cache never imports pydantic.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from clearance.engine.pathsets import PATH_SETS
from clearance.shellparse.facts import CLASSES, MARKERS

Decision = Literal["allow", "ask", "deny"]
Risk = Literal["low", "medium", "high", "critical"]
Access = Literal["read", "write", "delete", "exec", "unknown"]

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\Z")


def _near(word: str, choices: Any) -> str:
    from clearance.engine.messages import did_you_mean

    return did_you_mean(word, sorted(choices))


def _listify(value: Any) -> Any:
    if isinstance(value, str):
        return [value]
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PathsMatcher(_Strict):
    """Paths the part touches. ``match`` are gitignore-style globs (``@name`` for a named
    set); ``access`` limits to reads, writes…; ``location`` to ``inside`` the workspace,
    ``outside`` it (known to be), ``unknown`` (a path computed at run time, a relative path
    after ``cd $X``) or ``not_inside`` (outside or unknown)."""

    match: list[str] = []
    sets: list[str] = []
    access: list[Access] | None = None
    location: Literal["inside", "outside", "unknown", "not_inside", "any"] = "any"
    source: list[Literal["argument", "redirect", "option", "program", "script", "tool"]] | None = (
        None
    )
    #: ``true``: every path the part touches must satisfy the rest (and there is at least one
    #: path, unless ``match`` is empty); the default is that some path does.
    every: bool = False

    @field_validator("match", "sets", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return _listify(value)

    @field_validator("match")
    @classmethod
    def _globs(cls, value: list[str]) -> list[str]:
        for pattern in value:
            if pattern.startswith("@"):
                if pattern[1:] not in PATH_SETS:
                    raise ValueError(
                        f"unknown path set {pattern!r}{_near(pattern[1:], PATH_SETS)}; "
                        f"known: {', '.join(sorted(PATH_SETS))}"
                    )
            elif not pattern or pattern.count("[") != pattern.count("]"):
                raise ValueError(f"invalid glob {pattern!r}")
        return value

    @field_validator("sets")
    @classmethod
    def _sets(cls, value: list[str]) -> list[str]:
        for name in value:
            if name not in PATH_SETS:
                raise ValueError(
                    f"unknown path set {name!r}{_near(name, PATH_SETS)}; "
                    f"known: {', '.join(sorted(PATH_SETS))}"
                )
        return value


class When(_Strict):
    """Matchers; several keys in one mapping must all hold."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    all: list[When] | None = None
    any: list[When] | None = None
    not_: When | None = Field(default=None, alias="not")
    program: list[str] | None = None
    argv: list[str] | None = None
    subcommand: list[str] | None = None
    flags: list[str] | None = None
    classes: list[str] | None = None
    paths: PathsMatcher | None = None
    hosts: list[str] | None = None
    redirects: list[str] | None = None
    markers: list[str] | None = None
    regex: str | None = None
    only_flags: list[str] | None = None
    only_hosts: list[str] | None = None
    via: list[str] | None = None
    context: list[str] | None = None
    tool: list[str] | None = None

    @field_validator(
        "program",
        "argv",
        "subcommand",
        "flags",
        "classes",
        "hosts",
        "redirects",
        "markers",
        "via",
        "context",
        "tool",
        "only_flags",
        "only_hosts",
        mode="before",
    )
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return _listify(value)

    @field_validator("paths", mode="before")
    @classmethod
    def _paths_short(cls, value: Any) -> Any:
        if isinstance(value, (str, list)):
            return {"match": _listify(value)}
        return value

    @field_validator("classes")
    @classmethod
    def _classes(cls, value: list[str] | None) -> list[str] | None:
        for name in value or ():
            if name not in CLASSES:
                raise ValueError(
                    f"unknown effect class {name!r}{_near(name, CLASSES)}; "
                    f"known: {', '.join(CLASSES)}"
                )
        return value

    @field_validator("markers")
    @classmethod
    def _markers(cls, value: list[str] | None) -> list[str] | None:
        for name in value or ():
            if name not in MARKERS:
                raise ValueError(
                    f"unknown marker {name!r}{_near(name, MARKERS)}; known: {', '.join(MARKERS)}"
                )
        return value

    @field_validator("flags", "only_flags")
    @classmethod
    def _flags(cls, value: list[str] | None) -> list[str] | None:
        for flag in value or ():
            if not flag.startswith("-"):
                raise ValueError(f"flag {flag!r} must start with '-'")
        return value

    @field_validator("regex")
    @classmethod
    def _regex(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"invalid regex {value!r}: {exc}") from None
        return value

    @field_validator("argv", "program", "hosts", "redirects", "via", "subcommand")
    @classmethod
    def _patterns(cls, value: list[str] | None) -> list[str] | None:
        for pattern in value or ():
            if not pattern.strip():
                raise ValueError("empty pattern")
            if pattern.count("[") != pattern.count("]"):
                raise ValueError(f"invalid glob {pattern!r}: unbalanced '['")
        return value

    @model_validator(mode="after")
    def _not_empty(self) -> When:
        if not self.model_fields_set:
            raise ValueError("a 'when' needs at least one matcher")
        return self


class ExampleIntent(_Strict):
    """An example that is not a shell command: ``{tool: Read, input: {file_path: .env}}``."""

    tool: str
    input: dict[str, Any]


Example = Annotated[str | ExampleIntent, Field(union_mode="left_to_right")]


class Examples(_Strict):
    match: list[Example] = []
    no_match: list[Example] = []


class Rule(_Strict):
    id: str
    decision: Decision
    reason: str = Field(min_length=1)
    when: When
    target: Literal["part", "command"] = "part"
    tools: list[str] | None = None
    risk: Risk | None = None
    description: str = ""
    examples: Examples = Examples()
    #: Policy ids (``default/ask-package-install``) of lower-precedence rules this one
    #: relaxes, for the parts it matches (see policies/README.md, "Overrides").
    overrides: list[str] = []
    #: Nothing below this rule's scope may override or settle it (session grants included).
    final: bool = False

    @field_validator("overrides", mode="before")
    @classmethod
    def _overrides_list(cls, value: Any) -> Any:
        return _listify(value)

    @field_validator("overrides")
    @classmethod
    def _override_ids(cls, value: list[str]) -> list[str]:
        for name in value:
            pack, sep, rule = name.partition("/")
            if not sep or not _ID.match(pack) or not _ID.match(rule):
                raise ValueError(
                    f"override {name!r}: name a rule by its policy id, POLICY/RULE "
                    "(e.g. default/ask-package-install), without globs"
                )
        return value

    @model_validator(mode="after")
    def _override_relaxes(self) -> Rule:
        if self.overrides and self.decision == "deny":
            raise ValueError("a deny rule cannot override anything (overrides relax)")
        if self.overrides and self.final:
            raise ValueError("a rule cannot be both final and override others")
        return self

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError(f"rule id {value!r}: use letters, digits, '.', '_' and '-'")
        return value

    @field_validator("tools", mode="before")
    @classmethod
    def _tools(cls, value: Any) -> Any:
        return _listify(value)


class Defaults(_Strict):
    decision: Decision = "ask"
    unknown_tool: Literal["ask", "deny"] = "ask"


class SandboxProfile(_Strict):
    """A widening of the default sandbox (see ``clearance.sandbox.settings``)."""

    description: str = ""
    network: bool = False
    writable: list[str] = []
    expose: list[str] = []
    programs: list[str] = []
    rules: list[str] = []

    @field_validator("writable", "expose", "programs", "rules", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return _listify(value)

    @field_validator("writable")
    @classmethod
    def _paths(cls, value: list[str]) -> list[str]:
        for path in value:
            if not path.strip() or "\0" in path or ".." in path.split("/"):
                raise ValueError(f"writable path {path!r}: give a path without '..'")
        return value


class SandboxSettings(_Strict):
    """``sandbox:``: what an allow becomes when nothing can confine, and named profiles."""

    unavailable: Literal["ask", "deny", "run"] | None = None
    profiles: dict[str, SandboxProfile] = {}

    @field_validator("profiles")
    @classmethod
    def _names(cls, value: dict[str, SandboxProfile]) -> dict[str, SandboxProfile]:
        for name in value:
            if not _ID.match(name) or name == "default":
                raise ValueError(
                    f"sandbox profile {name!r}: use letters, digits, '.', '_' and '-' "
                    "('default' is the built-in confinement)"
                )
        return value


class PolicyFile(_Strict):
    version: Literal[1]
    id: str
    description: str = ""
    extends: list[str] = []
    defaults: Defaults = Defaults()
    lock: bool = False
    rules: list[Rule] = []
    sandbox: SandboxSettings | None = None

    @field_validator("extends", mode="before")
    @classmethod
    def _extends(cls, value: Any) -> Any:
        return [] if value is None else _listify(value)

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError(f"policy id {value!r}: use letters, digits, '.', '_' and '-'")
        return value

    @model_validator(mode="after")
    def _unique_ids(self) -> PolicyFile:
        seen: set[str] = set()
        for rule in self.rules:
            if rule.id in seen:
                raise ValueError(f"duplicate rule id {rule.id!r}")
            seen.add(rule.id)
        return self


When.model_rebuild()
