"""The tree-sitter adapter: the only module that imports tree_sitter.

Loads each language from `grammars/<lang>/language.json` (which grammar package, which
file suffixes, a few resolution facts) and its queries (`tags.scm`, `references.scm`),
parses, re-parses incrementally, and hands query results to `extract`.
Must not know: how answers are resolved, LSP, tools.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import threading
from array import array
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from agentls.analysis import extract, occurrences
from agentls.analysis.model import FileIndex
from agentls.workspace.documents import ByteEdit

GRAMMARS_ENV = "AGENTLS_GRAMMARS"


def grammars_dir() -> Path:
    """Where the `grammars/` folder is: env override, the checkout, or the installed package."""
    env = os.environ.get(GRAMMARS_ENV)
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    for candidate in (here.parents[3] / "grammars", here.parents[1] / "grammars"):
        if (candidate / "python" / "language.json").is_file():
            return candidate
    raise FileNotFoundError("agentls: cannot find the grammars/ folder")


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    package: str
    function: str
    extensions: tuple[str, ...]
    module_system: str
    class_body_sees_members: bool
    self_names: frozenset[str]
    hidden_prefix: str
    folder: Path
    builtins: frozenset[str] = frozenset()
    module_names: frozenset[str] = frozenset()
    doc_links: re.Pattern[bytes] | None = None
    doc_params: re.Pattern[bytes] | None = None
    options: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def query_paths(self, kind: str) -> tuple[Path, ...]:
        """`tags` or `references`: the language's own file, or the files it shares and adds
        to, in order (language.json `"tags": "../typescript/tags.scm"`, `"references":
        ["../typescript/references.scm", "jsx-references.scm"]`)."""
        named = self.options.get(kind, f"{kind}.scm")
        return tuple((self.folder / n).resolve() for n in ([named] if isinstance(named, str) else named))

    def query_text(self, kind: str) -> str:
        return "\n".join(path.read_text("utf-8") for path in self.query_paths(kind))


def _words(path: Path) -> frozenset[str]:
    lines = (ln.split("#", 1)[0] for ln in path.read_text("utf-8").splitlines())
    return frozenset(w for ln in lines for w in ln.split())


@cache
def language_specs() -> dict[str, LanguageSpec]:
    specs: dict[str, LanguageSpec] = {}
    for meta in sorted(grammars_dir().glob("*/language.json")):
        raw = json.loads(meta.read_text("utf-8"))
        specs[raw["name"]] = LanguageSpec(
            name=raw["name"],
            package=raw["grammar"]["package"],
            function=raw["grammar"]["function"],
            extensions=tuple(raw["extensions"]),
            module_system=raw["module_system"],
            class_body_sees_members=bool(raw.get("class_body_sees_members", False)),
            self_names=frozenset(raw.get("self_names", ())),
            hidden_prefix=raw.get("hidden_prefix", ""),
            folder=meta.parent,
            builtins=_words(meta.parent / raw["builtins"]) if raw.get("builtins") else frozenset(),
            module_names=frozenset(raw.get("module_names", ())),
            doc_links=re.compile(raw["doc_links"].encode()) if raw.get("doc_links") else None,
            doc_params=re.compile(raw["doc_params"].encode()) if raw.get("doc_params") else None,
            options=raw,
        )
    return specs


@cache
def _suffix_map() -> dict[str, str]:
    return {ext: spec.name for spec in language_specs().values() for ext in spec.extensions}


@lru_cache(maxsize=1 << 16)
def language_for(path: str) -> LanguageSpec | None:
    """The language of a path by its suffix (`.d.ts` counts as TypeScript)."""
    suffix = os.path.splitext(path)[1].lower()
    name = _suffix_map().get(suffix)
    return language_specs()[name] if name else None


def suffixes() -> tuple[str, ...]:
    return tuple(_suffix_map())


def _error_message(node: Node, data: bytes, missing: bool) -> str:
    if missing:
        return f"missing {node.type!r}"
    near = data[node.start_byte : min(node.end_byte, node.start_byte + 30)]
    return f"syntax error near {near.decode('utf-8', 'replace').split(chr(10))[0]!r}"


class Grammar:
    """Parser and compiled queries of one language (one per thread: parsers are not shared)."""

    def __init__(self, spec: LanguageSpec) -> None:
        self.spec = spec
        module = importlib.import_module(spec.package)
        self.language = Language(getattr(module, spec.function)())
        self.parser = Parser(self.language)
        self.tags = Query(self.language, spec.query_text("tags"))
        self.refs = Query(self.language, spec.query_text("references"))
        self.errors = Query(self.language, "(ERROR) @error (MISSING) @missing")

    def parse(self, data: bytes, old_tree: Tree | None = None) -> Tree:
        return self.parser.parse(data, old_tree) if old_tree is not None else self.parser.parse(data)

    def extract(self, path: str, data: bytes, tree: Tree, mtime_ns: int = 0, occurrences: bool = False) -> FileIndex:
        root = tree.root_node
        matches = QueryCursor(self.tags).matches(root)
        refs = QueryCursor(self.refs).captures(root) if occurrences else None
        errors = self.syntax_errors(tree, data) if root.has_error else []
        return extract.build(self.spec, path, data, matches, refs, errors, mtime_ns)

    @staticmethod
    def enclosing(tree: Tree, start: int, end: int) -> list[tuple[int, int]]:
        """Byte ranges of the named nodes holding [start, end), smallest first, root excluded."""
        node = tree.root_node.named_descendant_for_byte_range(start, end)
        out: list[tuple[int, int]] = []
        while node is not None and node.parent is not None:
            if not node.has_error:
                out.append((node.start_byte, node.end_byte))
            node = node.parent
        return out

    def region(self, tree: Tree, start: int, end: int, occurrences: bool) -> tuple[list[Any], dict[str, list[Any]] | None] | None:
        """Query results for the node spanning exactly [start, end) — tags matches that
        belong to it (none of their nodes encloses it), and its occurrences; None when no
        single node spans that range any more (the edit changed the structure)."""
        node = tree.root_node.descendant_for_byte_range(start, end)
        if node is None or node.start_byte != start or node.end_byte != end or node.has_error:
            return None
        cursor = QueryCursor(self.tags)
        cursor.set_byte_range(start, end)
        matches = []
        for pattern, caps in cursor.matches(tree.root_node):
            nodes = [n for group in caps.values() for n in group]
            inside = [n for n in nodes if n.start_byte >= start and n.end_byte <= end]
            if inside and all(n.end_byte <= start or (n.start_byte >= start and n.end_byte <= end) for n in nodes):
                matches.append((pattern, caps))
        refs = None
        if occurrences:
            rcursor = QueryCursor(self.refs)
            rcursor.set_byte_range(start, end)
            refs = {k: [n for n in v if n.start_byte >= start and n.end_byte <= end] for k, v in rcursor.captures(tree.root_node).items()}
        return matches, refs

    def occurrences(self, data: bytes, tree: Tree) -> tuple[Any, ...]:
        return occurrences.occurrences(data, QueryCursor(self.refs).captures(tree.root_node), self.spec)

    def syntax_errors(self, tree: Tree, data: bytes, limit: int = 20) -> list[tuple[int, int, str]]:
        out: list[tuple[int, int, str]] = []
        caps = QueryCursor(self.errors).captures(tree.root_node)
        for kind, nodes in caps.items():
            for node in nodes:
                out.append((node.start_byte, node.end_byte, _error_message(node, data, kind == "missing")))
        out.sort()
        return out[:limit]

    @staticmethod
    def error_nodes(tree: Tree, data: bytes, limit: int = 1000) -> list[tuple[int, int, str]]:
        """The ERROR and MISSING nodes `syntax_errors` finds, found by descending only into
        nodes that hold an error: the cost follows the errors, not the size of the file
        (a broken line in a 10k-line buffer is a walk down one branch). Sorted, at most
        `limit`, in document order of discovery."""
        out: list[tuple[int, int, str]] = []
        stack = [tree.root_node] if tree.root_node.has_error else []
        while stack and len(out) < limit:
            node = stack.pop()
            if node.is_missing or node.is_error:
                out.append((node.start_byte, node.end_byte, _error_message(node, data, node.is_missing)))
            stack.extend(child for child in reversed(node.children) if child.has_error)
        out.sort()
        return out

    def outline(self, tree: Tree, data: bytes, max_depth: int, max_nodes: int = 400) -> dict[str, Any]:
        """A compact, depth-limited view of the syntax tree (named nodes only)."""
        count = 0

        def visit(node: Node, depth: int) -> dict[str, Any]:
            nonlocal count
            count += 1
            item: dict[str, Any] = {
                "type": node.type,
                "start": [node.start_point.row, node.start_point.column],
                "end": [node.end_point.row, node.end_point.column],
            }
            if node.named_child_count == 0 or depth >= max_depth:
                text = data[node.start_byte : node.end_byte].decode("utf-8", "replace")
                item["text"] = text if len(text) <= 80 else text[:77] + "..."
            if depth < max_depth and node.named_child_count:
                children = []
                for child in node.named_children:
                    if count >= max_nodes:
                        item["truncated"] = True
                        break
                    children.append(visit(child, depth + 1))
                item["children"] = children
            return item

        return visit(tree.root_node, 0)


_local = threading.local()


def grammar(spec: LanguageSpec) -> Grammar:
    cache_: dict[str, Grammar] | None = getattr(_local, "grammars", None)
    if cache_ is None:
        cache_ = _local.grammars = {}
    g = cache_.get(spec.name)
    if g is None:
        g = cache_[spec.name] = Grammar(spec)
    return g


def apply_edits(tree: Tree, edits: list[ByteEdit]) -> None:
    for e in edits:
        tree.edit(e.start_byte, e.old_end_byte, e.new_end_byte, e.start_point, e.old_end_point, e.new_end_point)


def parse_file(
    path: str, data: bytes, mtime_ns: int = 0, old_tree: Tree | None = None, occurrences: bool = False
) -> tuple[FileIndex, Tree] | None:
    """Parse and extract one file; None when its language is not analysed. The occurrence
    table is left empty unless asked for (it is filled on first use)."""
    spec = language_for(path)
    if spec is None:
        return None
    g = grammar(spec)
    tree = g.parse(data, old_tree)
    return g.extract(path, data, tree, mtime_ns, occurrences), tree


def splice_edit(path: str, data: bytes, edited_tree: Tree, old: FileIndex, edits: list[Any], mtime_ns: int) -> tuple[FileIndex, Tree] | None:
    """Re-parse an edited file (its old tree already edited) and re-extract only the
    function the edit is in (splice.py); None when a full extraction is needed."""
    from agentls.analysis.splice import splice

    spec = language_for(path)
    if spec is None:
        return None
    g = grammar(spec)
    tree = g.parse(data, edited_tree)
    changed = [(r.start_byte, r.end_byte) for r in edited_tree.changed_ranges(tree)]
    fi = splice(old, data, tree, edits, g, mtime_ns, changed)
    return (fi, tree) if fi is not None else None


def fill_occurrences(fi: FileIndex, data: bytes, tree: Tree | None = None) -> None:
    """Compute a FileIndex's occurrence table from its source (and tree, when kept)."""
    spec = language_for(fi.path)
    if spec is None:
        fi.names, fi.occ_name, fi.occ_start, fi.occ_recv = [], array("I"), array("I"), array("i")
        return
    g = grammar(spec)
    if tree is None:
        tree = g.parse(data)
    fi.names, fi.occ_name, fi.occ_start, fi.occ_recv = g.occurrences(data, tree)
