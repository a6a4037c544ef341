"""Checks on one recorded Neovim request: each factory returns a `Check(session, record)`
that raises AssertionError saying what the editor got and what it should have got.

Records are the raw LSP JSON nvim received (see client.lua). Expected positions are found
by searching text in the session's files, so a check names what it points at.
Must not know: the plan's order or the server's internals.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.nvim.session import Session

Check = Callable[[Session, dict[str, Any]], None]


def show(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False)[:1500]


def answered(s: Session, record: dict[str, Any]) -> Any:
    """The result of a request that got a non-error reply."""
    failure = record.get("failure")
    assert record.get("responded"), f"no response ({failure}): {show(record)}{s.diagnostics()}"
    assert record.get("error") is None, f"error response: {show(record)}"
    return record.get("result")


def locations(s: Session, result: Any) -> list[tuple[str, int, int]]:
    """(relative path, line, character) of each Location / LocationLink in a result."""
    items = result if isinstance(result, list) else [] if result is None else [result]
    found = []
    for item in items:
        uri = item.get("uri") or item.get("targetUri")
        rng = item.get("range") or item.get("targetSelectionRange")
        found.append((s.relative(uri), rng["start"]["line"], rng["start"]["character"]))
    return found


def lands_on(rel: str, needle: str, offset: int = 0) -> Check:
    """The first location starts at `needle` (+ offset) in `rel`."""

    def check(s: Session, record: dict[str, Any]) -> None:
        got = locations(s, answered(s, record))
        want = (rel, *s.find(rel, needle, offset))
        assert got, f"no location; expected {want} ({needle!r}): {show(record)}"
        assert got[0] == want, (
            f"first location is {got[0]}, expected {want} ({needle!r}); all: {got}"
        )

    return check


def includes(*wanted: tuple[str, str, int | None]) -> Check:
    """Each (path, needle, offset) is among the locations; offset None: the line is enough."""

    def check(s: Session, record: dict[str, Any]) -> None:
        got = locations(s, answered(s, record))
        for rel, needle, offset in wanted:
            line, char = s.find(rel, needle, offset or 0)
            hit = [g for g in got if g[:2] == (rel, line) and (offset is None or g[2] == char)]
            where = f"{rel}:{line}" + ("" if offset is None else f":{char}")
            assert hit, f"no location at {where} ({needle!r}); got {got}"

    return check


def markdown(*fragments: str) -> Check:
    """A Hover whose MarkupContent is markdown containing every fragment."""

    def check(s: Session, record: dict[str, Any]) -> None:
        result = answered(s, record)
        assert isinstance(result, dict), f"no hover: {show(record)}"
        contents: Any = result.get("contents")
        is_markdown = isinstance(contents, dict) and contents.get("kind") == "markdown"
        assert is_markdown, f"contents are not MarkupContent(markdown): {contents!r}"
        text = contents["value"]
        for fragment in fragments:
            assert fragment in text, f"{fragment!r} not in hover:\n{text}"

    return check


def outline(rel: str, name: str, needle: str, children: list[str]) -> Check:
    """Hierarchical DocumentSymbol[]: `name` at top level on `needle`'s line, with `children`
    among its children in this order."""

    def check(s: Session, record: dict[str, Any]) -> None:
        result = answered(s, record) or []
        hierarchical = all("selectionRange" in sym for sym in result)
        assert hierarchical, f"not hierarchical DocumentSymbol[]: {show(record)}"
        top = {sym["name"]: sym for sym in result}
        assert name in top, f"{name!r} not at top level: {sorted(top)}"
        line = top[name]["selectionRange"]["start"]["line"]
        assert line == s.find(rel, needle)[0], f"{name} is on the wrong line: {top[name]}"
        names = [child["name"] for child in top[name].get("children") or []]
        ordered = [n for n in names if n in children]
        assert ordered == children, f"children of {name}: {names}; expected {children} in order"

    return check


def first_symbol(name: str, rel: str, needle: str) -> Check:
    """workspace/symbol's best match is `name`, located on `needle`'s line in `rel`."""

    def check(s: Session, record: dict[str, Any]) -> None:
        result = answered(s, record) or []
        assert result, f"no workspace symbols: {show(record)}"
        best = result[0]
        names = [r["name"] for r in result]
        assert best["name"] == name, f"best match is {best['name']!r}, expected {name!r}: {names}"
        uri, line = best["location"]["uri"], best["location"]["range"]["start"]["line"]
        want = (rel, s.find(rel, needle)[0])
        assert (s.relative(uri), line) == want, f"{name} is at {uri}:{line}, expected {want}"

    return check


def empty() -> Check:
    """A null or empty result, and the server is still running."""

    def check(s: Session, record: dict[str, Any]) -> None:
        result = answered(s, record)
        assert result in (None, []), f"expected an empty or null result: {show(record)}"
        assert record.get("alive"), "the server stopped after this request"

    return check


def error_reply(code: int) -> Check:
    """A JSON-RPC error response with this code (not silence)."""

    def check(s: Session, record: dict[str, Any]) -> None:
        failure = record.get("failure")
        assert record.get("responded"), f"no reply ({failure}): the request hangs in the client"
        error = record.get("error") or {}
        assert error.get("code") == code, f"expected a JSON-RPC error {code}: {show(record)}"

    return check


def edits_of(result: Any) -> list[tuple[str, dict[str, Any]]]:
    """(uri, TextEdit) of a WorkspaceEdit, from `documentChanges` or `changes`."""
    if not isinstance(result, dict):
        return []
    found = []
    for change in result.get("documentChanges") or []:
        found += [(change["textDocument"]["uri"], e) for e in change.get("edits") or []]
    for uri, edits in (result.get("changes") or {}).items():
        found += [(uri, e) for e in edits]
    return found


def prepared(rel: str, needle: str, offset: int, placeholder: str) -> Check:
    """prepareRename answers the name's range at `needle` (+ offset) and the placeholder."""

    def check(s: Session, record: dict[str, Any]) -> None:
        result = answered(s, record)
        assert isinstance(result, dict) and "range" in result, f"no range: {show(record)}"
        start = result["range"]["start"]
        assert (start["line"], start["character"]) == s.find(rel, needle, offset), show(record)
        assert result.get("placeholder") == placeholder, show(record)

    return check


