"""What the files say as a run leaves them — its pending changes over the disk — for the
done check (done_check.py): undefined names a change introduced, a module docstring, the
uses of a name, whether a name or a syntax error is there.
Must not know: the loop's internals, models, LSP.
"""

from __future__ import annotations

import json
import re

from agentls.agent.context import RunContext
from agentls.agent.verification import Check
from agentls.tools.proposals import Proposal

TEST_DEF = re.compile(r"^\s*(?:async\s+)?def\s+test\w*\s*\(|\b(?:test|it)\s*\(\s*['\"`]", re.MULTILINE)
#: What a test checks with: assert, pytest.raises, unittest's assert…, expect(…).
CHECKS = re.compile(r"\bassert|\braises\b|\bexpect\s*\(")


def has_test(text: str) -> bool:
    """A test function (or test(...)/it(...) call) and something it checks with."""
    return bool(TEST_DEF.search(text) and CHECKS.search(text))


def originals(changed: list[Proposal]) -> dict[str, bytes | None]:
    """Each file the run's proposals change → its bytes before the first of them (None:
    the run made it)."""
    before: dict[str, bytes | None] = {}
    for proposal in sorted(changed, key=lambda p: p.created_at):
        for change in proposal.changes:
            before.setdefault(change.path, change.old)
    return before


def new_defects(run: RunContext, changed: list[Proposal]) -> str | None:
    """"x.py uses is_palindrome (line 5), which it neither defines nor imports" for names the
    run's changes left undefined (names undefined before the run are not its doing), and
    "x.py imports itself" for a self-import the run brought in."""
    from agentls.analysis.syntax import self_imports, undefined_names

    before = originals(changed)
    out = []
    for path, old in sorted(before.items()):
        data = text_now(run, path).encode("utf-8")
        lines = self_imports(path, data)
        if lines and (old is None or not self_imports(path, old)):
            out.append(f"{path} imports itself (line {lines[0] + 1}): use the names it defines directly")
        now = undefined_names(path, data)
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


def diff_lines(changed: list[Proposal], sign: str) -> list[str]:
    """The lines the run's changes add (`sign` "+") or remove ("-"), from their diffs."""
    header = sign * 3
    return [
        line[1:]
        for p in changed
        for line in p.diff.splitlines()
        if line.startswith(sign) and not line.startswith(header)
    ]


def missing_value(values: list[str], changed: list[Proposal]) -> str | None:
    """"the goal asks for 60, which no line this run changed has" (the goal reading's
    values: what the changed lines must hold)."""
    if not values or not changed:
        return None
    text = "\n".join(diff_lines(changed, "+"))
    if any(re.search(rf"(?<![\w.]){re.escape(v)}(?![\w])", text) for v in values):
        return None
    return f"the goal asks for {' or '.join(values)}, which no line this run changed has"


_FACT = re.compile(r"[A-Za-z_][\w./]*\w|-?\d+(?:\.\d+)?")
_PLAIN = frozenset(["the", "and", "for", "with", "that", "this", "from", "file", "function", "returns", "return", "value", "which", "when", "what", "where", "takes", "defined"])


def _output_text(content: str) -> str:
    """A tool message's output values as text (not its JSON keys: "ok", "output"…)."""
    try:
        value = json.loads(content)
    except ValueError:
        return content
    out: list[str] = []
    output = value.get("output") if isinstance(value, dict) and "output" in value else value
    if isinstance(output, dict) and set(output) == {"summary"}:
        return ""  # finish's own result: the answer itself is no source
    stack = [output]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack += list(item.values())
        elif isinstance(item, list):
            stack += item
        elif item is not None:
            out.append(str(item))
    return "\n".join(out)


def grounded_answer(words: str, run: RunContext) -> Check:
    """An `answer` check: the answer names something the run's sources hold that the goal
    itself did not say — a name, a number, a path — from the files it was shown or read
    and its tools' results."""
    sources = [_output_text(m.get("content") or "") for step in run.transcript.steps for m in step.messages if m.get("role") == "tool"]
    sources += [text_now(run, f) for f in run.reading.files]
    text = "\n".join(sources)
    goal = {t.lower() for t in _FACT.findall(run.goal)}
    found = [
        t for t in dict.fromkeys(_FACT.findall(words))
        if t.lower() not in goal and t.lower() not in _PLAIN and (len(t) > 1 or t.isdigit()) and re.search(rf"(?<![\w.]){re.escape(t)}(?![\w])", text)
    ]  # fmt: skip
    if found:
        return Check("answer", True, "the answer names what the files hold: " + ", ".join(found[:5]), specific=True)
    return Check("answer", True, "the answer names nothing found in the files read", specific=False)
