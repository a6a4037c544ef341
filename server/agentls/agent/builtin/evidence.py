"""What the files say as a run leaves them — its pending changes over the disk — for the
done check (done_check.py): undefined names a change introduced, a module docstring, the
uses of a name, whether a name or a syntax error is there.
Must not know: the loop's internals, models, LSP.
"""

from __future__ import annotations

import re

from agentls.agent.context import RunContext
from agentls.tools.proposals import Proposal

TEST_DEF = re.compile(r"^\s*(?:async\s+)?def\s+test\w*\s*\(|\b(?:test|it)\s*\(\s*['\"`]", re.MULTILINE)
#: What a test checks with: assert, pytest.raises, unittest's assert…, expect(…).
CHECKS = re.compile(r"\bassert|\braises\b|\bexpect\s*\(")


def has_test(text: str) -> bool:
    """A test function (or test(...)/it(...) call) and something it checks with."""
    return bool(TEST_DEF.search(text) and CHECKS.search(text))


def new_undefined_names(run: RunContext, changed: list[Proposal]) -> str | None:
    """"x.py uses is_palindrome (line 5), which it neither defines nor imports" for names the
    run's changes left undefined (names undefined before the run are not its doing)."""
    from agentls.analysis.syntax import undefined_names

    before: dict[str, bytes | None] = {}
    for proposal in sorted(changed, key=lambda p: p.created_at):
        for change in proposal.changes:
            before.setdefault(change.path, change.old)
    out = []
    for path, old in sorted(before.items()):
        now = undefined_names(path, text_now(run, path).encode("utf-8"))
        if not now:
            continue
        was = {name for _, name in (undefined_names(path, old) or [])} if old is not None else set()
        fresh = [(line, name) for line, name in now if name not in was]
        if fresh:
            names = ", ".join(f"{name} (line {line + 1})" for line, name in fresh[:5])
            out.append(f"{path} uses {names}, which it neither defines nor imports")
    return "; ".join(out) or None


def module_docstring(text: str) -> bool:
    import ast

    try:
        return ast.get_docstring(ast.parse(text)) is not None
    except (SyntaxError, ValueError):
        return True  # no verdict on a file that does not parse (reported elsewhere)


def bytes_now(run: RunContext, path: str) -> bytes | None:
    """A file as the run leaves it: its pending change, else what is on disk (None if none)."""
    store = run.tools.proposals
    data = store.overlay(run.run_id, path) if store is not None else None
    return data if data is not None else run.tools.workspace.read_bytes(path)


def text_now(run: RunContext, path: str) -> str:
    return (bytes_now(run, path) or b"").decode("utf-8", "replace")


def made_by_goal(goal: str, name: str) -> bool:
    """Whether the goal asks to make `name` ("add a function subtract", "implement parse_x",
    "rename calc_total to compute_total") rather than takes it as existing ("fix the bug in
    compute_tax")."""
    maker = r"\b(?:add|adds|implement|create|write|define|introduce|new)\b"
    quoted = rf"[`'\"]?{re.escape(name)}\b"
    made = re.search(rf"{maker}[^.;]{{0,40}}\b{quoted}", goal, re.IGNORECASE)
    return made is not None or re.search(rf"\b(?:to|into|as)\s+{quoted}", goal) is not None


def on_disk(run: RunContext, path: str) -> bool:
    try:
        return run.tools.workspace.resolve(path).is_file()
    except Exception:  # outside the workspace: not created by this run
        return False


def uses(run: RunContext, name: str) -> list[tuple[str, int]]:
    """(path, 0-based line) of each place `name` is used as a code name (not in strings or
    comments): the index for files as they are on disk, the text for pending changes."""
    from agentls.tools.code.index_access import workspace_index

    index = workspace_index(run.tools)
    index.refresh()
    store, word = run.tools.proposals, re.compile(rf"(?<!\w){re.escape(name)}\b")
    out: list[tuple[str, int]] = []
    for path in sorted(index.files):
        pending = store.overlay(run.run_id, path) if store is not None else None
        if pending is not None:
            lines = pending.decode("utf-8", "replace").split("\n")
            out += [(path, i) for i, text in enumerate(lines) if word.search(text.split("#")[0])]
        elif name in index.words(path):
            out += [(path, line) for line in index.name_lines(path, name)]
    return out


def anywhere(run: RunContext, name: str, changed: list[Proposal]) -> bool:
    """Whether a name the workspace lacked at the start is in a file this run changed."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    return any(word.search(text_now(run, path)) for path in {c.path for p in changed for c in p.changes})


def breaks(run: RunContext, path: str) -> bool:
    """Whether the file as the run leaves it has syntax errors (a final safety net: edits
    that add syntax errors are already refused when proposed)."""
    from agentls.analysis.syntax import syntax_errors

    data = bytes_now(run, path)
    if data is None:
        return False
    try:
        return bool(syntax_errors(path, data))
    except Exception:  # a checker bug must not fail a run
        return False


#: "… to 60", "from Hello to Welcome", "to 'Goodbye'": the value a change goal asks for.
_FROM_TO = re.compile(r"\bfrom\s+[`'\"]?[\w.-]+[`'\"]?\s+to\s+[`'\"]?([\w.-]+)", re.IGNORECASE)
_TO_LITERAL = re.compile(r"\bto\s+(?:[`'\"]([^`'\"]+)[`'\"]|(-?\d+(?:\.\d+)*)\b)", re.IGNORECASE)
_CHANGE_TO = re.compile(r"\b(?:change|set|update|make)\b", re.IGNORECASE)


def asked_values(goal: str) -> list[str]:
    """The values a goal that changes something "to V" asks for: V after "from X to", or a
    number or quoted text after "to" ("Change TIMEOUT_SECONDS to 60"); none for renames
    (their own check) or goals without such a verb."""
    if not _CHANGE_TO.search(goal) or re.search(r"\brename\b", goal, re.IGNORECASE):
        return []
    out = [m.group(1).rstrip(".") for m in _FROM_TO.finditer(goal)]
    out += [(m.group(1) or m.group(2)) for m in _TO_LITERAL.finditer(goal)]
    return list(dict.fromkeys(v for v in out if v))


def diff_lines(changed: list[Proposal], sign: str) -> list[str]:
    """The lines the run's changes add (`sign` "+") or remove ("-"), from their diffs."""
    header = sign * 3
    return [
        line[1:]
        for p in changed
        for line in p.diff.splitlines()
        if line.startswith(sign) and not line.startswith(header)
    ]


def missing_value(goal: str, changed: list[Proposal]) -> str | None:
    """"the goal asks for 60, which no line this run changed has" (see asked_values)."""
    values = asked_values(goal)
    if not values or not changed:
        return None
    text = "\n".join(diff_lines(changed, "+"))
    if any(re.search(rf"(?<![\w.]){re.escape(v)}(?![\w])", text) for v in values):
        return None
    return f"the goal asks for {' or '.join(values)}, which no line this run changed has"
