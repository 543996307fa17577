"""Policy validation errors in the policy's own words.

The schema is checked by pydantic; its messages ("Input should be a valid list", "Value
error, …", ``rules.0.when``) speak of the library. ``explain`` turns one error into what a
policy author needs: where (the key path inside the rule, whose id the issue names), what
was expected, a did-you-mean for a misspelt key or value, and a hint when YAML 1.1 has turned
an unquoted ``yes``/``no``/``on``/``off`` into a boolean.
"""

from __future__ import annotations

import difflib
from typing import Any

#: Which model holds the keys at a path, by the key that leads there.
_KEYS: dict[str, tuple[str, ...]] = {}


def _keys_of(model: str) -> tuple[str, ...]:
    if not _KEYS:
        from clearance.engine.policy_schema import (
            Defaults,
            ExampleIntent,
            Examples,
            PathsMatcher,
            PolicyFile,
            Rule,
            When,
        )

        for name, cls in (
            ("policy", PolicyFile),
            ("rule", Rule),
            ("when", When),
            ("paths", PathsMatcher),
            ("examples", Examples),
            ("defaults", Defaults),
            ("intent", ExampleIntent),
        ):
            _KEYS[name] = tuple((field.alias or key) for key, field in cls.model_fields.items())
    return _KEYS.get(model, ())


def _model_at(path: tuple[str | int, ...]) -> str:
    """The model whose keys live at ``path`` (the path of a mapping)."""
    model = "policy"
    for part in path:
        if isinstance(part, int):
            continue
        if model == "policy":
            model = {"rules": "rule", "defaults": "defaults"}.get(part, "?")
        elif model == "rule":
            model = {"when": "when", "examples": "examples"}.get(part, "?")
        elif model == "when":
            model = {"all": "when", "any": "when", "not": "when", "paths": "paths"}.get(part, "?")
        elif model == "examples":
            model = "intent"
        else:
            model = "?"
    return model


def did_you_mean(word: str, choices: tuple[str, ...] | list[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or nothing."""
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {found[0]!r}?)" if found else ""


def yaml_bool_hint(value: object) -> str:
    if not isinstance(value, bool):
        return ""
    words = "yes/on/true" if value else "no/off/false"
    return (
        f"; YAML 1.1 reads an unquoted {words} as the boolean {str(value).lower()}: "
        "put the word in quotes"
    )


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if value is None:
        return "nothing (null)"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return repr(value)


def where(path: tuple[str | int, ...]) -> str:
    """The key path a policy author reads: inside a rule, relative to the rule (its id is
    named beside); list items as ``[n]`` counted from 1."""
    if len(path) >= 2 and path[0] == "rules" and isinstance(path[1], int):
        path = path[2:]
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part + 1}]"
        else:
            text += ("." if text else "") + part
    return text or "(top level)"


def explain(error: Any, path: tuple[str | int, ...]) -> str:
    """One pydantic error (``ValidationError.errors()`` item) in the policy's words."""
    kind = str(error.get("type", ""))
    value = error.get("input")
    ctx = error.get("ctx") or {}
    if kind == "extra_forbidden":
        key = str(path[-1]) if path else "?"
        return f"unknown key {key!r}" + did_you_mean(key, _keys_of(_model_at(path[:-1])))
    if kind == "missing":
        return f"missing required key {path[-1]!r}" if path else "missing key"
    if kind == "literal_error":
        expected = str(ctx.get("expected", "")).replace("'", "")
        choices = [c.strip() for c in expected.replace(" or ", ",").split(",") if c.strip()]
        hint = did_you_mean(value, choices) if isinstance(value, str) else ""
        return f"{_shown(value)} is not one of {', '.join(choices)}{hint}" + yaml_bool_hint(value)
    if kind == "value_error":
        message = str(error.get("msg", ""))
        return message.removeprefix("Value error, ")
    if kind in ("list_type", "tuple_type"):
        return f"expected a list (or one string), got {_shown(value)}" + yaml_bool_hint(value)
    if kind == "string_type":
        return f"expected a string, got {_shown(value)}" + yaml_bool_hint(value)
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"expected a mapping (key: value), got {_shown(value)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"expected true or false, got {_shown(value)}"
    if kind in ("int_type", "int_parsing"):
        return f"expected a whole number, got {_shown(value)}"
    if kind == "string_too_short":
        return "must not be empty"
    message = str(error.get("msg", "invalid value"))
    return message.replace("Input should be", "expected").replace("Value error, ", "")
