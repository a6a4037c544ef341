"""The data the analysis layer keeps: per-file extracted indexes, and the answers it gives.

Positions inside a FileIndex are UTF-8 byte offsets; answers (Location) carry LSP-style
0-based (line, UTF-16 character) positions. These are plain dataclasses: picklable for
the worker processes and the on-disk cache. Must not know: tree-sitter, LSP, tools.
"""

from __future__ import annotations

import contextlib
from array import array
from collections import deque
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Literal, NamedTuple

# Scope kinds
MODULE, CLASS, FUNCTION, BLOCK = "module", "class", "function", "block"

# Receiver markers in FileIndex.occ_recv
PLAIN = -1  # a bare name
COMPLEX = -2  # a member whose receiver is not a dotted name (call, subscript, ...)
DOC_PARAM = -3  # `@param name` in a doc comment: a parameter of the next definition
KEYWORD = -16  # and below: a keyword argument's name; KEYWORD - recv indexes the callee's name


def keyword_callee(recv: int) -> int:
    """The names index of the called dotted name of a keyword argument's occurrence, or -1."""
    return KEYWORD - recv if recv <= KEYWORD else -1


def is_member(recv: int) -> bool:
    """Whether an occurrence's receiver marker says `something.name`."""
    return recv >= 0 or recv == COMPLEX


@dataclass(slots=True)
class Scope:
    kind: str
    start: int
    end: int
    parent: int  # -1 for the module scope
    owner: int = -1  # the symbol (class / function) that opens this scope


@dataclass(slots=True)
class Symbol:
    name: str
    kind: str  # function | method | class | variable | parameter | attribute | import | interface | type | enum | module | constant | property
    start: int  # whole definition node
    end: int
    sel_start: int  # the name
    sel_end: int
    scope: int  # the scope the name binds in
    parent: int = -1  # enclosing symbol (for the outline)
    detail_end: int = -1  # the signature is source[start:detail_end] (-1: first line)
    doc_start: int = -1  # docstring / JSDoc source range (-1: none)
    doc_end: int = -1
    bases: tuple[str, ...] = ()  # classes: base expressions as text
    value: str = ""  # variables: dotted name of a `Foo(...)` / `new Foo()` value or type annotation
    exported: bool = False  # TS: `export` on the declaration
    target: int = -1  # imports: index into FileIndex.imports


@dataclass(slots=True)
class Import:
    """One imported binding (or a star import / re-export)."""

    module: str  # as written: "os.path", ".pkg", "./util"
    name: str | None  # imported member; None = the module itself
    alias: str | None  # local name bound; None for star / re-exports without a local
    start: int
    end: int
    scope: int
    star: bool = False
    reexport: bool = False  # TS `export ... from` / `export *`
    symbol: int = -1  # the Symbol index of the local binding (kind "import")


@dataclass(slots=True)
class Export:
    """TS: an exported name bound to a local name (re-exports live in imports)."""

    name: str
    local: str


class Occurrences(NamedTuple):
    """Every identifier use of a file: names and three parallel arrays sorted by offset."""

    names: list[str]
    name: array[int]  # index into names
    start: array[int]  # byte offset
    recv: array[int]  # names index of the dotted receiver, PLAIN or COMPLEX

    def text(self, i: int) -> str:
        return self.names[self.name[i]]


_EAGER = ("path", "language", "size", "mtime_ns", "names", "ascii_lines")
_LAZY = (
    "has_errors", "scopes", "symbols", "imports", "exports",
    "occ_name", "occ_start", "occ_recv", "errors",
)
_KINDS_NOT_DEFS = ("import", "parameter")
_REPACKABLE = ("has_errors", "scopes", "symbols", "exports", "occ_name", "occ_start", "occ_recv", "errors")
#: Files kept unpacked at once, oldest unpacked first out (their blobs stay): every file of
#: sympy unpacked costs 100 MB over its blobs; a search touching more files than this
#: unpacks some again (~0.3 ms a file).
UNPACKED_KEPT = 800
_UNPACKED: deque[FileIndex] = deque()
UNPACKS = 0  # files unpacked so far (the index freezes them out of the cyclic GC's sight)


