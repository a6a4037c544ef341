"""`textDocument/codeAction`: agent actions on the selection — explain, fix, write tests,
refactor. Each is a command (`agentls.agent.run`) that starts an agent run with the file
and the selection as its editor context; nothing runs until the user picks one.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from agentls.lsp.server import AgentLanguageServer

RUN_COMMAND = "agentls.agent.run"

#: (title, kind, goal template): the goal names the file and the selected lines.
ACTIONS: list[tuple[str, lsp.CodeActionKind | None, str]] = [
    ("Agent: Explain this code", None, "Explain what the selected code in {path} (lines {first}-{last}) does. Read it, then finish with the explanation."),
    ("Agent: Fix this code", lsp.CodeActionKind.QuickFix, "Fix the problems in the selected code in {path} (lines {first}-{last}){problems}. Read it, propose the edit, then finish with what you changed."),
    ("Agent: Write tests for this code", lsp.CodeActionKind.Source, "Write tests for the selected code in {path} (lines {first}-{last}). Read it and the project's existing tests, propose a test file, then finish."),
    ("Agent: Refactor this code", lsp.CodeActionKind.RefactorRewrite, "Refactor the selected code in {path} (lines {first}-{last}) for clarity without changing behaviour. Read it, propose the edit, then finish with what you changed."),
]


def _within(kind: lsp.CodeActionKind, wanted: lsp.CodeActionKind | str) -> bool:
    """`refactor.rewrite` is within `refactor` (LSP kinds are dot-separated hierarchies)."""
    have, want = kind.value, getattr(wanted, "value", wanted)
    return have == want or have.startswith(f"{want}.")


def register(server: AgentLanguageServer) -> None:
    kinds = [kind for _, kind, _ in ACTIONS if kind is not None]

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=kinds))
    def code_actions(ls: AgentLanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
        found = ls.locate(params.text_document.uri)
        if found is None:
            return None
        _, rel = found
        rng = params.range
        problems = "; ".join(d.message for d in (params.context.diagnostics or [])[:3]) if params.context else ""
        wanted = params.context.only if params.context and params.context.only else None
        out = []
        for title, kind, template in ACTIONS:
            if wanted and (kind is None or not any(_within(kind, w) for w in wanted)):
                continue
            goal = template.format(path=rel, first=rng.start.line + 1, last=rng.end.line + 1, problems=f": {problems}" if problems else "")
            argument = {"goal": goal, "context": {"uri": params.text_document.uri, "range": {"start": {"line": rng.start.line, "character": rng.start.character}, "end": {"line": rng.end.line, "character": rng.end.character}}}}
            out.append(lsp.CodeAction(title=title, kind=kind, command=lsp.Command(title=title, command=RUN_COMMAND, arguments=[argument])))
        return out
