"""Import and export records from tags-query matches: one `Import` per imported binding
(with the local `Symbol` it binds, kind "import"), re-exports, and TS export lists.
Must not know: tree-sitter beyond node byte offsets, resolution, LSP.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from agentls.analysis.model import Export, Import, Symbol

_SPACES = re.compile(r"\s+")


def _text(data: bytes, node: Any) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def import_records(
    data: bytes,
    import_caps: list[dict[str, list[Any]]],
    export_caps: list[dict[str, list[Any]]],
    innermost: Callable[[int], int],
    symbols: list[Symbol],
    seen: set[tuple[int, bool]],
) -> tuple[list[Import], list[Export]]:
    imports: list[Import] = []
    for caps in import_caps:
        reexport = "reexport" in caps
        prefix = "reexport." if reexport else "import."
        stmt = caps["reexport" if reexport else "import"][0]
        frm = caps.get(prefix + "from")
        module_node = caps.get(prefix + "module")
        source = frm or module_node
        module = _SPACES.sub("", _text(data, source[0])) if source else ""
        name_node = caps.get(prefix + "name")
        alias_node = caps.get(prefix + "alias")
        scope = innermost(stmt.start_byte)
        imp = Import(module=module, name=None, alias=None, start=stmt.start_byte, end=stmt.end_byte, scope=scope, reexport=reexport)
        bind: Any = None
        if prefix + "star" in caps:
            imp.star = True
        elif prefix + "default" in caps:
            imp.name, bind = "default", caps[prefix + "default"][0]
            imp.alias = _text(data, bind)
        elif prefix + "namespace" in caps:
            bind = caps[prefix + "namespace"][0]
            imp.alias = _text(data, bind)
        elif name_node:
            imp.name = _SPACES.sub("", _text(data, name_node[0]))
            bind = alias_node[0] if alias_node else name_node[0]
            imp.alias = _text(data, alias_node[0]) if alias_node else imp.name
        elif module_node:  # python `import a.b.c` binds `a`; `import a.b as x` binds x
            bind = alias_node[0] if alias_node else module_node[0]
            imp.alias = _text(data, alias_node[0]) if alias_node else module.split(".")[0]
        if bind is not None and not reexport:
            sel = bind.start_byte
            if (sel, False) not in seen and imp.alias:
                seen.add((sel, False))
                imp.symbol = len(symbols)
                symbols.append(
                    Symbol(
                        name=imp.alias,
                        kind="import",
                        start=stmt.start_byte,
                        end=stmt.end_byte,
                        sel_start=sel,
                        sel_end=sel + len(imp.alias.encode("utf-8")),
                        scope=scope,
                        target=len(imports),
                    )
                )
        imports.append(imp)
    exports: list[Export] = []
    for caps in export_caps:
        local = caps.get("export.local") or caps.get("export.name")
        name = caps.get("export.name") or local
        if local and name:
            exports.append(Export(name=_text(data, name[0]), local=_text(data, local[0])))
    return imports, exports
