"""Shell edits are proposals (issue 12): under approval ask/never a command runs in a
scratch copy and what it created, changed or deleted comes back as one proposal, whose
accept and reject both leave the workspace exactly as expected; under auto the command
writes the workspace. Build output ignored by .gitignore is not part of a proposal.
Runs under every sandbox kind."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from agentls.tools.base import ToolContext
from agentls.tools.proposals import ProposalStore
from agentls.tools.shell import RunCommand
from agentls.tools.shell.run_command import RunCommandInput, RunCommandOutput
from agentls.workspace import Workspace

MakeCtx = Callable[..., ToolContext]
COMMAND = "echo new > new.py && echo changed >> keep.py && rm gone.py && mkdir -p build && echo o > build/out.o"
BEFORE = {"keep.py": "x = 1\n", "gone.py": "y = 2\n", ".gitignore": "build/\n"}


def tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_text()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".agentls" not in p.parts
    }


def run_with_decision(ctx: ToolContext, decision: str | None) -> RunCommandOutput:
    """Run COMMAND; a reviewer thread resolves the proposal as soon as it appears."""
    store: ProposalStore = ctx.proposals

    def review(event: dict[str, object]) -> None:
        proposal = event["proposal"]
        assert isinstance(proposal, dict)
        if decision and event["action"] == "created":
            threading.Thread(
                target=store.resolve, args=(proposal["id"], decision, "not this way")
            ).start()

    store.add_listener(review)
    return RunCommand().execute(RunCommandInput(command=COMMAND), ctx)


@pytest.fixture
def ask_ctx(
    kind: str, ws: Path, shell_ctx: MakeCtx, write: Callable[..., None]
) -> Callable[[str], ToolContext]:
    write(ws, BEFORE)
    workspace = Workspace(ws)

    def make(approval: str) -> ToolContext:
        return shell_ctx(
            kind, mode="ci", approval=approval, workspace=workspace,
            proposals=ProposalStore(workspace), run_id="run-1",
        )  # fmt: skip

    return make


def test_accepted_shell_edit_changes_exactly_those_files(
    ask_ctx: Callable[[str], ToolContext], ws: Path
) -> None:
    out = run_with_decision(ask_ctx("ask"), "accepted")
    assert out.exit_code == 0, out.stderr
    assert (out.edits.status, sorted(out.edits.files)) == (
        "applied",
        ["gone.py", "keep.py", "new.py"],
    )
    assert "build/out.o" not in out.edits.diff and "-y = 2" in out.edits.diff
    assert tree(ws) == {".gitignore": "build/\n", "keep.py": "x = 1\nchanged\n", "new.py": "new\n"}


def test_rejected_shell_edit_leaves_the_workspace_as_it_was(
    ask_ctx: Callable[[str], ToolContext], ws: Path
) -> None:
    out = run_with_decision(ask_ctx("ask"), "rejected")
    assert (out.edits.status, out.edits.comment) == ("rejected", "not this way")
    assert "rejected by the user: not this way" in out.edits.message
    assert tree(ws) == BEFORE


def test_never_leaves_one_pending_proposal_that_later_commands_see(
    ask_ctx: Callable[[str], ToolContext], ws: Path
) -> None:
    ctx = ask_ctx("never")
    out = run_with_decision(ctx, None)
    assert out.edits.status == "pending" and tree(ws) == BEFORE
    [proposal] = ctx.proposals.list("run-1")
    assert proposal.title.startswith("Shell: echo new > new.py")
    seen = RunCommand().execute(RunCommandInput(command="cat new.py; ls"), ctx)
    assert seen.stdout.startswith("new\n") and "gone.py" not in seen.stdout
    assert seen.edits.status == "none"


def test_auto_writes_the_workspace(
    kind: str, ws: Path, shell_ctx: MakeCtx, write: Callable[..., None]
) -> None:
    write(ws, BEFORE)
    out = RunCommand().execute(RunCommandInput(command=COMMAND), shell_ctx(kind, approval="auto"))
    assert out.edits.status == "in_place"
    assert tree(ws) == {
        ".gitignore": "build/\n",
        "build/out.o": "o\n",
        "keep.py": "x = 1\nchanged\n",
        "new.py": "new\n",
    }


def test_too_many_changed_files_are_not_one_proposal(ws: Path, shell_ctx: MakeCtx) -> None:
    from agentls.tools.sandbox.scratch import MAX_CHANGED_FILES

    workspace = Workspace(ws)
    ctx = shell_ctx(
        "none",
        approval="never",
        workspace=workspace,
        proposals=ProposalStore(workspace),
        run_id="r",
    )
    command = f"for i in $(seq {MAX_CHANGED_FILES + 1}); do echo $i > f$i.txt; done"
    out = RunCommand().execute(RunCommandInput(command=command), ctx)
    assert out.edits.status == "none" and "were not kept" in out.edits.message
    assert len(out.edits.not_proposed) == 20 and "more than 500" in next(
        iter(out.edits.not_proposed.values())
    )
    assert list(ws.iterdir()) == [] and ctx.proposals.list() == []
