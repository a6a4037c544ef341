"""How the code tools reach the workspace index and check the file they were asked about.

The index is `ctx.index` when the run or the server has one; otherwise one is built for
the workspace and kept on the context. A file named by the model is confined to the
workspace (PathOutsideWorkspace propagates: the executor makes it a permission error),
must exist, and must be in an analysed language; a file changed on disk since it was
indexed is re-indexed first.
Must not know: what the tools answer, LSP.
"""

from __future__ import annotations

import os

from agentls.analysis.index import WorkspaceIndex
from agentls.tools.base import ToolContext, ToolError
from agentls.tools.permissions import Permission


def workspace_index(ctx: ToolContext) -> WorkspaceIndex:
    if ctx.index is None:
        # Built for this call: a run that may not write keeps the cache read-only, and one
        # that may not run processes indexes in this process (no worker pool).
        index = WorkspaceIndex(
            ctx.workspace.root,
            workspace=ctx.workspace,
            jobs=0 if Permission.SHELL_EXECUTION in ctx.permissions else 1,
            write_cache=Permission.FILESYSTEM_WRITE in ctx.permissions,
        )
        index.build()
        ctx.index = index
    return ctx.index


def existing_path(ctx: ToolContext, tool: str, path: str) -> tuple[str, bool]:
    """The relative path of an existing file or folder, and whether it is a folder."""
    real = ctx.workspace.resolve(path)
    rel = ctx.workspace.relative(real)
    if ctx.workspace.document(rel) is not None:
        return rel, False
    if not real.exists():
        raise ToolError("runtime", f"{path!r} does not exist in the workspace", tool, path=path)
    return rel, real.is_dir()


def analysed_file(ctx: ToolContext, tool: str, path: str) -> tuple[WorkspaceIndex, str]:
    """The index and the relative path of a file it analyses (re-indexed if stale)."""
    rel, is_dir = existing_path(ctx, tool, path)
    if is_dir:
        raise ToolError("runtime", f"{path!r} is a folder, not a file", tool, path=path)
    index = workspace_index(ctx)
    if index.spec(rel) is None:
        raise ToolError(
            "runtime",
            f"{path!r} is not in a language the code index analyses",
            tool,
            path=path,
        )
    known = index.files.get(rel)
    if ctx.workspace.document(rel) is None:
        try:
            st = os.stat(ctx.workspace.root / rel)
        except OSError as exc:
            raise ToolError(
                "runtime", f"cannot read {path!r}: {exc.strerror}", tool, path=path
            ) from exc
        if known is None or (known.mtime_ns, known.size) != (st.st_mtime_ns, st.st_size):
            index.update_file(rel)
    elif known is None:
        index.update_file(rel)
    if rel not in index.files:
        raise ToolError(
            "runtime", f"{path!r} could not be analysed (binary or too large?)", tool, path=path
        )
    return index, rel
