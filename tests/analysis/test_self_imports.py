"""`self_imports`: a Python file that imports itself, as the interpreter and pytest would
resolve the import — not a package module importing the library it is named after."""

from __future__ import annotations

import pytest

from agentls.analysis.syntax import self_imports


@pytest.mark.parametrize(
    ("path", "text", "lines"),
    [
        ("test_app.py", "from app import main\nfrom test_app import test_main\n", [1]),
        ("tests/test_app.py", "import test_app\n", [0]),  # pytest imports it from its folder
        ("calc.py", "import calc\n", [0]),  # a top-level file's folder is on sys.path
        ("shop/cart.py", "from shop.cart import Cart\n", [0]),  # its dotted path
        ("shop/logging.py", "import logging\n", []),  # the standard library's logging
        ("shop/json.py", "from json import dumps\n", []),
        ("shop/__init__.py", "from shop import cart\n", []),  # a package's own modules
        ("app.py", "from . import app\n", []),  # relative: not judged
        ("notes.txt", "import notes\n", []),
        ("broken.py", "import broken(\n", []),  # does not parse: reported elsewhere
    ],
)
def test_self_imports(path: str, text: str, lines: list[int]) -> None:
    assert self_imports(path, text.encode()) == lines
