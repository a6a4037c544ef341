"""End to end through the real server, started with bubblewrap hidden from its PATH:
`agent/tools` lists the shell tools as disabled with the reason when the sandbox the
settings insist on cannot run, `agent/executeTool` refuses them with a `permission`
error; with `shellSandbox: auto` the server picks Landlock, and a shell edit under
approval `ask` reaches the editor as one proposal (create, change, delete) whose
acceptance the editor applies, and whose rejection leaves the files as they were."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from agentls.tools.sandbox import landlock_status
from tests.lsp.agent_harness import Seen, attach, configure, request
from tests.lsp.conftest import SERVER

HIDDEN_BIN = Path(os.environ.get("TMPDIR", "/tmp")) / f"agentls-no-bwrap-{os.getpid()}"
SHELL_TOOLS = ("run_command", "run_test_suite", "install_dependencies")
ROOT: Path
TMP: Path
SEEN: Seen


def _path_without_bwrap() -> str:
    HIDDEN_BIN.mkdir(exist_ok=True)
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        if os.path.isdir(folder):
            for name in os.listdir(folder):
                link = HIDDEN_BIN / name
                if name != "bwrap" and not os.path.lexists(link):
                    link.symlink_to(os.path.join(folder, name))
    return str(HIDDEN_BIN)


ENV = {**os.environ, "PATH": _path_without_bwrap()}


@pytest_lsp.fixture(
    scope="module", config=ClientServerConfig(server_command=SERVER, server_env=ENV)
)
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    global ROOT, TMP, SEEN
    ROOT = tmp_path_factory.mktemp("ws")
    TMP = tmp_path_factory.mktemp("scripts")
    SEEN = attach(lsp_client)
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()
        )
    )
    yield
    await lsp_client.shutdown_session()
    shutil.rmtree(HIDDEN_BIN, ignore_errors=True)


@pytest.fixture(autouse=True)
def files() -> None:
    (ROOT / "keep.py").write_text("x = 1\n")
    (ROOT / "gone.py").write_text("y = 2\n")
    (ROOT / "new.py").unlink(missing_ok=True)
    SEEN.apply_mode = "disk"


async def test_a_sandbox_that_cannot_run_disables_the_shell_tools(client: LanguageClient) -> None:
    configure(client, TMP, mode="ci", shellSandbox="bubblewrap")
    tools = {t["name"]: t for t in (await request(client, "agent/tools", {}))["tools"]}
    for name in SHELL_TOOLS:
        assert tools[name]["enabled"] is False
        assert "bwrap not found on PATH" in tools[name]["disabledReason"]
    result = await request(
        client, "agent/executeTool", {"name": "run_command", "input": {"command": "touch x"}}
    )
    assert result["ok"] is False and result["error"]["type"] == "permission", result
    assert not (ROOT / "x").exists()


COMMAND = "echo new > new.py && echo more >> keep.py && rm gone.py"


@pytest.mark.skipif(not landlock_status()[0], reason=f"Landlock unusable here: {landlock_status()[1]}")
@pytest.mark.parametrize(
    ("answer", "status", "after"),
    [
        ("disk", "applied", {"keep.py": "x = 1\nmore\n", "new.py": "new\n"}),
        ("decline", "rejected", {"gone.py": "y = 2\n", "keep.py": "x = 1\n"}),
    ],
)
async def test_a_shell_edit_is_one_proposal(
    client: LanguageClient, answer: str, status: str, after: dict[str, str]
) -> None:
    configure(client, TMP, mode="ci", approval="ask", shellSandbox="auto")
    tools = {t["name"]: t for t in (await request(client, "agent/tools", {}))["tools"]}
    assert tools["run_command"]["enabled"] is True
    SEEN.apply_mode = answer
    before = len(SEEN.apply_edits)
    result = await request(
        client,
        "agent/executeTool",
        {"name": "run_command", "input": {"command": COMMAND}},
        timeout=30,
    )
    assert result["ok"] is True, result
    output = result["output"]
    assert (output["sandbox"], output["edits"]["status"]) == ("landlock", status), output
    assert sorted(output["edits"]["files"]) == ["gone.py", "keep.py", "new.py"]
    assert len(SEEN.apply_edits) == before + 1  # one proposal for the three files
    on_disk = {p.name: p.read_text() for p in sorted(ROOT.iterdir()) if p.suffix == ".py"}
    assert on_disk == after
