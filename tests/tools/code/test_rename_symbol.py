"""rename_symbol: the definition and every resolved use renamed across files (one proposal
changing every file), strings/comments and unrelated same-name bindings left alone, and every unsafe
rename refused with the reason and nothing changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentls.tools.code import TOOLS as CODE_TOOLS
from agentls.tools.executor import ToolExecutor, ToolResult
from agentls.tools.filesystem import TOOLS as FILESYSTEM_TOOLS
from agentls.tools.registry import ToolRegistry

FILES = {
    "models.py": "class Usr:\n    def display(self):\n        return 'Usr'\n",
    "service.py": (
        "import models\nfrom models import Usr\n\n\ndef make(rows):\n"
        "    # a Usr per row\n    return [Usr(r) for r in rows] + [models.Usr(0)]\n"
    ),
    "other.py": "def Usr_count():\n    Usr = 3\n    return Usr\n",  # a different, local Usr
    "calc.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
    "main.ts": "import { add } from './calc';\nconsole.log(add(1, 2));\n",
}


@pytest.fixture
def ws(ws_root: Path) -> Path:
    for name, text in FILES.items():
        (ws_root / name).write_text(text)
    return ws_root


def _call(make_ctx: Any, approval: str = "auto", ctx: Any = None, **raw: Any) -> ToolResult:
    executor = ToolExecutor(ToolRegistry([*FILESYSTEM_TOOLS, *CODE_TOOLS]))
    return executor.execute("rename_symbol", raw, ctx or make_ctx("dev", approval))


def test_a_class_is_renamed_in_every_file_that_uses_it(ws: Path, make_ctx: Any) -> None:
    result = _call(make_ctx, path="models.py", symbol="Usr", new_name="User")
    assert result.ok, result.error
    out = result.output
    assert out["occurrences"] == 4
    assert out["files"] == ["models.py", "service.py"] and out["status"] == "applied"
    assert "Renamed Usr to User: 4 places in 2 files — models.py (1), service.py (3). Applied" in out["message"]
    assert "-from models import Usr\n+from models import User" in out["diff"]
    assert (ws / "models.py").read_text() == "class User:\n    def display(self):\n        return 'Usr'\n"
    assert (ws / "service.py").read_text() == (
        "import models\nfrom models import User\n\n\ndef make(rows):\n"
        "    # a Usr per row\n    return [User(r) for r in rows] + [models.User(0)]\n"
    )
    assert (ws / "other.py").read_text() == FILES["other.py"]  # another binding of the name


def test_a_rename_from_a_caller_file_and_in_typescript(ws: Path, make_ctx: Any) -> None:
    result = _call(make_ctx, path="main.ts", symbol="add", new_name="sum")
    assert result.ok, result.error
    assert (ws / "calc.ts").read_text().startswith("export function sum(a: number")
    assert (ws / "main.ts").read_text() == "import { sum } from './calc';\nconsole.log(sum(1, 2));\n"


def test_with_approval_never_the_files_stay_and_the_proposals_wait(ws: Path, make_ctx: Any) -> None:
    ctx = make_ctx("dev", "never")
    result = _call(make_ctx, ctx=ctx, path="models.py", symbol="Usr", new_name="User")
    assert result.ok, result.error
    assert result.output["status"] == "pending"
    assert (ws / "models.py").read_text() == FILES["models.py"]
    [proposal] = ctx.proposals.list()  # one proposal for the whole rename
    assert [c.path for c in proposal.changes] == ["models.py", "service.py"]
    assert proposal.title == "Rename Usr to User"
    # the pending change is what the agent now sees; a second rename over it is refused
    again = _call(make_ctx, ctx=ctx, path="models.py", symbol="Usr", new_name="Person")
    assert not again.ok and "has changes the code index has not seen" in again.error["message"]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ({"path": "models.py", "symbol": "Usr", "new_name": "class"}, "is a Python keyword"),
        ({"path": "models.py", "symbol": "Usr", "new_name": "two words"}, "is not a Python identifier"),
        ({"path": "models.py", "symbol": "Usr", "new_name": "Usr"}, "already 'Usr'"),
        ({"path": "models.py", "symbol": "Nope", "new_name": "X"}, "neither defines nor uses 'Nope'"),
        ({"path": "service.py", "symbol": "models", "new_name": "m"}, "names a module"),
        ({"path": "calc.ts", "symbol": "add", "new_name": "function"}, "is a reserved word"),
        ({"path": "missing.py", "symbol": "x", "new_name": "y"}, "does not exist"),
    ],
)
def test_unsafe_renames_are_refused_and_nothing_changes(
    ws: Path, make_ctx: Any, args: dict[str, Any], fragment: str
) -> None:
    ctx = make_ctx("dev", "auto")
    result = _call(make_ctx, ctx=ctx, **args)
    assert not result.ok
    assert fragment in result.error["message"], result.error
    assert ctx.proposals.list() == []
    for name, text in FILES.items():
        assert (ws / name).read_text() == text


def test_a_name_bound_twice_in_the_scope_is_refused(ws: Path, make_ctx: Any) -> None:
    (ws / "models.py").write_text(FILES["models.py"] + "\n\nclass User:\n    pass\n")
    result = _call(make_ctx, path="models.py", symbol="Usr", new_name="User")
    assert not result.ok and "'User' is already defined in the same scope" in result.error["message"]


def test_needs_write_permission(ws: Path, make_ctx: Any) -> None:
    result = _call(make_ctx, ctx=make_ctx("read-only", "never"), path="models.py", symbol="Usr", new_name="User")
    assert result.error["type"] == "permission"


def test_the_index_follows_an_applied_edit(ws: Path, make_ctx: Any) -> None:
    # benchmark pattern 15: find_references right after an edit_file rename answered from the
    # old text ("how: none" for the new name)
    executor = ToolExecutor(ToolRegistry([*FILESYSTEM_TOOLS, *CODE_TOOLS]))
    ctx = make_ctx("dev", "auto")
    assert executor.execute("find_references", {"symbol": "Usr"}, ctx).output["total"] > 0
    edit = executor.execute("edit_file", {"path": "models.py", "old": "class Usr:", "new": "class User:"}, ctx)
    assert edit.ok and edit.output["status"] == "applied"
    found = executor.execute("find_symbol_definition", {"symbol": "User"}, ctx).output
    assert [loc["path"] for loc in found["locations"]] == ["models.py"]
