"""End to end: `shutdown` stops the agent first — a run waiting for a decision is
cancelled, its proposal rejected, and its `finished` event arrives before the answer."""

from __future__ import annotations

from pathlib import Path

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
    caps.experimental = {"agentls": {"proposals": True}}
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=caps, root_uri=ROOT.as_uri())
    )
    yield
    lsp_client.exit(None)  # the test sent `shutdown` itself


async def test_shutdown_cancels_a_run_waiting_for_a_decision(client: LanguageClient) -> None:
    edit = {"path": "app.py", "old": "return 1", "new": "return 2"}
    configure(
        client, TMP, [plan("Edit"), act("edit_file", edit), finish(), plan()], proposalTimeoutS=120
    )
    run_id = (await request(client, "agent/run", {"goal": "Return 2"}))["runId"]
    await wait_until(lambda: SEEN.proposals, what="agent/proposal")
    await client.shutdown_async(None)
    end = SEEN.finished(run_id)
    assert end is not None and end["status"] == "cancelled"  # sent before the answer
    resolved = [
        e["proposal"]
        for e in SEEN.run_events(run_id)
        if e["kind"] == "proposal" and e["action"] == "resolved"
    ]
    assert [(p["status"], p["comment"]) for p in resolved] == [
        ("rejected", "the run was cancelled")
    ]
    assert (ROOT / "app.py").read_text("utf-8") == APP
