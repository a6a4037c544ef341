"""`error_regions`: the syntax errors the editor shows, one per error region — ERROR and
MISSING nodes that overlap or touch are one region; an inner ERROR adds no message, a
MISSING token does. Positions are (line, UTF-16 character)."""

from __future__ import annotations

import pytest

from agentls.analysis.syntax import error_regions

CASES = [
    ("ok.py", "def f():\n    return 1\n", []),
    ("two.py", "def total(prices):\n    return 1 +* 2\n\n\ndef g(x):\n    return x(1,,)\n",
     [((1, 4), (1, 17), "syntax error near 'return 1 +* 2'"), ((5, 15), (5, 16), "syntax error near ','")]),
    ("nested.py", "if x\n    y = (1 +\n", [((0, 0), (1, 12), "syntax error near 'if x'")]),
    ("missing.py", "def f(:\n    return [1,\n", [((0, 0), (2, 0), "syntax error near 'def f(:'; missing ')'")]),
    ("nested.ts", "function f( {\n  return 1;\n}\nconst x = ;\n", [((0, 0), (3, 9), "syntax error near 'function f( {'")]),
    ("missing.ts", "const v = Math.max(1, 2;\n", [((0, 23), (0, 23), "missing ')'")]),
    ("utf16.ts", "const s = '😀'; x = = 1;\n", [((0, 20), (0, 21), "syntax error near '='")]),  # 😀: 2 UTF-16 units
]


@pytest.mark.parametrize(("path", "text", "regions"), CASES, ids=[c[0] for c in CASES])
def test_error_regions(path: str, text: str, regions: list[object]) -> None:
    assert error_regions(path, text.encode()) == regions


def test_not_analysed_and_capped() -> None:
    assert error_regions("notes.txt", b"(((") is None
    many = "".join(f"x{i} = (1 2)\n" for i in range(50)).encode()
    assert len(error_regions("many.py", many) or []) == 50
    assert len(error_regions("many.py", many, limit=7) or []) == 7
