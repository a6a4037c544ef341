"""The terminal review of proposals (`agentls run --approve ask`, `agentls undo`).

Each new proposal is shown as a diff and, on a terminal, asked about: `y` applies it, `n`
(or Enter) rejects it with an optional comment for the model, `e` opens the proposed text
in `$VISUAL` or `$EDITOR` (a copy in a temporary folder outside the workspace, one file at
a time) and applies what the user leaves there as the user's version (edit before accept,
DESIGN §9: the store writes it and tells the model how it differs from the proposal), `h`
goes hunk by hunk as `git add -p` does — per hunk `y` apply, `n` leave out, `a` apply this
and the rest, `d` leave out this and the rest, `q` the same as `d` — then applies the
chosen hunks, with an optional comment saying why the others were left out. A proposal an
auto-approve rule let through is shown with the rule and not asked about.
Must not know: the loop, LSP.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Protocol

from agentls.tools.proposals import Proposal, ProposalStore


class Terminal(Protocol):
    lock: Any

    def line(self, text: str) -> None: ...

    def diff(self, text: str) -> None: ...

    def thinking(self, on: bool) -> None: ...


def _ask(term: Terminal, prompt: str) -> str:
    with term.lock:
        sys.stderr.write(prompt)
        sys.stderr.flush()
    return sys.stdin.readline().strip().lower()


def _comment(term: Terminal, prompt: str) -> str | None:
    with term.lock:
        sys.stderr.write(prompt)
        sys.stderr.flush()
    return sys.stdin.readline().strip() or None


def choose_hunks(term: Terminal, hunks: list[dict[str, Any]]) -> list[int]:
    """Ask hunk by hunk; the indexes chosen."""
    chosen: list[int] = []
    rest: bool | None = None  # True: apply the rest, False: leave it out
    for number, hunk in enumerate(hunks, 1):
        if rest is not None:
            if rest:
                chosen.append(hunk["index"])
            continue
        term.diff(hunk["diff"])
        answer = ""
        while answer not in ("y", "n", "a", "d", "q"):
            answer = _ask(term, f"Apply this hunk ({number}/{len(hunks)})? [y,n,a,d,q,?] ")
            if answer not in ("y", "n", "a", "d", "q"):
                term.line(
                    "y - apply this hunk; n - leave it out; a - apply this and the rest;"
                    " d or q - leave out this and the rest"
                )
        if answer in ("y", "a"):
            chosen.append(hunk["index"])
        if answer in ("a", "d", "q"):
            rest = answer == "a"
    return chosen


def editor_command() -> list[str] | None:
    """`$VISUAL`, else `$EDITOR`, split as a shell would; None when neither is set."""
    for name in ("VISUAL", "EDITOR"):
        value = os.environ.get(name, "").strip()
        if value:
            return shlex.split(value)
    return None


def edit_texts(term: Terminal, proposal: Proposal, editor: list[str]) -> dict[str, bytes] | None:
    """Open each file the proposal writes, as proposed, in the editor (a copy outside the
    workspace); the texts the user left by path, or None when the editor failed."""
    edited: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="agentls-edit-") as folder:
        for number, change in enumerate(proposal.changes):
            if change.new is None:
                continue  # a deletion has no text to edit
            copy = Path(folder) / str(number) / Path(change.path).name
            copy.parent.mkdir()
            copy.write_bytes(change.new)
            term.line(f"  editing {change.path} in {editor[0]} (save and quit to apply)")
            try:
                # the editor talks to the terminal, even when stdout is a pipe (--json)
                shown = None if sys.stdout.isatty() else sys.stderr
                done = subprocess.run([*editor, str(copy)], check=False, stdout=shown)
            except OSError as exc:
                term.line(f"  the editor {editor[0]!r} could not start: {exc}")
                return None
            if done.returncode != 0:
                term.line(f"  the editor exited with status {done.returncode}; nothing was applied")
                return None
            edited[change.path] = copy.read_bytes()
    return edited


def _accept_edited(term: Terminal, store: ProposalStore, proposal: Proposal) -> bool:
    """Edit the proposed text in the user's editor and accept what they leave (the store
    writes it); False when there is no editor or it failed (the question is asked again)."""
    editor = editor_command()
    if editor is None:
        term.line("  no $VISUAL or $EDITOR is set: set one to edit the proposal first")
        return False
    edited = edit_texts(term, proposal, editor)
    if edited is None:
        return False
    if all(proposal.targets().get(path) == text for path, text in edited.items()):
        store.resolve(proposal.id, "accepted")  # left as proposed
    else:
        store.resolve(proposal.id, "accepted", content=edited, write_content=True)
    return True


def review(term: Terminal, store: ProposalStore, proposal: dict[str, Any]) -> None:
    """Ask about one proposal on the terminal and resolve it."""
    hunks = proposal.get("hunks") or []
    found = store.get(proposal["id"])
    can_edit = found is not None and any(c.new is not None for c in found.changes)
    more = ["e: edit first"] if can_edit else []
    more += ["h: hunk by hunk"] if len(hunks) > 1 else []
    prompt = "Apply this change? [y/N]" + (f" ({'; '.join(more)})" if more else "") + " "
    answer = _ask(term, prompt)
    while answer in ("e", "edit") and can_edit and found is not None:
        if _accept_edited(term, store, found):
            return
        answer = _ask(term, prompt)
    if answer in ("y", "yes"):
        store.resolve(proposal["id"], "accepted")
        return
    if answer in ("h", "hunks") and len(hunks) > 1:
        chosen = choose_hunks(term, hunks)
        if len(chosen) == len(hunks):
            store.resolve(proposal["id"], "accepted")
            return
        if chosen:
            comment = _comment(term, "Why leave the other hunks out? (optional, Enter to skip) ")
            store.resolve(proposal["id"], "accepted", comment, hunks=chosen)
            return
    comment = _comment(term, "Why not? (optional, Enter to skip) ")
    store.resolve(proposal["id"], "rejected", comment)


def proposal_listener(term: Terminal, store: ProposalStore, interactive: bool) -> Any:
    """A store listener: show each new proposal, ask about it when `interactive` (unless an
    auto-approve rule let it through: then the rule is said instead)."""

    def listen(event: dict[str, Any]) -> None:
        proposal = event["proposal"]
        if event["action"] == "resolved":
            hunks = proposal.get("acceptedHunks")
            part = f" (hunks {', '.join(map(str, hunks))})" if hunks is not None else ""
            if proposal.get("edited"):
                part += f" (your version of {', '.join(proposal['edited'])})"
            term.line(f"  proposal {proposal['id']} {proposal['status']}{part}")
            return
        term.thinking(False)
        term.line(f"  proposal {proposal['id']}: {proposal['title']}")
        term.diff(proposal.get("diff", ""))
        if proposal.get("autoApproved"):
            term.line(f"  auto-approved by {proposal['autoApproved']}")
        elif interactive:
            review(term, store, proposal)

    return listen
