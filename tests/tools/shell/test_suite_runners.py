"""Test-runner detection: which runner, which command, from which directory."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from agentls.tools.shell.suite_runners import plan_suite, runner_for_command

PYTEST = f"{sys.executable} -m pytest -q -rfE --tb=short --color=no -p no:cacheprovider"
NPM_PLACEHOLDER = '{"scripts": {"test": "echo \\"Error: no test specified\\" && exit 1"}}'

DETECTION_CASES = {
    # name: (files, target, (runner, command, project dir) or None)
    "pytest.ini": ({"pytest.ini": "[pytest]\n"}, ".", ("pytest", PYTEST, ".")),
    "pyproject with pytest config": (
        {"pyproject.toml": "[tool.pytest.ini_options]\n"}, ".", ("pytest", PYTEST, "."),
    ),
    "setup.cfg section": ({"setup.cfg": "[tool:pytest]\n"}, ".", ("pytest", PYTEST, ".")),
    "tox.ini section": ({"tox.ini": "[pytest]\n"}, ".", ("pytest", PYTEST, ".")),
    "tests dir": ({"tests/unit/test_x.py": ""}, ".", ("pytest", PYTEST, ".")),
    "narrowed to a file": (
        {"tests/test_x.py": ""}, "tests/test_x.py", ("pytest", f"{PYTEST} tests/test_x.py", "."),
    ),
    "npm": ({"package.json": '{"scripts": {"test": "jest"}}'}, ".", ("npm", "npm test", ".")),
    "npm placeholder is no runner": ({"package.json": NPM_PLACEHOLDER}, ".", None),
    "npm narrowed": (
        {"package.json": '{"scripts": {"test": "jest"}}', "src/a.test.js": ""},
        "src/a.test.js",
        ("npm", "npm test -- src/a.test.js", "."),
    ),
    "go": ({"go.mod": "module x\n"}, ".", ("go", "go test -v ./...", ".")),
    "go package": ({"go.mod": "module x\n", "pkg/a/a.go": ""}, "pkg/a", ("go", "go test -v ./pkg/a/...", ".")),
    "cargo": ({"Cargo.toml": "[package]\n"}, ".", ("cargo", "cargo test", ".")),
    "make": ({"Makefile": "build:\n\ttrue\ntest: build\n\ttrue\n"}, ".", ("make", "make test", ".")),
    "make without test target": ({"Makefile": "build:\n\ttrue\n"}, ".", None),
    "bare python project": ({"pyproject.toml": "[project]\nname='x'\n"}, ".", ("pytest", PYTEST, ".")),
    "pytest config beats package.json": (
        {"package.json": '{"scripts": {"test": "jest"}}', "pytest.ini": ""}, ".", ("pytest", PYTEST, "."),
    ),
    "conftest only": ({"conftest.py": ""}, ".", ("pytest", PYTEST, ".")),
    "loose tests: the outermost folder": (
        {"tests/test_x.py": "", "tests/sub/test_y.py": ""}, "tests/sub", ("pytest", f"{PYTEST} tests/sub", "."),
    ),
    "nearest project wins": (
        {"pyproject.toml": "[tool.pytest.ini_options]\n", "web/package.json": '{"scripts": {"test": "vitest"}}'},
        "web",
        ("npm", "npm test", "web"),
    ),
    "walks up from a sub-folder": ({"go.mod": "module x\n", "a/b/c.go": ""}, "a/b", ("go", "go test -v ./a/b/...", ".")),
    "nothing": ({"README.md": "hi"}, ".", None),
}  # fmt: skip


@pytest.fixture(autouse=True)
def no_active_virtualenv(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)


@pytest.mark.parametrize("case", DETECTION_CASES)
def test_detection(case: str, ws: Path, write: Callable[[Path, dict[str, str]], None]) -> None:
    files, target, expected = DETECTION_CASES[case]
    write(ws, files)
    plan = plan_suite(ws.resolve(), (ws / target).resolve())
    if expected is None:
        assert plan is None
    else:
        runner, command, project = expected
        assert plan is not None
        assert (plan.runner, plan.command, plan.cwd) == (runner, command, (ws / project).resolve())


def test_project_virtualenv_is_preferred(
    ws: Path, write: Callable[[Path, dict[str, str]], None]
) -> None:
    write(ws, {"pytest.ini": "", ".venv/bin/python": ""})
    plan = plan_suite(ws.resolve(), ws.resolve())
    assert plan is not None and plan.command.startswith(
        f"{ws.resolve()}/.venv/bin/python -m pytest"
    )


@pytest.mark.parametrize(
    ("command", "runner"),
    [
        ("python -m pytest -x", "pytest"),
        ("npx jest --ci", "npm"),
        ("node --test", "npm"),
        ("yarn test", "npm"),
        ("go test ./...", "go"),
        ("cargo test --all", "cargo"),
        ("make check", "make"),
        ("./run-tests.sh", "custom"),
    ],
)
def test_runner_for_an_explicit_command(command: str, runner: str) -> None:
    assert runner_for_command(command) == runner
