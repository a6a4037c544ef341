"""Guided turns for a tiny model: one job, one tool, arguments the workspace holds.

The 0.5B picks tools by their place in the list and fills arguments with the last names
it saw (`replace_symbol(path="app.py", new="Welcome")` for "in greet.py change Hello to
Welcome"; measured: 4 of 24 goals done). A model that says it is tiny (`guided = True`)
is therefore offered, per turn, only the one tool the goal's kind of job needs (the
run's goal reading, agent/goal/), then `finish`:

| the goal's kind | the tool |
|---|---|
| answer (a question, an explanation, a review) | none: `finish` with the answer |
| rename | rename_symbol |
| docstring | add_docstring |
| add (a function, method or class) | insert_symbol |
| implement (a stub from its description) | replace_symbol |
| tests, new_file | write_file |
| any other change | edit_file |

and that tool's arguments are held by the grammar to what the workspace has: `path` to
the files the goal names (else the indexed files), `symbol` to the names those files
define (those the goal mentions, when it mentions some), the rename's old and new names
to the goal's "rename X to Y"; an edit is one grammar branch per line of the named files
that occurs once (those the goal points at first, only those when it points at some):
its file, the line, and a `new` that keeps the line's stem (`def area(`, `TIMEOUT = `,
`return `), or is empty when the goal removes something; a new test file starts with
the import of what it tests and `def test_f():` / `assert f(`, the model writing the rest
of that line (and of `assert not f(` for a predicate `is_…`; `x-prefix`, `x-then` of
llm/base.py).

After a change the tool made, the run ends by itself when the done check finds nothing
missing (the goal's change is there, files parse, tests pass where the mode runs them) —
the summary then says what changed, from the diff — unless the goal asks for several
changes ("every function"); a check that finds something missing is said in the tool's
result. After a failed or invalid call of the job's tool it is offered alone, up to 3
attempts, before `finish` comes back. A goal the done check finds impossible (about a
file or a name the workspace lacks) is offered only `finish`. Each job's line for the
acting prompt is text in prompts/guide.toml.
Must not know: the loop's internals, models' classes, LSP.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agentls.agent.builtin.evidence import diff_lines
from agentls.agent.choices import facts, line_stem, rank_lines
from agentls.agent.context import RunContext
from agentls.agent.goal import GoalReading
from agentls.agent.prompts import texts
from agentls.llm.base import PREFIX, THEN, ToolSpec
from agentls.tools.code.index_access import workspace_index
from agentls.tools.filesystem.content import current_content, is_binary
from agentls.tools.proposals import Proposal

log = logging.getLogger(__name__)

#: Caps on what a grammar enumerates (llama.cpp's grammar parser has limits of its own).
MAX_PATHS = 30
MAX_SYMBOLS = 60
MAX_LINES = 120
#: The longest `new` of a guided edit (the 0.5B otherwise wrote 2000 characters of
#: repeated code into one line's replacement, at ~4 tokens/s).
MAX_NEW_LINE_CHARS = 240
#: Attempts at the job's tool before `finish` is offered again after a failed one.
MAX_ATTEMPTS = 3


@dataclass(frozen=True, slots=True)
class Job:
    name: str
    tool: str | None  # None: the answer is the finish summary

    @property
    def how(self) -> str:
        """The job's line for the acting prompt (prompts/guide.toml)."""
        return str(texts("guide")[self.name])


ANSWER = Job("answer", None)
CHANGE = Job("change", "edit_file")
#: The goal reading's kind of job → the guided job.
JOBS: dict[str, Job] = {
    "rename": Job("rename", "rename_symbol"),
    "docstring": Job("docstring", "add_docstring"),
    "add": Job("add", "insert_symbol"),
    "implement": Job("implement", "replace_symbol"),
    "tests": Job("tests", "write_file"),
    "new_file": Job("new_file", "write_file"),
}


def is_guided(model: Any) -> bool:
    return bool(getattr(model, "guided", False))


def job_of(reading: GoalReading) -> Job:
    """The guided job for the goal's kind (ANSWER when it asks for no change)."""
    if not reading.wants_change:
        return ANSWER
    return JOBS.get(reading.kind, CHANGE)


