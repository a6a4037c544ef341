"""Write tools over MCP (`--mode dev`): a call returns the proposal it made (id, diff) and
writes nothing, saying so, unless `--approve auto` applies it; `ask` has nobody to ask
over MCP (`approval_for(..., interactive=False)`) and proposes only, as `never` does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp.harness import MAIN, stdio_session, text, workspace

EDIT = {"path": "pkg/main.py", "old": "def total(", "new": "def grand_total("}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return workspace(tmp_path)


@pytest.mark.parametrize("approve", ["ask", "never"])
async def test_dev_lists_the_write_tools_and_an_edit_is_only_proposed(root: Path, approve: str) -> None:
    async with stdio_session(root, "--mode", "dev", "--approve", approve) as session:
        names = {t.name for t in (await session.list_tools()).tools}
        result = await session.call_tool("edit_file", EDIT)
        read = await session.call_tool("read_file", {"path": "pkg/main.py"})
    assert {"write_file", "edit_file", "replace_symbol", "rename_symbol"} <= names
    assert "run_command" not in names  # dev grants no shell
    assert not result.is_error
    proposal = result.structured_content
    assert proposal["status"] == "pending" and proposal["proposal_id"].startswith("prop-")
    assert "-def total(" in proposal["diff"] and "+def grand_total(" in proposal["diff"]
    note = result.content[1].text
    assert "nothing was written" in note and proposal["proposal_id"] in note and "--approve auto" in note
    assert (root / "pkg" / "main.py").read_text() == MAIN
    assert "def total(" in text(read)["content"], "a later call reads the file as it is on disk"


async def test_approve_auto_applies_the_edit(root: Path) -> None:
    async with stdio_session(root, "--mode", "dev", "--approve", "auto") as session:
        result = await session.call_tool("edit_file", EDIT)
        found = await session.call_tool("find_symbol_definition", {"symbol": "grand_total"})
    assert not result.is_error and result.structured_content["status"] == "applied"
    assert len(result.content) == 1, "no note: the edit was written"
    assert (root / "pkg" / "main.py").read_text() == MAIN.replace("def total(", "def grand_total(")
    assert [loc["path"] for loc in text(found)["locations"]] == ["pkg/main.py"]


async def test_auto_in_read_only_writes_nothing(root: Path) -> None:
    """`auto` is not allowed outside dev and full: the write tools are not even offered,
    and a call of one is a permission error."""
    async with stdio_session(root, "--approve", "auto") as session:
        names = {t.name for t in (await session.list_tools()).tools}
        result = await session.call_tool("write_file", {"path": "new.py", "content": "x = 1\n"})
    assert "write_file" not in names
    assert result.is_error and text(result)["type"] == "permission"
    assert not (root / "new.py").exists()
