"""Where the knowledge tools find their stores: the run's memory and the docs index.

The memory store is `ctx.memory` when the run set one, else one opened at the workspace
root (and kept on the context). The docs index is kept per Workspace object, so the
language server builds it once and every later call only checks for changed documents.
Must not know: what the tools do with the stores.
"""

from __future__ import annotations

import threading
import weakref

from agentls.tools.base import ToolContext
from agentls.tools.knowledge.docs import DocsIndex
from agentls.tools.knowledge.memory import MemoryStore
from agentls.workspace import Workspace

_docs_indexes: weakref.WeakKeyDictionary[Workspace, DocsIndex] = weakref.WeakKeyDictionary()
_docs_lock = threading.Lock()


def memory_store(ctx: ToolContext) -> MemoryStore:
    if ctx.memory is None:
        ctx.memory = MemoryStore.for_workspace(ctx.workspace.root)
    store: MemoryStore = ctx.memory
    return store


def docs_index(ctx: ToolContext) -> DocsIndex:
    with _docs_lock:
        index = _docs_indexes.get(ctx.workspace)
        if index is None:
            index = _docs_indexes[ctx.workspace] = DocsIndex(ctx.workspace, weak=True)
        return index
