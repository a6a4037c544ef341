"""`--settings JSON` on `agentls run`, `agentls tool` and `agentls tools` (DESIGN §7): the
server's settings object from the command line, flags winning over it, bad settings a
clear error — run as real subprocesses against loopback servers."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.llm.fake_openai import FakeOpenAIServer

PAGE = Path(__file__).parents[1] / "tools" / "web" / "fixtures" / "docs_page.html"


def agentls(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agentls.cli", *args],
        cwd=cwd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "app.py").write_text("def main():\n    return 1\n", "utf-8")
    return root


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    root = tmp_path_factory.mktemp("site")
    shutil.copy(PAGE, root / "notes.html")
    (root / "search.json").write_text(json.dumps({"results": [{"title": "T", "url": "https://x.example/", "content": "c"}]}))
    served: list[str] = []

    class Handler(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            served.append(self.path)
            super().do_GET()

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", served
    httpd.shutdown()
    httpd.server_close()


def _result(proc: subprocess.CompletedProcess[str]) -> dict:
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_tool_takes_the_web_policy_from_settings(ws: Path, site) -> None:
    base, served = site
    url = json.dumps({"url": f"{base}/notes.html"})
    before = len(served)
    refused = agentls("tool", "web_fetch", "--input", url, cwd=ws)
    assert refused.returncode == 1 and _result(refused)["error"]["type"] == "permission" and len(served) == before
    allowed = agentls("tool", "web_fetch", "--input", url, "--settings", '{"webAllow": ["127.0.0.1"]}', cwd=ws)
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    out = _result(allowed)["output"]
    assert out["title"].startswith("Configuration") and "## Options" in out["text"] and "Search docs" not in out["text"]


def test_tools_listing_and_search_follow_search_url(ws: Path, site, tmp_path: Path) -> None:
    base, served = site
    listed = {t["name"]: t for t in json.loads(agentls("tools", "--json", cwd=ws).stdout)["tools"]}
    assert listed["web_search"]["enabled"] is False and "searchUrl" in listed["web_search"]["disabledReason"]
    settings_file = tmp_path / "agentls.json"
    settings_file.write_text(json.dumps({"agentls": {"searchUrl": f"{base}/search.json"}}))
    listed = {t["name"]: t for t in json.loads(agentls("tools", "--json", "--settings", f"@{settings_file}", cwd=ws).stdout)["tools"]}
    assert listed["web_search"]["enabled"] is True
    found = agentls("tool", "web_search", "--input", '{"query": "q"}', "--settings", f"@{settings_file}", cwd=ws)
    assert _result(found) == {"ok": True, "output": {"results": [{"title": "T", "url": "https://x.example/", "snippet": "c"}]}}
    assert served[-1] == "/search.json?q=q&format=json"


def test_flags_win_over_settings(ws: Path) -> None:
    write = ["tool", "write_file", "--input", '{"path": "n.txt", "content": "x"}', "--approve", "never"]
    refused = agentls(*write, "--settings", '{"mode": "read-only"}', cwd=ws)
    assert _result(refused)["error"]["type"] == "permission"
    proposed = agentls(*write, "--settings", '{"mode": "read-only"}', "--mode", "dev", cwd=ws)
    assert _result(proposed)["ok"] is True and not (ws / "n.txt").exists()  # a proposal, left pending


@pytest.mark.parametrize(
    ("value", "fragment"),
    [("{not json", "not valid JSON"), ("[1]", "JSON object"), ('{"mode": "god"}', "mode"),
     ('{"webMaxBytes": -1}', "webMaxBytes"), ("@/nonexistent/agentls.json", "cannot read")],
)  # fmt: skip
def test_bad_settings_are_clear_errors(ws: Path, value: str, fragment: str) -> None:
    tool = agentls("tool", "read_file", "--input", '{"path": "app.py"}', "--settings", value, cwd=ws)
    assert tool.returncode == 1 and _result(tool)["error"]["type"] == "validation"
    assert fragment in _result(tool)["error"]["message"]
    run = agentls("run", "goal", "--workspace", str(ws), "--settings", value, cwd=ws)
    assert run.returncode == 2 and fragment in run.stderr


def test_unknown_keys_are_reported_and_ignored(ws: Path) -> None:
    proc = agentls("tool", "read_file", "--input", '{"path": "app.py"}', "--settings", '{"colour": "blue"}', cwd=ws)
    assert proc.returncode == 0 and "unknown keys ignored: colour" in proc.stderr


def test_run_takes_model_mode_and_limits_from_settings(ws: Path) -> None:
    script = [
        {"content": '["Read app.py"]'},
        {"tool_calls": [{"id": "c1", "name": "read_file", "arguments": '{"path": "app.py"}'}]},
        {"tool_calls": [{"id": "c2", "name": "read_file", "arguments": '{"path": "app.py", "start_line": 1}'}]},
    ]
    with FakeOpenAIServer(script) as server:
        settings = {"model": "openai:from-settings", "baseUrl": server.base_url, "mode": "full", "maxSteps": 2}
        proc = agentls("run", "What does main return?", "--workspace", str(ws), "--json",
                       "--settings", json.dumps(settings), "--mode", "read-only", cwd=ws)  # fmt: skip
    result = json.loads(proc.stdout)
    assert result["status"] == "budget_exhausted" and result["steps"] == 2, proc.stderr  # maxSteps from settings
    assert {r["model"] for r in server.requests} == {"from-settings"}
    offered = {t["function"]["name"] for t in server.requests[1]["tools"]}
    assert "read_file" in offered and "write_file" not in offered  # --mode read-only won over "full"
