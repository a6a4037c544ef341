"""Parsing test-runner output into counts and failing tests, one table per runner family."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agentls.tools.shell.suite_results import parse_output

PYTEST_MIXED = """\
..F.s                                                                    [100%]
=================================== FAILURES ===================================
___________________________________ test_bad ___________________________________
    def test_bad():
>       assert 1 == 2
E       assert 1 == 2
=========================== short test summary info ============================
FAILED tests/test_a.py::test_bad - assert 1 == 2
FAILED tests/test_a.py::test_param[a - b] - ValueError: boom
ERROR tests/test_b.py - ImportError: no module named x
2 failed, 3 passed, 1 skipped, 1 warning, 1 error in 0.12s
"""
JEST = """\
 FAIL  src/sum.test.js
  ● math › adds
    expect(received).toBe(expected)
 PASS  src/other.test.js
Tests:       1 failed, 1 skipped, 4 passed, 6 total
"""
VITEST = """\
 ❯ src/a.test.ts (3 tests | 1 failed)
   × a > breaks 3ms
 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
"""
NODE_TAP = """\
TAP version 13
ok 1 - adds
not ok 2 - subtracts
  ---
  ...
# tests 3
# pass 2
# fail 1
# skipped 0
"""
NODE_SPEC = """\
✔ adds (0.5ms)
✖ subtracts (1.1ms)
ℹ tests 2
ℹ pass 1
ℹ fail 1
ℹ skipped 0
✖ failing tests:
✖ subtracts (1.1ms)
"""
MOCHA = """\
  3 passing (10ms)
  1 pending
  2 failing
"""
GO = """\
=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestSub
    math_test.go:12: got 1, want 2
--- FAIL: TestSub (0.00s)
=== RUN   TestTable
    --- PASS: TestTable/a (0.00s)
--- SKIP: TestTable (0.00s)
FAIL	example.com/m	0.002s
FAIL	example.com/broken [build failed]
"""
CARGO = """\
running 3 tests
test tests::adds ... ok
test tests::breaks ... FAILED
test tests::slow ... ignored
test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out
running 2 tests
test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out
"""

CASES = {
    # name: (runner, output, (passed, failed, skipped, errors), failing names)
    "pytest mixed": (
        "pytest", PYTEST_MIXED, (3, 2, 1, 1),
        ["tests/test_a.py::test_bad", "tests/test_a.py::test_param[a", "tests/test_b.py"],
    ),
    "pytest all passed": ("pytest", "...\n3 passed in 0.01s\n", (3, None, None, None), []),
    "pytest nothing collected": ("pytest", "\nno tests ran in 0.01s\n", (0, 0, None, None), []),
    "jest": ("npm", JEST, (4, 1, 1, None), ["math › adds", "src/sum.test.js"]),
    "vitest": ("npm", VITEST, (2, 1, None, None), ["a > breaks"]),
    "node --test (tap)": ("npm", NODE_TAP, (2, 1, 0, None), ["subtracts"]),
    "node --test (spec)": ("npm", NODE_SPEC, (1, 1, 0, None), ["subtracts"]),
    "mocha": ("npm", MOCHA, (3, 2, 1, None), []),
    "go": ("go", GO, (1, 1, 1, 1), ["TestSub", "example.com/broken"]),
    "cargo": ("cargo", CARGO, (3, 1, 1, None), ["tests::breaks"]),
    "generic": ("make", "ran stuff\nResult: 5 passed, 2 failed\n", (5, 2, None, None), []),
    "generic without counts": ("custom", "all good\n", (None, None, None, None), []),
}  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_parse(case: str) -> None:
    runner, output, counts, failing = CASES[case]
    summary = parse_output(runner, output)
    assert (summary.passed, summary.failed, summary.skipped, summary.errors) == counts
    assert sorted(f["name"] for f in summary.failing) == sorted(failing)


def test_pytest_failure_messages() -> None:
    failing = {f["name"]: f["message"] for f in parse_output("pytest", PYTEST_MIXED).failing}
    assert failing["tests/test_a.py::test_bad"] == "assert 1 == 2"
    assert failing["tests/test_b.py"] == "ImportError: no module named x"


def test_go_failure_message_is_the_log_line() -> None:
    (first, _) = parse_output("go", GO).failing
    assert first == {"name": "TestSub", "message": "math_test.go:12: got 1, want 2"}


def test_failing_list_is_capped() -> None:
    output = "".join(f"FAILED t.py::test_{i} - x\n" for i in range(80)) + "80 failed in 1s\n"
    summary = parse_output("pytest", output)
    assert summary.failed == 80 and len(summary.failing) == 50


def test_a_pytest_failure_is_compact_the_test_line_the_frame_that_broke_and_why(tmp_path: Path) -> None:
    """From a real `--tb=short` run: the test's own line, the last frames (inside the code
    under test) and the `E` lines; not the whole traceback."""
    (tmp_path / "shapes.py").write_text(
        "def area(w, h):\n    return scale(w) * h\n\n\ndef scale(x):\n"
        "    if x < 0:\n        raise ValueError('negative width')\n    return x + 1\n"
    )
    (tmp_path / "test_shapes.py").write_text(
        "from shapes import area\n\n\ndef test_square():\n    assert area(2, 2) == 4\n\n\n"
        "def test_negative():\n    assert area(-1, 2) == 0\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfE", "--tb=short", "--color=no", "-p", "no:cacheprovider"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    failing = {f["name"]: f["message"] for f in parse_output("pytest", run.stdout).failing}
    square = failing["test_shapes.py::test_square"].splitlines()
    assert square[:2] == ["test_shapes.py:5: in test_square", "  assert area(2, 2) == 4"]
    assert "assert 6 == 4" in square
    negative = failing["test_shapes.py::test_negative"]
    assert "shapes.py:7: in scale" in negative and "ValueError: negative width" in negative
    assert "^" not in negative and "Traceback" not in negative
