"""Documents nested deeper than any recursion limit (a thousand nested functions, five
thousand nested blocks) are served: every feature answers, documentSymbol keeps every
symbol and nests no deeper than MAX_SYMBOL_DEPTH (+1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agentls.analysis.model import SymbolNode
from agentls.lsp.convert import MAX_SYMBOL_DEPTH, document_symbols
from tests.lsp.conftest import copy_sample
from tests.lsp.wire import Wire, initialize_params


def nested_python_functions(n: int) -> str:
    return "".join("    " * i + f"def f{i}():\n" for i in range(n)) + "    " * n + "return f0\n"


def nested_ts_functions(n: int) -> str:
    return "".join(f"function g{i}() {{\n" for i in range(n)) + "return g0;\n" + "}\n" * n


def nested_ts_blocks(n: int) -> str:
    return "export function h() {\n" + "if (x) {\n" * n + "h();\n" + "}\n" * n + "}\n"


def nested_python_expression(n: int) -> str:
    return "x = " + "(" * n + "1" + ")" * n + "\nlist_ = " + "[" * n + "]" * n + "\n"


DOCUMENTS = {
    "functions.py": nested_python_functions(1000),
    "functions.ts": nested_ts_functions(3000),
    "blocks.ts": nested_ts_blocks(5000),
    "expression.py": nested_python_expression(5000),
}


def depth_and_count(symbols: list[dict[str, Any]] | None) -> tuple[int, int]:
    deepest = count = 0
    stack = [(s, 1) for s in symbols or []]
    while stack:
        symbol, depth = stack.pop()
        deepest, count = max(deepest, depth), count + 1
        stack.extend((c, depth + 1) for c in symbol.get("children") or [])
    return deepest, count


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Wire, Path]]:
    tmp = tmp_path_factory.mktemp("deep")
    (tmp / "outside").mkdir()
    root = copy_sample(tmp)
    wire = Wire(tmp, tmp / "outside")
    wire.request("initialize", initialize_params(root))
    wire.notify("initialized", {})
    for name, text in DOCUMENTS.items():
        language = "python" if name.endswith(".py") else "typescript"
        wire.notify("textDocument/didOpen", {"textDocument": {"uri": (root / name).as_uri(), "languageId": language, "version": 1, "text": text}})
    yield wire, root
    wire.request("shutdown")
    wire.notify("exit")
    assert wire.close() == 0
    assert wire.error_popups() == []


@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_every_feature_answers_on_deep_nesting(served: tuple[Wire, Path], name: str) -> None:
    wire, root = served
    doc = {"uri": (root / name).as_uri()}
    last = len(DOCUMENTS[name].splitlines()) - 1
    at = {"textDocument": doc, "position": {"line": last // 2, "character": 2}}
    requests = [
        ("textDocument/documentSymbol", {"textDocument": doc}),
        ("textDocument/hover", at),
        ("textDocument/definition", at),
        ("textDocument/references", {**at, "context": {"includeDeclaration": True}}),
        ("textDocument/codeAction", {"textDocument": doc, "range": {"start": {"line": 0, "character": 0}, "end": {"line": last, "character": 0}}, "context": {"diagnostics": []}}),
        ("workspace/symbol", {"query": "g1"}),
    ]
    for method, params in requests:
        reply = wire.request(method, params, timeout=60)
        assert "result" in reply, (method, reply)


@pytest.mark.parametrize(("name", "symbols"), [("functions.py", 1000), ("functions.ts", 3000)])
def test_deep_outlines_keep_every_symbol_within_the_depth_cap(served: tuple[Wire, Path], name: str, symbols: int) -> None:
    wire, root = served
    reply = wire.request("textDocument/documentSymbol", {"textDocument": {"uri": (root / name).as_uri()}}, timeout=60)
    depth, count = depth_and_count(reply["result"])
    assert depth == MAX_SYMBOL_DEPTH + 1
    assert count >= min(symbols, 500)  # tree-sitter-python itself stops nesting defs near 500


def test_conversion_flattens_below_the_cap_in_order() -> None:
    def node(name: str, children: list[SymbolNode]) -> SymbolNode:
        return SymbolNode(name, "function", "", ((0, 0), (0, 1)), ((0, 0), (0, 1)), children)

    chain = node("leaf", [])
    for i in reversed(range(MAX_SYMBOL_DEPTH + 5)):
        chain = node(f"n{i}", [chain])
    top = document_symbols([chain, node("sibling", [])])
    assert [s.name for s in top] == ["n0", "sibling"]
    symbol = top[0]
    for i in range(1, MAX_SYMBOL_DEPTH):
        assert symbol.children is not None
        symbol = symbol.children[0]
        assert symbol.name == f"n{i}"
    assert symbol.children is not None
    assert [s.name for s in symbol.children] == [f"n{i}" for i in range(MAX_SYMBOL_DEPTH, MAX_SYMBOL_DEPTH + 5)] + ["leaf"]
    assert all(s.children is None for s in symbol.children)
