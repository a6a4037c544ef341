"""The goal's @-mentions (DESIGN §9): the grammar (agent/mentions.py) and each kind
resolved into the model's first request by the real tools (builtin/mentions.py) — a real
git repository for @diff, a real index for @symbol, an open document for @problems, a
loopback HTTP server for @url —; what cannot be resolved is a `warning` and the run goes on."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from agentls.agent.agent import RunSettings
from agentls.agent.builtin.mentions import MENTIONS_MAX_CHARS
from agentls.agent.mentions import Mention, find_mentions
from agentls.agent.prompts import texts
from agentls.analysis.index import WorkspaceIndex
from agentls.settings import Settings
from agentls.workspace import Workspace
from tests.agent.conftest import Outcome, RunAgent, finish, plan

FILES = {"src/app.py", "README.md", "Makefile", "docs"}


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        ("Explain @src/app.py", [Mention("path", "src/app.py", "@src/app.py")]),
        ("see @src/app.py.", [Mention("path", "src/app.py", "@src/app.py")]),
        ("(@./src/app.py)", [Mention("path", "src/app.py", "@./src/app.py")]),
        ("@README.md and @Makefile", [Mention("path", "README.md", "@README.md"), Mention("path", "Makefile", "@Makefile")]),
        ("@missing/file.py", [Mention("path", "missing/file.py", "@missing/file.py")]),
        ("@../outside.txt", [Mention("path", "../outside.txt", "@../outside.txt")]),
        ("what does @symbol:Cart.total do?", [Mention("symbol", "Cart.total", "@symbol:Cart.total")]),
        ("call @symbol:main()", [Mention("symbol", "main", "@symbol:main()")]),
        ("fix @problems, then show @diff", [Mention("problems", "", "@problems"), Mention("diff", "", "@diff")]),
        ("read @url:https://example.com/a?b=1.", [Mention("url", "https://example.com/a?b=1", "@url:https://example.com/a?b=1")]),
        ("@diff @diff", [Mention("diff", "", "@diff")]),
        # prose that is no mention
        ("mail me@example.com about it", []),
        ("use @property and @pytest.fixture, or @dataclass", []),
        ("@ alone, @@, a@b/c", []),
        ("@problemsolver is a word", []),
    ],
)
def test_the_mention_grammar(goal: str, expected: list[Mention]) -> None:
    assert find_mentions(goal, lambda p: p in FILES) == expected


def test_a_word_without_a_slash_is_a_mention_only_when_the_workspace_has_it() -> None:
    asked: list[str] = []
    find_mentions("@property and @README.md", lambda p: asked.append(p) or p == "README.md")
    assert asked == ["property", "README.md"]


@pytest.fixture
def repo(ws_root: Path) -> Path:
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=ws_root, check=True, capture_output=True, env=env)

    (ws_root / "src" / "shop.py").write_text(
        "class Cart:\n    def total(self, items):\n        return sum(items)\n\n\ndef price(amount):\n    return amount * 2\n"
    )
    git("init", "-q", "--initial-branch=main")
    git("-c", "user.name=T", "-c", "user.email=t@example.com", "add", ".")
    git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "initial")
    (ws_root / "src" / "app.py").write_text("def main():\n    return 2  # changed\n")
    return ws_root


def _mentions_message(out: Outcome) -> str:
    found = [str(m["content"]) for m in out.model.turns[0].messages if "The goal mentions these" in str(m["content"])]
    assert len(found) == 1, "no (or more than one) mentions block in the first request"
    return found[0]


@pytest.mark.parametrize("small", [False, True])
async def test_each_mention_kind_resolves_into_the_first_request(run_agent: RunAgent, repo: Path, small: bool) -> None:
    workspace = Workspace(repo)
    workspace.open("src/broken.py", "def broken(:\n    pass\n", version=1)
    index = WorkspaceIndex(repo)
    index.build()
    goal = "Look at @src/app.py, @symbol:Cart.total, @diff and @problems; mail me@example.com"
    script = [finish("ok")] if small else [plan(), finish("ok")]
    out = await run_agent(script, goal=goal, workspace=workspace, index=index, small=small)
    block = _mentions_message(out)
    # a file the goal names is shown whole by the grounding, as it reads now: pointed to
    assert "@src/app.py →\n`src/app.py` is shown below with the files the goal names" in block
    assert "def main():\n    return 2  # changed" in out.model.turns[0].text()
    assert "The definition of `Cart.total` (method) in `src/shop.py` line 2:" in block
    assert "    def total(self, items):\n        return sum(items)" in block and "def price" not in block
    assert "-    return 1\n+    return 2  # changed" in block
    assert "Problems in the open documents (`src/broken.py`):\n- src/broken.py:1:" in block
    assert out.of("warning") == []
    assert out.state.status == "completed"


async def test_unresolved_mentions_are_warnings_and_the_run_goes_on(
    run_agent: RunAgent, ws_root: Path, tmp_path: Path
) -> None:
    (tmp_path / "outside.txt").write_text("SECRET outside")
    (ws_root / "link.txt").symlink_to(tmp_path / "outside.txt")
    goal = "Use @src/nope.py, @../outside.txt, @link.txt, @symbol:NoSuchName, @symbol:not-a-name, @diff, @problems and @README.md"
    out = await run_agent([plan(), finish("ok"), plan()], goal=goal)
    warnings = {w["subject"]: w["message"] for w in out.of("warning")}
    assert set(warnings) == {
        "@src/nope.py", "@../outside.txt", "@link.txt", "@symbol:NoSuchName", "@symbol:not-a-name", "@diff", "@problems",
    }  # fmt: skip
    assert "no file or folder src/nope.py" in warnings["@src/nope.py"]
    assert "outside the workspace" in warnings["@../outside.txt"] and "outside" in warnings["@link.txt"]
    assert "no definition of NoSuchName" in warnings["@symbol:NoSuchName"]
    assert "not a git repository" in warnings["@diff"]
    assert "no document is open" in warnings["@problems"]
    assert all(w["source"] == "mention" for w in out.of("warning"))
    text = out.model.turns[0].text()
    assert "SECRET" not in text and "@README.md →\n`README.md` is shown below" in text and "hello world" in text
    # the run went on to its work; a goal about files the workspace lacks then ends
    # failed, honestly (goal reading), not because of the warnings
    assert [t.kind for t in out.model.turns][:2] == ["plan", "act"]
    assert out.state.status == "failed" and "does not have" in str(out.state.error)


async def test_a_run_with_only_unresolved_mentions_completes(run_agent: RunAgent) -> None:
    goal = "Explain what @symbol:NoSuchThing does, given @diff and @problems"
    out = await run_agent([plan(), finish("It is not defined here."), plan()], goal=goal)
    assert {w["subject"] for w in out.of("warning")} == {"@symbol:NoSuchThing", "@diff", "@problems"}
    assert "The goal mentions these" not in out.model.turns[0].text()
    assert out.state.status == "completed", out.state.error


async def test_a_folder_mention_lists_it(run_agent: RunAgent, ws_root: Path) -> None:
    out = await run_agent([plan(), finish()], goal="What is in @src/ ?")
    assert "The folder `src` holds:\nsrc/app.py" in _mentions_message(out)


async def test_mentions_stay_within_their_budget(run_agent: RunAgent, ws_root: Path) -> None:
    """The short blocks whole; the long ones share what is left, cut at a line with a note."""
    for name in ("a", "b"):
        (ws_root / f"{name}.txt").write_text("".join(f"{name} line {i}\n" for i in range(4000)))
    out = await run_agent([plan(), finish()], goal="Compare @a.txt @b.txt with @src/app.py")
    block = _mentions_message(out)
    assert MENTIONS_MAX_CHARS - 500 <= len(block) <= MENTIONS_MAX_CHARS + 500
    assert "@src/app.py →\n`src/app.py` is shown below" in block  # whole, by the grounding
    a, b = block.split("@b.txt →")
    assert abs(len(a) - len(b)) < 500  # the two long ones got a like share
    assert "…[@a.txt cut after its line " in a and "to fit the context budget" in a
    assert "…[@b.txt cut after its line " in b and out.of("warning") == []


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        body = b"<html><head><title>Release notes</title></head><body><h1>Notes</h1><p>Version 2 drops Python 3.8 support.</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def page_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    server.timeout = 5
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/notes"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.mark.parametrize(("mode", "fetched"), [("dev", True), ("read-only", False), ("ci", False)])
async def test_a_url_mention_is_fetched_only_where_the_mode_allows_the_web(
    run_agent: RunAgent, page_url: str, mode: str, fetched: bool
) -> None:
    source = Settings.model_validate({"webAllow": ["127.0.0.1"], "webTimeoutS": 5})
    settings = RunSettings(mode=mode, approval="never", source=source)
    out = await run_agent([plan(), finish()], goal=f"Summarise @url:{page_url}", settings=settings)
    text = out.model.turns[0].text()
    assert ("Version 2 drops Python 3.8 support." in text) is fetched
    if fetched:
        assert f"The page {page_url} (Release notes)" in text and out.of("warning") == []
    else:
        (warning,) = out.of("warning")
        assert warning["subject"] == f"@url:{page_url}" and "network" in warning["message"]
    assert out.state.status == "completed"


async def test_a_url_mention_under_the_network_policy(run_agent: RunAgent, page_url: str) -> None:
    """Without webAllow a loopback address is internal: refused like web_fetch refuses it."""
    out = await run_agent([plan(), finish()], goal=f"Summarise @url:{page_url}")
    (warning,) = out.of("warning")
    assert "webAllow" in warning["message"] and "Version 2" not in out.model.turns[0].text()


async def test_mentions_picked_beside_the_goal_are_resolved_like_the_goals(run_agent: RunAgent, ws_root: Path) -> None:
    """`EditorContext.mentions` (the LSP's `context.mentions`): `@` optional, and a word is
    a path even when the workspace lacks it (it was picked as one: a warning, not prose)."""
    from agentls.agent.run import EditorContext

    context = EditorContext("src/app.py", mentions=("README.md", "@gone.txt", "@src/app.py"))
    out = await run_agent([plan(), finish(), plan()], goal="Explain @src/app.py", context=context)
    block = _mentions_message(out)
    assert "@README.md →\nThe file `README.md`" in block and block.count("@src/app.py →") == 1
    assert [w["subject"] for w in out.of("warning")] == ["@gone.txt"]


async def test_the_history_makes_room_for_the_mentions(run_agent: RunAgent, ws_root: Path) -> None:
    (ws_root / "big.txt").write_text("".join(f"line {i}\n" for i in range(3000)))
    out = await run_agent([plan(), finish()], goal="Summarise @big.txt")
    history, context = out.agent.history, out.agent.context
    assert context.context_chars == len(_mentions_message(out)) - len(texts("mentions")["intro"]) - 2
    whole = (context.context_tokens // 2) * 4
    assert history.budget_chars == max(whole - context.context_chars, 4096)
