"""What the files say as a run leaves them — its pending changes over the disk — for the
done check (done_check.py): undefined names a change introduced, a module docstring, the
uses of a name, whether a name or a syntax error is there.
Must not know: the loop's internals, models, LSP.
"""

from __future__ import annotations

import ast
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
    run's changes left undefined (names undefined before the run are not its doing), "x.py
    imports itself" for a self-import the run brought in, and "x.py imports f from m.py,
    which m.py does not define" for a workspace module's name that is not there."""
    from agentls.analysis.syntax import self_imports, undefined_names

    before = originals(changed)
    out = []
    for path, old in sorted(before.items()):
        data = text_now(run, path).encode("utf-8")
        lines = self_imports(path, data)
        if lines and (old is None or not self_imports(path, old)):
            out.append(f"{path} imports itself (line {lines[0] + 1}): use the names it defines directly")
        missing = [m for m in _missing_imports(run, path, data) if old is None or m not in _missing_imports(run, path, old)]
        if missing:
            out.append("; ".join(f"{path} imports {name} from {module}, which {module} does not define" for name, module in missing[:3]))
        now = undefined_names(path, data)
        if not now:
            continue
        was = {name for _, name in (undefined_names(path, old) or [])} if old is not None else set()
        fresh = [(line, name) for line, name in now if name not in was]
        if fresh:
            names = ", ".join(f"{name} (line {line + 1})" for line, name in fresh[:5])
            out.append(f"{path} uses {names}, which it neither defines nor imports")
    return "; ".join(out) or None


def _missing_imports(run: RunContext, path: str, data: bytes) -> list[tuple[str, str]]:
    """(name, module file) for each `from m import name` of a Python file whose module `m`
    is a file of the workspace (beside the root, or beside the file) that does not define
    `name` at its top level (nor import it, nor hold a sub-module of that name)."""
    if not path.endswith(".py"):
        return []
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return []
    out = []
    here = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        base = node.module.replace(".", "/")
        module = next((m for m in (f"{base}.py", f"{here}{base}.py") if m != path and on_disk(run, m)), None)
        if module is None:
            continue
        defined = _top_level_names(text_now(run, module))
        if defined is None:
            continue
        out += [(a.name, module) for a in node.names if a.name != "*" and a.name not in defined]
    return out


def _top_level_names(text: str) -> set[str] | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        else:
            names |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return names


def copied_definitions(run: RunContext, changed: list[Proposal]) -> str | None:
    """"test_x.py defines its own f instead of importing it from x.py" when a test file
    this run changed defines (at its top level) a name the goal names that another file of
    the workspace defines: the tests would check the copy, not the code."""
    from agentls.agent.goal import is_test_file
    from agentls.tools.code.index_access import workspace_index

    named = set(run.reading.names)
    if not named:
        return None
    defs = workspace_index(run.tools).defs_by_name()
    out = []
    for path in sorted({c.path for p in changed for c in p.changes if c.new is not None}):
        if not (is_test_file(path) and path.endswith(".py")):
            continue
        try:
            tree = ast.parse(text_now(run, path))
        except (SyntaxError, ValueError):
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name in named:
                elsewhere = sorted({p for p, _ in defs.get(node.name, ()) if p != path and not is_test_file(p)})
                if elsewhere:
                    out.append(f"{path} defines its own {node.name} instead of importing it from {elsewhere[0]}, so its tests check that copy, not the workspace's code")
    return "; ".join(out) or None


def undocumented(run: RunContext, changed: list[Proposal]) -> str | None:
    """For a docstring goal: "bank.py: deposit still has no docstring" when none of the
    functions or classes the goal names (in the files it names) gained one — every function
    (and class, when it says so) of those files, for a goal about several ("every function")."""
    reading = run.reading
    before = originals(changed)
    missing: list[str] = []
    gained = False
    for path in reading.files:
        if not path.endswith(".py"):
            continue
        text = text_now(run, path)
        now = _docstrings(text)
        was = _docstrings((before[path] or b"").decode("utf-8", "replace")) if path in before else now
        classes = "class" in reading.words
        wanted = [n for n in now if n in reading.names or (reading.several and (classes or n not in _classes(text)))]
        for name in wanted:
            if now[name]:
                gained |= not was.get(name, False)
            else:
                missing.append(f"{path}: {name}")
    if reading.several and missing:
        return f"{', '.join(missing[:5])} still {'has' if len(missing) == 1 else 'have'} no docstring"
    if missing and not gained:
        return f"{', '.join(missing[:5])} still {'has' if len(missing) == 1 else 'have'} no docstring (a string as the first statement of its body)"
    return None


def flattened(run: RunContext, changed: list[Proposal]) -> str | None:
    """"divide now returns None whatever its arguments" when a change turned a function
    that computed what it returned into one that only returns constants (or only raises):
    for a goal about some inputs only, the other inputs lost what the code did."""
    before = originals(changed)
    out = []
    for path, old in sorted(before.items()):
        if old is None or not path.endswith(".py"):
            continue
        was, now = _returns(old.decode("utf-8", "replace")), _returns(text_now(run, path))
        for name, computed in was.items():
            if computed and name in now and not now[name]:
                out.append(f"{path}: {name} now gives the same result whatever its arguments (it no longer computes what it returned); change only the case the goal names and keep the rest")
    return "; ".join(out[:3]) or None


def _returns(text: str) -> dict[str, bool]:
    """Each function of a Python text → whether one of its returns computes something (not
    a constant, not bare)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    out: dict[str, bool] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            returns = [r for r in ast.walk(node) if isinstance(r, ast.Return)]
            out[node.name] = any(r.value is not None and not isinstance(r.value, ast.Constant) for r in returns)
    return out


def _classes(text: str) -> set[str]:
    try:
        return {n.name for n in ast.walk(ast.parse(text)) if isinstance(n, ast.ClassDef)}
    except (SyntaxError, ValueError):
        return set()


def _docstrings(text: str) -> dict[str, bool]:
    """Each function and class of a Python text (by its own name) → whether it has a docstring."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    return {
        node.name: ast.get_docstring(node) is not None
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }


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
