"""The Tool interface, the context a tool runs in, and the structured tool error.

A tool is a class: a name, a category, the permissions it needs, pydantic Input and
Output models (their JSON Schemas are what the model and the editor see), and
`execute(input, ctx)`. The description is the class docstring. Tools never write files
themselves: edits become proposals (see proposals.py).
Must not know: the agent, LSP, any model provider.
"""

from __future__ import annotations

import functools
import inspect
import logging
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from agentls.settings import Settings
from agentls.tools.permissions import Approval, Permission, PermissionSet
from agentls.workspace import Workspace

if TYPE_CHECKING:
    from agentls.analysis.index import WorkspaceIndex

ErrorType = Literal["validation", "runtime", "permission"]


class ToolError(Exception):
    """A failure that goes back to the model as data (contract shape)."""

    def __init__(self, type: ErrorType, message: str, tool: str = "", **details: Any) -> None:
        super().__init__(message)
        self.type: ErrorType = type
        self.message = message
        self.tool = tool
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "message": self.message, "tool": self.tool}
        if self.details:
            out["details"] = self.details
        return out


#: Marks a string field that is code (a file's whole content, a whole definition): models
#: may write it in a fenced block instead of a JSON string (llm/base.py CODE, the same key).
CODE_ARGUMENT = "x-code"
CODE_FIELD: dict[str, Any] = {CODE_ARGUMENT: True}


def result_dict(
    ok: bool, output: Any, error: dict[str, Any] | None, tool: str
) -> dict[str, Any]:
    """A call's outcome in the contract shape: `{"ok": true, "output": ...}` or
    `{"ok": false, "error": {type, message, tool}}` (the error's own `tool` first)."""
    if ok:
        return {"ok": True, "output": output}
    err = error or {}
    return {
        "ok": False,
        "error": {
            "type": err.get("type", "runtime"),
            "message": err.get("message", ""),
            "tool": err.get("tool", tool),
        },
    }


class ToolInput(BaseModel):
    """Base for tool inputs: unknown fields are an error, strings may not hold NUL."""

    model_config = ConfigDict(extra="forbid")


class ToolOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CancelEvent(threading.Event):
    """A threading.Event that also tells whoever subscribed when it is set, so a tool
    blocked on something else (a proposal's decision) wakes at once, without polling."""

    def __init__(self) -> None:
        super().__init__()
        self._callbacks: list[Callable[[], None]] = []
        self._callbacks_lock = threading.Lock()

    def set(self) -> None:
        super().set()
        with self._callbacks_lock:
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` once when the event is set (at once if it is set already);
        returns the function that unsubscribes it."""
        with self._callbacks_lock:
            if not self.is_set():
                self._callbacks.append(callback)
                return functools.partial(self._unsubscribe, callback)
        callback()
        return _nothing

    def _unsubscribe(self, callback: Callable[[], None]) -> None:
        with self._callbacks_lock:
            if callback in self._callbacks:
                self._callbacks.remove(callback)


def _nothing() -> None:
    return None


class EditorFiles(Protocol):
    """The editor's own text of files, where a front end can ask it (ACP's
    `fs/read_text_file`): unsaved changes included."""

    def read(self, rel: str) -> bytes | None:
        """The editor's text of `rel` (workspace-relative), or None when it has none to give
        (the file is then read from the open buffer or the disk)."""
        ...


#: Asked before a tool runs (a front end that asks the user first, as ACP does for a shell
#: command under approval `ask`): (the tool, its input, the context) → None to go ahead,
#: or the reason it may not run. Called on the executor's worker thread; it may block.
CallGate = Callable[["Tool", dict[str, Any], "ToolContext"], "str | None"]


@dataclass
class ToolContext:
    """Everything a tool may touch. Built per run (agent) or per call (CLI, editor)."""

    workspace: Workspace
    permissions: PermissionSet
    cwd: str = "."  # relative to the workspace root
    logger: logging.Logger = field(default_factory=lambda: logging.getLogger("agentls.tools"))
    index: WorkspaceIndex | None = None
    memory: Any = None  # agentls.tools.knowledge.memory.MemoryStore, opened lazily
    proposals: Any = None  # agentls.tools.proposals.ProposalStore
    run_id: str | None = None
    approval: Approval = "ask"
    cancel: CancelEvent = field(default_factory=CancelEvent)
    sandbox: Any = None  # agentls.tools.sandbox.SandboxConfig
    settings: Settings = field(default_factory=Settings)  # what tools read (web, sandbox)
    extra: dict[str, Any] = field(default_factory=dict)
    editor: EditorFiles | None = None  # reads see the editor's text first (after proposals)
    gate: CallGate | None = None  # asked before every call the permissions allow
    # The auto-approve rules that let this call (or its proposals) go ahead unasked: the
    # executor gives each call a fresh list and logs it in the audit log.
    auto_approved: list[str] = field(default_factory=list)

    @property
    def root(self):  # noqa: ANN201 - Path
        return self.workspace.root


class Tool(ABC):
    """One tool. Subclasses set the class attributes and implement `execute`."""

    name: ClassVar[str]
    category: ClassVar[str]  # filesystem | git | shell | code | knowledge | web | system | mcp
    permissions: ClassVar[frozenset[Permission]] = frozenset()
    Input: ClassVar[type[BaseModel]]
    Output: ClassVar[type[BaseModel]]
    version: ClassVar[str] = "1"
    timeout_s: ClassVar[float] = 60.0

    @classmethod
    def description(cls) -> str:
        """The docstring up to `Args:`/`Returns:` — what the model reads."""
        doc = inspect.getdoc(cls) or ""
        lines: list[str] = []
        for line in doc.splitlines():
            if line.strip() in ("Args:", "Returns:", "Raises:"):
                break
            lines.append(line)
        return "\n".join(lines).strip()

    def permissions_for(self, input: Any) -> frozenset[Permission]:
        """The flags this call needs; a tool whose needs depend on its input overrides it."""
        return self.permissions

    def timeout_for(self, input: Any, ctx: ToolContext) -> float:
        """The executor's deadline for this call, in seconds.

        Defaults to `timeout_s`; a tool whose run time depends on its input (a command's own
        `timeout_s`) or on the context (waiting for the user's decision) overrides it.
        """
        return self.timeout_s

    def enabled(self, ctx: ToolContext | None = None) -> tuple[bool, str | None]:
        """Whether the tool can run here at all (e.g. git outside a repository)."""
        return True, None

    @abstractmethod
    def execute(self, input: Any, ctx: ToolContext) -> BaseModel | dict[str, Any]:
        """Run the tool. Raise ToolError for expected failures."""

    @classmethod
    def schema(cls) -> dict[str, Any]:
        return {
            "name": cls.name,
            "description": cls.description(),
            "category": cls.category,
            "version": cls.version,
            "inputSchema": cls.Input.model_json_schema(),
            "outputSchema": cls.Output.model_json_schema(),
            "permissions": sorted(p.value for p in cls.permissions),
        }
