"""How the code tools get their index: built on first use and kept on the context;
a file changed or created on disk after the build is re-indexed before answering."""

from __future__ import annotations

import os
from typing import Any

from agentls.analysis.index import WorkspaceIndex
from agentls.tools.base import ToolContext
from agentls.tools.code.dependency_graph import DependencyGraph
from agentls.tools.code.find_symbol_definition import FindSymbolDefinition
from agentls.tools.code.parse_ast import ParseAst


def test_index_is_built_once_and_kept_on_the_context(call: Any, fresh_ctx: ToolContext) -> None:
    assert fresh_ctx.index is None
    call(DependencyGraph, fresh_ctx)
    index = fresh_ctx.index
    assert isinstance(index, WorkspaceIndex)
    assert "pkg/main.py" in index.files
    call(FindSymbolDefinition, fresh_ctx, symbol="helper")
    assert fresh_ctx.index is index


def test_a_file_changed_on_disk_is_reindexed(call: Any, fresh_ctx: ToolContext) -> None:
    call(DependencyGraph, fresh_ctx)
    util = fresh_ctx.workspace.root / "pkg" / "util.py"
    util.write_text("def triple(x):\n    return x * 3\n", encoding="utf-8")
    st = util.stat()
    os.utime(util, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    out = call(ParseAst, fresh_ctx, path="pkg/util.py")
    assert [s.name for s in out.symbols] == ["triple"]


def test_a_file_created_after_the_build_is_indexed(call: Any, fresh_ctx: ToolContext) -> None:
    call(DependencyGraph, fresh_ctx)
    (fresh_ctx.workspace.root / "later.py").write_text("def later():\n    pass\n", encoding="utf-8")
    out = call(FindSymbolDefinition, fresh_ctx, symbol="later", path="later.py", line=0)
    assert [(loc.path, loc.line, loc.character) for loc in out.locations] == [("later.py", 0, 4)]
    assert out.how == "resolved"
