"""run_test_suite on a tiny real pytest project: counts, failing names, the overlay of
pending proposals (tests run against unapproved changes; the real files stay as they
are), explicit commands, and the errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from agentls.tools.base import ToolContext, ToolError
from agentls.tools.proposals import ProposalStore
from agentls.tools.shell import RunTestSuite
from agentls.tools.shell.pending import pending_overlay
from agentls.tools.shell.run_test_suite import RunTestSuiteInput
from agentls.workspace import Workspace

MakeCtx = Callable[..., ToolContext]
Write = Callable[[Path, dict[str, str]], None]

BROKEN = "def test_broken():\n    assert 1 + 1 == 3, 'arithmetic is off'\n"
FIXED = "def test_broken():\n    assert 1 + 1 == 2\n"
# The -p no: options skip the plugins of agentls's own virtualenv: 4x faster startup.
PYPROJECT = """\
[tool.pytest.ini_options]
testpaths = ['tests']
addopts = "-p no:asyncio -p no:hypothesispytest -p no:pytest-lsp"
"""
PROJECT = {
    "pyproject.toml": PYPROJECT,
    "tests/test_ok.py": "def test_one():\n    assert True\n\ndef test_two():\n    assert 2 > 1\n",
    "tests/test_bad.py": BROKEN,
}


@pytest.fixture(autouse=True)
def no_active_virtualenv(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)  # use our interpreter, which has pytest


def test_detected_pytest_counts_and_failing_test(
    kind: str, ws: Path, write: Write, shell_ctx: MakeCtx
) -> None:
    write(ws, PROJECT)
    out = RunTestSuite().execute(RunTestSuiteInput(), shell_ctx(kind))
    assert (out.runner, out.passed, out.failed, out.errors) == ("pytest", 2, 1, None)
    assert out.exit_code == 1 and out.sandbox == kind
    (failing,) = out.failing
    assert failing.name == "tests/test_bad.py::test_broken"
    assert "arithmetic is off" in failing.message
    assert "1 failed, 2 passed" in out.output_tail
    assert out.pending_proposals == []
    assert not (ws / ".pytest_cache").exists()


def test_path_narrows_the_run(ws: Path, write: Write, shell_ctx: MakeCtx) -> None:
    write(ws, PROJECT)
    out = RunTestSuite().execute(RunTestSuiteInput(path="tests/test_ok.py"), shell_ctx())
    assert (out.passed, out.failed, out.exit_code) == (2, None, 0)
    assert out.command.endswith(" tests/test_ok.py")


def test_pending_proposals_are_tested_without_touching_the_workspace(
    kind: str, ws: Path, write: Write, shell_ctx: MakeCtx
) -> None:
    write(ws, PROJECT)
    workspace = Workspace(ws)
    store = ProposalStore(workspace)
    store.propose("tests/test_bad.py", BROKEN.encode(), FIXED.encode(), run_id="run-1")
    store.propose("tests/test_new.py", None, b"def test_new():\n    pass\n", run_id="run-1")
    store.propose("tests/test_ok.py", None, b"this is not python", run_id="another-run")
    ctx = shell_ctx(kind, workspace=workspace, proposals=store, run_id="run-1")
    out = RunTestSuite().execute(RunTestSuiteInput(), ctx)
    assert (out.passed, out.failed, out.exit_code) == (4, None, 0)
    assert out.pending_proposals == ["tests/test_bad.py", "tests/test_new.py"]
    assert (ws / "tests/test_bad.py").read_text() == BROKEN
    assert not (ws / "tests/test_new.py").exists()


def test_under_ask_what_the_tests_write_is_discarded_and_listed(
    kind: str, ws: Path, write: Write, shell_ctx: MakeCtx
) -> None:
    write(ws, {**PROJECT, ".gitignore": "*.log\n"})
    command = "echo snap > tests/snapshot.txt; echo log > run.log; rm tests/test_ok.py; true"
    out = RunTestSuite().execute(
        RunTestSuiteInput(command=command), shell_ctx(kind, approval="ask")
    )
    assert out.discarded_changes == ["tests/snapshot.txt", "tests/test_ok.py"]
    assert (ws / "tests/test_ok.py").exists() and not (ws / "tests/snapshot.txt").exists()
    assert not (ws / "run.log").exists()


@pytest.mark.parametrize(
    ("proposal", "expected"),
    [
        (dict(path="a.py", status="pending", new="new", run_id="r"), {"a.py": b"new"}),
        (dict(path="a.py", status="pending", new=b"new", run_id="r"), {"a.py": b"new"}),
        (dict(path="a.py", status="pending", new=None, run_id="r"), {"a.py": None}),  # deletes
        (dict(path="a.py", status="rejected", new="new", run_id="r"), {}),
        (dict(path="a.py", status="applied", new="new", run_id="r"), {}),
        (dict(path="a.py", status="pending", new="new", run_id="other"), {}),
        (dict(path="a.py", status="pending", new=42, run_id="r"), {}),
        (dict(path="../outside.py", status="pending", new="x", run_id="r"), {}),
    ],
)
def test_pending_overlay_takes_only_this_runs_pending_proposals(
    proposal: dict[str, Any], expected: dict[str, bytes | None], shell_ctx: MakeCtx
) -> None:
    change = SimpleNamespace(path=proposal.pop("path"), new=proposal.pop("new"))
    store = SimpleNamespace(list=lambda run_id: [SimpleNamespace(changes=[change], **proposal)])
    assert pending_overlay(shell_ctx(proposals=store, run_id="r")) == expected


def test_no_store_or_no_run_means_no_overlay(shell_ctx: MakeCtx) -> None:
    store = SimpleNamespace(list=lambda run_id: [])
    assert pending_overlay(shell_ctx()) == {}
    assert pending_overlay(shell_ctx(proposals=store, run_id=None)) == {}


@pytest.mark.parametrize(
    ("raw", "runner", "counts"),
    [
        ({"command": "echo 'Result: 5 passed, 2 failed'; exit 1"}, "custom", (5, 2)),
        ({"command": "echo 'no summary here'"}, "custom", (None, None)),
        ({"command": "pwd; echo '3 passed in 0.1s'", "path": "tests"}, "custom", (3, None)),
    ],
)
def test_explicit_command(
    raw: dict[str, Any],
    runner: str,
    counts: tuple[int | None, int | None],
    ws: Path,
    write: Write,
    shell_ctx: MakeCtx,
) -> None:
    write(ws, PROJECT)
    out = RunTestSuite().execute(RunTestSuiteInput.model_validate(raw), shell_ctx())
    assert (out.runner, out.command, (out.passed, out.failed)) == (runner, raw["command"], counts)
    if "path" in raw:
        assert out.output_tail.startswith(str(ws.resolve() / raw["path"]))


@pytest.mark.parametrize(
    ("files", "raw", "error_type", "text"),
    [
        ({"README.md": "hi"}, {}, "runtime", "no test runner detected"),
        (PROJECT, {"path": "../elsewhere"}, "permission", "outside"),
        (PROJECT, {"path": "missing"}, "runtime", "does not exist"),
    ],
)
def test_errors(
    files: dict[str, str],
    raw: dict[str, Any],
    error_type: str,
    text: str,
    ws: Path,
    write: Write,
    shell_ctx: MakeCtx,
) -> None:
    write(ws, files)
    with pytest.raises(ToolError) as err:
        RunTestSuite().execute(RunTestSuiteInput.model_validate(raw), shell_ctx())
    assert err.value.type == error_type and text in err.value.message
