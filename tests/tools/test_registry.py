"""The registry: registration, schemas with availability, discovery of the built-in tools."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import ClassVar

import pytest

import agentls.tools
from agentls.tools.base import Tool, ToolContext, ToolInput, ToolOutput
from agentls.tools.filesystem import ReadFile, WriteFile
from agentls.tools.permissions import READ, Permission, PermissionSet
from agentls.tools.registry import ToolRegistry, default_registry
from agentls.tools.system import Finish

SCHEMA_KEYS = {
    "name",
    "description",
    "category",
    "version",
    "inputSchema",
    "outputSchema",
    "permissions",
    "enabled",
    "disabledReason",
}


class _In(ToolInput):
    pass


class _Out(ToolOutput):
    pass


class Picky(Tool):
    """Only works in some places."""

    name = "picky"
    category = "git"
    permissions: ClassVar[frozenset[Permission]] = frozenset({READ})
    Input = _In
    Output = _Out

    def enabled(self, ctx: ToolContext | None = None) -> tuple[bool, str | None]:
        return False, "not a git repository"

    def execute(self, input: _In, ctx: ToolContext) -> _Out:
        return _Out()


class Broken(Picky):
    """Its availability check crashes."""

    name = "broken"

    def enabled(self, ctx: ToolContext | None = None) -> tuple[bool, str | None]:
        raise OSError("cannot stat")


def test_register_classes_and_instances():
    registry = ToolRegistry([ReadFile])
    finish = Finish()
    assert registry.register(finish) is finish
    assert registry.names == ["read_file", "finish"]
    assert isinstance(registry.get("read_file"), ReadFile)
    assert registry.get("nope") is None
    assert [t.name for t in registry.list()] == ["read_file", "finish"]
    assert "finish" in registry and len(registry) == 2


@pytest.mark.parametrize(("tool", "error"), [(ReadFile, ValueError), (object, TypeError)])
def test_register_refuses_duplicates_and_non_tools(tool, error):
    registry = ToolRegistry([ReadFile])
    with pytest.raises(error):
        registry.register(tool)


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        (None, {"read_file": None, "write_file": None, "finish": None}),
        ("read-only", {"read_file": None, "write_file": "filesystemWrite", "finish": None}),
        ("dev", {"read_file": None, "write_file": None, "finish": None}),
        ("ci", {"read_file": None, "write_file": "filesystemWrite", "finish": None}),
    ],
)
def test_schemas_say_which_tools_a_mode_enables(mode, expected):
    registry = ToolRegistry([ReadFile, WriteFile, Finish])
    permissions = PermissionSet.for_mode(mode) if mode else None
    schemas = {s["name"]: s for s in registry.schemas(permissions)}
    for name, missing in expected.items():
        schema = schemas[name]
        assert set(schema) == SCHEMA_KEYS
        assert schema["enabled"] is (missing is None)
        if missing:
            assert missing in schema["disabledReason"] and repr(mode) in schema["disabledReason"]
        else:
            assert schema["disabledReason"] is None
    assert [t.name for t in registry.enabled_tools(permissions)] == [
        n for n, missing in expected.items() if missing is None
    ]


def test_schema_content():
    (schema,) = ToolRegistry([ReadFile]).schemas()
    assert schema["category"] == "filesystem"
    assert schema["permissions"] == ["filesystemRead"]
    assert schema["version"] == "1"
    assert schema["inputSchema"]["required"] == ["path"]
    assert "end_line" in schema["inputSchema"]["properties"]
    assert "exclusive" in schema["description"]
    assert "total_lines" in schema["outputSchema"]["properties"]


@pytest.mark.parametrize(
    ("tool", "reason"), [(Picky, "not a git repository"), (Broken, "cannot stat")]
)
def test_a_tool_that_is_not_enabled_is_listed_as_disabled(tool, reason):
    (schema,) = ToolRegistry([tool]).schemas(PermissionSet.for_mode("full"))
    assert schema["enabled"] is False
    assert reason in schema["disabledReason"]


def test_default_registry_finds_the_builtin_tools():
    registry = default_registry()
    for name in (
        "read_file",
        "list_directory",
        "search_files",
        "write_file",
        "edit_file",
        "finish",
        "web_search",
        "web_fetch",
    ):
        assert name in registry
    for tool in registry:
        assert tool.category in ("filesystem", "git", "shell", "code", "knowledge", "web", "system")


def test_discovery_skips_missing_and_broken_categories(tmp_path: Path, monkeypatch, caplog):
    broken = tmp_path / "brokencat"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError('half written')\n")
    notools = tmp_path / "notools"
    notools.mkdir()
    (notools / "__init__.py").write_text("X = 1\n")
    monkeypatch.setattr(agentls.tools, "__path__", [*agentls.tools.__path__, str(tmp_path)])
    with caplog.at_level(logging.WARNING, logger="agentls.tools.registry"):
        registry = default_registry(("filesystem", "brokencat", "absent", "notools", "system"))
    assert "read_file" in registry and "finish" in registry
    assert len(registry.problems) == 3
    joined = "\n".join(registry.problems)
    for fragment in ("'brokencat'", "half written", "'absent'", "does not export TOOLS"):
        assert fragment in joined
    assert "half written" in caplog.text


def test_discovery_skips_a_bad_entry_in_TOOLS(tmp_path: Path, monkeypatch):
    pkg = tmp_path / "dupcat"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from agentls.tools.filesystem import ReadFile\nTOOLS = [ReadFile, object]\n"
    )
    monkeypatch.setattr(agentls.tools, "__path__", [*agentls.tools.__path__, str(tmp_path)])
    registry = default_registry(("filesystem", "dupcat"))
    assert registry.names.count("read_file") == 1
    assert len(registry.problems) == 2  # the duplicate and the non-tool