def renames_references(references_step: str, old: str, new: str) -> Check:
    """The rename's edits are exactly the places `references_step` found that spell `old`
    (an alias's uses are its own name), each replaced by `new`."""

    def check(s: Session, record: dict[str, Any]) -> None:
        result = answered(s, record)
        got = sorted((s.relative(uri), e["range"]["start"]["line"], e["range"]["start"]["character"]) for uri, e in edits_of(result))
        assert got, f"no edits: {show(record)}"
        assert {e["newText"] for _, e in edits_of(result)} == {new}, show(record)
        refs = locations(s, answered(s, s.step(references_step)))
        spelled = sorted(r for r in refs if s.lines(r[0])[r[1]][r[2]:].startswith(old))
        assert got == spelled, f"rename edits {got}; the references spelling {old!r}: {spelled}"

    return check


def refused(code: int, fragment: str) -> Check:
    """An error reply with this code whose message says `fragment`."""

    def check(s: Session, record: dict[str, Any]) -> None:
        error_reply(code)(s, record)
        assert fragment in (record.get("error") or {}).get("message", ""), show(record)

    return check


def syntax_errors(rel: str, needles: list[str]) -> Check:
    """The diagnostics last published for `rel` are our syntax errors, one on each needle's
    line (empty needles: cleared)."""

    def check(s: Session, record: dict[str, Any]) -> None:
        published = {s.relative(uri): p for uri, p in (record.get("published") or {}).items()}
        assert rel in published, f"nothing published for {rel}: {sorted(published)}"
        diagnostics = published[rel].get("diagnostics") or []
        lines = [d["range"]["start"]["line"] for d in diagnostics]
        assert lines == [s.find(rel, n)[0] for n in needles], f"diagnostics of {rel}: {diagnostics}"
        assert all(d.get("source") == "agentls" for d in diagnostics), diagnostics

    return check
