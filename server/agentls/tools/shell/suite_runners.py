"""Which test runner a project uses, and the command that runs it.

Detection is a table of (runner, marker check, command builder), tried in order in the
directory of the target and then each parent up to the workspace root: the nearest
project wins (a monorepo package's package.json before the root's pyproject.toml).
Must not know: processes, the sandbox, how results are parsed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

NPM_PLACEHOLDER = "no test specified"
_MAKE_TEST = re.compile(r"^test\s*:", re.MULTILINE)
_PY_TEST_FILE = re.compile(r"^(test_.*|.*_test)\.py$")


def _read(path: Path, limit: int = 1 << 20) -> str:
    try:
        with path.open("rb") as fh:
            return fh.read(limit).decode("utf-8", "replace")
    except OSError:
        return ""


def _loose_python_tests(d: Path) -> bool:
    """Test files or a conftest.py here or under tests/ (no configuration needed)."""
    if (d / "conftest.py").is_file() or any(_PY_TEST_FILE.match(p.name) for p in d.glob("*.py")):
        return True
    for sub in (d / "tests", d / "test"):
        if sub.is_dir() and any(_PY_TEST_FILE.match(p.name) for p in sub.rglob("*.py")):
            return True
    return False


def _pytest_configured(d: Path) -> bool:
    if (d / "pytest.ini").is_file():
        return True
    sections = (
        ("pyproject.toml", "[tool.pytest"),
        ("setup.cfg", "[tool:pytest]"),
        ("tox.ini", "[pytest]"),
    )
    return any(marker in _read(d / name) for name, marker in sections)


def _python_project(d: Path) -> bool:
    return any((d / name).is_file() for name in ("pyproject.toml", "setup.py", "setup.cfg"))


def npm_test_script(d: Path) -> str | None:
    """scripts.test of package.json, unless absent or npm init's placeholder."""
    try:
        scripts = json.loads(_read(d / "package.json") or "{}").get("scripts") or {}
    except (ValueError, AttributeError):
        return None
    test = scripts.get("test") if isinstance(scripts, dict) else None
    return test if isinstance(test, str) and NPM_PLACEHOLDER not in test else None


def _make_test(d: Path) -> bool:
    return any(_MAKE_TEST.search(_read(d / n)) for n in ("GNUmakefile", "makefile", "Makefile"))


def python_for(project: Path, root: Path, *, need_pytest: bool = False) -> str:
    """The project's interpreter: its virtualenv, else $VIRTUAL_ENV, else python3."""
    for base in dict.fromkeys((project, root)):
        for venv in (".venv", "venv"):
            candidate = base / venv / "bin" / "python"
            if candidate.exists():
                return str(candidate)
    active = os.environ.get("VIRTUAL_ENV")
    if active and (Path(active) / "bin" / "python").exists():
        return str(Path(active) / "bin" / "python")
    if need_pytest and importlib.util.find_spec("pytest") is not None:
        return sys.executable  # our own interpreter has pytest; the system one may not
    return "python3"


def _pytest_command(project: Path, root: Path, target: str | None) -> str:
    python = python_for(project, root, need_pytest=True)
    cmd = f"{shlex.quote(python)} -m pytest -q -rfE --tb=short --color=no -p no:cacheprovider"
    return f"{cmd} {shlex.quote(target)}" if target else cmd


def _npm_command(project: Path, root: Path, target: str | None) -> str:
    return f"npm test -- {shlex.quote(target)}" if target else "npm test"


def _go_command(project: Path, root: Path, target: str | None) -> str:
    if not target:
        return "go test -v ./..."
    package = target if (project / target).is_dir() else (os.path.dirname(target) or ".")
    return f"go test -v {shlex.quote('./' + package.rstrip('/') + '/...')}"


@dataclass(frozen=True, slots=True)
class SuiteRunner:
    name: str
    detect: Callable[[Path], bool]
    command: Callable[[Path, Path, str | None], str]  # (project dir, root, target) → command


#: Tried in this order in each directory, nearest directory first (pytest configuration
#: before package.json; a bare pyproject.toml/setup.py last).
RUNNERS: tuple[SuiteRunner, ...] = (
    SuiteRunner("pytest", _pytest_configured, _pytest_command),
    SuiteRunner("npm", lambda d: npm_test_script(d) is not None, _npm_command),
    SuiteRunner("go", lambda d: (d / "go.mod").is_file(), _go_command),
    SuiteRunner("cargo", lambda d: (d / "Cargo.toml").is_file(), lambda p, r, t: "cargo test"),
    SuiteRunner("make", _make_test, lambda p, r, t: "make test"),
    SuiteRunner("pytest", _python_project, _pytest_command),
)
#: When no directory has a project marker: Python test files; the outermost folder wins.
LOOSE_TESTS = SuiteRunner("pytest", _loose_python_tests, _pytest_command)

#: Runner names for an explicit command, so its output is parsed the right way.
COMMAND_RUNNERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bpytest\b"), "pytest"),
    (re.compile(r"\bgo\s+test\b"), "go"),
    (re.compile(r"\bcargo\s+(test|nextest)\b"), "cargo"),
    (re.compile(r"\b(npm|npx|yarn|pnpm|node|jest|vitest|mocha)\b"), "npm"),
    (re.compile(r"\bmake\b"), "make"),
)


@dataclass(frozen=True, slots=True)
class SuitePlan:
    runner: str
    command: str
    cwd: Path


def runner_for_command(command: str) -> str:
    return next((name for pattern, name in COMMAND_RUNNERS if pattern.search(command)), "custom")


def _plan(runner: SuiteRunner, project: Path, root: Path, target: Path) -> SuitePlan:
    rel = None if target == project else target.relative_to(project).as_posix()
    return SuitePlan(runner.name, runner.command(project, root, rel), project)


def plan_suite(root: Path, target: Path) -> SuitePlan | None:
    """The nearest project at or above `target` (a confined real path) and its test command."""
    start = target if target.is_dir() else target.parent
    folders = [start, *start.parents]
    folders = folders[: folders.index(root) + 1] if root in folders else [start]
    for project in folders:
        for runner in RUNNERS:
            if runner.detect(project):
                return _plan(runner, project, root, target)
    loose = [project for project in folders if LOOSE_TESTS.detect(project)]
    return _plan(LOOSE_TESTS, loose[-1], root, target) if loose else None
