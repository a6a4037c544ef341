#!/usr/bin/env python3
"""The language server alone, no agent: start `agentls serve` as a real language server
(stdio), ask it real navigation questions about a workspace (definitions, references,
hover, symbols), print each answer with its time, and exit 1 if any went unanswered.

    examples/navigate.py examples/sample-workspace

From a checkout whose `.venv` has agentls installed (`./scripts/test` makes it): run by
another Python (the `python3` on PATH, say) that cannot import pygls, it runs itself again
with `.venv/bin/python`. Uses pygls' own LSP client, the same way an editor would talk to
the server.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

VENV = Path(__file__).resolve().parents[1] / ".venv"
try:
    from lsprotocol import types as lsp
    from pygls.lsp.client import LanguageClient
except ImportError:
    if (VENV / "bin" / "python").exists() and Path(sys.prefix).resolve() != VENV.resolve():
        os.execv(VENV / "bin" / "python", [str(VENV / "bin" / "python"), __file__, *sys.argv[1:]])
    sys.exit(f"{__file__}: needs pygls and agentls: run ./scripts/test or "
             f"`python3 -m venv .venv && .venv/bin/pip install -e .` first")

QUESTIONS = [
    # (kind, file, text to find, offset into it)
    ("definition", "app.py", "Cart()", 0),
    ("definition", "app.py", "pricing.TAX_RATE", 8),
    ("definition", "src/shop/cart.py", "pwt(item", 0),
    ("definition", "web/src/index.ts", "math.add", 5),
    ("references", "src/shop/pricing.py", "def price_with_tax", 4),
    ("hover", "src/shop/cart.py", "pwt(item", 0),
    ("symbols", "src/shop/cart.py", "", 0),
    ("workspace", "", "pricwt", 0),
]


def find(root: Path, rel: str, needle: str, offset: int) -> lsp.Position:
    for n, line in enumerate((root / rel).read_text("utf-8").splitlines()):
        col = line.find(needle)
        if col >= 0:
            return lsp.Position(line=n, character=len(line[: col + offset].encode("utf-16-le")) // 2)
    raise SystemExit(f"{needle!r} not found in {rel}")


def show(root: Path, loc: lsp.Location) -> str:
    path = Path(loc.uri.removeprefix("file://"))
    return f"{path.relative_to(root)}:{loc.range.start.line + 1}:{loc.range.start.character + 1}"


async def main(root: Path) -> int:
    client = LanguageClient("agentls-navigate", "0.1")

    @client.feature(lsp.WINDOW_LOG_MESSAGE)
    def _log(params: lsp.LogMessageParams) -> None:  # the server says how indexing went
        print(f"server: {params.message}", file=sys.stderr)
    t0 = time.perf_counter()
    await client.start_io(sys.executable, "-m", "agentls.cli", "serve")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=root.as_uri(), workspace_folders=[lsp.WorkspaceFolder(uri=root.as_uri(), name=root.name)]))
    client.initialized(lsp.InitializedParams())
    failures = 0
    for kind, rel, needle, offset in QUESTIONS:
        ident = lsp.TextDocumentIdentifier(uri=(root / rel).as_uri()) if rel else None
        t = time.perf_counter()
        if kind == "definition":
            pos = find(root, rel, needle, offset)
            res = await client.text_document_definition_async(lsp.DefinitionParams(text_document=ident, position=pos))
            answer = ", ".join(show(root, r) for r in res or []) or "(none)"
        elif kind == "references":
            pos = find(root, rel, needle, offset)
            res = await client.text_document_references_async(lsp.ReferenceParams(text_document=ident, position=pos, context=lsp.ReferenceContext(include_declaration=True)))
            answer = ", ".join(show(root, r) for r in res or []) or "(none)"
        elif kind == "hover":
            pos = find(root, rel, needle, offset)
            res = await client.text_document_hover_async(lsp.HoverParams(text_document=ident, position=pos))
            answer = res.contents.value.replace("\n", " ⏎ ") if res else "(none)"
        elif kind == "symbols":
            res = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=ident))
            answer = "; ".join(f"{s.name}[{', '.join(c.name for c in s.children or [])}]" for s in res or []) or "(none)"
        else:
            res = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query=needle))
            answer = ", ".join(f"{s.name} @ {show(root, s.location)}" for s in (res or [])[:3]) or "(none)"
        failures += answer == "(none)"
        where = f"{rel} {needle!r}" if rel else repr(needle)
        print(f"{kind:<10} {where:<40} → {answer}  [{(time.perf_counter() - t) * 1000:.1f} ms]")
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    print(f"{len(QUESTIONS) - failures}/{len(QUESTIONS)} questions answered in {time.perf_counter() - t0:.2f} s (server start included)")
    return 1 if failures else 0


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "sample-workspace").resolve()
    sys.exit(asyncio.run(main(target)))
