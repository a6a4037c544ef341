"""Every tool of the filesystem and system categories × every mode: allowed or a permission error."""

from __future__ import annotations

import pytest

from agentls.tools.permissions import MODES

CALLS = {
    "read_file": {"path": "README.md"},
    "list_directory": {"path": "."},
    "search_files": {"query": "hello"},
    "write_file": {"path": "new.txt", "content": "x\n"},
    "edit_file": {"path": "README.md", "old": "hello", "new": "goodbye"},
    "finish": {"summary": "done"},
}
NEEDS = {
    "read_file": "filesystemRead",
    "list_directory": "filesystemRead",
    "search_files": "filesystemRead",
    "write_file": "filesystemWrite",
    "edit_file": "filesystemWrite",
    "finish": None,
}
TABLE = [
    (tool, mode, NEEDS[tool] is None or NEEDS[tool] in {p.value for p in MODES[mode]})
    for tool in CALLS
    for mode in ("read-only", "dev", "ci", "full")
]


def test_the_table_covers_every_tool(fs_executor):
    assert sorted(fs_executor.registry.names) == sorted(CALLS)


@pytest.mark.parametrize(("tool", "mode", "allowed"), TABLE)
def test_mode_allows_or_refuses(call, make_ctx, ws_root, tool, mode, allowed):
    result = call(make_ctx(mode, "never"), tool, **CALLS[tool])
    if allowed:
        assert result.ok, result.error
    else:
        assert result.error["type"] == "permission"
        assert NEEDS[tool] in result.error["message"] and repr(mode) in result.error["message"]
    assert (ws_root / "README.md").read_text() == "# demo\nhello world\n"
    assert not (ws_root / "new.txt").exists()
