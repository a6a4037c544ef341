"""Conversions between analysis results and lsprotocol types, and between URIs and paths.

Must not know: how answers are computed.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp

from agentls.analysis.model import Location, SymbolNode

SYMBOL_KINDS: dict[str, lsp.SymbolKind] = {
    "function": lsp.SymbolKind.Function,
    "method": lsp.SymbolKind.Method,
    "class": lsp.SymbolKind.Class,
    "variable": lsp.SymbolKind.Variable,
    "constant": lsp.SymbolKind.Constant,
    "field": lsp.SymbolKind.Field,
    "attribute": lsp.SymbolKind.Field,
    "property": lsp.SymbolKind.Property,
    "parameter": lsp.SymbolKind.Variable,
    "interface": lsp.SymbolKind.Interface,
    "type": lsp.SymbolKind.TypeParameter,
    "enum": lsp.SymbolKind.Enum,
    "module": lsp.SymbolKind.Module,
    "import": lsp.SymbolKind.Module,
}


def uri_to_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def path_to_uri(path: Path) -> str:
    return path.as_uri()


def position(p: tuple[int, int]) -> lsp.Position:
    return lsp.Position(line=p[0], character=p[1])


def range_of(start: tuple[int, int], end: tuple[int, int]) -> lsp.Range:
    return lsp.Range(start=position(start), end=position(end))


def location(root: Path, loc: Location) -> lsp.Location:
    return lsp.Location(uri=path_to_uri(root / loc.path), range=range_of(loc.start, loc.end))


def symbol_kind(kind: str) -> lsp.SymbolKind:
    return SYMBOL_KINDS.get(kind, lsp.SymbolKind.Variable)


def document_symbol(node: SymbolNode) -> lsp.DocumentSymbol:
    return lsp.DocumentSymbol(
        name=node.name,
        kind=symbol_kind(node.kind),
        detail=node.detail or None,
        range=range_of(*node.range),
        selection_range=range_of(*node.selection),
        children=[document_symbol(c) for c in node.children] or None,
    )
