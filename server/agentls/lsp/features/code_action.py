"""`textDocument/codeAction`: agent actions on the selection — explain, fix, write tests,
refactor — and "Agent: Fix this" on each diagnostic in the request's context (ours, the
syntax errors of diagnostics.py, or any other server's). Each is a command
(`agentls.agent.run`) that starts an agent run with the file and the selection as its
editor context — for "Fix this", the diagnostic's lines and the diagnostic itself
(`context.diagnostics`), which the action also names in its `diagnostics`; nothing runs
until the user picks one.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import converters
from lsprotocol import types as lsp

from agentls.lsp.features.execute_command import RUN as RUN_COMMAND
from agentls.lsp.language_server import AgentLanguageServer

#: (title, kind, goal template): the goal names the file and the selected lines. A kind of
#: None keeps an action in VS Code's lightbulb (a `source` kind would hide it in Source Action…).
ACTIONS: list[tuple[str, lsp.CodeActionKind | None, str]] = [
    ("Agent: Explain this code", None, "Explain what the selected code in {path} (lines {first}-{last}) does. Read it, then finish with the explanation."),
    ("Agent: Fix this code", lsp.CodeActionKind.QuickFix, "Fix the problems in the selected code in {path} (lines {first}-{last}){problems}. Read it, propose the edit, then finish with what you changed."),
    ("Agent: Write tests for this code", None, "Write tests for the selected code in {path} (lines {first}-{last}). Read it and the project's existing tests, propose a test file, then finish."),
    ("Agent: Refactor this code", lsp.CodeActionKind.RefactorRewrite, "Refactor the selected code in {path} (lines {first}-{last}) for clarity without changing behaviour. Read it, propose the edit, then finish with what you changed."),
]


FIX_THIS = "Agent: Fix this"
FIX_GOAL = "Fix this problem in {path} at line {line}: {message}. Read the code around it, propose the edit, then finish with what you changed."
#: "Fix this" actions offered per request at most (one per diagnostic in the context).
MAX_FIX_ACTIONS = 3
MAX_LINE = 2**31 - 1  # LSP uinteger


def _range(rng: lsp.Range) -> dict[str, Any]:
    return {"start": {"line": rng.start.line, "character": rng.start.character}, "end": {"line": rng.end.line, "character": rng.end.character}}


def fix_this(uri: str, rel: str, diagnostics: list[lsp.Diagnostic]) -> list[lsp.CodeAction]:
    """One "Agent: Fix this" per diagnostic: the run's context is the diagnostic's whole
    lines (so the model sees them) and the diagnostic itself."""
    out = []
    many = len(diagnostics) > 1
    for diag in diagnostics[:MAX_FIX_ACTIONS]:
        first = diag.message.strip().split("\n")[0]
        title = f"{FIX_THIS}: {first[:60]}" if many else FIX_THIS
        source = f" ({diag.source})" if diag.source else ""
        goal = FIX_GOAL.format(path=rel, line=diag.range.start.line + 1, message=f"{first}{source}")
        last = min(diag.range.end.line + 1, MAX_LINE)  # a diagnostic on the last legal line
        lines = lsp.Range(start=lsp.Position(line=diag.range.start.line, character=0), end=lsp.Position(line=last, character=0))
        context = {"uri": uri, "range": _range(lines), "diagnostics": [converters.get_converter().unstructure(diag, lsp.Diagnostic)]}
        command = lsp.Command(title=title, command=RUN_COMMAND, arguments=[{"goal": goal, "context": context}])
        out.append(lsp.CodeAction(title=title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[diag], command=command))
    return out


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
        diagnostics = list(params.context.diagnostics or []) if params.context else []
        problems = "; ".join(d.message for d in diagnostics[:3])
        wanted = params.context.only if params.context and params.context.only else None
        quickfix = not wanted or any(_within(lsp.CodeActionKind.QuickFix, w) for w in wanted)
        out = fix_this(params.text_document.uri, rel, diagnostics) if quickfix else []
        for title, kind, template in ACTIONS:
            if wanted and (kind is None or not any(_within(kind, w) for w in wanted)):
                continue
            goal = template.format(path=rel, first=rng.start.line + 1, last=rng.end.line + 1, problems=f": {problems}" if problems else "")
            argument = {"goal": goal, "context": {"uri": params.text_document.uri, "range": _range(rng)}}
            out.append(lsp.CodeAction(title=title, kind=kind, command=lsp.Command(title=title, command=RUN_COMMAND, arguments=[argument])))
        return out
