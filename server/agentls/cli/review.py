"""The terminal review of proposals (`agentls run --approve ask`, `agentls undo`).

Each new proposal is shown as a diff and, on a terminal, asked about: `y` applies it, `n`
(or Enter) rejects it with an optional comment for the model, `e` goes hunk by hunk as
`git add -p` does — per hunk `y` apply, `n` leave out, `a` apply this and the rest, `d`
leave out this and the rest, `q` the same as `d` — then applies the chosen hunks, with an
optional comment saying why the others were left out. Must not know: the loop, LSP.
"""

from __future__ import annotations

import sys
from typing import Any, Protocol

from agentls.tools.proposals import ProposalStore


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


def review(term: Terminal, store: ProposalStore, proposal: dict[str, Any]) -> None:
    """Ask about one proposal on the terminal and resolve it."""
    hunks = proposal.get("hunks") or []
    more = " (e: hunk by hunk)" if len(hunks) > 1 else ""
    answer = _ask(term, f"Apply this change? [y/N]{more} ")
    if answer in ("y", "yes"):
        store.resolve(proposal["id"], "accepted")
        return
    if answer in ("e", "each") and len(hunks) > 1:
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
    """A store listener: show each new proposal, ask about it when `interactive`."""

    def listen(event: dict[str, Any]) -> None:
        proposal = event["proposal"]
        if event["action"] == "resolved":
            hunks = proposal.get("acceptedHunks")
            part = f" (hunks {', '.join(map(str, hunks))})" if hunks is not None else ""
            term.line(f"  proposal {proposal['id']} {proposal['status']}{part}")
            return
        term.thinking(False)
        term.line(f"  proposal {proposal['id']}: {proposal['title']}")
        term.diff(proposal.get("diff", ""))
        if interactive:
            review(term, store, proposal)

    return listen
