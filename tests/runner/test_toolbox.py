"""The toolbox: what the model is offered, and schema validation that touches nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from clearance.engine.intents import TOOLS
from clearance.runner.tools import Invalid, Status, Toolbox, Validated


def test_every_tool_offers_a_closed_json_schema_and_is_known_to_the_engine() -> None:
    specs = Toolbox().specs()
    assert [spec.name for spec in specs] == [
        "bash",
        "read_file",
        "edit_file",
        "write_file",
        "glob",
        "grep",
    ]
    for spec in specs:
        assert spec.input_schema["type"] == "object"
        assert spec.input_schema["additionalProperties"] is False
        assert spec.description
        assert spec.name in TOOLS  # the engine knows how to judge it


def test_read_only_tools_are_declared() -> None:
    box = Toolbox()
    read_only = {name for name in box.names if (tool := box.get(name)) and tool.read_only}
    assert read_only == {"read_file", "glob", "grep"}


def test_unknown_tools_and_bad_input_are_invalid_with_every_problem_listed() -> None:
    box = Toolbox()
    unknown = box.validate("delete_everything", {})
    assert isinstance(unknown, Invalid) and unknown.status is Status.UNKNOWN_TOOL
    assert "bash" in unknown.message
    bad = box.validate("edit_file", {"path": "a", "old": "x", "new_text": 3})
    assert isinstance(bad, Invalid) and bad.status is Status.INVALID_INPUT
    assert any(error.startswith("old_text:") for error in bad.errors)
    assert any(error.startswith("old:") for error in bad.errors)
    assert any(error.startswith("new_text:") for error in bad.errors)


def test_validation_is_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_touching(*args: object, **kwargs: object) -> None:
        raise AssertionError("validation touched the file system")

    monkeypatch.setattr(Path, "exists", no_touching)
    monkeypatch.setattr(Path, "read_bytes", no_touching)
    checked = Toolbox().validate(
        "edit_file", {"path": "/nowhere/x.py", "old_text": "a", "new_text": "b"}
    )
    assert isinstance(checked, Validated)


def test_every_status_is_a_plain_string_code() -> None:
    assert {str(status) for status in Status} >= {
        "ok",
        "no_match",
        "path_not_found",
        "invalid_pattern",
        "not_read_first",
        "changed_since_read",
        "old_text_not_found",
        "old_text_not_unique",
        "timeout",
        "output_truncated",
        "nonzero_exit",
    }
