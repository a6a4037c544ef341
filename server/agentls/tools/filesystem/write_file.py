"""The `write_file` tool: propose a file's whole new content (never writes by itself).

Must not know: the editor, LSP, the agent.
"""

from __future__ import annotations

from pydantic import Field

from agentls.tools.base import CODE_FIELD, ToolContext, ToolError, ToolInput
from agentls.tools.filesystem.content import current_content, is_binary, target
from agentls.tools.filesystem.proposing import ProposalOutput, ProposingTool, propose


class WriteFileInput(ToolInput):
    path: str = Field(description="File path relative to the workspace root; created if missing.")
    content: str = Field(description="The complete new content of the file.", json_schema_extra=CODE_FIELD)
    reason: str | None = Field(
        default=None,
        description="Only to replace most of an existing file: why its old content should go.",
    )


#: An existing file with at least this many non-blank lines is guarded ...
GUARD_MIN_LINES = 3
#: ... against a write that keeps less than this share of them.
GUARD_KEEP_SHARE = 0.5
MIN_REASON_CHARS = 12


#: Placeholder lines a stub holds to be replaced: not content the guard protects.
PLACEHOLDERS = frozenset(["pass", "...", "raise NotImplementedError", "raise NotImplementedError()", "# TODO", "// TODO"])


def kept_share(old: bytes, new: bytes) -> tuple[int, int]:
    """(how many of the old non-blank lines the new content still has, how many there were;
    placeholders such as `pass` not counted)."""
    old_lines = [ln.strip() for ln in old.decode("utf-8", "replace").splitlines() if ln.strip() and ln.strip() not in PLACEHOLDERS]
    pool: dict[str, int] = {}
    for ln in new.decode("utf-8", "replace").splitlines():
        if ln.strip():
            pool[ln.strip()] = pool.get(ln.strip(), 0) + 1
    kept = 0
    for ln in old_lines:
        if pool.get(ln, 0) > 0:
            pool[ln] -= 1
            kept += 1
    return kept, len(old_lines)


def _own_version(ctx: ToolContext, rel: str, data: bytes) -> bool:
    """Whether the file now holds what this run itself wrote there (a proposal of its
    own, applied or pending): rewriting the run's own version loses nothing of the user's."""
    store = ctx.proposals
    if store is None or not ctx.run_id:
        return False
    return any(
        p.status in ("applied", "pending") and p.targets().get(rel) == data
        for p in store.list(ctx.run_id)
    )


class WriteFile(ProposingTool):
    """Propose to create a file or replace its whole content.

    The change is not written directly: it becomes a proposal (a diff) that the user
    accepts or rejects, unless approval is 'auto'. The result says whether it was applied,
    rejected (with the user's comment), stale or is still pending; your own later reads
    see a pending proposal as if applied. Prefer edit_file or replace_symbol for changes
    to an existing file: a write that drops most of an existing file is refused unless
    `reason` says why the old content should go.
    """

    name = "write_file"
    category = "filesystem"
    Input = WriteFileInput

    def execute(self, input: WriteFileInput, ctx: ToolContext) -> ProposalOutput:
        real, rel = target(ctx, input.path)
        if rel == "." or real.is_dir():
            raise ToolError(
                "runtime", f"{rel} is a directory; give a file path", self.name, path=rel
            )
        for parent in real.parents:
            if parent.exists():
                if not parent.is_dir():
                    blocker = ctx.workspace.relative(parent)
                    raise ToolError(
                        "runtime", f"cannot create {rel}: {blocker} is a file", self.name
                    )
                break
        current = current_content(ctx, rel, real, self.name)
        new = input.content.encode("utf-8")
        if current is not None:
            if is_binary(current.data):
                raise ToolError(
                    "runtime", f"{rel} is a binary file; write_file writes text only", self.name
                )
            if current.size > len(current.data):
                raise ToolError(
                    "runtime", f"{rel} is too large ({current.size} bytes) to replace", self.name
                )
            if current.data == new:
                raise ToolError(
                    "runtime",
                    f"{rel} already has exactly this content; nothing to change",
                    self.name,
                )
            if not _own_version(ctx, rel, current.data):
                self._guard(rel, current.data, new, input.reason)
        return propose(ctx, self.name, rel, current.data if current else None, new)

    def _guard(self, rel: str, old: bytes, new: bytes, reason: str | None) -> None:
        """One bad turn must not wipe a file: dropping most of it needs a stated reason."""
        kept, total = kept_share(old, new)
        if total < GUARD_MIN_LINES or kept >= total * GUARD_KEEP_SHARE:
            return
        if reason is not None and len(reason.strip()) >= MIN_REASON_CHARS:
            return
        raise ToolError(
            "runtime",
            f"refused: this would replace {rel} and keep only {kept} of its {total} non-blank "
            "lines; no proposal was made. To change part of the file use edit_file, "
            "replace_symbol, insert_symbol or add_docstring (the rest stays as it is). Only "
            "if the old content really must go, call write_file again with `reason` saying why.",
            self.name,
            path=rel,
            kept=kept,
            lines=total,
        )
