"""The `rename_symbol` tool: rename a function, class, method or variable and every place
that uses it, across files, from the index's references (one proposal changing every file;
never writes by itself).

Only names the index resolves are renamed (the same references the editor's "find
references" shows); strings and comments are left alone. A file with a pending change the
index has not seen is refused rather than guessed at.
Must not know: the editor, LSP, the agent, tree-sitter.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agentls.analysis.rename import RenameRefused, renamed
from agentls.tools.base import ToolContext, ToolError, ToolInput, ToolOutput
from agentls.tools.code.index_access import analysed_file
from agentls.tools.filesystem.content import current_content, target
from agentls.tools.filesystem.proposing import ProposingTool, check_syntax
from agentls.tools.proposals.decisions import submit, write_failure

MAX_FILES = 200


class RenameSymbolInput(ToolInput):
    path: str = Field(description="A file that defines or uses the symbol (relative to the root).")
    symbol: str = Field(min_length=1, description="Its current name (Class.method for a method).")
    new_name: str = Field(min_length=1, description="The new name.")
    line: int | None = Field(default=None, ge=0, description="0-based line of an occurrence in `path`, if the name is ambiguous.")


class RenameSymbolOutput(ToolOutput):
    symbol: str
    new_name: str
    occurrences: int
    proposal_id: str
    path: str = Field(description="The first file changed (all of them in `files`).")
    files: list[str]
    status: Literal["pending", "applied", "rejected", "stale", "failed"]
    diff: str
    message: str


class RenameSymbol(ProposingTool):
    """Rename a function, class, method or variable everywhere it is used, in every file.

    Finds the definition and all references through the code index and proposes one edit
    per file. Use it for any rename instead of editing files one by one.
    """

    name = "rename_symbol"
    category = "code"
    Input = RenameSymbolInput
    Output = RenameSymbolOutput
    timeout_s = 60.0

    def execute(self, input: RenameSymbolInput, ctx: ToolContext) -> RenameSymbolOutput:
        index, rel = analysed_file(ctx, self.name, input.path)
        index.refresh()  # files changed on disk since the index was built (earlier edits)
        new_name = input.new_name.strip()
        character = None
        if input.line is not None:
            from agentls.tools.code.lookup import column_of

            text = (index.line_index(rel).line_bytes(input.line) if index.line_index(rel) else b"")  # type: ignore[union-attr]
            character = column_of(text.decode("utf-8", "replace"), input.symbol.strip().rsplit(".", 1)[-1])
        try:
            plan = index.rename(rel, input.line if character is not None else None, character, new_name, input.symbol)
        except RenameRefused as exc:
            raise ToolError("runtime", f"cannot rename: {exc}; nothing was changed", self.name, path=rel) from None
        if len(plan.sites) > MAX_FILES:
            raise ToolError(
                "runtime", f"the rename would change {len(plan.sites)} files (more than {MAX_FILES}); nothing was changed", self.name
            )
        changes: list[tuple[str, bytes, bytes]] = []
        for path, ranges in sorted(plan.sites.items()):
            real, prel = target(ctx, path)
            current = current_content(ctx, prel, real, self.name)
            li = index.line_index(path)
            if current is None or li is None or current.data != li.data:
                raise ToolError(
                    "runtime",
                    f"cannot rename: {path} has changes the code index has not seen (a pending proposal?); "
                    "resolve them first; nothing was changed",
                    self.name,
                    path=path,
                )
            changes.append((prel, current.data, renamed(current.data, ranges, new_name)))
        for prel, old, new in changes:
            check_syntax(self.name, prel, old, new)
        title = f"Rename {plan.old} to {new_name}"
        proposal, _approval, _waited, note = submit(
            ctx,
            lambda store: store.draft_changes(
                [store.change(p, old, new) for p, old, new in changes], run_id=ctx.run_id, title=title
            ),
            tool=self.name,
        )
        if proposal.status == "failed":
            raise write_failure(proposal, self.name)
        where = ", ".join(f"{p} ({len(plan.sites[p])})" for p, _, _ in changes)
        said = f" The user said: {proposal.comment}." if proposal.comment else ""
        outcome = {
            "applied": "Applied, in place: do not rename it again.",
            "pending": "Pending the user's review; your reads show it as if applied. Do not rename it again.",
            "rejected": f"The user rejected it.{said}",
            "stale": f"Not applied (stale): {proposal.note or 'a file changed meanwhile'}.",
        }[proposal.status]
        if proposal.status == "applied" and (proposal.partial or proposal.edited_paths):
            what = "in part" if proposal.partial else "with the user's changes"
            outcome = f"Applied {what}. {proposal.note or ''}{said}"
        return RenameSymbolOutput(
            symbol=plan.old,
            new_name=new_name,
            occurrences=plan.count,
            proposal_id=proposal.id,
            path=proposal.path,
            files=[p for p, _, _ in changes],
            status=proposal.status,
            diff=proposal.diff,
            message=f"Renamed {plan.old} to {new_name}: {plan.count} places in {len(changes)} files — {where}. {outcome}{note}".strip(),
        )
