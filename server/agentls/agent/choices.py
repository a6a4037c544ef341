"""What a guided turn (guide.py) may choose from, read from the code and the goal: the
lines of a file ranked by how much the goal points at them, the stem an edit of a line
keeps, and the facts an answer about a named function, class or constant can use.
Pure text and `ast` work; must not know: the loop, models, LSP.
"""

from __future__ import annotations

import re
from typing import Any

from agentls.agent.goal.words import FILE_NAME
from agentls.tools.filesystem.content import current_content, is_binary

_ANY = re.IGNORECASE
#: The longest line offered as a choice.
MAX_LINE_CHARS = 160


#: Goal words that point at no line: the verbs and glue of everyday goals.
_STOP = frozenset(
    ["add", "change", "fix", "make", "remove", "delete", "update", "set", "the", "and", "for", "with", "from", "into", "that", "this", "its", "when", "instead", "not", "does", "must", "should", "function", "method", "class", "file", "line", "code", "return", "returns", "value", "new", "old", "every", "each", "all", "are", "they", "them", "type", "hint", "hints", "parameter", "default"]
)
_COMMENTS = ('"' * 3, "'" * 3, "#", "//")
_DEF = re.compile(r"^(\s*)(?:async\s+)?(?:def|class|function)\s+(\w+)")


def rank_lines(goal: str, text: str, signature: bool = False) -> list[tuple[int, str]]:
    """(score, stripped line) for each non-blank line of `text` that occurs once in it, in
    file order: +2 a word of the goal that is no definition's name, +1 a name of a
    definition the goal mentions, +2 a line of the body of a function the goal names
    (its def line +3 when the goal is about signatures: hints, parameters, defaults)."""
    bare = FILE_NAME.sub(" ", goal)
    words = {w.lower() for w in re.findall(r"[A-Za-z_]\w+", bare) if len(w) >= 3} - _STOP
    words |= {w.lower() for w in re.findall(r"\b\d+\w*", bare)}
    lines = text.splitlines()
    defined = {m.group(2).lower() for line in lines if (m := _DEF.match(line))}
    named = words & defined
    out: list[tuple[int, str]] = []
    body_of: str | None = None
    body_indent = -1
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        indent = len(raw) - len(raw.lstrip())
        match = _DEF.match(raw)
        if match is not None:
            body_of, body_indent = match.group(2).lower(), indent
        elif body_of is not None and indent <= body_indent:
            body_of = None
        if len(line) > MAX_LINE_CHARS or text.count(line) != 1:
            continue
        tokens = {t.lower() for t in re.findall(r"\w+", line)}
        score = 2 * len((words - defined) & tokens) + len(named & tokens)
        if match is not None:
            own = match.group(2).lower()
            score -= 1 if own in named else 0  # a def line does not mention itself
            if own in named and signature:
                score += 3
            if signature and not named and match.group(0).lstrip().startswith(("def", "async")):
                score += 3  # "type hints on every function": every def line
        elif body_of is not None and body_of in named:
            score += 2
        if line.startswith(_COMMENTS):
            score -= 1  # a docstring or comment is seldom what a goal's change is about
        out.append((score, line))
    return out


def facts(goal: str, ctx: Any, files: list[str], everything: bool = False) -> list[str]:
    """What the Python files among `files` define under the names `goal` mentions — or,
    with `everything`, at their top level (and what the module says it is for): a
    function's parameters (counted), what it returns and its docstring's first line, a
    constant's value, a class's methods."""
    import ast

    wanted = set(re.findall(r"[A-Za-z_]\w*", goal))
    out: list[str] = []
    for rel in files[:3]:
        if not rel.endswith(".py"):
            continue
        content = current_content(ctx, rel, ctx.workspace.resolve(rel), "read_file")
        if content is None or is_binary(content.data):
            continue
        try:
            tree = ast.parse(content.data)
        except (SyntaxError, ValueError):
            continue
        if everything:
            wanted |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}
            wanted |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
            if doc := ast.get_docstring(tree):
                out.append(f"{rel} says it is: {doc.strip().splitlines()[0]}")
        for node in ast.walk(tree):
            where = f"{rel} line {getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in wanted:
                a = node.args
                params = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
                params += [f"*{a.vararg.arg}"] if a.vararg else []
                params += [f"**{a.kwarg.arg}"] if a.kwarg else []
                defaults = {
                    p.arg: ast.unparse(d)
                    for p, d in zip((*a.posonlyargs, *a.args)[::-1], a.defaults[::-1], strict=False)
                }
                shown = [f"{p}={defaults[p]}" if p in defaults else p for p in params]
                returns = [ast.unparse(r.value) for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
                line = f"{node.name} ({where}) takes {len(params)} parameter{'s' if len(params) != 1 else ''}: {', '.join(shown) or 'none'}"
                if returns and len(returns) <= 3 and all(len(r) <= 60 for r in returns):
                    line += f"; it returns {' or '.join(returns)}"
                if everything and (doc := ast.get_docstring(node)):
                    line += f"; its docstring: {doc.strip().splitlines()[0]}"
                out.append(line)
            elif isinstance(node, ast.ClassDef) and node.name in wanted:
                methods = [n.name for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
                out.append(f"{node.name} ({where}) is a class with the methods {', '.join(methods) or '(none)'}")
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
                if name in wanted and len(value := ast.unparse(node.value)) <= 80:
                    out.append(f"{name} = {value} ({where})")
    return out[:8]


_STEMS = (
    re.compile(r"^(?:async\s+)?(?:def|class|function)\s+\w+\s*\("),  # `def area(`
    re.compile(r"^[A-Za-z_][\w.]*(?:\s*:\s*[^=]+)?\s*=\s*(?!=)"),  # `TIMEOUT = `
    re.compile(r"^return\s+"),  # `return `
)


def line_stem(line: str) -> str | None:
    """The part of a line an edit of it keeps: a definition's name up to its `(`, an
    assignment's target and `=`, `return `; None for other lines."""
    for stem in _STEMS:
        if match := stem.match(line):
            return match.group(0)
    return None
