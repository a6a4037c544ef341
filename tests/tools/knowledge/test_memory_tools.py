"""search_memory and save_memory called the way the executor calls them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from agentls.tools.base import ToolContext, ToolError
from agentls.tools.knowledge import TOOLS
from agentls.tools.knowledge.memory import MemoryStore
from agentls.tools.knowledge.save_memory import SaveMemory
from agentls.tools.knowledge.search_memory import SearchMemory
from agentls.tools.permissions import Permission


def save(ctx: ToolContext, **raw: Any) -> Any:
    return SaveMemory().execute(SaveMemory.Input(**raw), ctx)


def search(ctx: ToolContext, **raw: Any) -> Any:
    return SearchMemory().execute(SearchMemory.Input(**raw), ctx)


def test_category_exports_the_tools() -> None:
    names = {t.name for t in TOOLS}
    assert {"search_memory", "save_memory", "retrieve_spec", "retrieve_design_doc"} <= names
    assert all(t.category == "knowledge" for t in TOOLS)


@pytest.mark.parametrize(
    ("tool", "needed"),
    [(SearchMemory, Permission.FILESYSTEM_READ), (SaveMemory, Permission.FILESYSTEM_WRITE)],
)
def test_permissions_and_schema(tool: Any, needed: Permission) -> None:
    assert tool.permissions == frozenset({needed})
    schema = tool.schema()
    assert schema["description"]
    assert schema["permissions"] == [needed.value]


def test_save_then_search_round_trip(ctx: ToolContext, tmp_path: Path) -> None:
    ctx.run_id = "run-7"
    saved = save(ctx, text="Tests run with pytest -q", tags=["testing", " ci "])
    assert saved.tags == ["testing", "ci"]
    found = search(ctx, query="pytest")
    assert [m.id for m in found.memories] == [saved.id]
    assert found.memories[0].tags == ["testing", "ci"]
    assert found.memories[0].score > 0
    stored = MemoryStore.for_workspace(tmp_path).get(saved.id)
    assert stored is not None and stored["run_id"] == "run-7" and stored["source"] == "agent"


def test_uses_the_context_store_when_set(ctx: ToolContext, tmp_path: Path) -> None:
    own = MemoryStore(tmp_path / "elsewhere.db")
    ctx.memory = own
    saved = save(ctx, text="kept in the run's own store")
    assert own.get(saved.id) is not None
    assert not (tmp_path / ".agentls").exists()


def test_search_before_any_save_is_empty_and_creates_nothing(
    ctx: ToolContext, tmp_path: Path
) -> None:
    assert search(ctx, query="anything", limit=3).memories == []
    assert not (tmp_path / ".agentls").exists()


def test_limit_caps_results(ctx: ToolContext) -> None:
    for i in range(6):
        save(ctx, text=f"fact {i} about caching")
    assert len(search(ctx, query="caching", limit=2).memories) == 2
    assert len(search(ctx, query="caching").memories) == 5  # the default


@pytest.mark.parametrize(
    ("tool", "raw"),
    [
        (SearchMemory, {}),
        (SearchMemory, {"query": 42}),
        (SearchMemory, {"query": "x", "limit": "many"}),
        (SearchMemory, {"query": "x", "limit": 0}),
        (SearchMemory, {"query": "x", "limit": 51}),
        (SearchMemory, {"query": "bad\x00query"}),
        (SearchMemory, {"query": "x", "extra": 1}),
        (SaveMemory, {}),
        (SaveMemory, {"text": ""}),
        (SaveMemory, {"text": "   "}),
        (SaveMemory, {"text": ["list"]}),
        (SaveMemory, {"text": "nul\x00inside"}),
        (SaveMemory, {"text": "ok", "tags": "not-a-list"}),
        (SaveMemory, {"text": "ok", "tags": ["bad\x00tag"]}),
        (SaveMemory, {"text": "ok", "tags": [""]}),
        (SaveMemory, {"text": "x" * 20_001}),
    ],
)
def test_malformed_input_is_a_validation_error(tool: Any, raw: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        tool.Input(**raw)


def test_unreadable_database_is_a_runtime_error(ctx: ToolContext, tmp_path: Path) -> None:
    (tmp_path / ".agentls").mkdir()
    (tmp_path / ".agentls" / "memory.db").write_bytes(b"this is not a database" * 100)
    for call in (lambda: search(ctx, query="x"), lambda: save(ctx, text="x")):
        with pytest.raises(ToolError) as info:
            call()
        assert info.value.type == "runtime"
        assert info.value.tool in ("search_memory", "save_memory")
        assert "memory store" in info.value.message
