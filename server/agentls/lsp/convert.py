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
    """The local path of a `file:` URI; None for other schemes, other hosts, relative or
    NUL-holding paths (which no file can have)."""
    try:
        parsed = urlparse(uri)
    except ValueError:
        return None
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return None
    path = unquote(parsed.path)
    if "\x00" in path or not path.startswith("/"):
        return None
    return Path(path)


def path_to_uri(path: Path) -> str:
    return path.as_uri()


def position(p: tuple[int, int]) -> lsp.Position:
    return lsp.Position(line=p[0], character=p[1])


def range_of(start: tuple[int, int], end: tuple[int, int]) -> lsp.Range:
    return lsp.Range(start=position(start), end=position(end))


def location(root: Path, loc: Location) -> lsp.Location:
    return lsp.Location(uri=path_to_uri(root / loc.path), range=range_of(loc.start, loc.end))


def location_json(root: Path, loc: Location, uris: dict[str, str]) -> dict[str, object]:
    """A Location as the JSON the wire carries. Large answers (32k references to `x` in
    sympy) are sent as plain data: lsprotocol objects go through the converter one by one
    when serialized (≈15 µs each), plain dicts through json's C encoder. `uris` caches the
    URI per path within one answer."""
    uri = uris.get(loc.path)
    if uri is None:
        uri = uris[loc.path] = path_to_uri(root / loc.path)
    (sl, sc), (el, ec) = loc.start, loc.end
    return {"uri": uri, "range": {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}}


def symbol_kind(kind: str) -> lsp.SymbolKind:
    return SYMBOL_KINDS.get(kind, lsp.SymbolKind.Variable)


#: Deeper symbols are listed under their ancestor at this depth: serializers recurse.
MAX_SYMBOL_DEPTH = 48


def document_symbols(nodes: list[SymbolNode]) -> list[lsp.DocumentSymbol]:
    """The outline as DocumentSymbols, built without recursion. A symbol nested deeper
    than MAX_SYMBOL_DEPTH is listed, in order, among the children of its ancestor at that
    depth: the answer keeps every symbol and stays shallow enough to serialize."""
    roots: list[lsp.DocumentSymbol] = []
    built: list[tuple[lsp.DocumentSymbol, list[lsp.DocumentSymbol]]] = []
    stack: list[tuple[SymbolNode, list[lsp.DocumentSymbol], int]] = [(n, roots, 1) for n in reversed(nodes)]
    while stack:
        node, into, depth = stack.pop()
        symbol = lsp.DocumentSymbol(
            name=node.name,
            kind=symbol_kind(node.kind),
            detail=node.detail or None,
            range=range_of(*node.range),
            selection_range=range_of(*node.selection),
        )
        children: list[lsp.DocumentSymbol] = []
        into.append(symbol)
        built.append((symbol, children))
        below = children if depth <= MAX_SYMBOL_DEPTH else into
        stack.extend((c, below, min(depth + 1, MAX_SYMBOL_DEPTH + 1)) for c in reversed(node.children))
    for symbol, children in built:
        symbol.children = children or None
    return roots
