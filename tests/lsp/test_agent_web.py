"""End to end through the real server: the web category in `agent/tools` (web_search
disabled with the reason until `searchUrl` is set; both tools need `network`), and
`agent/executeTool` for web_fetch and web_search against loopback servers, with the
network policy coming from the editor's settings."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.agent_harness import attach, configure, make_workspace, request
from tests.lsp.conftest import SERVER

FIXTURES = Path(__file__).parents[1] / "tools" / "web" / "fixtures"
TMP: Path


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    """A loopback site: a saved page and a SearxNG-style JSON answer; the paths it served."""
    root = tmp_path_factory.mktemp("site")
    shutil.copy(FIXTURES / "blog_post.html", root / "post.html")
    results = [{"title": "Build speed", "url": "https://blog.example/builds", "content": "3x faster"}]
    (root / "search.json").write_text(json.dumps({"results": results}), "utf-8")
    served: list[str] = []

    class Handler(_Quiet):
        def do_GET(self) -> None:  # noqa: N802
            served.append(self.path)
            super().do_GET()

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", served
    httpd.shutdown()
    httpd.server_close()


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    global TMP
    root = make_workspace(tmp_path_factory.mktemp("ws"))
    TMP = tmp_path_factory.mktemp("scripts")
    attach(lsp_client)
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=root.as_uri(),
            initialization_options={"mode": "dev"},
        )
    )
    yield
    await lsp_client.shutdown_session()


async def _tools(client: LanguageClient) -> dict[str, dict]:
    return {t["name"]: t for t in (await request(client, "agent/tools", {}))["tools"]}


async def test_the_web_category_is_listed_with_its_reasons(client: LanguageClient, site) -> None:
    configure(client, TMP)
    tools = await _tools(client)
    assert tools["web_fetch"]["category"] == tools["web_search"]["category"] == "web"
    assert tools["web_fetch"]["enabled"] is True and tools["web_fetch"]["permissions"] == ["network"]
    assert tools["web_search"]["enabled"] is False and "searchUrl" in tools["web_search"]["disabledReason"]
    configure(client, TMP, mode="read-only")
    read_only = await _tools(client)
    assert read_only["web_fetch"]["enabled"] is False and "network" in read_only["web_fetch"]["disabledReason"]
    configure(client, TMP, searchUrl=f"{site[0]}/search.json")
    assert (await _tools(client))["web_search"]["enabled"] is True


async def test_web_fetch_follows_the_editor_settings(client: LanguageClient, site) -> None:
    base, served = site
    configure(client, TMP)  # no webAllow: the loopback site is an internal address
    before = len(served)
    refused = await request(client, "agent/executeTool", {"name": "web_fetch", "input": {"url": f"{base}/post.html"}})
    assert refused["ok"] is False and refused["error"]["type"] == "permission" and len(served) == before
    configure(client, TMP, webAllow=["127.0.0.1"])
    fetched = await request(client, "agent/executeTool", {"name": "web_fetch", "input": {"url": f"{base}/post.html"}})
    assert fetched["ok"] is True, fetched
    assert fetched["output"]["title"].startswith("Why our builds got 3x faster")
    assert "## Splitting the test suite" in fetched["output"]["text"] and "cookies" not in fetched["output"]["text"]


async def test_web_search_through_the_configured_endpoint(client: LanguageClient, site) -> None:
    base, served = site
    configure(client, TMP, searchUrl=f"{base}/search.json")
    result = await request(client, "agent/executeTool", {"name": "web_search", "input": {"query": "ci speed"}})
    assert result == {"ok": True, "output": {"results": [{"title": "Build speed", "url": "https://blog.example/builds", "snippet": "3x faster"}]}}
    assert served[-1] == "/search.json?q=ci+speed&format=json"
