"""The server's first index runs on a worker thread and, past a few dozen files, in a
process pool: the pool must come up safely from that thread (fork from a threaded
process can deadlock) and leave no process behind."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.conftest import SERVER

FILES = 120  # well above the in-process threshold of agentls.analysis.build
ROOT: Path


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    global ROOT
    ROOT = tmp_path_factory.mktemp("many")
    (ROOT / "pkg").mkdir()
    (ROOT / "pkg" / "__init__.py").write_text("")
    for i in range(FILES):
        prev = f"from pkg.m{i - 1} import f{i - 1}\n" if i else ""
        body = f"    return f{i - 1}()\n" if i else "    return 0\n"
        (ROOT / "pkg" / f"m{i}.py").write_text(f"{prev}\n\ndef f{i}():\n{body}")
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=client_capabilities("neovim"), root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


async def test_first_answer_comes_from_a_pooled_index(client: LanguageClient) -> None:
    uri = (ROOT / "pkg" / f"m{FILES - 1}.py").as_uri()
    result = await asyncio.wait_for(
        client.text_document_definition_async(lsp.DefinitionParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=4, character=12))),
        30,
    )
    assert result and result[0].uri == (ROOT / "pkg" / f"m{FILES - 2}.py").as_uri()


async def test_references_after_the_background_fill(client: LanguageClient) -> None:
    uri = (ROOT / "pkg" / "m0.py").as_uri()
    refs = await asyncio.wait_for(
        client.text_document_references_async(
            lsp.ReferenceParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=2, character=4), context=lsp.ReferenceContext(include_declaration=True))
        ),
        30,
    )
    assert {Path(r.uri).name for r in refs} == {"m0.py", "m1.py"}
