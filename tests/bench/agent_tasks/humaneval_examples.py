"""The examples in a HumanEval docstring, turned into visible tests (pure text work).

`candidate_examples()` reads `>>> expr` followed by an output line, `>>> f(x) == y`, and
`f(x) ➞ y`-style lines (`==>`, `=>`, `->`, `==`, `=`, `# returns`); `checked_examples()`
keeps those the canonical solution meets (same value and type — a few docstrings are wrong);
`visible_test()` writes them as a pytest file; `visible_only()` makes the wrong solution that
knows only those examples, to show the hidden tests catch it.
Must not know: agentls, the benchmark runner, the task file format.
"""

from __future__ import annotations

import ast
import re
from typing import Any

ARROWS = ("➞", "==>", "=>", "->", "==", "=", "returns", "should return")
BULLETS = ("* ", "- ", "assert ", "for ", ">>> ")
OUTPUT_SHOULD_BE = re.compile(r"For \w+ = (.+?),? +the output should be (.+?)\.?$")


def _call_end(text: str) -> int | None:
    """Index just past the call that opens `text` (`name(` … the matching `)`)."""
    depth, quote, i = 0, "", 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def _literal(text: str) -> tuple[bool, Any]:
    text = text.strip()
    for candidate in (text, re.split(r"\s+[#(]", text)[0]):
        try:
            return True, ast.literal_eval(candidate)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return False, None


def _calls(expr: ast.expr, fn: str) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == fn
        for n in ast.walk(expr)
    )


def candidate_examples(lines: list[str], name: str) -> list[tuple[str, Any]]:
    """(expression, expected) pairs read from the docstring: `>>> expr` followed by an
    output line, `>>> f(x) == y`, and `f(x) ➞ y` / `==> y` / `=> y` / `-> y` / `== y` /
    `= y` / `# returns y` lines, and `For x = v the output should be y` (a function of one
    argument). Not yet checked against a solution."""
    found: list[tuple[str, Any]] = []
    for i, raw in enumerate(lines):
        text = raw.strip()
        if text.startswith(">>>"):
            try:
                expr = ast.parse(text[3:].strip(), mode="eval").body
            except SyntaxError:
                continue
            if not _calls(expr, name):
                continue
            if (
                isinstance(expr, ast.Compare)
                and len(expr.ops) == 1
                and isinstance(expr.ops[0], ast.Eq)
            ):
                ok, value = _literal(ast.unparse(expr.comparators[0]))
                if ok:
                    found.append((ast.unparse(expr.left), value))
                continue
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if nxt and not nxt.startswith(">>>"):
                ok, value = _literal(nxt)
                if ok:
                    found.append((ast.unparse(expr), value))
            continue
        said = OUTPUT_SHOULD_BE.match(text)
        if said:
            ok_in, arg = _literal(said.group(1))
            ok_out, value = _literal(said.group(2))
            if ok_in and ok_out:
                found.append((f"{name}({arg!r})", value))
            continue
        for bullet in BULLETS:
            if text.startswith(bullet):
                text = text[len(bullet) :].strip()
        if not text.startswith(name + "("):
            continue
        end = _call_end(text)
        if end is None:
            continue
        try:
            call = ast.parse(text[:end], mode="eval").body
        except SyntaxError:
            continue
        rest = text[end:].strip().lstrip("#").strip()
        arrow = next((a for a in ARROWS if rest.startswith(a)), None)
        if arrow is None:
            continue
        ok, value = _literal(rest[len(arrow) :])
        if ok:
            found.append((ast.unparse(call), value))
    unique: dict[tuple[str, str], tuple[str, Any]] = {}
    for expr, value in found:
        unique.setdefault((expr, repr(value)), (expr, value))
    return list(unique.values())


def checked_examples(
    candidates: list[tuple[str, Any]], solution: str, filename: str
) -> list[tuple[str, Any]]:
    """The candidate examples the canonical solution meets (same value, same type): the
    docstrings hold a few wrong or unparseable examples; those are left out."""
    namespace: dict[str, Any] = {}
    exec(compile(solution, filename, "exec"), namespace)  # noqa: S102 (the reference)
    kept = []
    for expr, expected in candidates:
        try:
            got = eval(expr, namespace)  # noqa: S307 (a literal call on the reference)
        except Exception:  # noqa: BLE001 (any failure drops the example)
            continue
        if type(got) is type(expected) and got == expected:
            kept.append((expr, expected))
    return kept


def _names(sources: list[str]) -> set[str]:
    return {
        n.id
        for s in sources
        for n in ast.walk(ast.parse(s, mode="eval"))
        if isinstance(n, ast.Name)
    }


def visible_test(module: str, fn: str, helpers: list[str], examples: list[tuple[str, Any]]) -> str:
    used = [h for h in helpers if h in _names([e for e, _ in examples])]
    head = f"from {module} import {', '.join([fn, *used])}\n"
    if not examples:
        return head + f"\n\ndef test_{fn.lower()}_is_defined():\n    assert callable({fn})\n"
    body = [
        f"\n\ndef test_example_{i}():\n    assert {expr} == {expected!r}\n"
        for i, (expr, expected) in enumerate(examples, 1)
    ]
    return head + "".join(body)


def visible_only(stub: str, visible: str, fn: str) -> str | None:
    """A wrong solution that passes the visible tests only: `fn` redefined as a table of
    the visible examples' answers (None for any other input). None when no visible test
    is a plain `assert fn(literal, …) == literal`."""
    known = []
    for node in ast.walk(ast.parse(visible)):
        test = node.test if isinstance(node, ast.Assert) else None
        if not isinstance(test, ast.Compare) or len(test.ops) != 1:
            continue
        call, op, want = test.left, test.ops[0], test.comparators[0]
        if not (
            isinstance(op, ast.Eq)
            and isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == fn
            and not call.keywords
        ):
            continue
        args = "".join(ast.unparse(a) + ", " for a in call.args)
        known.append(f"    (({args}), {ast.unparse(want)}),\n")
    if not known:
        return None
    return (
        stub
        + "\n\n_VISIBLE = [\n"
        + "".join(known)
        + "]\n\n\n"
        + f"def {fn}(*args):\n"
        + "    for seen, answer in _VISIBLE:\n"
        + "        if seen == args:\n"
        + "            return answer\n"
        + "    return None\n"
    )
