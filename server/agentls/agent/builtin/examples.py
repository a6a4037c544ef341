"""The examples of a description, run as a check: what a spec shows a function returning
for given arguments, asked of the code the run leaves.

When no test calls the function a goal implements, its description may still say what
it must do by example — `>>> f(2, 3)` with the result on the next line, or `f(2, 3) ==>
5`, `f(2, 3) -> 5`, `f(2, 3) => 5`, `f(2, 3) == 5`, `f(2, 3) should return 5` (when the
right side is no literal but ends in `= 5`, the 5). Examples whose arguments and result
are Python literals are kept (`extract`); `script` is a Python program that imports the
function, calls it with each example's arguments and prints, as JSON, whether each result
equals the expected one (and what came instead). The agent runs it in the shell sandbox
(`check`, called by done_check.py), against the run's pending changes, like the
workspace's tests.
Must not know: the loop, tools' internals, models, LSP.
"""

from __future__ import annotations

import ast
import json
import re
import shlex
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from agentls.agent.builtin import evidence
from agentls.agent.context import RunContext
from agentls.agent.verification import Check

MAX_EXAMPLES = 12
_ARROW = re.compile(r"\s*(?:==>|=>|->|➞|→|==|should return|returns?)\s*(.+)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Example:
    call: str  # the call as written: f(2, 3)
    args: tuple[Any, ...]
    expected: Any


def _literal(text: str) -> tuple[bool, Any]:
    text = text.strip().rstrip(".,;")
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def _call_end(line: str, start: int) -> int | None:
    """The index just past the `)` closing the `(` at `start` (strings respected)."""
    depth, quote = 0, ""
    for i in range(start, len(line)):
        ch = line[i]
        if quote:
            if ch == quote and line[i - 1] != "\\":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _expected(rest: str) -> tuple[bool, Any]:
    ok, value = _literal(rest)
    if not ok and "=" in rest:  # "19 - 5 - 6 = 8"
        ok, value = _literal(rest.rsplit("=", 1)[1])
    return ok, value


def extract(text: str, name: str) -> list[Example]:
    """The literal examples of `name` in `text` (see the module docstring)."""
    out: list[Example] = []
    lines = text.splitlines()
    pattern = re.compile(rf"(?<![\w.]){re.escape(name)}\s*\(")
    for i, line in enumerate(lines):
        for match in pattern.finditer(line):
            end = _call_end(line, match.end() - 1)
            if end is None:
                continue
            call = line[match.start() : end]
            inner = call[call.index("(") + 1 : -1]
            ok, args = _literal(f"({inner},)") if inner.strip() else (True, ())
            if not ok or not isinstance(args, tuple):
                continue
            rest = line[end:]
            arrow = _ARROW.match(rest)
            if arrow is not None:
                found, expected = _expected(arrow.group(1))
            elif line.lstrip().startswith(">>>") and i + 1 < len(lines) and not lines[i + 1].lstrip().startswith(">>>"):
                found, expected = _literal(lines[i + 1])
            else:
                continue
            if found and not any(e.call == call for e in out):
                out.append(Example(call, args, expected))
    return out[:MAX_EXAMPLES]


def script(module: str, name: str, examples: list[Example]) -> str:
    """A Python program printing `[[passed, call, expected, got], …]` as JSON."""
    cases = json.dumps([[e.call, repr(e.args), repr(e.expected)] for e in examples])
    return (
        "import json, sys\n"
        "sys.path.insert(0, '.')\n"
        f"from {module} import {name} as target\n"
        "out = []\n"
        f"for call, args, expected in json.loads({cases!r}):\n"
        "    want = eval(expected)\n"
        "    try:\n"
        "        got = target(*eval(args))\n"
        "        out.append([got == want, call, expected, repr(got)])\n"
        "    except Exception as exc:\n"
        "        out.append([False, call, expected, f'raised {type(exc).__name__}: {exc}'])\n"
        "print('EXAMPLES ' + json.dumps(out))\n"
    )


def results(stdout: str) -> list[list[Any]] | None:
    """The script's results from its output, or None when it did not get that far."""
    for line in reversed(stdout.splitlines()):
        if line.startswith("EXAMPLES "):
            try:
                value = json.loads(line[len("EXAMPLES ") :])
            except ValueError:
                return None
            return value if isinstance(value, list) else None
    return None


async def check(run: RunContext, command: Callable[[str], Awaitable[Any]], changed: set[str], names: list[str]) -> Check | None:
    """The description's examples of `names` run, through `command` (the shell sandbox),
    against the code as the run leaves it (its `changed` files); None when there are none
    or they could not run."""
    specs = "\n".join(evidence.text_now(run, f) for f in run.reading.specs)
    checks: list[tuple[str, list[list[Any]]]] = []
    for name in names:
        found = extract(specs, name)
        where = next((p for p in sorted(changed) if p.endswith(".py") and re.search(rf"\bdef {re.escape(name)}\b", evidence.text_now(run, p))), None)
        if not found or where is None:
            continue
        module = where.removesuffix(".py").replace("/", ".")
        result = await command(f"python3 -c {shlex.quote(script(module, name, found))}")
        out = getattr(result, "output", None) or {}
        ran = results(str(out.get("stdout") or "")) if getattr(result, "ok", False) else None
        if ran is not None:
            checks.append((name, ran))
    if not checks:
        return None
    failed = [r for _, ran in checks for r in ran if not r[0]]
    total = sum(len(ran) for _, ran in checks)
    if not failed:
        return Check("examples", True, f"the description's {total} examples give what it says", specific=True, summary=f"{total} examples pass")
    lines = [f"the description's examples fail: {len(failed)} of {total}"]
    lines += [f"{call}: expected {expected}, got {got}" for _, call, expected, got in failed[:5]]
    return Check("examples", False, "\n".join(lines), summary=f"{len(failed)} of {total} examples fail")
