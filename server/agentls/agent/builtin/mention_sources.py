"""What each kind of mention (agent/mentions.py) brings: its text, through the tools.

A mention is resolved by the tool that would read the same thing for the model, through
the run's executor — so its permission, confinement and network policy hold as for any
call, and the call is audited: a path by `read_file` (a folder by `list_directory`), a
symbol by `find_symbol_definition` then the definition's whole text from the file
(analysis `symbol_spans`; else the lines from it), the diff by `git_diff` (unstaged, then
staged), a URL by `web_fetch`. `@problems` reads the syntax diagnostics of the documents
open in the editor, from the index's trees (what the language server publishes, source
agentls); a run with no open document (the command line) gets a warning instead.
Each resolver gives the block's text or raises `Unresolved` with the reason.
Must not know: the loop's internals, LSP, how the goal is parsed.
"""

from __future__ import annotations

import asyncio
import bisect
import re
from typing import Any

from agentls.agent.mentions import Mention
from agentls.analysis.syntax import error_regions, symbol_spans
from agentls.tools.base import ToolContext
from agentls.tools.executor import ToolExecutor

#: Definitions shown for one `@symbol:` (the first ones the index gives).
MAX_DEFINITIONS = 2
#: Lines shown from a definition whose whole extent is not known (a variable).
DEFINITION_LINES = 30
MAX_PROBLEMS = 50


class Unresolved(Exception):
    """A mention that brings nothing; the message says why."""


class Sources:
    def __init__(self, executor: ToolExecutor, ctx: ToolContext) -> None:
        self.executor = executor
        self.ctx = ctx

    async def _call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        result = await self.executor.execute_async(name, args, self.ctx)
        if not result.ok:
            error = result.error or {}
            raise Unresolved(str(error.get("message") or f"{name} failed"))
        return result.output or {}

    async def resolve(self, mention: Mention, room: int) -> str:
        """The block of `mention` (its text may be longer than `room`; the caller cuts)."""
        if not mention.valid:
            raise Unresolved(f"{mention.text} is not a {mention.kind} mention (see the README: @symbol:Name, @url:https://…)")
        if mention.kind == "path":
            return await self.path(mention.value, room)
        if mention.kind == "symbol":
            return await self.symbol(mention.value)
        if mention.kind == "diff":
            return await self.diff()
        if mention.kind == "url":
            return await self.url(mention.value, room)
        return await asyncio.to_thread(self.problems)

    async def path(self, path: str, room: int) -> str:
        real = self.ctx.workspace.resolve(path)  # PathOutsideWorkspace: refused like any tool path
        if real.is_dir():
            out = await self._call("list_directory", {"path": path})
            entries = [f"{e['path']}{'/' if e['type'] == 'directory' else ''}" for e in out["entries"]]
            more = "\n…(more entries)" if out.get("truncated") else ""
            return f"The folder `{out['path']}` holds:\n" + "\n".join(entries) + more
        if not real.exists() and self.ctx.workspace.document(path) is None:
            raise Unresolved(f"no file or folder {path} in the workspace")
        out = await self._call("read_file", {"path": path})
        text = out["content"]
        if len(text) > room:  # cut here at a line, saying where, so the model can read on
            text = text[:room].rsplit("\n", 1)[0]
            text += f"\n…(cut after line {text.count(chr(10)) + 1} of {out['total_lines']}; read_file for the rest)"
        return f"The file `{out['path']}`:\n{_fenced(text)}"

    async def symbol(self, name: str) -> str:
        out = await self._call("find_symbol_definition", {"symbol": name})
        if out.get("how") == "none" or not out.get("locations"):
            raise Unresolved(f"the index knows no definition of {name}")
        blocks: list[str] = []
        for loc in out["locations"][:MAX_DEFINITIONS]:
            read = await self._call("read_file", {"path": loc["path"]})
            text = _definition(loc["path"], read["content"], loc["line"], name)
            where = f"`{loc['path']}` line {loc['line'] + 1}"
            blocks.append(f"The definition of `{name}` ({loc['kind']}) in {where}:\n{_fenced(text)}")
        if out.get("total", 0) > MAX_DEFINITIONS:
            blocks.append(f"({out['total'] - MAX_DEFINITIONS} more definitions of {name}: find_symbol_definition lists them)")
        return "\n".join(blocks)

    async def diff(self) -> str:
        unstaged = await self._call("git_diff", {})
        staged = await self._call("git_diff", {"staged": True})
        parts = [f"The working tree's `git diff`:\n{_fenced(unstaged['diff'], 'diff')}" if unstaged["diff"] else ""]
        if staged["diff"]:
            parts.append(f"The staged changes (`git diff --staged`):\n{_fenced(staged['diff'], 'diff')}")
        text = "\n".join(p for p in parts if p)
        return text or "`git diff`: the working tree has no changes (nothing staged either)."

    async def url(self, url: str, room: int) -> str:
        out = await self._call("web_fetch", {"url": url, "max_chars": max(100, min(room, 500_000))})
        title = f" ({out['title']})" if out.get("title") else ""
        status = f", HTTP status {out['status']}" if out.get("status") != 200 else ""
        return f"The page {out['url']}{title}{status}:\n{_fenced(str(out.get('text') or ''))}"

    def problems(self) -> str:
        ws, index = self.ctx.workspace, self.ctx.index
        opened = sorted(ws.open_paths())
        if not opened:
            raise Unresolved("no document is open in an editor, so there are no problems to show (the command line has no editor)")
        lines: list[str] = []
        for rel in opened:
            data = ws.read_bytes(rel) or b""
            regions = index.syntax_errors(rel, data) if index is not None else None
            if regions is None:
                regions = error_regions(rel, data)
            for (line, char), _end, message in regions or []:
                lines.append(f"- {rel}:{line + 1}:{char + 1}: {message} (syntax)")
        shown = ", ".join(f"`{p}`" for p in opened)
        if not lines:
            return f"Problems in the open documents ({shown}): none."
        more = f"\n…({len(lines) - MAX_PROBLEMS} more)" if len(lines) > MAX_PROBLEMS else ""
        return f"Problems in the open documents ({shown}):\n" + "\n".join(lines[:MAX_PROBLEMS]) + more


def _definition(path: str, text: str, line: int, name: str) -> str:
    """The definition at `line` of `text` whole (the innermost function or class that
    starts there), else DEFINITION_LINES lines from it."""
    data = text.encode("utf-8")
    starts = [0, *(m.end() for m in re.finditer(b"\n", data))]

    def line_of(offset: int) -> int:
        return bisect.bisect_right(starts, offset) - 1

    last = name.rsplit(".", 1)[-1]
    spans = [s for s in symbol_spans(path, data) or [] if s.name.rsplit(".", 1)[-1] == last]
    around = [s for s in spans if line_of(s.start) <= line <= line_of(max(s.start, s.end - 1))]
    if around:
        span = min(around, key=lambda s: s.end - s.start)
        return data[starts[line_of(span.start)] : span.end].decode("utf-8", "replace")
    lines = text.splitlines()
    return "\n".join(lines[line : line + DEFINITION_LINES])


def _fenced(text: str, lang: str = "") -> str:
    fence = "````" if "```" in text else "```"  # a Markdown file's own fences stay inside
    return f"{fence}{lang}\n{text.rstrip()}\n{fence}"
