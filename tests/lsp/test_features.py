"""End to end: the real server (`agentls serve` on stdio) driven by pytest-lsp's real
pygls client over the sample workspace. Asserts typed results and capabilities."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.conftest import SERVER, copy_sample, find

ROOT: Path


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    global ROOT
    ROOT = copy_sample(tmp_path_factory.mktemp("ws"))
    registrations: list[lsp.RegistrationParams] = []

    @lsp_client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: lsp.RegistrationParams) -> None:
        registrations.append(params)

    lsp_client.registrations = registrations  # type: ignore[attr-defined]
    result = await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=ROOT.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(uri=ROOT.as_uri(), name="sample")],
            initialization_options={"mode": "warp-speed", "maxSteps": 7},
        )
    )
    lsp_client.init_result = result  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def uri(rel: str) -> str:
    return (ROOT / rel).as_uri()


def doc(rel: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri(rel))


async def test_capabilities_are_honest(client: LanguageClient) -> None:
    caps: lsp.ServerCapabilities = client.init_result.capabilities  # type: ignore[attr-defined]
    assert caps.definition_provider and caps.references_provider and caps.hover_provider
    assert caps.document_symbol_provider and caps.workspace_symbol_provider
    sync = caps.text_document_sync
    kind = sync.change if isinstance(sync, lsp.TextDocumentSyncOptions) else sync
    assert kind == lsp.TextDocumentSyncKind.Incremental
    assert caps.rename_provider == lsp.RenameOptions(prepare_provider=True)
    assert caps.completion_provider is None  # not claimed
    assert client.init_result.server_info.name == "agentls"  # type: ignore[attr-defined]


async def test_invalid_setting_is_shown_and_defaults_used(client: LanguageClient) -> None:
    await client.wait_for_notification(lsp.WINDOW_SHOW_MESSAGE) if not client.messages else None
    texts = [m.message for m in client.messages]
    assert any("mode" in t and "warp-speed" in t for t in texts), texts


async def test_indexing_reports_progress(client: LanguageClient) -> None:
    await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc("app.py"), position=lsp.Position(0, 0)))
    kinds = [type(v).__name__ for values in client.progress_reports.values() for v in values]
    assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd", kinds


DEFINITIONS = [
    # (file, needle, nth, offset in needle) -> (target file, needle at target)
    ("app.py", "Cart()", 0, 0, "src/shop/cart.py", "class Cart", 6),
    ("app.py", "cart.add", 0, 5, "src/shop/cart.py", "def add", 4),
    ("app.py", "pricing.TAX_RATE", 0, 8, "src/shop/pricing.py", "TAX_RATE = ", 0),
    ("app.py", "Item(", 0, 0, "src/shop/models.py", "class Item", 6),
    ("src/shop/cart.py", "pwt(item", 0, 0, "src/shop/pricing.py", "def price_with_tax", 4),
    ("src/shop/cart.py", "self.total()", 0, 5, "src/shop/cart.py", "def total", 4),
    ("src/shop/cart.py", "count}", 0, 0, "src/shop/cart.py", "count = len", 0),  # after non-ASCII
    ("src/shop/models.py", "self.name}", 0, 5, "src/shop/models.py", "self.name = name", 5),
    ("web/src/index.ts", "add(1", 0, 0, "web/src/util/math.ts", "function add", 9),
    ("web/src/index.ts", "math.add", 0, 5, "web/src/util/math.ts", "function add", 9),
    ("web/src/index.ts", "new Counter", 0, 4, "web/src/util/math.ts", "class Counter", 6),
]


async def test_file_watching_is_registered(client: LanguageClient) -> None:
    await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc("app.py"), position=lsp.Position(0, 0)))
    methods = [r.method for p in client.registrations for r in p.registrations]  # type: ignore[attr-defined]
    assert lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES in methods


async def test_file_created_on_disk_is_indexed_after_watch_event(client: LanguageClient) -> None:
    new = ROOT / "src" / "shop" / "coupons.py"
    new.write_text("from .pricing import TAX_RATE\n\nDISCOUNT = TAX_RATE / 2\n", "utf-8")
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams(changes=[lsp.FileEvent(uri=new.as_uri(), type=lsp.FileChangeType.Created)])
    )
    result = await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc("src/shop/coupons.py"), position=lsp.Position(2, 12)))
    assert result and result[0].uri == uri("src/shop/pricing.py")


@pytest.mark.parametrize(("rel", "needle", "nth", "off", "target", "target_needle", "target_off"), DEFINITIONS, ids=[f"{d[0]}:{d[1]}" for d in DEFINITIONS])
async def test_definition(client: LanguageClient, rel: str, needle: str, nth: int, off: int, target: str, target_needle: str, target_off: int) -> None:
    line, char = find(ROOT, rel, needle, nth, off)
    result = await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc(rel), position=lsp.Position(line, char)))
    assert isinstance(result, list) and result, f"no definition for {needle!r}"
    want = find(ROOT, target, target_needle, 0, target_off)
    got = [(r.uri, r.range.start.line, r.range.start.character) for r in result]
    assert (uri(target), *want) in got


async def test_references_follow_aliases_and_honour_include_declaration(client: LanguageClient) -> None:
    line, char = find(ROOT, "src/shop/pricing.py", "def price_with_tax", 0, 4)
    params = lsp.ReferenceParams(text_document=doc("src/shop/pricing.py"), position=lsp.Position(line=line, character=char), context=lsp.ReferenceContext(include_declaration=True))
    with_decl = await client.text_document_references_async(params)
    spots = {(Path(r.uri).name, r.range.start.line) for r in with_decl}
    assert ("pricing.py", line) in spots
    assert ("cart.py", find(ROOT, "src/shop/cart.py", "pwt(item")[0]) in spots  # through `as pwt`
    params.context = lsp.ReferenceContext(include_declaration=False)
    without = await client.text_document_references_async(params)
    assert ("pricing.py", line) not in {(Path(r.uri).name, r.range.start.line) for r in without}
    assert len(without) == len(with_decl) - 1


async def test_document_symbols_are_hierarchical(client: LanguageClient) -> None:
    result = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=doc("src/shop/cart.py")))
    cart = next(s for s in result if s.name == "Cart")
    assert isinstance(cart, lsp.DocumentSymbol) and cart.kind == lsp.SymbolKind.Class
    children = {c.name: c.kind for c in cart.children or []}
    assert [n for n, k in children.items() if k == lsp.SymbolKind.Method] == ["__init__", "add", "total", "summary"]
    assert children["items"] == lsp.SymbolKind.Field  # `self.items = …` in __init__


async def test_workspace_symbol_is_fuzzy(client: LanguageClient) -> None:
    result = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="pricwt"))
    assert result and result[0].name == "price_with_tax"
    assert result[0].location.uri == uri("src/shop/pricing.py")


async def test_hover_shows_signature_and_doc(client: LanguageClient) -> None:
    line, char = find(ROOT, "src/shop/cart.py", "pwt(item")
    hover = await client.text_document_hover_async(lsp.HoverParams(text_document=doc("src/shop/cart.py"), position=lsp.Position(line, char)))
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    assert "def price_with_tax(amount: float, rate: float = TAX_RATE) -> float" in hover.contents.value
    assert "Return `amount` plus tax" in hover.contents.value


async def test_incremental_edit_reindexes_the_file(client: LanguageClient) -> None:
    rel = "app.py"
    text = (ROOT / rel).read_text("utf-8")
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=uri(rel), language_id="python", version=1, text=text)))
    end = len(text.splitlines())
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri(rel), version=2),
            content_changes=[lsp.TextDocumentContentChangePartial(range=lsp.Range(start=lsp.Position(line=end, character=0), end=lsp.Position(line=end, character=0)), text="\n\ndef helper():\n    return main()\n")],
        )
    )
    result = await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc(rel), position=lsp.Position(end + 3, 12)))
    assert result and result[0].range.start.line == find(ROOT, rel, "def main")[0]


@pytest.mark.parametrize(
    "target",
    ["file:///definitely/outside/the/workspace.py", "untitled:Untitled-1", "FILE_REL:missing.py", "FILE_REL:README.md"],
)
async def test_bad_documents_get_empty_answers(client: LanguageClient, target: str) -> None:
    u = uri(target[9:]) if target.startswith("FILE_REL:") else target
    ident = lsp.TextDocumentIdentifier(uri=u)
    assert await client.text_document_definition_async(lsp.DefinitionParams(text_document=ident, position=lsp.Position(0, 0))) is None
    assert await client.text_document_hover_async(lsp.HoverParams(text_document=ident, position=lsp.Position(0, 0))) is None


async def test_positions_out_of_range_get_empty_answers(client: LanguageClient) -> None:
    for pos in (lsp.Position(10_000, 0), lsp.Position(0, 10_000), lsp.Position(3, 2**31 - 1)):
        await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc("app.py"), position=pos))
    result = await asyncio.wait_for(client.text_document_definition_async(lsp.DefinitionParams(text_document=doc("app.py"), position=lsp.Position(*find(ROOT, "app.py", "Cart()")))), 10)
    assert result  # the server is alive and still answers


@pytest.mark.parametrize(
    "params",
    [
        {"textDocument": {"uri": "file:///x.py"}},  # no position
        {"textDocument": {"uri": "file:///x.py"}, "position": {"line": -1, "character": 0}},
        {"textDocument": "not an object", "position": {"line": 0, "character": 0}},
    ],
)
async def test_undecodable_params_get_an_invalid_params_error(client: LanguageClient, params: dict) -> None:
    # The typed client refuses to send such params, so the raw message goes out by hand.
    msg_id = f"raw-{id(params)}"
    future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
    client.protocol._request_futures[msg_id] = future
    client.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "method": lsp.TEXT_DOCUMENT_HOVER, "params": params})
    with pytest.raises(Exception, match="-32602|[Ii]nvalid [Pp]arams"):
        await asyncio.wait_for(future, 10)
    ok = await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc("app.py"), position=lsp.Position(*find(ROOT, "app.py", "Cart()"))))
    assert ok  # and the server goes on