class Guide:
    """The guided turns of one run (see the module docstring)."""

    def __init__(self, run: RunContext, impossible: Callable[[], str | None] | None = None) -> None:
        self.run = run
        self.job = job_of(run.reading)
        # (a rename changes every use in its one call)
        self.several = run.reading.several and self.job.name != "rename"
        #: why the goal cannot be done (the done check's), or None
        self.impossible = impossible or (lambda: None)
        #: the job's tool calls that failed (or were invalid), and whether one succeeded
        self.failures = 0
        self.succeeded = False
        #: the run ended by itself: the done check found nothing missing after the job's tool
        self.ended = False

    def how(self) -> str:
        """The acting prompt's line for the job; for an answer, also the facts the index
        has about the names the goal mentions (a function's parameters, a constant's
        value), as a hover would show them."""
        if self.job is not ANSWER:
            return self.job.how
        try:
            found = facts(self.run.goal, self.run.tools, self._files(), everything=self.run.reading.describes)
        except Exception as exc:  # facts help; they must never stop a run
            log.warning("no facts for the answer: %s", exc)
            found = []
        if not found:
            return self.job.how
        heading = texts("guide")["facts"]
        return f"{self.job.how}\n{heading}\n" + "\n".join(f"- {f}" for f in found)

    # --- what is offered ------------------------------------------------------------------
    def offered(self, specs: list[ToolSpec]) -> list[ToolSpec]:
        """The job's tool (arguments held to the workspace) first, then `finish`."""
        by_name = {s["function"]["name"]: s for s in specs}
        out: list[ToolSpec] = []
        tool = self.job.tool
        if tool is not None and tool in by_name and not self.impossible():
            out.append(self.held(by_name[tool]))
            if 0 < self.failures < MAX_ATTEMPTS and not self.succeeded:
                return out  # another attempt at the job before `finish` is offered again
        if "finish" in by_name:
            out.append(by_name["finish"])
        return out or specs

    def held(self, spec: ToolSpec) -> ToolSpec:
        """`spec` with its arguments held to what the workspace has (see _choices)."""
        tool = spec["function"]["name"]
        try:
            enums, extras, branches = self._choices(tool)
        except Exception as exc:  # the guide narrows choices; it must never stop a run
            log.warning("no argument choices for %s: %s", tool, exc)
            enums, extras, branches = {}, {}, []
        params = spec["function"].get("parameters") or {}
        props = dict(params.get("properties") or {})
        for name, values in enums.items():
            if name in props and values:
                props[name] = {**props[name], "enum": values}
        for name, extra in extras.items():
            if name in props:
                props[name] = {**props[name], **extra}
        if tool == "edit_file" and "new" in props:  # one line's change, not a ramble
            props["new"] = {**props["new"], "maxLength": MAX_NEW_LINE_CHARS}
        held = {**params, "properties": props}
        if branches:  # the grammar takes these; the prompt shows the properties
            held["anyOf"] = branches
        return {**spec, "function": {**spec["function"], "parameters": held}}

    def _choices(self, tool: str) -> tuple[dict[str, list[str]], dict[str, dict[str, Any]], list[dict[str, Any]]]:
        """For `tool`'s arguments: the values each may take, extra schema keywords (a
        prefilled start), and the edit's one-branch-per-line argument objects."""
        run = self.run
        if tool == "write_file":
            return {"path": list(run.new_files)}, self._test_start(), []
        files = self._files()
        enums: dict[str, list[str]] = {"path": files}
        rename = run.reading.rename
        if tool == "rename_symbol" and rename is not None:
            enums["symbol"], enums["new_name"] = [rename[0]], [rename[1]]
        elif tool in ("rename_symbol", "add_docstring", "replace_symbol"):
            if tool == "add_docstring" and run.reading.module_doc:
                enums["symbol"] = ["module"]
            else:
                enums["symbol"] = self._symbols(files)
        if tool != "edit_file":
            return enums, {}, []
        lines = self._lines(files)
        enums["old"] = [line for _, line in lines]
        return enums, {}, self._edit_branches(lines)

    def _test_start(self) -> dict[str, dict[str, Any]]:
        """A new test file starts with the import of what it tests and a test of it that
        asserts what it returns: `from calc import add` + `def test_add():` +
        `    assert add(` — the model writes the rest of that line (the 0.5B otherwise
        wrote asserts, right and wrong, to the token limit); a predicate (`is_…`) gets a
        second line started, `    assert not is_palindrome(`, so both outcomes are tested."""
        if self.job.name != "tests":
            return {}
        sources = [f for f in self._files() if f.endswith(".py") and f not in self.run.new_files]
        if not sources:
            return {}
        names = [n for n in self._symbols(sources[:1]) if n in self.run.goal]
        if not names:
            return {}
        module = sources[0].removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        first = names[0]
        start = f"from {module} import {', '.join(names)}\n\n\ndef test_{first}():\n    assert {first}("
        # a predicate (is_…, has_…) is tested both ways: one true case, one false case
        both = re.match(r"(?:is|has|can|should|contains?)_", first) is not None
        return {"content": {PREFIX: start, THEN: [f"\n    assert not {first}("] if both else []}}

    def _files(self) -> list[str]:
        """The existing files the goal names, else the indexed ones (capped); not the test
        files of a goal that says not to change the tests."""
        ctx = self.run.tools
        named = [f for f in self.run.named_files if (ctx.workspace.root / f).is_file()]
        if self.run.reading.protected and self.job.tool is not None:
            named = [f for f in named if not self.run.reading.is_protected(f)] or named
        if named:
            return named[:MAX_PATHS]
        files = sorted(workspace_index(ctx).files)
        return files if len(files) <= MAX_PATHS else []

    def _symbols(self, files: list[str]) -> list[str]:
        defs = workspace_index(self.run.tools).defs_by_name()
        wanted = set(files)
        names = sorted(n for n, where in defs.items() if any(p in wanted for p, _ in where))
        mentioned = [n for n in self.run.reading.names if n in names]
        mentioned += [w for w in re.findall(r"\w+", self.run.goal) if w in names and w not in mentioned]
        chosen = mentioned or names
        return chosen if len(chosen) <= MAX_SYMBOLS else []

    def _lines(self, files: list[str]) -> list[tuple[str, str]]:
        """(file, line) for the lines of `files` as they read now that occur once in their
        file (stripped), those the goal points at first (rank_lines), only those when it
        points at some."""
        ctx, scored = self.run.tools, []
        for rel in files[:3]:
            content = current_content(ctx, rel, ctx.workspace.resolve(rel), "read_file")
            if content is None or is_binary(content.data):
                continue
            text = content.data.decode("utf-8", "replace")
            scored += [(score, (rel, line)) for score, line in rank_lines(self.run.goal, text, self.run.reading.signature)]
        pointed = [pair for score, pair in sorted(scored, key=lambda s: -s[0]) if score > 0]
        chosen = list(dict.fromkeys(pointed or [pair for _, pair in scored]))
        return chosen[:MAX_LINES]

    def _edit_branches(self, pairs: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """One argument object per line that may be edited: its file, the line, and a `new`
        that keeps the line's stem (`def area(`, `TIMEOUT = `, `return `) — or is empty
        when the goal removes something."""
        removes = self.run.reading.kind == "remove"
        out = []
        for path, line in pairs:
            new: dict[str, Any] = {"type": "string", "maxLength": MAX_NEW_LINE_CHARS}
            if removes:
                new = {"const": ""}
            elif (stem := line_stem(line)) is not None:
                new[PREFIX] = stem
            out.append(
                {
                    "type": "object",
                    "properties": {"path": {"const": path}, "old": {"const": line}, "new": new},
                    "required": ["path", "old", "new"],
                    "additionalProperties": False,
                }
            )
        return out

    # --- after a call -------------------------------------------------------------------------
    def called(self, tool: str, ok: bool) -> None:
        """A call of `tool` ran (ok) or was refused, invalid or failed (not ok)."""
        if tool == self.job.tool:
            self.succeeded |= ok
            self.failures += not ok

    def may_end(self, tool: str, ok: bool) -> bool:
        """Whether this successful call of the job's tool may end the run by itself."""
        return ok and tool == self.job.tool and not self.several

    def summary(self, changed: list[Proposal]) -> str:
        """What the run changed: the lines removed and added, from its diff (the report
        names the files)."""
        files = dict.fromkeys(c.path for p in changed for c in p.changes)
        removed = [t.strip() for t in diff_lines(changed, "-") if t.strip()][:4]
        added = [t.strip() for t in diff_lines(changed, "+") if t.strip()][:6]
        shown = [f"- {t}" for t in removed] + [f"+ {t}" for t in added]
        return "; ".join(shown) if shown else f"Changed {', '.join(files) or 'the workspace'}."
