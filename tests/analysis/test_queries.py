"""The tree-sitter queries of every language, checked against caret-annotated fixtures.

A fixture under `fixtures/<language>/` is ordinary source with expectation comments in the
tree-sitter tags-test style: a comment line whose first character after `#` or `//` and
spaces is `^` refers to the nearest line above it that is not itself such a comment, at the
byte column of the caret (fixtures are ASCII but for one line per language, so byte columns
differ from character columns there). What follows the caret is one expectation:

    definition.<kind>      a symbol whose name range covers the column has that kind
    import                 that symbol is an import binding (kind "import")
    import k=v ...         ... and its Import record has these fields (module, name, alias)
    no-definition          no symbol's name covers the column
    reference              an occurrence (a name use or definition site) covers the column
    no-reference           no occurrence covers the column (a @skip)
    member <receiver>      an occurrence covers the column and its receiver text is <receiver>
                           (`*`: a receiver that is not a dotted name, like `a[0]`)
    keyword <callee>       an occurrence covers the column: a keyword argument's name in a call
                           of the dotted name <callee>
    binds <scope kind>     the symbol there binds in a scope of that kind (module, class,
                           function, block)
    exported               the symbol there is marked exported
    doc <text>             the symbol there has exactly this (one-line) documentation
    no-doc                 the symbol there has no documentation
    value <Dotted>         the symbol there has that class hint (`x = Foo()`, `x: Foo`)
    bases <A,B>            the class there has exactly these base expressions
    record k=v ...         an Import record whose statement covers the column has these fields
                           (module, name, alias, star, reexport; `None`, `true`, `false`)
    export <name>=<local>  the file exports <name> bound to <local>

An expectation may end in `[extract.py bug: why]`: it fails because of extract.py, not the
queries, and is run as a strict xfail (remove the marker once extract.py is fixed).
Test ids read `<language>/<file>:<line>:<byte column>:<expectation>` with 1-based lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from agentls.analysis.docs import doc_of
from agentls.analysis.grammar import Grammar, language_for, language_specs, parse_file
from agentls.analysis.model import COMPLEX, PLAIN, FileIndex, Symbol, keyword_callee
from agentls.workspace import LineIndex

FIXTURES = Path(__file__).parent / "fixtures"
LANGUAGES = ("python", "typescript", "tsx", "javascript")
_CARET = re.compile(rb"^\s*(?:#|//)\s*\^\s*(\S.*?)\s*$")
# capture names of grammars/README.md; `_x` captures only feed predicates
_KINDS = "function class variable constant parameter attribute interface type type_parameter enum property method module"
_CAPTURES = {f"definition.{k}" for k in _KINDS.split()} | {
    "name", "params", "returns", "body", "owns", "receiver", "member.implicit", "bases", "bases.owner",
    "scope.function", "scope.class", "scope.block", "global", "nonlocal",
    "import", "import.from", "import.module", "import.name", "import.alias", "import.star",
    "import.default", "import.namespace",
    "reexport", "reexport.from", "reexport.name", "reexport.alias", "reexport.star", "reexport.namespace",
    "export.name", "export.local", "exported", "hint.target", "hint.value", "hint.call",
    "hint.callee", "hint.new", "hint.args", "hint.arg", "hint.fn", "hint.param", "hint.from", "hint.array",
    "hint.type", "hint.alias", "hint.return", "hint.decorator", "hint.items", "hint.property", "doc", "doc.owner",
    "reference", "member", "skip", "comment", "keyed", "keyed.callee", "keyed.new",
    "keyword.name", "keyword.callee", "keyword.args",
}  # fmt: skip


@dataclass(frozen=True)
class Expectation:
    path: Path
    line: int  # 0-based line of the annotated source line
    column: int  # byte column
    text: str

    @property
    def id(self) -> str:
        rel = self.path.relative_to(FIXTURES).as_posix()
        return f"{rel}:{self.line + 1}:{self.column}:{self.text}"


def _expectations(path: Path) -> list[Expectation]:
    out: list[Expectation] = []
    target = -1
    for i, line in enumerate(path.read_bytes().split(b"\n")):
        m = _CARET.match(line)
        if m is None:
            target = i
            continue
        assert target >= 0, f"{path}:{i + 1}: a caret comment with no line above it"
        out.append(Expectation(path, target, line.index(b"^"), m.group(1).decode("ascii")))
    return out


def _fixture_files() -> list[Path]:
    return sorted(p for lang in LANGUAGES for p in (FIXTURES / lang).iterdir() if p.is_file())


ALL = [e for path in _fixture_files() for e in _expectations(path)]

_KNOWN_BUG = re.compile(r"^(.*?)\s*\[extract\.py bug: (.+)\]$")


def _params(exps: list[Expectation]) -> list[object]:
    """An expectation ending in `[extract.py bug: why]` fails because of extract.py, not the
    queries: it is a strict xfail, so it must lose the marker once extract.py is fixed."""
    out: list[object] = []
    for e in exps:
        bug = _KNOWN_BUG.match(e.text)
        if bug is None:
            out.append(pytest.param(e, id=e.id))
            continue
        plain = Expectation(e.path, e.line, e.column, bug.group(1))
        mark = pytest.mark.xfail(reason=bug.group(2), strict=True)
        out.append(pytest.param(plain, id=plain.id, marks=mark))
    return out


@cache
def _index(path: Path) -> tuple[FileIndex, bytes]:
    data = path.read_bytes()
    result = parse_file(path.relative_to(FIXTURES).as_posix(), data, occurrences=True)
    assert result is not None, f"{path}: no language for this suffix"
    fi = result[0]
    assert not fi.errors, f"{path}: the fixture has syntax errors {fi.errors[:3]}"
    return fi, data


def _offset(fi: FileIndex, exp: Expectation) -> int:
    return LineIndex(_index(FIXTURES / fi.path)[1]).starts[exp.line] + exp.column


def _symbols_at(fi: FileIndex, offset: int) -> list[Symbol]:
    return [s for s in fi.symbols if s.sel_start <= offset < s.sel_end]


def _symbol_at(fi: FileIndex, offset: int, exp: Expectation) -> Symbol:
    found = _symbols_at(fi, offset)
    assert found, f"no symbol name covers {exp.id}"
    if len(found) > 1 and len({s.name for s in found}) == 1:  # a TS parameter property is
        wanted = exp.text.split()[0].removeprefix("definition.")  # a parameter and a member
        found = ([s for s in found if s.kind == wanted] or [s for s in found if s.kind == "parameter"])[:1]
    assert len(found) == 1, f"several symbols at {exp.id}: {[(s.name, s.kind) for s in found]}"
    return found[0]


def _occurrence_at(fi: FileIndex, offset: int) -> int | None:
    for i, start in enumerate(fi.table().start):
        if start <= offset < start + len(fi.table().text(i).encode("utf-8")):
            return i
    return None


def _fields(args: list[str]) -> dict[str, object]:
    values = {"None": None, "true": True, "false": False}
    out: dict[str, object] = {}
    for arg in args:
        key, _, value = arg.partition("=")
        out[key] = values.get(value, value)
    return out


@pytest.mark.parametrize("exp", _params(ALL))
def test_expectation(exp: Expectation) -> None:
    fi, data = _index(exp.path)
    offset = _offset(fi, exp)
    what, *args = exp.text.split()
    if what.startswith("definition.") or what == "import":
        sym = _symbol_at(fi, offset, exp)
        kind = "import" if what == "import" else what.removeprefix("definition.")
        assert sym.kind == kind, f"{sym.name!r} is a {sym.kind}"
        if args:
            imp = fi.imports[sym.target]
            for key, value in _fields(args).items():
                assert getattr(imp, key) == value, f"{key} of {imp}"
    elif what == "no-definition":
        assert not _symbols_at(fi, offset), [(s.name, s.kind) for s in _symbols_at(fi, offset)]
    elif what in ("reference", "no-reference", "member", "keyword"):
        occ = _occurrence_at(fi, offset)
        if what == "no-reference":
            assert occ is None, f"occurrence {fi.table().text(occ)!r} at {exp.id}"
            return
        assert occ is not None, f"no occurrence covers {exp.id}"
        if what == "keyword":
            callee = keyword_callee(fi.table().recv[occ])
            assert callee >= 0 and fi.table().names[callee] == args[0], "not a keyword argument"
        if what == "member":
            recv = fi.table().recv[occ]
            assert recv != PLAIN, "a bare name, not a member"
            if args[0] == "*":
                assert recv == COMPLEX
            else:
                assert recv >= 0 and fi.table().names[recv] == args[0]
    elif what == "binds":
        assert fi.scopes[_symbol_at(fi, offset, exp).scope].kind == args[0]
    elif what == "exported":
        assert _symbol_at(fi, offset, exp).exported
    elif what == "no-doc":
        assert doc_of(data, _symbol_at(fi, offset, exp)) == ""
    elif what == "doc":
        assert doc_of(data, _symbol_at(fi, offset, exp)).strip() == " ".join(args)
    elif what == "value":
        assert _symbol_at(fi, offset, exp).value == args[0]
    elif what == "bases":
        assert _symbol_at(fi, offset, exp).bases == tuple(args[0].split(","))
    elif what == "record":
        wanted = _fields(args)
        records = [i for i in fi.imports if i.start <= offset < i.end]
        assert any(all(getattr(i, k) == v for k, v in wanted.items()) for i in records), records
    elif what == "export":
        name, _, local = args[0].partition("=")
        assert any((e.name, e.local) == (name, local) for e in fi.exports), fi.exports
    else:
        pytest.fail(f"unknown expectation {exp.text!r} at {exp.id}")


def test_every_language_has_annotated_fixtures() -> None:
    assert set(language_specs()) == set(LANGUAGES)
    for lang in LANGUAGES:
        assert any(e.path.parent.name == lang for e in ALL), lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_fixture_has_a_non_ascii_line(lang: str) -> None:
    """Byte columns and character columns differ for at least one expectation."""
    exps = [e for e in ALL if e.path.parent.name == lang]
    assert any(not e.path.read_bytes().split(b"\n")[e.line][: e.column].isascii() for e in exps)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_queries_compile_and_use_schema_captures(lang: str) -> None:
    spec = language_specs()[lang]
    Grammar(spec)  # raises on a pattern the grammar cannot match
    for query in ("tags", "references"):
        text = re.sub(r'"(?:[^"\\]|\\.)*"|;[^\n]*', "", spec.query_text(query))
        used = set(re.findall(r"@([\w.]+)", text))
        assert {c for c in used if not c.startswith("_")} <= _CAPTURES, used - _CAPTURES


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("a.py", "python"), ("pkg/a.pyi", "python"),
        ("a.ts", "typescript"), ("types.d.ts", "typescript"), ("a.mts", "typescript"), ("a.cts", "typescript"),
        ("a.tsx", "tsx"), ("A.TSX", "tsx"),
        ("a.js", "javascript"), ("a.mjs", "javascript"), ("a.cjs", "javascript"), ("a.jsx", "javascript"),
    ],
)  # fmt: skip
def test_language_for(path: str, lang: str) -> None:
    spec = language_for(path)
    assert spec is not None and spec.name == lang


@pytest.mark.parametrize("path", ["a.txt", "Makefile", "a.json", "a.ts.bak"])
def test_language_for_unknown(path: str) -> None:
    assert language_for(path) is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_language_json(lang: str) -> None:
    spec = language_specs()[lang]
    assert spec.folder.name == lang
    assert spec.module_system in ("python", "es")
    assert spec.self_names
    for ext in spec.extensions:
        found = language_for(f"dir/file{ext}")
        assert found is not None and found.name == lang


def test_tsx_shares_the_typescript_tags() -> None:
    """The TSX grammar has TypeScript's node names, so it uses TypeScript's tags.scm."""
    specs = language_specs()
    assert specs["tsx"].query_paths("tags") == specs["typescript"].query_paths("tags")
    tsx, ts = specs["tsx"].query_paths("references"), specs["typescript"].query_paths("references")
    assert tsx != ts and tsx[: len(ts)] == ts  # TypeScript's uses, then JSX's own skips
