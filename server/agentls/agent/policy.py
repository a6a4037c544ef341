"""The turn policy: how a run's turns go for its model, chosen once per run.

The loop reads the same for every model; what differs is asked of the policy:
| policy | for | planning | tools per acting turn | the acting prompt's job line |
|---|---|---|---|---|
| `TurnPolicy` (full) | a capable model (`openai:…`) | a planning turn, new tasks after each | every usable tool | — |
| `SmallPolicy` | a model that says it is small (`small = True`: the embedded 1.5B) | none: the goal is the one task | the goal's tools (focus.py); to implement a stub, one writer held to its file and names | — |
| `GuidedPolicy` | a model that says it is tiny (`guided = True`: the 0.5B) | none | the job's one tool, arguments held to the workspace, then finish (guide.py) | the job, with facts for answers |

For every policy, a tool the model just repeated (the watchdog turned the call away) is
not offered again in that task: the next turn offers what moves on — finish with what is
in hand, or another tool.
Must not know: the loop's internals, models' classes, LSP.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from agentls.agent.builtin.grounding import shown_files
from agentls.agent.builtin.recipes import recipe_lines
from agentls.agent.choices import facts
from agentls.agent.command import Command
from agentls.agent.context import RunContext
from agentls.agent.focus import focus, is_small
from agentls.agent.goal import is_test_file
from agentls.agent.guide import Guide, is_guided
from agentls.agent.prompts import render
from agentls.analysis.syntax import ASSIGNMENT_KINDS
from agentls.llm.base import ToolSpec
from agentls.tools.code.index_access import workspace_index
from agentls.tools.permissions import Permission

log = logging.getLogger(__name__)


class TurnPolicy:
    """The full policy (a capable model); the base of the others."""

    name = "full"
    #: a planning turn splits the goal into tasks, and new tasks are asked for after each
    plans = True
    #: the system prompt lists the tools this run cannot use, with the reason
    lists_unavailable = True
    #: after its last task a run may be asked for more (when something can follow)
    replans = True
    #: tries at the change whose checks failed before no more writes are offered
    max_tries = 6

    def __init__(self, run: RunContext) -> None:
        self.run = run
        #: tools the model repeated in the current task: not offered again in it
        self.banned: set[str] = set()

    def how(self) -> str:
        """The acting prompt's lines saying how to do the job: the recipe for its kind
        (builtin/recipes.py), with the tool that does it."""
        return "\n".join(recipe_lines(self.run))

    def tools(self, usable: list[Command]) -> list[Command]:
        """The commands offered this turn, before the ban."""
        return usable

    def offered(self, usable: list[Command]) -> list[ToolSpec]:
        """The tool specs of this acting turn; after `max_tries` tries whose checks failed,
        no tool that writes (what is left is to say so: finish)."""
        if self.run.attempt >= self.max_tries:
            usable = [c for c in usable if Permission.FILESYSTEM_WRITE not in c.permissions]
        chosen = [c for c in self.tools(usable) if c.name not in self.banned or c.name == "finish"]
        return [c.spec() for c in chosen] or [c.spec() for c in usable if c.name == "finish"]

    def task_started(self) -> None:
        self.banned.clear()

    def repeated(self, command: Command) -> None:
        """The model repeated a call whose answer it already has: its tool is not offered
        again in this task — unless it is how the goal's change gets written (an edit that
        is in place but still fails the tests needs another, different edit)."""
        writes = Permission.FILESYSTEM_WRITE in command.permissions
        if command.name != "finish" and not (writes and self.run.reading.wants_change):
            self.banned.add(command.name)

    def called(self, tool: str, ok: bool) -> None:
        """A call of `tool` ran (ok) or was refused, invalid or failed (not ok)."""

    def may_end(self, tool: str, ok: bool) -> bool:
        """Whether the run may end by itself after this call, when the done check finds
        nothing missing (a guided run's job is one call)."""
        return False

    def summary(self, changed: list[Any]) -> str:
        """The summary of a run that ended by itself."""
        return ""


#: A file the prompt shows counts as read when it is this small (bigger ones may be cut).
SHOWN_WHOLE_BYTES = 2000
#: Files up to this many lines are implemented whole (write_file); longer ones by their
#: functions (replace_symbol).
WHOLE_FILE_LINES = 80


#: The tools that write a file named by their `path` argument.
WRITERS = ("edit_file", "replace_symbol", "insert_symbol", "add_docstring", "write_file")
#: A workspace up to this many analysed files has its writes held away from protected files.
MAX_HELD_FILES = 40


class SmallPolicy(TurnPolicy):
    """A small model: no planning turn (its plans split a fix into read/read/edit tasks
    whose later ones undid it), the goal's tools only, a short prompt. To implement a stub
    it is offered one way to write code — the whole file (write_file) when the file is
    small, else the whole function (replace_symbol) — held to the stub's file and names."""

    name = "small"
    plans = False
    #: an edit_file call of this run was refused or failed
    _edit_refused = False
    lists_unavailable = False
    max_tries = 4

    def how(self) -> str:
        """The recipe and, for an answer, the facts of the code the goal names (parameters,
        values, what each function returns and says it does), as a hover would show them."""
        reading, recipes = self.run.reading, super().how()
        if reading.wants_change or not reading.files:
            return recipes
        try:
            found = facts(reading.goal, self.run.tools, reading.files, everything=reading.describes)
        except Exception as exc:  # facts help; they must never stop a run
            log.warning("no facts for the answer: %s", exc)
            return recipes
        if not found:
            return recipes
        ask = render("describe") if reading.describes else ""
        lines = [recipes, "Facts from the code:", *(f"- {f}" for f in found), ask]
        return "\n".join(line for line in lines if line)

    def tools(self, usable: list[Command]) -> list[Command]:
        reading = self.run.reading
        if reading.kind == "implement" and (targets := self._targets()):
            writer = "write_file" if self._whole(targets) else "replace_symbol"
            self.run.fresh_tries = writer == "write_file"  # a whole file: each try written afresh
            chosen = sorted((c for c in usable if c.name in (writer, "finish")), key=lambda c: c.name == "finish")
            if len(chosen) == 2 or self.run.attempt >= self.max_tries:
                return chosen  # the writer first: small models lean to the first tool listed
        return focus(usable, reading)

    def called(self, tool: str, ok: bool) -> None:
        if tool == "edit_file" and not ok:
            self._edit_refused = True

    def offered(self, usable: list[Command]) -> list[ToolSpec]:
        specs = self._unread(super().offered(usable))
        targets = self._targets() if self.run.reading.kind == "implement" else []
        if not targets:
            return self._lines_after_refusal(self._unprotected(specs))
        names = [n for n in self.run.reading.names if n not in ("module",)]
        held = {"write_file": {"path": targets}, "replace_symbol": {"path": targets, "symbol": names}}
        return [hold(spec, held.get(spec["function"]["name"], {})) for spec in specs]

    def _unread(self, specs: list[ToolSpec]) -> list[ToolSpec]:
        """For an answer about files the prompt already shows whole, no read_file (the 1.5B
        read the file the goal names first, though it was in its prompt: a turn for
        nothing), and for a description of them only finish. Holding read_file to the
        other files instead made it read those, and answer about them."""
        reading = self.run.reading
        if reading.wants_change or not reading.files or not any(s["function"]["name"] == "read_file" for s in specs):
            return specs
        ws = self.run.tools.workspace
        shown = set(shown_files(reading))
        if not all(f in shown and len(ws.read_bytes(f) or b"") <= SHOWN_WHOLE_BYTES for f in reading.files):
            return specs
        if reading.describes:
            # what the files do is all in the prompt (with the index's facts): only finish.
            # Without read_file the 1.5B searched the names it saw, in a cycle, for minutes
            return [s for s in specs if s["function"]["name"] == "finish"]
        return [s for s in specs if s["function"]["name"] != "read_file"]

    def _lines_after_refusal(self, specs: list[ToolSpec]) -> list[ToolSpec]:
        """After an edit_file call was refused or failed, edit_file as the guided turns
        offer it: `old` one of the named files' lines (those the goal points at first),
        `new` starting with that line's stem. The 1.5B, told its `TIMEOUT_SECONDS` → `60`
        would not parse, went on guessing fragments until it gave up.
        A new value for module variables (`TAX_RATE = 0.2` → 0.25) gets that edit_file and
        finish from the first turn: the 1.5B read the file it was shown, then wrote
        `TAX_RATE = obj['output']['content']` with replace_symbol."""
        kind = self.run.reading.kind
        setting = self._sets_variables
        if not (self._edit_refused and kind in ("change", "remove", "fix_tests")) and not setting:
            return specs
        guide = Guide(self.run)
        held = [guide.held(s) if s["function"]["name"] == "edit_file" else s for s in specs]
        if setting and any(s["function"]["name"] == "edit_file" for s in held):
            # the edit first: small models lean to the first tool listed
            return sorted((s for s in held if s["function"]["name"] in ("edit_file", "finish")), key=lambda s: s["function"]["name"] == "finish")
        return held

    @functools.cached_property
    def _sets_variables(self) -> bool:
        """The goal asks for a value of names that are all module-level variables of the
        files it names (read once: the offer stays the same for the whole run)."""
        reading = self.run.reading
        if reading.kind != "change" or not reading.values or not reading.names or not reading.files:
            return False
        try:
            index = workspace_index(self.run.tools)
            defs = index.defs_by_name()
            for name in reading.names:
                where = [(p, i) for p, i in defs.get(name, []) if p in reading.files]
                if not where or any(not _module_variable(index, p, i) for p, i in where):
                    return False
        except Exception as exc:  # holding helps; it must never stop a run
            log.warning("no definitions for the goal's names: %s", exc)
            return False
        return True

    def _unprotected(self, specs: list[ToolSpec]) -> list[ToolSpec]:
        """For a goal that rules files out ("do not change the tests") or fixes code so its
        tests pass: the writing tools' `path` held to the other files of a small workspace
        (the 1.5B edited the test it was told to leave, was turned away, and finished)."""
        reading = self.run.reading
        if not reading.wants_change or not (reading.protected or reading.kind == "fix_tests"):
            return specs
        try:
            files = sorted(workspace_index(self.run.tools).files)
        except Exception as exc:  # holding helps; it must never stop a run
            log.warning("no files to hold the edits to: %s", exc)
            return specs
        allowed = [f for f in files if not reading.is_protected(f) and not (reading.kind == "fix_tests" and is_test_file(f))]
        if not allowed or len(files) > MAX_HELD_FILES:
            return specs
        held = {name: {"path": allowed} for name in WRITERS}
        held["write_file"] = {"path": [*allowed, *reading.new_files]}
        return [hold(spec, held.get(spec["function"]["name"], {})) for spec in specs]

    def _targets(self) -> list[str]:
        """The files to write: the goal's code files, not its tests or descriptions."""
        reading = self.run.reading
        return [f for f in reading.files if f not in reading.specs and f not in reading.tests and not reading.is_protected(f)]

    def _whole(self, targets: list[str]) -> bool:
        ws = self.run.tools.workspace
        sizes = [len((ws.read_bytes(f) or b"").splitlines()) for f in targets]
        return len(targets) == 1 and max(sizes, default=0) <= WHOLE_FILE_LINES


def _module_variable(index: Any, path: str, i: int) -> bool:
    sym = index.files[path].symbols[i]
    return sym.kind in ASSIGNMENT_KINDS and sym.parent < 0


def hold(spec: ToolSpec, values: dict[str, list[str]]) -> ToolSpec:
    """`spec` with its arguments held to the given values (an enum each)."""
    if not values:
        return spec
    params = spec["function"].get("parameters") or {}
    props = dict(params.get("properties") or {})
    for name, allowed in values.items():
        if name in props and allowed:
            props[name] = {**props[name], "enum": list(dict.fromkeys(allowed))}
    return {**spec, "function": {**spec["function"], "parameters": {**params, "properties": props}}}


class GuidedPolicy(SmallPolicy):
    """A tiny model: the guided turns of guide.py (one task, never replanned)."""

    name = "guided"
    replans = False
    max_tries = 3

    def __init__(self, run: RunContext, impossible: Any = None) -> None:
        super().__init__(run)
        self.guide = Guide(run, impossible)

    def how(self) -> str:
        return self.guide.how()

    def offered(self, usable: list[Command]) -> list[ToolSpec]:
        return self.guide.offered([c.spec() for c in usable])

    def called(self, tool: str, ok: bool) -> None:
        self.guide.called(tool, ok)

    def may_end(self, tool: str, ok: bool) -> bool:
        return self.guide.may_end(tool, ok)

    def summary(self, changed: list[Any]) -> str:
        return self.guide.summary(changed)


def policy_for(model: Any, run: RunContext, impossible: Any = None) -> TurnPolicy:
    """The policy of a run of `model` (see the module docstring)."""
    if is_guided(model):
        return GuidedPolicy(run, impossible)
    if is_small(model):
        return SmallPolicy(run)
    return TurnPolicy(run)
