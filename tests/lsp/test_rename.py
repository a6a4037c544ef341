"""End to end: `textDocument/prepareRename` and `textDocument/rename` (DESIGN §5) on
fixtures with same-named decoys — a local of the same name in another function, a method
of another class with the same name, the name in strings and comments — for Python and
TypeScript. From every site of a binding, the rename is exactly that binding's sites
(import lines included), as one versioned WorkspaceEdit; names that cannot be renamed are
refused with RequestFailed and the reason.

The fixtures mark each expected site with a caret comment under it (`#   ^ A`): label A
is a module-level function, B a method, C an import alias of A (`compute_total as ct`:
renaming A changes the imported name, renaming C only the alias and its uses); every
other occurrence of the names is a decoy.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.conftest import SERVER

FIXTURES = Path(__file__).parent / "fixtures" / "rename"
CARET = re.compile(r"^(?:#|//)\s*\^ ([ABC])$")
ROOT: Path

Site = tuple[str, int, int]  # (path, line, UTF-16 character) where the name starts


def sites(language: str) -> dict[str, set[Site]]:
    """Label → the sites the caret comments mark in the fixture of `language`."""
    marks: dict[str, set[Site]] = {}
    base = FIXTURES / language
    for file in sorted(base.rglob("*")):
        if file.suffix not in (".py", ".ts"):
            continue
        lines = file.read_text("utf-8").split("\n")
        for i, line in enumerate(lines):
            if m := CARET.match(line):
                above = i - 1
                while CARET.match(lines[above]):
                    above -= 1
                marks.setdefault(m.group(1), set()).add((f"{language}/{file.relative_to(base).as_posix()}", above, line.index("^")))
    return marks


CASES = [(lang, label, site) for lang in ("python", "typescript") for label, marked in sorted(sites(lang).items()) for site in sorted(marked)]
NAMES = {("python", "A"): "compute_total", ("python", "B"): "add", ("python", "C"): "ct", ("typescript", "A"): "computeTotal", ("typescript", "B"): "add", ("typescript", "C"): "ct"}


def uri(rel: str) -> str:
    return (ROOT / rel).as_uri()


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    global ROOT
    ROOT = tmp_path_factory.mktemp("rename") / "ws"
    shutil.copytree(FIXTURES, ROOT)

    @lsp_client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: lsp.RegistrationParams) -> None:
        return None

    result = await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri(), initialization_options={"indexCache": False})
    )
    lsp_client.init_result = result  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def _pos(site: Site) -> tuple[lsp.TextDocumentIdentifier, lsp.Position]:
    return lsp.TextDocumentIdentifier(uri=uri(site[0])), lsp.Position(line=site[1], character=site[2])


async def _rename(client: LanguageClient, site: Site, new: str) -> lsp.WorkspaceEdit:
    doc, pos = _pos(site)
    edit = await client.text_document_rename_async(lsp.RenameParams(text_document=doc, position=pos, new_name=new))
    assert edit is not None
    return edit


def _edited(edit: lsp.WorkspaceEdit) -> dict[Site, str]:
    """Each edit of a documentChanges WorkspaceEdit as (path, line, character) → new text,
    checking that every range covers one line."""
    out: dict[Site, str] = {}
    for change in edit.document_changes or []:
        assert isinstance(change, lsp.TextDocumentEdit)
        rel = Path(change.text_document.uri.removeprefix("file://")).relative_to(ROOT).as_posix()
        for e in change.edits:
            assert e.range.start.line == e.range.end.line
            out[(rel, e.range.start.line, e.range.start.character)] = e.new_text
    return out


async def test_rename_is_advertised_with_prepare(client: LanguageClient) -> None:
    caps: lsp.ServerCapabilities = client.init_result.capabilities  # type: ignore[attr-defined]
    assert caps.rename_provider == lsp.RenameOptions(prepare_provider=True)


@pytest.mark.parametrize(("language", "label", "site"), CASES, ids=[f"{lang}-{label}-{s[0].split('/', 1)[1]}:{s[1] + 1}" for lang, label, s in CASES])
async def test_rename_from_every_site_is_exactly_the_reference_set(client: LanguageClient, language: str, label: str, site: Site) -> None:
    name = NAMES[(language, label)]
    doc, pos = _pos(site)
    prepared = await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(text_document=doc, position=pos))
    assert isinstance(prepared, lsp.PrepareRenamePlaceholder)
    assert prepared.placeholder == name
    assert (prepared.range.start.line, prepared.range.start.character) == site[1:]
    assert prepared.range.end.character - prepared.range.start.character == len(name)
    edit = await _rename(client, site, "renamed_one")
    assert edit.changes is None
    assert _edited(edit) == dict.fromkeys(sites(language)[label], "renamed_one")


async def test_open_documents_carry_their_version_and_their_buffer(client: LanguageClient) -> None:
    """An open document's edits are against its buffer (here two lines longer than the
    disk) and carry its version; files read from disk carry null."""
    rel = "python/app.py"
    text = "# an added line\n# another\n" + (ROOT / rel).read_text("utf-8")
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=uri(rel), language_id="python", version=7, text=text)))
    try:
        (site,) = [s for s in sites("python")["A"] if s[0] == "python/shop/pricing.py" and s[1] == 3]
        edit = await _rename(client, site, "grand_total")
        versions = {Path(c.text_document.uri).name: c.text_document.version for c in edit.document_changes or [] if isinstance(c, lsp.TextDocumentEdit)}
        assert versions == {"alias.py": None, "app.py": 7, "pricing.py": None}
        expected = {(p, line + 2 if p == rel else line, c) for p, line, c in sites("python")["A"]}
        assert set(_edited(edit)) == expected
    finally:
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri(rel))))


def _find(rel: str, needle: str) -> Site:
    for i, line in enumerate((FIXTURES / rel).read_text("utf-8").split("\n")):
        if needle in line and not CARET.match(line):
            return rel, i, line.index(needle)
    raise AssertionError(f"{needle!r} not in {rel}")


REFUSED = [
    (("python/shop/pricing.py", "def compute_total"), "def ", "2fast", "'2fast' is not a Python identifier"),
    (("python/shop/pricing.py", "def compute_total"), "def ", "class", "'class' is a Python keyword"),
    (("python/shop/pricing.py", "len(rows)"), "", "size", "'len' is defined outside the workspace"),
    (("python/app.py", "from shop.pricing"), "from shop.", "prices", "'pricing' names a module"),
    (("typescript/src/pricing.ts", "export function computeTotal"), "export function ", "a-b", "'a-b' is not an identifier"),
    (("typescript/src/pricing.ts", "export function computeTotal"), "export function ", "function", "'function' is a reserved word"),
    (("typescript/src/app.ts", "=> readFileSync"), "=> ", "readIt", "'readFileSync' is defined outside the workspace (fs)"),
    (("typescript/src/pricing.ts", "this.items.push"), "this.items.", "append", "'push' is defined outside the workspace"),  # `items: number[]`
    (("typescript/src/pricing.ts", "thing.weight"), "thing.", "mass", "'weight' at typescript/src/pricing.ts:47 does not resolve"),
]


@pytest.mark.parametrize(("where", "skip", "new", "reason"), REFUSED, ids=[r[2] for r in REFUSED])
async def test_refusals_are_request_failed_with_the_reason(client: LanguageClient, where: tuple[str, str], skip: str, new: str, reason: str) -> None:
    rel, line, character = _find(*where)
    site = (rel, line, character + len(skip))
    with pytest.raises(JsonRpcException) as caught:
        await _rename(client, site, new)
    assert caught.value.code == -32803
    assert reason in str(caught.value), str(caught.value)


async def test_prepare_refuses_what_rename_would_refuse(client: LanguageClient) -> None:
    rel, line, character = _find("python/shop/pricing.py", "len(rows)")
    doc, pos = _pos((rel, line, character))
    with pytest.raises(JsonRpcException) as caught:
        await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(text_document=doc, position=pos))
    assert caught.value.code == -32803 and "outside the workspace" in str(caught.value)
    rel, line, character = _find("python/app.py", "LABEL")  # blank space after the name
    doc, pos = _pos((rel, line, character + len("LABEL = ")))
    with pytest.raises(JsonRpcException, match="no name at"):
        await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(text_document=doc, position=pos))


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def plain_client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    """A client that announces neither `prepareSupport` nor `documentChanges`."""
    root = tmp_path_factory.mktemp("rename-plain") / "ws"
    shutil.copytree(FIXTURES, root)
    lsp_client.root = root  # type: ignore[attr-defined]
    result = await lsp_client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=root.as_uri(), initialization_options={"indexCache": False}))
    lsp_client.init_result = result  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_a_client_without_document_changes_gets_plain_changes(plain_client: LanguageClient) -> None:
    root: Path = plain_client.root  # type: ignore[attr-defined]
    assert plain_client.init_result.capabilities.rename_provider is True  # type: ignore[attr-defined]
    (path, line, character) = min(sites("typescript")["A"])
    doc = lsp.TextDocumentIdentifier(uri=(root / path).as_uri())
    edit = await plain_client.text_document_rename_async(lsp.RenameParams(text_document=doc, position=lsp.Position(line=line, character=character), new_name="sum2"))
    assert edit is not None and edit.document_changes is None and edit.changes is not None
    got = {(Path(u.removeprefix("file://")).relative_to(root).as_posix(), e.range.start.line, e.range.start.character) for u, edits in edit.changes.items() for e in edits}
    assert got == sites("typescript")["A"]
