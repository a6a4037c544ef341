"""Grounding: what the workspace really holds, in the prompt of every turn.

A repo map (files and their top definitions with signatures, ranked by how much the rest
of the code refers to them, cut to a budget: analysis/repo_map.py) so the model uses real
paths and names instead of inventing them; and the files the goal or the editor context
names — by path, by file name, or through a function/class name defined there — as they
read now (with the run's own pending edits), so the model need not spend turns reading
them and sees its edits in place; and the code names the goal mentions that no file holds
(`RunContext.unknown_names`: the done check will not call such a run done unless the
name exists by its end). Built from the index (built for the run if it has none);
a failure is logged and leaves the prompt without it.
Must not know: the loop's internals, models, LSP.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

from agentls.agent.context import RunContext
from agentls.agent.prompts import render
from agentls.agent.protocols import MessageProvider
from agentls.llm.base import Message
from agentls.tools.code.index_access import workspace_index
from agentls.tools.filesystem.content import current_content, is_binary
from agentls.workspace import FileWalker

log = logging.getLogger(__name__)

#: Share of the model's context (in characters, 4 per token) the map may take, and caps.
MAP_SHARE = 0.125
MAP_MAX_CHARS = 4000
FILES_MAX_CHARS = 6000
MAX_NAMED_FILES = 3
MAX_WALKED = 2000
#: Reading the workspace's text for a name no analysed file holds: per file, and in all.
TEXT_SCAN_FILE_BYTES = 1_000_000
TEXT_SCAN_BYTES = 50_000_000
#: Words a goal uses as plain English that also name definitions in many codebases.
COMMON_WORDS = frozenset(
    ["add", "change", "fix", "list", "make", "read", "write", "update", "remove", "delete", "rename", "create", "guard", "test", "tests", "file", "files", "function", "functions", "class", "method", "type", "hint", "summary", "string", "docstring", "code", "return", "value", "name", "call", "callers", "caller", "new", "old", "the", "and", "for", "with", "from", "into", "that", "this"]
)
_TOKEN = re.compile(r"[\w./-]+")


class GroundingComponent(MessageProvider):
    def __init__(self, run: RunContext) -> None:
        super().__init__()
        self.run = run
        self._map: str | None = None
        self._named: list[str] = []

    def _prepare(self) -> None:
        ctx = self.run.tools
        try:
            paths = [p for _, p in zip(range(MAX_WALKED), FileWalker(ctx.workspace.root).walk(), strict=False)]
            index = workspace_index(ctx)
            self._named = named_files(self.run.goal, paths, index.defs_by_name())
            if self.run.editor is not None and self.run.editor.path not in self._named:
                self._named.insert(0, self.run.editor.path)
            self.run.named_files = list(self._named)
            self.run.new_files = new_files(self.run.goal, paths)
            complete = len(paths) < MAX_WALKED  # a file not seen may be beyond the walk
            self.run.missing_files = missing_files(self.run.goal, paths) if complete else []
            known: set[str] = set()
            for rel in index.files:
                known |= index.words(rel)
            unknown = [n for n in code_names(self.run.goal) if n not in known]
            # in no analysed file: perhaps in a config file, a template, another language
            self.run.unknown_names = _not_in_text(ctx.workspace.root, paths, unknown) if complete else []
            budget = min(MAP_MAX_CHARS, int(self.run.context_tokens * 4 * MAP_SHARE))
            self._map = index.repo_map(budget, self._named) or "(no source files)"
        except Exception as exc:  # grounding helps; it must never stop a run
            log.warning("no repo map for this run: %s", exc)
            self._map = ""

    def get_messages(self) -> Iterator[Message]:
        if self._map is None:
            self._prepare()
        if not self._map:
            return
        files = self._files()
        if self.run.unknown_names:
            names = ", ".join(self.run.unknown_names)
            files += f"\n\nNot in the workspace: {names} (no file defines or uses it)."
        if self.run.missing_files:
            names = ", ".join(self.run.missing_files)
            files += f"\n\nNo such file in the workspace: {names}."
        yield {"role": "user", "content": render("grounding", map=self._map, files=files)}

    def _files(self) -> str:
        ctx, room, out = self.run.tools, FILES_MAX_CHARS, []
        for rel in self._named[:MAX_NAMED_FILES]:
            try:
                content = current_content(ctx, rel, ctx.workspace.resolve(rel), "read_file")
            except Exception:
                continue
            if content is None or is_binary(content.data) or room <= 200:
                continue
            text = content.data.decode("utf-8", "replace")
            if len(text) > room:
                shown = text[:room].rsplit("\n", 1)[0]
                text = f"{shown}\n…(cut after line {shown.count(chr(10))}; read_file for the rest)"
            room -= len(text)
            out.append(
                f"\nYou have already read {rel} (no need to read it again); it reads now:"
                f"\n```\n{text.rstrip()}\n```"
            )
        return "".join(out)


_KIND_WORDS = r"(?:function|method|class|variable|constant|parameter)"
_CODE_NAMES = (
    re.compile(r"`(\w+)(?:\(\))?`"),
    re.compile(rf"\b{_KIND_WORDS}\s+(\w+)"),
    re.compile(rf"\b(\w+)(?:\(\))?\s+{_KIND_WORDS}\b"),
    re.compile(r"\b([A-Za-z]\w*_\w*[A-Za-z0-9]|[a-z]+[A-Z]\w*)\b"),
)
_NOT_NAMES = frozenset(
    ["a", "an", "the", "every", "each", "this", "that", "these", "those", "all", "any", "new", "module", "its", "their", "of", "in", "to", "from", "for", "on", "at", "with", "by", "is", "as", "and", "or", "which", "named", "called"]
)


def _not_in_text(root: Path, paths: list[str], names: list[str]) -> list[str]:
    """Those of `names` that no file of the workspace mentions at all (bounded reads)."""
    left = {n: re.compile(rf"\b{re.escape(n)}\b".encode()) for n in names}
    budget = TEXT_SCAN_BYTES
    for rel in paths:
        if not left or budget <= 0:
            break
        try:
            data = (root / rel).read_bytes()[:TEXT_SCAN_FILE_BYTES]
        except OSError:
            continue
        budget -= len(data)
        for name in [n for n, pattern in left.items() if pattern.search(data)]:
            del left[name]
    return [n for n in names if n in left] if budget > 0 else []


def code_names(goal: str) -> list[str]:
    """Names of code the goal mentions: `quoted`, next to "function"/"class"/…, or shaped
    like code (snake_case, camelCase); never file names."""
    found: list[tuple[int, str]] = []
    for pattern in _CODE_NAMES:
        for match in pattern.finditer(goal):
            name, end = match.group(1), match.end(1)
            if goal[end : end + 1] == "." and goal[end + 1 : end + 2].isalnum():
                continue  # a file name such as strings_util.py
            lowered = name.lower()
            if lowered in COMMON_WORDS or lowered in _NOT_NAMES or name.isdigit():
                continue
            found.append((match.start(1), name))
    out: list[str] = []
    for _, name in sorted(found):
        if name not in out:
            out.append(name)
    return out


_NEW_FILE = re.compile(r"\b(?:new|create|creates|creating)\b", re.IGNORECASE)
FILE_NAME = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.(?:py|pyi|ts|tsx|js|jsx|mjs|md|txt|json|toml|ya?ml|cfg|ini))\b")


def new_files(goal: str, paths: list[str]) -> list[str]:
    """The files a goal asks to create ("… in a new file test_calc.py"): file names it
    mentions that no file of the workspace has, when it speaks of a new file."""
    if not _NEW_FILE.search(goal):
        return []
    out: list[str] = []
    for name in FILE_NAME.findall(goal):
        exists = any(p == name or p.endswith("/" + name) for p in paths)
        if not exists and name not in out:
            out.append(name)
    return out


#: Words that say a goal may bring files into being (so a file it names may not exist yet).
_MAKES_FILES = re.compile(
    r"\b(?:new|create[sd]?|creating|write|writes|generate|scaffold|move|split|extract|rename|copy|save)\b", re.IGNORECASE
)


def missing_files(goal: str, paths: list[str]) -> list[str]:
    """Files a goal takes as existing that the workspace lacks ("fix the bug in server.py"
    with no server.py): names it mentions that no file has, when it does not speak of
    making files. The done check fails a change run over such a goal."""
    if _MAKES_FILES.search(goal):
        return []
    out: list[str] = []
    for name in FILE_NAME.findall(goal):
        if not any(p == name or p.endswith("/" + name) for p in paths) and name not in out:
            out.append(name)
    return out


def named_files(goal: str, paths: list[str], defs: dict[str, list[tuple[str, int]]]) -> list[str]:
    """The files `goal` names: by path, by a unique file name or path ending, or as the one
    or two files defining a function or class it names."""
    found: list[str] = []

    def add(path: str) -> None:
        if path not in found:
            found.append(path)

    for raw in _TOKEN.findall(goal):
        word = raw.strip("./-`'\"")
        if not word:
            continue
        if word in paths:
            add(word)
            continue
        if "." in word.rsplit("/", 1)[-1]:
            ends = [p for p in paths if p == word or p.endswith("/" + word)]
            if len(ends) == 1:
                add(ends[0])
                continue
        name = word.rsplit(".", 1)[-1] if "." in word else word
        if len(name) < 3 or name.lower() in COMMON_WORDS:
            continue
        where = {path for path, _ in defs.get(name, ())}
        if 0 < len(where) <= 2:
            for path in sorted(where):
                add(path)
    return found
