"""DocsIndex: which files count, spec/design tagging, ranking, rebuilds on change."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentls.tools.knowledge import docs
from agentls.tools.knowledge.docs import DocsIndex, is_document, looks_like_design, looks_like_spec
from agentls.workspace import Workspace


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "spec", "design"),
    [
        ("docs/specs/protocol.md", True, False),
        ("SPECIFICATION.md", True, False),
        ("docs/ApiReference.md", True, False),
        ("Requirements > Performance", True, False),
        ("docs/rfc0001-tools.md", True, False),
        ("Wire Protocol", True, False),
        ("DESIGN.md", False, True),
        ("ARCHITECTURE.md", False, True),
        ("docs/adr/0002-use-sqlite.md", False, True),
        ("Design > Tools", False, True),
        ("docs/special-thanks.md", False, False),  # "special" is not "spec"
        ("docs/rapid-start.md", False, False),  # "rapid" is not "api"
        ("README.md", False, False),
    ],
)
def test_spec_and_design_words(text: str, spec: bool, design: bool) -> None:
    assert (looks_like_spec(text), looks_like_design(text)) == (spec, design)


@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        ("README.md", True),
        ("docs/guide.markdown", True),
        ("api.rst", True),
        ("docs/notes.txt", True),
        ("doc/sub/notes.txt", True),
        ("requirements.txt", False),
        ("src/data.txt", False),
        ("main.py", False),
    ],
)
def test_is_document(rel: str, expected: bool) -> None:
    assert is_document(rel) is expected


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    write(
        tmp_path,
        {
            "README.md": "# Project\nA quokka lives here.\n",
            "docs/notes.txt": "Notes mention a wombat.\n",
            "requirements.txt": "numbat==1.0\n",
            ".gitignore": "private/\n",
            "private/secret.md": "# Secret\nplatypus\n",
            "node_modules/pkg/README.md": "# Pkg\nechidna\n",
        },
    )
    return Workspace(tmp_path)


@pytest.mark.parametrize(
    ("query", "paths"),
    [
        ("quokka", ["README.md"]),
        ("wombat", ["docs/notes.txt"]),
        ("numbat", []),  # not a doc
        ("platypus", []),  # gitignored
        ("echidna", []),  # always skipped
    ],
)
def test_which_files_are_indexed(workspace: Workspace, query: str, paths: list[str]) -> None:
    hits, scope = DocsIndex(workspace).search(query)
    assert [h.path for h in hits] == paths
    assert scope == "all"


def test_hit_carries_heading_lines_and_text(workspace: Workspace) -> None:
    (hit,), _ = DocsIndex(workspace).search("quokka")
    assert (hit.heading, hit.start_line, hit.end_line) == ("Project", 0, 1)
    assert hit.text == "# Project\nA quokka lives here."
    assert hit.score > 0


def test_rebuilds_only_when_a_document_changes(workspace: Workspace) -> None:
    index = DocsIndex(workspace)
    index.search("quokka")
    index.search("quokka")
    assert index.builds == 1
    readme = workspace.root / "README.md"
    readme.write_text("# Project\nA koala moved in.\n", encoding="utf-8")
    stat = readme.stat()
    os.utime(readme, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    assert [h.path for h in index.search("koala")[0]] == ["README.md"]
    assert index.search("quokka")[0] == []
    assert index.builds == 2


@pytest.mark.parametrize("change", ["add", "remove"])
def test_added_and_removed_documents_trigger_a_rebuild(workspace: Workspace, change: str) -> None:
    index = DocsIndex(workspace)
    before = index.section_count()
    if change == "add":
        write(workspace.root, {"docs/new.md": "# New\nfresh\n"})
    else:
        (workspace.root / "README.md").unlink()
    after = index.section_count()
    assert after == before + (1 if change == "add" else -1)
    assert index.builds == 2


def test_open_buffers_are_searched(workspace: Workspace) -> None:
    index = DocsIndex(workspace)
    assert index.search("dingo")[0] == []
    workspace.open("README.md", "# Project\nA dingo, unsaved.\n", version=3)
    workspace.open("docs/draft.md", "# Draft\ndingo draft\n", version=1)
    assert sorted(h.path for h in index.search("dingo")[0]) == ["README.md", "docs/draft.md"]


def test_heading_matches_weigh_more(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(
        tmp_path,
        {
            "a.md": "# Caching\nThe first part explains how data is kept around.\n",
            "b.md": "# Storage\nThe caching layer: caching keys, caching values.\n",
        },
    )
    index = DocsIndex(Workspace(tmp_path))
    assert [h.path for h in index.search("caching")[0]] == ["a.md", "b.md"]
    monkeypatch.setattr(docs, "HEADING_WEIGHT", 1.0)
    assert [h.path for h in index.search("caching")[0]] == ["b.md", "a.md"]


def test_preference_filters_then_falls_back(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "docs/specs/protocol.md": "# Protocol\n## Memory requests\nmemory over the wire\n",
            "DESIGN.md": "# Design\n## Memory\nmemory lives in sqlite\n",
            "docs/guide.md": "# Guide\n## Memory\nmemory how-to; installation steps\n",
        },
    )
    index = DocsIndex(Workspace(tmp_path))
    spec_hits, spec_scope = index.search("memory", prefer="spec")
    design_hits, design_scope = index.search("memory", prefer="design")
    assert (spec_scope, [h.path for h in spec_hits]) == ("spec", ["docs/specs/protocol.md"])
    assert (design_scope, [h.path for h in design_hits]) == ("design", ["DESIGN.md"])
    fallback, scope = index.search("installation", prefer="spec")
    assert (scope, [h.path for h in fallback]) == ("all", ["docs/guide.md"])


@pytest.mark.parametrize("query", ["", "   ", "?!", "\x00"])
def test_unsearchable_queries_return_nothing(workspace: Workspace, query: str) -> None:
    assert DocsIndex(workspace).search(query) == ([], "all")


def test_empty_workspace_has_no_sections(tmp_path: Path) -> None:
    index = DocsIndex(Workspace(tmp_path))
    assert index.section_count() == 0
    assert index.search("anything") == ([], "all")


def test_binary_and_huge_documents_are_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(docs, "MAX_DOC_BYTES", 100)
    write(tmp_path, {"big.md": "# Big\n" + "bigword " * 50, "ok.md": "# Ok\nbigword\n"})
    (tmp_path / "bin.md").write_bytes(b"# Bin\x00bigword\n")
    assert [h.path for h in DocsIndex(Workspace(tmp_path)).search("bigword")[0]] == ["ok.md"]
