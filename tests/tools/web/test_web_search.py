"""web_search against a fake SearxNG endpoint on loopback: the request it sends, the
results it returns, the endpoint's failures, and the tool's listing without searchUrl."""

from __future__ import annotations

import pytest
from web_servers import WebCall

from agentls.settings import Settings
from agentls.tools.base import ToolContext
from agentls.tools.permissions import PermissionSet
from agentls.tools.registry import ToolRegistry
from agentls.tools.web import TOOLS
from agentls.workspace import Workspace


def _endpoint(web_server, path: str = "/search") -> dict:
    return {"searchUrl": f"http://127.0.0.1:{web_server.port}{path}"}


def test_results_come_back_as_title_url_snippet(web: WebCall, web_server) -> None:
    before = len(web_server.requests)
    result = web("web_search", settings=_endpoint(web_server), query="pygls features", limit=3)
    assert result.ok, result.error
    assert result.output["results"] == [
        {"title": f"Result {i} for pygls features", "url": f"https://docs.example/{i}", "snippet": f"snippet {i}"}
        for i in (1, 2, 3)
    ]
    (request,) = web_server.requests[before:]
    assert request["path"] == "/search" and request["query"] == {"q": "pygls features", "format": "json"}
    assert request["headers"]["Accept"] == "application/json"


def test_the_endpoint_on_localhost_works_without_opening_localhost_to_web_fetch(web: WebCall, web_server) -> None:
    settings = {"searchUrl": f"http://localhost:{web_server.port}/search?language=en"}
    web_server.httpd  # noqa: B018 - the same server answers on 127.0.0.1
    assert web("web_search", settings=settings, query="x").ok
    fetched = web("web_fetch", settings=settings, url=f"http://localhost:{web_server.port}/hello")
    assert fetched.error and fetched.error["type"] == "permission"


@pytest.mark.parametrize(("path", "fragment"), [("/search-html", "SearxNG JSON"), ("/search-500", "HTTP 500")])
def test_endpoint_failures_are_runtime_errors(web: WebCall, web_server, path: str, fragment: str) -> None:
    result = web("web_search", settings=_endpoint(web_server, path), query="x")
    assert result.error and result.error["type"] == "runtime" and fragment in result.error["message"]


def test_a_redirect_from_the_endpoint_is_checked_like_any_other(web: WebCall, web_server, internal_server) -> None:
    to = f"http%3A%2F%2F127.0.0.1%3A{internal_server.port}%2F"
    settings = {"searchUrl": f"http://127.0.0.1:{web_server.port}/redirect?to={to}"}
    result = web("web_search", settings=settings, query="x")
    assert result.error and result.error["type"] == "permission"


def test_a_secret_in_the_query_is_not_sent(web: WebCall, web_server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_SERVICE_PASSWORD", "hunter2hunter2")
    before = len(web_server.requests)
    result = web("web_search", settings=_endpoint(web_server), query="password hunter2hunter2")
    assert result.error and result.error["type"] == "permission" and len(web_server.requests) == before


def test_without_search_url_the_tool_is_listed_disabled_with_the_reason(tmp_path) -> None:
    registry = ToolRegistry(TOOLS)
    permissions = PermissionSet.for_mode("dev")

    def listing(settings: Settings) -> dict:
        ctx = ToolContext(workspace=Workspace(tmp_path), permissions=permissions, settings=settings)
        return {s["name"]: s for s in registry.schemas(permissions, ctx)}

    off = listing(Settings())
    assert off["web_search"]["enabled"] is False and "searchUrl" in off["web_search"]["disabledReason"]
    assert off["web_fetch"]["enabled"] is True and off["web_fetch"]["category"] == "web"
    on = listing(Settings.model_validate({"searchUrl": "http://127.0.0.1:8888/search"}))
    assert on["web_search"]["enabled"] is True and on["web_search"]["permissions"] == ["network"]


def test_calling_it_without_search_url_is_a_clear_error(web: WebCall) -> None:
    result = web("web_search", query="x")
    assert result.error and "searchUrl" in result.error["message"]