class FileIndex:
    """Everything extracted from one file. Picklable compactly: the bulk travels as one
    blob that is unpacked on first use, so worker results and the disk cache load fast."""

    __slots__ = (*_EAGER, *_LAZY, "_blob", "_top")
    path: str  # relative POSIX path
    language: str
    size: int
    mtime_ns: int
    has_errors: bool
    scopes: list[Scope]
    symbols: list[Symbol]
    imports: list[Import]
    exports: list[Export]
    # The occurrence table is filled on first use (see IndexState.ensure_occurrences):
    names: list[str] | None  # distinct identifier texts
    occ_name: array[int] | None  # per occurrence: index into names
    occ_start: array[int] | None  # per occurrence: byte offset (sorted)
    occ_recv: array[int] | None  # per occurrence: names index of the dotted receiver, PLAIN or COMPLEX
    errors: list[tuple[int, int, str]]  # (start, end, message)
    # The line starts of the indexed content when it is all ASCII (byte column = UTF-16
    # column), else None: answers convert offsets with it without reading the file.
    ascii_lines: array[int] | None

    def __init__(self, **fields: Any) -> None:
        for k in (*_EAGER, *_LAZY):
            setattr(self, k, fields[k])
        self._blob: bytes | None = None
        self._top: list[tuple[str, int]] | None = None

    @property
    def has_occurrences(self) -> bool:
        """Whether the occurrence table is filled (read without unpacking the blob: the
        names travel outside it, and are set together with the table)."""
        return self.names is not None

    def top_definitions(self) -> list[tuple[str, int]]:
        """(name, symbol index) of the module- and class-level definitions (imports and
        parameters left out): what name-matched fallbacks and workspace symbols search.
        Travels outside the blob, so a workspace-wide map of them unpacks nothing."""
        if self._top is None:
            scopes = self.scopes
            self._top = [
                (sym.name, i)
                for i, sym in enumerate(self.symbols)
                if sym.kind not in _KINDS_NOT_DEFS and scopes[sym.scope].kind in (MODULE, CLASS)
            ]
        return self._top

    def table(self) -> Occurrences:
        """The occurrence table; only valid once filled (IndexState.ensure_occurrences)."""
        if self.names is None or self.occ_name is None or self.occ_start is None or self.occ_recv is None:
            raise LookupError(f"{self.path}: occurrence table not filled")
        return Occurrences(self.names, self.occ_name, self.occ_start, self.occ_recv)

    def __getattr__(self, name: str) -> Any:
        if name in _LAZY and object.__getattribute__(self, "_blob") is not None:
            self._unpack()
            return object.__getattribute__(self, name)
        raise AttributeError(name)

    def _unpack(self) -> None:
        import pickle

        (has_errors, scopes, symbols, _imports, exports, occ_name, occ_start, occ_recv, errors) = pickle.loads(self._blob)  # type: ignore[arg-type]
        self.has_errors, self.errors = has_errors, errors
        complete = occ_start is not None  # the blob holds everything: it can be unpacked again
        try:  # a table filled before the first unpack (has_occurrences unpacks nothing) stays
            object.__getattribute__(self, "occ_start")
            complete = False
        except AttributeError:
            self.occ_name, self.occ_start, self.occ_recv = occ_name, occ_start, occ_recv
        self.scopes = [Scope(*r) for r in scopes]
        self.symbols = [Symbol(*r) for r in symbols]
        self.exports = [Export(*r) for r in exports]
        global UNPACKS
        UNPACKS += 1
        if not complete:
            self._blob = None
            return
        _UNPACKED.append(self)
        while len(_UNPACKED) > UNPACKED_KEPT:
            _UNPACKED.popleft()._repack()

    def _repack(self) -> None:
        """Back to the blob alone (kept since unpacking): the next use unpacks again."""
        if object.__getattribute__(self, "_blob") is None:
            return
        for name in _REPACKABLE:
            with contextlib.suppress(AttributeError):
                object.__delattr__(self, name)

    def _pack(self) -> bytes:
        import pickle

        if self._blob is not None:
            return self._blob

        state = (
            self.has_errors, _rows(self.scopes), _rows(self.symbols), _rows(self.imports),
            _rows(self.exports), self.occ_name, self.occ_start, self.occ_recv, self.errors,
        )
        return pickle.dumps(state, protocol=5)

    def __reduce__(self) -> tuple[Any, ...]:
        # imports, names and top-level definitions travel outside the blob: the dependency
        # graph, the word map and the definitions by name need only them
        imports = _rows(self.imports)
        top = self.top_definitions()
        return (_lazy_file_index, (self.path, self.language, self.size, self.mtime_ns, imports, self.names, top, self.ascii_lines, self._pack()))


_FIELDS: dict[type, Any] = {}


def _rows(items: list[Any]) -> list[tuple[Any, ...]]:
    """Slotted records as tuples of their fields in slot order (a C-level getter per class:
    packing sympy's 1.5k files field by field cost 0.37 s of the cold build's workers)."""
    if not items:
        return []
    cls = type(items[0])
    get = _FIELDS.get(cls)
    if get is None:
        get = _FIELDS[cls] = attrgetter(*cls.__slots__)
    return list(map(get, items))


def _lazy_file_index(
    path: str, language: str, size: int, mtime_ns: int, imports: list[tuple[Any, ...]],
    names: list[str] | None, top: list[tuple[str, int]], ascii_lines: array[int] | None, blob: bytes,
) -> FileIndex:
    fi = FileIndex.__new__(FileIndex)
    fi.path, fi.language, fi.size, fi.mtime_ns, fi.names, fi.ascii_lines = path, language, size, mtime_ns, names, ascii_lines
    fi.imports = [Import(*r) for r in imports]
    fi._top = top
    fi._blob = blob
    return fi


Precision = Literal["resolved", "fallback", "none"]


@dataclass(frozen=True, slots=True)
class Location:
    path: str
    start: tuple[int, int]  # (line, UTF-16 character)
    end: tuple[int, int]
    name: str = ""
    kind: str = ""
    container: str = ""


@dataclass(slots=True)
class Resolution:
    """An answer plus how it was reached: resolved by scope/import rules, or ranked name matches."""

    locations: list[Location]
    how: Precision
    name: str = ""
    note: str = ""


@dataclass(slots=True)
class HoverInfo:
    name: str
    kind: str
    signature: str
    doc: str
    location: Location
    how: Precision


@dataclass(slots=True)
class SymbolNode:
    """documentSymbol: a hierarchical outline entry."""

    name: str
    kind: str
    detail: str
    range: tuple[tuple[int, int], tuple[int, int]]
    selection: tuple[tuple[int, int], tuple[int, int]]
    children: list[SymbolNode] = field(default_factory=list)
