"""The questions read the index's state through `ReadOnlyState` (readonly.py) and cannot
change it: mypy rejects every write to the state made through the view (while the same
code type-checks against `IndexState`, the writable state the indexer holds), and every
question module types its `state` parameters as the view. (That no question imports
state.py is import-linter's: `lint-imports`.)"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from mypy import api

REPO = Path(__file__).resolve().parents[2]
ANALYSIS = REPO / "server" / "agentls" / "analysis"

#: What only the indexer may do to the state: its `forget*` and `warm`, and writes to the
#: files, generation, trees and configs, the derived maps and what it holds.
WRITES = [
    'state.forget("a.py", True)',
    "state.forget_all()",
    "state.forget_modules()",
    "state.warm()",
    'state.files["a.py"] = state.files["b.py"]',
    'del state.files["a.py"]',
    "state.generation += 1",
    "state.trees.clear()",
    'state.configs.append("tsconfig.json")',
    "state.name_maps.reset()",
    "state.importers.reset()",
    'state.importers.touch("a.py")',
    "state.importers.refresh(state)",
    "state.resolver = state.resolver",
    'state.workspace.close("a.py")',
    'state.defs_by_name()["f"] = []',
    'state.defs_by_name()["f"].append(("a.py", 0))',
]


def _snippet() -> tuple[str, dict[int, str], dict[int, str]]:
    """A module writing the state through the view (`question`) and through the state
    itself (`indexer`), and the line each write is on in each."""
    lines = [
        "from agentls.analysis.readonly import ReadOnlyState",
        "from agentls.analysis.state import IndexState",
    ]
    through_view: dict[int, str] = {}
    through_state: dict[int, str] = {}
    for name, annotation, where in (("question", "ReadOnlyState", through_view), ("indexer", "IndexState", through_state)):
        lines += ["", "", f"def {name}(state: {annotation}) -> None:"]
        for write in WRITES:
            lines.append(f"    {write}")
            where[len(lines)] = write
    return "\n".join(lines) + "\n", through_view, through_state


def test_mypy_rejects_every_write_through_the_view(tmp_path: Path) -> None:
    source, through_view, through_state = _snippet()
    (tmp_path / "snippet.py").write_text(source)
    (tmp_path / "mypy.ini").write_text(f"[mypy]\nmypy_path = {REPO / 'server'}\npython_version = 3.11\nignore_missing_imports = True\nfollow_imports = silent\n")
    out, err, _ = api.run([
        "--config-file", str(tmp_path / "mypy.ini"), "--cache-dir", str(tmp_path / "cache"),
        "--no-error-summary", "--hide-error-context", str(tmp_path / "snippet.py"),
    ])  # fmt: skip
    errors: dict[int, list[str]] = {}
    for line in out.splitlines():
        m = re.match(r".*snippet\.py:(\d+): error: (.*)", line)
        if m:
            errors.setdefault(int(m.group(1)), []).append(m.group(2))
    assert errors, (out, err)  # mypy ran and checked the snippet
    accepted = [write for line, write in through_view.items() if line not in errors]
    assert not accepted, f"mypy lets a question write the state through ReadOnlyState: {accepted}"
    # the control: against the writable state every write type-checks, so the errors
    # above come from the view, not from a mistake in the snippet
    refused = {write: errors[line] for line, write in through_state.items() if line in errors}
    assert not refused, refused
    assert set(errors) <= set(through_view), out


def _questions() -> list[str]:
    """The modules of the questions' tier in pyproject.toml's import-linter contract."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract.get("containers") == ["agentls.analysis"]:
            tiers = contract["layers"]
            return [m.strip() for m in tiers[tiers.index("index") + 1].split(":")]
    raise AssertionError("no tiers contract for agentls.analysis in pyproject.toml")


def test_every_question_types_the_state_as_the_read_only_view() -> None:
    questions = _questions()
    assert {"answers", "references", "rename", "symbols", "locations"} <= set(questions)
    found = 0
    for name in questions:
        tree = ast.parse((ANALYSIS / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                args = node.args
                for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                    if arg.arg == "state":
                        found += 1
                        got = ast.unparse(arg.annotation) if arg.annotation else None
                        assert got == "ReadOnlyState", f"{name}.py:{node.lineno} {node.name}(state: {got})"
    assert found >= len(questions)
