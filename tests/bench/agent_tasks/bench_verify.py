"""Objective verifiers for the agent benchmark: does a result workspace (and summary) meet
the task? Independent of the agent: they read files, parse them with `ast`, and run pytest
in a scratch copy.

Check types (a task's `[[check]]` tables; `path` is workspace-relative, `symbol` may be
dotted, `Class.method`):
- `pytest` — copy the workspace, write the `hidden` files (path → text) over the copy, run
  `python -m pytest -q [args]`; `expect = "pass"` (default; exit 0) or `"fail"` (exit 1:
  tests ran and failed — used to check that an added test catches a broken version).
- `docstring` — `symbol` in `path` has a docstring (a module docstring with no symbol).
- `annotation` — `symbol`'s parameter `param` (or `"return"`) is annotated; `expect`
  (optional list) names the accepted annotation texts (`ast.unparse`).
- `all_annotated` — every function in `path` has a return annotation and every
  parameter but `self`/`cls` an annotation.
- `contains` / `absent` — `text` (substring) or `regex` is / is not in `path`.
- `defined` — `symbol` is defined in `path`.
- `name_absent` — the identifier `name` appears nowhere in any .py file (names,
  attributes, definitions, parameters, imports).
- `no_call` — `symbol` in `path` makes no call to `call` (e.g. `print`).
- `unchanged` — the `paths` (default: every file) are byte-identical to the original
  workspace; without `paths`, no file was added or deleted either.
- `only_changed` — files other than `paths` are unchanged, none other added or deleted.
- `summary` — every `regex` (list) matches the run's summary (case-insensitive).
Every verification also checks that every .py file still parses (`parses`).
Must not know: agentls, the model, how a run is started.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_tasks import Task, baseline

IGNORED_PARTS = {".git", ".agentls", "__pycache__", ".pytest_cache"}
PYTEST_TIMEOUT_S = 120


@dataclass(frozen=True)
class CheckResult:
    check: str
    ok: bool
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check, "ok": self.ok, "detail": self.detail}


def workspace_files(root: Path) -> dict[str, bytes]:
    """Every file under `root` (relative POSIX path → bytes), minus git/agentls/cache folders."""
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_file() and not (set(rel.parts) & IGNORED_PARTS):
            out[rel.as_posix()] = path.read_bytes()
    return out


def unparseable(root: Path) -> list[str]:
    """The .py files under `root` that no longer parse."""
    bad = []
    for rel, data in workspace_files(root).items():
        if rel.endswith(".py"):
            try:
                ast.parse(data, filename=rel)
            except (SyntaxError, ValueError):
                bad.append(rel)
    return bad


def _tree(root: Path, rel: str) -> ast.Module:
    return ast.parse((root / rel).read_bytes(), filename=rel)


def find_symbol(module: ast.Module, dotted: str) -> ast.AST | None:
    """The function or class named by `dotted` (`f`, `C`, `C.m`) at module/class level."""
    scope: list[ast.stmt] = module.body
    node: ast.AST | None = None
    for part in dotted.split("."):
        node = next(
            (
                n
                for n in scope
                if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                and n.name == part
            ),
            None,
        )
        if node is None:
            return None
        scope = node.body  # type: ignore[attr-defined]
    return node


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def _identifiers(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            names.add(n.id)
        elif isinstance(n, ast.Attribute):
            names.add(n.attr)
        elif isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(n.name)
        elif isinstance(n, ast.arg):
            names.add(n.arg)
        elif isinstance(n, ast.alias):
            names.update(n.name.split("."))
            if n.asname:
                names.add(n.asname)
        elif isinstance(n, ast.keyword) and n.arg:
            names.add(n.arg)
    return names


def run_pytest(root: Path, check: dict[str, Any]) -> CheckResult:
    """pytest in a scratch copy of `root` with the check's hidden files written over it."""
    expect = check.get("expect", "pass")
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as tmp:
        copy = Path(tmp) / "ws"
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns(*IGNORED_PARTS))
        for rel, text in (check.get("hidden") or {}).items():
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            (copy / rel).write_text(text, encoding="utf-8")
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PYTHON"))},
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(copy),
        ]
        try:
            proc = subprocess.run(
                cmd + list(check.get("args", [])),
                cwd=copy,
                env=env,
                capture_output=True,
                text=True,
                timeout=PYTEST_TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            return CheckResult("pytest", False, f"timed out after {PYTEST_TIMEOUT_S} s")
    tail = " | ".join((proc.stdout.strip().splitlines() or [""])[-3:])[-300:]
    ok = proc.returncode == 0 if expect == "pass" else proc.returncode == 1
    return CheckResult("pytest", ok, f"expect {expect}, exit {proc.returncode}: {tail}")


def run_check(task: Task, root: Path, summary: str, check: dict[str, Any]) -> CheckResult:
    """One check against the result workspace `root` and the run's summary."""
    kind = str(check["type"])
    path = str(check.get("path", ""))
    try:
        if kind == "pytest":
            return run_pytest(root, check)
        if kind == "summary":
            missing = [r for r in check["regex"] if not re.search(r, summary or "", re.I | re.S)]
            return CheckResult(kind, not missing, f"missing {missing}" if missing else "")
        if kind in ("unchanged", "only_changed"):
            return _unchanged(task, root, kind, list(check.get("paths", [])))
        if kind == "name_absent":
            name = str(check["name"])
            users = [
                rel
                for rel, data in workspace_files(root).items()
                if rel.endswith(".py") and name in _identifiers(ast.parse(data))
            ]
            return CheckResult(kind, not users, f"{name!r} still in {users}" if users else "")
        if not (root / path).is_file():
            return CheckResult(kind, False, f"{path} does not exist")
        text = (root / path).read_text(encoding="utf-8")
        if kind in ("contains", "absent"):
            found = (
                re.search(check["regex"], text, re.M) is not None
                if "regex" in check
                else str(check["text"]) in text
            )
            want = kind == "contains"
            what = check.get("regex", check.get("text"))
            return CheckResult(
                kind,
                found == want,
                "" if found == want else f"{what!r} {'not ' if want else ''}found in {path}",
            )
        tree = _tree(root, path)
        symbol = str(check.get("symbol", ""))
        node = find_symbol(tree, symbol) if symbol else tree
        if node is None:
            return CheckResult(kind, False, f"{symbol} not found in {path}")
        if kind == "defined":
            return CheckResult(kind, True)
        if kind == "docstring":
            doc = ast.get_docstring(node)  # type: ignore[arg-type]
            return CheckResult(
                kind, bool(doc and doc.strip()), "" if doc else f"{symbol or path} has no docstring"
            )
        if kind == "annotation":
            return _annotation(node, check)
        if kind == "all_annotated":
            missing = []
            for fn in _functions(tree):
                if fn.returns is None:
                    missing.append(f"{fn.name}->")
                args = fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs
                missing += [
                    f"{fn.name}({a.arg})"
                    for a in args
                    if a.annotation is None and a.arg not in ("self", "cls")
                ]
            return CheckResult(kind, not missing, f"not annotated: {missing}" if missing else "")
        if kind == "no_call":
            callee = str(check["call"])
            calls = [
                n
                for n in ast.walk(node)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == callee
            ]
            return CheckResult(
                kind, not calls, f"{len(calls)} call(s) to {callee}" if calls else ""
            )
    except (SyntaxError, ValueError, OSError, KeyError) as exc:
        return CheckResult(kind, False, f"{type(exc).__name__}: {exc}")
    raise ValueError(f"{task.name}: unknown check type {kind!r}")


def _annotation(node: ast.AST, check: dict[str, Any]) -> CheckResult:
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return CheckResult("annotation", False, "not a function")
    param = str(check["param"])
    if param == "return":
        ann = node.returns
    else:
        args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        arg = next((a for a in args if a.arg == param), None)
        if arg is None:
            return CheckResult("annotation", False, f"no parameter {param}")
        ann = arg.annotation
    if ann is None:
        return CheckResult("annotation", False, f"{param} is not annotated")
    text = ast.unparse(ann).replace("'", "").replace('"', "")
    accepted = check.get("expect")
    ok = not accepted or text in accepted
    return CheckResult("annotation", ok, "" if ok else f"{param}: {text!r} not in {accepted}")


def _unchanged(task: Task, root: Path, kind: str, paths: list[str]) -> CheckResult:
    before = {k: v.encode("utf-8") for k, v in baseline(task).items()}
    after = workspace_files(root)
    if kind == "unchanged" and paths:
        changed = [p for p in paths if before.get(p) != after.get(p)]
    else:
        allowed = set(paths) if kind == "only_changed" else set()
        changed = [
            p
            for p in sorted(set(before) | set(after))
            if p not in allowed and before.get(p) != after.get(p)
        ]
    return CheckResult(kind, not changed, f"changed: {changed}" if changed else "")


@dataclass(frozen=True)
class Verdict:
    """A task's verification: `ok` when the status is the expected one and every check passes."""

    ok: bool
    status_ok: bool
    unparseable: list[str]
    checks: list[CheckResult]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "status_ok": self.status_ok,
            "unparseable": self.unparseable,
            "checks": [c.to_dict() for c in self.checks],
        }


def verify(task: Task, root: Path, status: str, summary: str) -> Verdict:
    """Verify a finished run: its status, its summary and the workspace it left."""
    bad = unparseable(root)
    results = [CheckResult("parses", not bad, f"do not parse: {bad}" if bad else "")]
    results += [run_check(task, root, summary, c) for c in task.checks]
    status_ok = status == task.expect_status
    return Verdict(status_ok and all(r.ok for r in results), status_ok, bad, results)
