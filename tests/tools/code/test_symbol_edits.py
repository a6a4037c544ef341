"""Edits addressed by symbol (replace_symbol, insert_symbol, add_docstring): the definition
is found by name in the current text, the new text indented to fit, the result a proposal
whose message says the change is in place and shows the region as it now reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentls.tools.code import TOOLS as CODE_TOOLS
from agentls.tools.executor import ToolExecutor, ToolResult
from agentls.tools.filesystem import TOOLS as FILESYSTEM_TOOLS
from agentls.tools.registry import ToolRegistry

SHOP = '''\
"""A shop."""

import math


class Cart:
    def __init__(self):
        self.items = []

    @property
    def total(self):
        return sum(self.items)


def ratio(a, b):
    return a / b
'''

MATH_TS = """\
export function add(a: number, b: number): number {
  return a + b;
}
"""


@pytest.fixture
def ws(ws_root: Path) -> Path:
    (ws_root / "shop.py").write_text(SHOP)
    (ws_root / "math.ts").write_text(MATH_TS)
    return ws_root


def _call(make_ctx: Any, name: str, **raw: Any) -> ToolResult:
    executor = ToolExecutor(ToolRegistry([*FILESYSTEM_TOOLS, *CODE_TOOLS]))
    return executor.execute(name, raw, make_ctx("dev", "auto"))


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        # a top-level function, new text given without indentation
        (
            "replace_symbol",
            {"symbol": "ratio", "new": "def ratio(a, b):\n    if b == 0:\n        return 0.0\n    return a / b"},
            SHOP.replace("    return a / b\n", "    if b == 0:\n        return 0.0\n    return a / b\n"),
        ),
        # a method by dotted name: indented to the class body; its decorator is kept
        (
            "replace_symbol",
            {"symbol": "Cart.total", "new": "def total(self) -> int:\n    return sum(self.items)"},
            SHOP.replace("def total(self):", "def total(self) -> int:"),
        ),
        # a unique last part names the method too; decorators given replace the old ones
        (
            "replace_symbol",
            {"symbol": "total", "new": "@property\ndef total(self):\n    return len(self.items)"},
            SHOP.replace("return sum(self.items)", "return len(self.items)"),
        ),
        # insert after a top-level function: two blank lines before it
        (
            "insert_symbol",
            {"after": "ratio", "new": "def double(x):\n    return 2 * x"},
            SHOP + "\n\ndef double(x):\n    return 2 * x\n",
        ),
        # insert after a method: a method of the same class
        (
            "insert_symbol",
            {"after": "Cart.__init__", "new": "def clear(self):\n    self.items = []"},
            SHOP.replace(
                "        self.items = []\n",
                "        self.items = []\n\n    def clear(self):\n        self.items = []\n",
                1,
            ),
        ),
        # a docstring for a function that has none, quotes given by the model dropped
        (
            "add_docstring",
            {"symbol": "ratio", "docstring": '"""Return a divided by b."""'},
            SHOP.replace("def ratio(a, b):\n", 'def ratio(a, b):\n    """Return a divided by b."""\n'),
        ),
        # a name written with its signature and more (the 1.5B's "slugify(title) = …"):
        # the name it starts with
        (
            "replace_symbol",
            {"symbol": "ratio(a, b) = a / b", "new": "def ratio(a, b):\n    return b and a / b"},
            SHOP.replace("    return a / b\n", "    return b and a / b\n"),
        ),
        (
            "add_docstring",
            {"symbol": "def ratio(a, b):", "docstring": "Return a divided by b."},
            SHOP.replace("def ratio(a, b):\n", 'def ratio(a, b):\n    """Return a divided by b."""\n'),
        ),
        # a method's docstring, indented to its body
        (
            "add_docstring",
            {"symbol": "Cart.__init__", "docstring": "An empty cart."},
            SHOP.replace(
                "def __init__(self):\n", 'def __init__(self):\n        """An empty cart."""\n'
            ),
        ),
    ],
)
def test_symbol_edits(make_ctx: Any, ws: Path, tool: str, args: dict[str, Any], expected: str) -> None:
    result = _call(make_ctx, tool, path="shop.py", **args)
    assert result.ok, result.error
    assert (ws / "shop.py").read_text() == expected
    message = result.output["message"]
    assert "now contains the change" in message and "now read" in message


def test_an_existing_docstring_is_replaced_and_typescript_gets_jsdoc(make_ctx: Any, ws: Path) -> None:
    assert _call(make_ctx, "add_docstring", path="shop.py", symbol="ratio", docstring="First.").ok
    assert _call(make_ctx, "add_docstring", path="shop.py", symbol="ratio", docstring="Second.").ok
    text = (ws / "shop.py").read_text()
    assert '"""Second."""' in text and "First." not in text
    prose = "Return a divided by b.\n\nExample:\n    >>> ratio(1, 2)\n    0.5\nreturns a float."
    assert _call(make_ctx, "add_docstring", path="shop.py", symbol="ratio", docstring=prose).ok
    assert _call(make_ctx, "add_docstring", path="math.ts", symbol="add", docstring="Sum of a and b.").ok
    assert (ws / "math.ts").read_text() == "/**\n * Sum of a and b.\n */\n" + MATH_TS


@pytest.mark.parametrize(
    ("tool", "args", "error"),
    [
        ("replace_symbol", {"symbol": "nope", "new": "def nope(): pass"}, "it defines: Cart, Cart.__init__"),
        ("insert_symbol", {"new": "def ratio2(a, b:\n    return a"}, "syntax errors"),
        ("add_docstring", {"symbol": "missing", "docstring": "x"}, "no function, method or class"),
        ("add_docstring", {"symbol": "missing(a) = 1", "docstring": "x"}, "no function, method or class named 'missing(a) = 1'"),
        ("replace_symbol", {"symbol": "Cart", "new": "User"}, "must be the whole new definition"),
        # the 1.5B put a test file's text in place of the function it was to fix
        ("replace_symbol", {"symbol": "ratio", "new": "def test_ratio():\n    assert ratio(4, 2) == 2"}, "`new` must define ratio (the definition it replaces), but it defines test_ratio"),
        ("insert_symbol", {"after": "ghost", "new": "def f(): pass"}, "named 'ghost'"),
        ("insert_symbol", {"new": "def ratio(a, b):\n    return b / a"}, "already defines ratio; to change it, use replace_symbol"),
        # the 0.5B inserted the bare name "subtract", and it was applied
        ("insert_symbol", {"new": "subtract"}, "must be a whole new definition"),
        ("insert_symbol", {"new": "x = 1"}, "must be a whole new definition"),
        ("insert_symbol", {"after": "Cart.total", "new": "def total(self):\n    return 0"}, "already defines Cart.total"),
        # benchmark pattern 11: the function's code pasted into its docstring, 50 times over
        ("add_docstring", {"symbol": "ratio", "docstring": "Ratio.\ndef ratio(a, b):\n    return a / b"}, "not repeat its code"),
        ("add_docstring", {"symbol": "ratio", "docstring": "\n".join(["Divide a by b."] * 41)}, "at most 40 lines"),
    ],
)
def test_symbol_edit_errors(make_ctx: Any, ws: Path, tool: str, args: dict[str, Any], error: str) -> None:
    result = _call(make_ctx, tool, path="shop.py", **args)
    assert not result.ok and error in result.error["message"], result.error
    assert (ws / "shop.py").read_text() == SHOP


def test_a_body_written_without_indentation_is_put_under_its_def(make_ctx: Any, ws: Path) -> None:
    # what the 0.5B writes inside a JSON string: one space, or none, before the body
    result = _call(make_ctx, "insert_symbol", path="shop.py", new=" def subtract(a, b):\n return a - b\n ")
    assert result.ok, result.error
    assert (ws / "shop.py").read_text() == SHOP + "\n\ndef subtract(a, b):\n    return a - b\n"


@pytest.mark.parametrize(
    ("before", "symbol", "after"),
    [
        # none yet: the docstring goes first, a blank line before the code
        ("import re\n\n\ndef f():\n    pass\n", "mod", '"""Helpers."""\n\nimport re\n\n\ndef f():\n    pass\n'),
        # the one there is replaced; "module" and the file name mean the module too
        ('"""Old."""\n\nimport re\n', "module", '"""Helpers."""\n\nimport re\n'),
        ('"""Old\n\nmany lines.\n"""\nimport re\n', "mod.py", '"""Helpers."""\nimport re\n'),
        # a shebang and an encoding line stay first
        ("#!/usr/bin/env python\n# -*- coding: utf-8 -*-\nx = 1\n", "mod",
         '#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n"""Helpers."""\n\nx = 1\n'),
        # a function with the module's name is that function, not the module
        ("def mod():\n    pass\n", "mod", 'def mod():\n    """Helpers."""\n    pass\n'),
    ],
)
def test_the_module_docstring(make_ctx: Any, ws: Path, before: str, symbol: str, after: str) -> None:
    (ws / "mod.py").write_text(before)
    result = _call(make_ctx, "add_docstring", path="mod.py", symbol=symbol, docstring="Helpers.")
    assert result.ok, result.error
    assert (ws / "mod.py").read_text() == after


CONFIG = '''\
"""Settings."""

TIMEOUT_SECONDS = 30
RETRIES: int = 3
A, B = 1, 2


def timeout():
    LOCAL = 5
    return TIMEOUT_SECONDS + LOCAL
'''


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # the 1.5B asked to change a module constant calls replace_symbol with its name
        ({"symbol": "TIMEOUT_SECONDS", "new": "TIMEOUT_SECONDS = 60"}, CONFIG.replace("= 30", "= 60")),
        # a bare value keeps the statement's left-hand side (its annotation too)
        ({"symbol": "TIMEOUT_SECONDS", "new": "60"}, CONFIG.replace("= 30", "= 60")),
        ({"symbol": "RETRIES", "new": "5"}, CONFIG.replace("RETRIES: int = 3", "RETRIES: int = 5")),
        # the name written with its old line, as the model did with functions' signatures
        ({"symbol": "TIMEOUT_SECONDS = 30", "new": "TIMEOUT_SECONDS = 90"}, CONFIG.replace("= 30", "= 90")),
    ],
)
def test_a_module_variable_is_replaced_by_its_new_assignment(make_ctx: Any, ws: Path, args: dict[str, Any], expected: str) -> None:
    (ws / "config.py").write_text(CONFIG)
    result = _call(make_ctx, "replace_symbol", path="config.py", **args)
    assert result.ok, result.error
    assert (ws / "config.py").read_text() == expected


@pytest.mark.parametrize(
    ("args", "error"),
    [
        # another name bound in its place is not the variable's new value
        ({"symbol": "TIMEOUT_SECONDS", "new": "LIMIT = 60"}, "`new` must define TIMEOUT_SECONDS"),
        # a function's local variable, and a name bound second in a tuple, are not found
        ({"symbol": "LOCAL", "new": "LOCAL = 6"}, "no function, method, class or module variable named 'LOCAL'"),
        ({"symbol": "B", "new": "B = 3"}, "named 'B'"),
        ({"symbol": "TIMEOUT_SECONDS", "new": "= 60"}, "syntax"),
    ],
)
def test_a_module_variable_edit_refused(make_ctx: Any, ws: Path, args: dict[str, Any], error: str) -> None:
    (ws / "config.py").write_text(CONFIG)
    result = _call(make_ctx, "replace_symbol", path="config.py", **args)
    assert not result.ok and error in result.error["message"], result.error
    assert (ws / "config.py").read_text() == CONFIG
