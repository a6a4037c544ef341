"""End to end: `agent/tools`, `agent/executeTool`, and proposals shown to a client WITHOUT
the `agentls` experimental capability: it gets `workspace/applyEdit` whose changes need
confirmation, and its answer is the decision."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.agent.conftest import act, finish, plan
from tests.lsp.agent_harness import (
    APP,
    Seen,
    attach,
    configure,
    make_workspace,
    request,
    wait_until,
)
from tests.lsp.conftest import SERVER

ROOT: Path
TMP: Path
SEEN: Seen


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    global ROOT, TMP, SEEN
    ROOT = make_workspace(tmp_path_factory.mktemp("ws"))
    TMP = tmp_path_factory.mktemp("scripts")
    SEEN = attach(lsp_client)
    caps = client_capabilities("visual-studio-code")
    assert caps.experimental is None
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=caps, root_uri=ROOT.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(autouse=True)
def fresh_files() -> None:
    (ROOT / "app.py").write_text(APP, "utf-8")
    (ROOT / "new.py").unlink(missing_ok=True)
    SEEN.apply_mode = "disk"


# mode → tools that must be enabled / disabled (with the permission named in the reason)
MODES = [
    (
        "read-only",
        {"read_file", "search_files", "finish"},
        {"write_file": "filesystemWrite", "run_command": "shellExecution"},
    ),
    ("dev", {"read_file", "write_file", "edit_file"}, {"run_command": "shellExecution"}),
    ("ci", {"read_file", "run_command", "run_test_suite"}, {"edit_file": "filesystemWrite"}),
    ("full", {"read_file", "write_file", "run_command"}, {}),
]


@pytest.mark.parametrize(("mode", "enabled", "disabled"), MODES, ids=[m[0] for m in MODES])
async def test_tools_follow_the_mode_in_the_settings(
    client: LanguageClient, mode: str, enabled: set[str], disabled: dict[str, str]
) -> None:
    configure(client, TMP, mode=mode)
    tools = {t["name"]: t for t in (await request(client, "agent/tools", {}))["tools"]}
    keys = {
        "name",
        "description",
        "category",
        "inputSchema",
        "outputSchema",
        "permissions",
        "enabled",
        "disabledReason",
    }
    assert all(keys <= set(t) for t in tools.values())
    assert (
        tools["read_file"]["inputSchema"]["properties"]["path"]
        and tools["read_file"]["category"] == "filesystem"
    )
    assert tools["write_file"]["permissions"] == ["filesystemWrite"]
    assert {
        n for n in enabled if tools[n]["enabled"] and tools[n]["disabledReason"] is None
    } == enabled
    for name, flag in disabled.items():
        assert tools[name]["enabled"] is False and flag in tools[name]["disabledReason"], tools[
            name
        ]


# input → ok, or the error type; the settings' mode is dev unless the call names one
CALLS = [
    ("read_file", {"path": "app.py"}, None, None),
    ("read_file", {"path": "src/util.py", "start_line": 1}, "read-only", None),
    ("no_such_tool", {}, None, "validation"),
    ("read_file", {}, None, "validation"),
    ("read_file", {"path": "app.py", "bogus": 1}, None, "validation"),
    ("read_file", "app.py", None, "validation"),
    ("read_file", {"path": "../outside.py"}, None, "permission"),
    ("write_file", {"path": "x.py", "content": ""}, "read-only", "permission"),
    ("run_command", {"command": "true"}, None, "permission"),
    ("read_file", {"path": "missing.py"}, None, "runtime"),
    ("edit_file", {"path": "app.py", "old": "not there", "new": "x"}, None, "runtime"),
]


@pytest.mark.parametrize(
    ("name", "tool_input", "mode", "error"),
    CALLS,
    ids=[f"{c[0]}-{c[3] or 'ok'}-{i}" for i, c in enumerate(CALLS)],
)
async def test_execute_tool_answers_ok_or_a_structured_error(
    client: LanguageClient, name: str, tool_input: Any, mode: str | None, error: str | None
) -> None:
    configure(client, TMP)
    params = {"name": name, "input": tool_input, **({"mode": mode} if mode else {})}
    result = await request(client, "agent/executeTool", params)
    if error is None:
        assert result["ok"] is True and "return" in result["output"]["content"], result
    else:
        assert result["ok"] is False and set(result["error"]) == {"type", "message", "tool"}, result
        assert (result["error"]["type"], result["error"]["tool"]) == (error, name), result
        assert result["error"]["message"]


WRITE = {"path": "new.py", "content": "VALUE = 1\n"}

# how the editor answers the applyEdit → (tool status, comment, new.py on disk afterwards)
ANSWERS = [
    ("disk", "applied", None, "VALUE = 1\n"),
    ("buffer", "applied", None, None),  # applied in an unsaved buffer: nothing is written
    ("decline", "rejected", "not this way, please", None),
]


@pytest.mark.parametrize(
    ("answer", "status", "comment", "on_disk"), ANSWERS, ids=[a[0] for a in ANSWERS]
)
async def test_execute_tool_proposal_is_confirmed_through_apply_edit(
    client: LanguageClient, answer: str, status: str, comment: str | None, on_disk: str | None
) -> None:
    configure(client, TMP)
    SEEN.apply_mode = answer
    before = len(SEEN.apply_edits)
    result = await request(client, "agent/executeTool", {"name": "write_file", "input": WRITE})
    assert result["ok"] is True and result["output"]["status"] == status, result
    assert result["output"]["comment"] == comment
    sent = SEEN.apply_edits[before:]
    assert len(sent) == 1
    edit = sent[0]["edit"]
    (annotation,) = edit["changeAnnotations"].values()
    assert (
        annotation["needsConfirmation"] is True
        and annotation["label"] == "Create new.py" == sent[0]["label"]
    )
    create, change = edit["documentChanges"]
    assert create["kind"] == "create" and create["annotationId"] in edit["changeAnnotations"]
    assert all(e["annotationId"] in edit["changeAnnotations"] for e in change["edits"])
    path = ROOT / "new.py"
    assert (path.read_text("utf-8") if path.exists() else None) == on_disk
    listed = (await request(client, "agent/proposals", {}))["proposals"]
    assert listed[-1]["id"] == result["output"]["proposal_id"] and listed[-1]["status"] == status


async def test_a_runs_proposal_is_confirmed_through_apply_edit(client: LanguageClient) -> None:
    configure(
        client,
        TMP,
        [
            plan("Edit"),
            act("edit_file", {"path": "app.py", "old": "return 1", "new": "return 2"}),
            finish(),
            plan(),
        ],
    )
    run_id = (await request(client, "agent/run", {"goal": "Return 2"}))["runId"]
    end = await wait_until(lambda: SEEN.finished(run_id), 15, "the run's end")
    assert end["status"] == "completed"
    assert not SEEN.proposals  # no agent/proposal for this client
    result = next(e for e in SEEN.run_events(run_id) if e["kind"] == "tool_result")
    assert result["output"]["status"] == "applied"
    assert (ROOT / "app.py").read_text("utf-8") == APP.replace("return 1", "return 2")
    resolved = [
        e for e in SEEN.run_events(run_id) if e["kind"] == "proposal" and e["action"] == "resolved"
    ]
    assert [e["proposal"]["status"] for e in resolved] == ["applied"]


async def test_a_cancelled_run_withdraws_its_open_confirmation(client: LanguageClient) -> None:
    edit = {"path": "app.py", "old": "return 1", "new": "return 2"}
    configure(client, TMP, [plan("Edit"), act("edit_file", edit), finish(), plan()])
    SEEN.apply_mode = "hold"
    before = len(SEEN.apply_edits)
    run_id = (await request(client, "agent/run", {"goal": "Return 2"}))["runId"]
    await wait_until(lambda: len(SEEN.apply_edits) > before, what="the confirmation request")
    assert (await request(client, "agent/cancel", {"runId": run_id}))["status"] == "cancelled"
    await wait_until(lambda: SEEN.withdrawn == 1, what="the request to be withdrawn")
    listed = (await request(client, "agent/proposals", {"runId": run_id}))["proposals"]
    assert [(p["status"], p["comment"]) for p in listed] == [("rejected", "the run was cancelled")]
    assert (ROOT / "app.py").read_text("utf-8") == APP


async def test_execute_tool_input_keys_are_kept_verbatim(client: LanguageClient) -> None:
    """`agent/*` params are plain JSON: a key that is no Python identifier survives."""
    res = await client.protocol.send_request_async("agent/executeTool", {"name": "search_memory", "input": {"query": "x", "class": 1}})
    error = res["error"] if isinstance(res, dict) else res.error
    message = error["message"] if isinstance(error, dict) else error.message
    assert "class" in message  # the executor saw the unknown field by its own name


PYSERVER = Path(__file__).resolve().parents[1] / "tools" / "mcp" / "pyserver.py"


async def test_the_mcp_servers_of_the_settings_are_tools_and_follow_a_change_of_them(
    client: LanguageClient,
) -> None:
    import sys

    from tests.tools.mcp.mcp_servers import alive, gone

    py = {"command": sys.executable, "args": [str(PYSERVER)]}
    configure(client, TMP, mode="full", mcpServers={"py": py, "broken": {"command": "/nonexistent/mcp-server"}})
    tools = {t["name"]: t for t in (await request(client, "agent/tools", {}, timeout=40))["tools"]}
    assert tools["mcp__py__add"]["enabled"] is True and tools["mcp__py__add"]["category"] == "mcp"
    assert tools["mcp__py__add"]["inputSchema"]["required"] == ["a", "b"]
    assert tools["mcp__broken"]["enabled"] is False and "was not found" in tools["mcp__broken"]["disabledReason"]
    added = await request(client, "agent/executeTool", {"name": "mcp__py__add", "input": {"a": 2, "b": 3}})
    assert added == {"ok": True, "output": {"content": "5", "structured_content": {"result": 5}, "truncated": False}}
    pid = int((await request(client, "agent/executeTool", {"name": "mcp__py__pid", "input": {}}))["output"]["content"])
    assert alive(pid)
    configure(client, TMP, mode="full", mcpServers={})  # the server is stopped at once
    tools = {t["name"] for t in (await request(client, "agent/tools", {}))["tools"]}
    assert not [name for name in tools if name.startswith("mcp__")]
    assert await asyncio.to_thread(gone, [pid]), "the server outlived its setting"
