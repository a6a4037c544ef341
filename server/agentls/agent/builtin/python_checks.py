"""What the done check reads from the Python the run changed (done_check.py), each a
sentence naming what is wrong or None: an import of a name its workspace module does not
define, a test file with its own copy of the code it tests, a docstring goal's functions
still without one, a function a change for some inputs made constant for all of them.
Each text is parsed once per check; a file that does not parse gives no verdict here (the
parse check says so).
Must not know: the loop's internals, models, LSP.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from agentls.agent.builtin.evidence import on_disk, originals, text_now
from agentls.agent.context import RunContext
from agentls.agent.goal import is_test_file
from agentls.tools.proposals import Proposal


@dataclass(frozen=True, slots=True)
class Definition:
    """A function or class of a Python text, by its own name."""

    name: str
    is_class: bool
    documented: bool
    #: a function with a return that computes something (not a constant, not bare)
    computes: bool


def missing_imports(run: RunContext, changed: list[Proposal]) -> str | None:
    """"x.py imports f from m.py, which m.py does not define" for each `from m import f`
    the run brought into a file, where `m` is a workspace file (beside the root or beside
    the importing file) without `f` at its top level."""
    out = []
    for path, old in sorted(originals(changed).items()):
        if not path.endswith(".py"):
            continue
        now = _missing_imports(run, path, text_now(run, path))
        was = set(_missing_imports(run, path, old.decode("utf-8", "replace"))) if old is not None else set()
        out += [f"{path} imports {name} from {module}, which {module} does not define" for name, module in now if (name, module) not in was]
    return "; ".join(out[:3]) or None


def copied_definitions(run: RunContext, changed: list[Proposal]) -> str | None:
    """"test_x.py defines its own f instead of importing it from x.py" when a test file
    this run changed defines (at its top level) a name the goal names that another file of
    the workspace defines: the tests would check the copy, not the code."""
    from agentls.tools.code.index_access import workspace_index

    named = set(run.reading.names)
    if not named:
        return None
    defs = workspace_index(run.tools).defs_by_name()
    out = []
    for path in sorted({c.path for p in changed for c in p.changes if c.new is not None}):
        if not (is_test_file(path) and path.endswith(".py")) or (tree := _parse(text_now(run, path))) is None:
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
    classes = "class" in reading.words
    missing: list[str] = []
    gained = False
    for path in reading.files:
        if not path.endswith(".py"):
            continue
        now = definitions(text_now(run, path))
        was = definitions((before[path] or b"").decode("utf-8", "replace")) if path in before else now
        for name, d in now.items():
            if not (name in reading.names or (reading.several and (classes or not d.is_class))):
                continue
            if d.documented:
                gained |= not (name in was and was[name].documented)
            else:
                missing.append(f"{path}: {name}")
    if missing and (reading.several or not gained):
        tail = "" if reading.several else " (a string as the first statement of its body)"
        return f"{', '.join(missing[:5])} still {'has' if len(missing) == 1 else 'have'} no docstring{tail}"
    return None


def flattened(run: RunContext, changed: list[Proposal]) -> str | None:
    """"divide now returns None whatever its arguments" when a change turned a function
    that computed what it returned into one that only returns constants (or only raises):
    for a goal about some inputs only, the other inputs lost what the code did."""
    out = []
    for path, old in sorted(originals(changed).items()):
        if old is None or not path.endswith(".py"):
            continue
        was, now = definitions(old.decode("utf-8", "replace")), definitions(text_now(run, path))
        for name, d in was.items():
            if d.computes and name in now and not now[name].computes:
                out.append(f"{path}: {name} now gives the same result whatever its arguments (it no longer computes what it returned); change only the case the goal names and keep the rest")
    return "; ".join(out[:3]) or None


def definitions(text: str) -> dict[str, Definition]:
    """Each function and class of a Python text, by its own name ({} when it does not parse)."""
    tree = _parse(text)
    if tree is None:
        return {}
    out: dict[str, Definition] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            returns = [r for r in ast.walk(node) if isinstance(r, ast.Return)]
            computes = any(r.value is not None and not isinstance(r.value, ast.Constant) for r in returns)
            out[node.name] = Definition(node.name, isinstance(node, ast.ClassDef), ast.get_docstring(node) is not None, computes)
    return out


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def _missing_imports(run: RunContext, path: str, text: str) -> list[tuple[str, str]]:
    """(name, module file) for each `from m import name` of a Python text whose module `m`
    is a file of the workspace that does not define `name` at its top level (nor import
    it)."""
    tree = _parse(text)
    if tree is None:
        return []
    out = []
    here = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        base = node.module.replace(".", "/")
        module = next((m for m in (f"{base}.py", f"{here}{base}.py") if m != path and on_disk(run, m)), None)
        if module is None or (defined := _top_level_names(text_now(run, module))) is None:
            continue
        out += [(a.name, module) for a in node.names if a.name != "*" and a.name not in defined]
    return out


def _top_level_names(text: str) -> set[str] | None:
    tree = _parse(text)
    if tree is None:
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
