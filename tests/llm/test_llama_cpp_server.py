"""End to end through a real third-party OpenAI-compatible server: llama-cpp-python's own
(`python -m llama_cpp.server`, its `server` extra's dependencies are in our `dev` extra)
serving the embedded 0.5B GGUF on a loopback port, with the chat format issue 11 was
filed against (`chatml-function-calling`: with many tools offered natively it answers
`functions.read_file:` and no call, and it refuses `response_format: json_schema` with
HTTP 500). Under `toolProtocol: auto` the run must still complete a read-and-summarise
goal: native first, then the json protocol, where the `json_object` shape works.

Marked `local_model` and skipped, like the other real-model tests, unless llama-cpp-python
and the 0.5B parts are installed (CI installs both). Bounded: the server must answer
within SERVER_START_S, the run within RUN_S (the agent's own time budget, then a hard
timeout), each HTTP request within REQUEST_S; on failure the server's log tail is shown.
The server runs one thread (the machine is shared).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agentls.agent.agent import Agent, RunSettings
from agentls.llm.local import model_files
from agentls.llm.openai_provider import OpenAIModel
from agentls.tools.proposals import ProposalStore
from agentls.workspace import Workspace

MODEL = model_files.KNOWN_MODELS["0.5b"]
SERVER_START_S = 120.0
RUN_S = 540.0
REQUEST_S = 240.0
pytestmark = [
    pytest.mark.local_model,
    pytest.mark.skipif(
        importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python not installed"
    ),
    pytest.mark.skipif(
        not model_files.is_installed(MODEL), reason="the 0.5B model parts are not installed"
    ),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tail(path: Path, chars: int = 3000) -> str:
    return path.read_text("utf-8", errors="replace")[-chars:] if path.exists() else "(no log)"


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The base URL of a llama-cpp-python server on 127.0.0.1, and its log file."""
    gguf = model_files.ensure_model(MODEL)
    port = _free_port()
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(gguf),
        "--chat_format", "chatml-function-calling", "--model_alias", "qwen-0.5b",
        "--n_threads", "1", "--n_threads_batch", "1", "--n_ctx", "8192",
        "--host", "127.0.0.1", "--port", str(port),
    ]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**__import__("os").environ, "OMP_WAIT_POLICY": "PASSIVE"},
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + SERVER_START_S
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"llama-cpp-python's server exited with {proc.returncode} "
                    f"(are its dependencies installed? pip install -e '.[dev]'):\n{_tail(log)}"
                )
            try:
                with urllib.request.urlopen(f"{base}/models", timeout=5) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama-cpp-python's server did not start in {SERVER_START_S:g} s:\n{_tail(log)}")
            time.sleep(0.5)
        yield base, log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


async def _run_once(base: str, log: Path, root: Path) -> tuple[Any, OpenAIModel, list[dict[str, Any]]]:
    root.mkdir()
    (root / "notes.txt").write_text(
        "The launch code word is PELICAN.\nThe meeting moved to Thursday.\n", "utf-8"
    )
    workspace = Workspace(str(root))
    events: list[dict[str, Any]] = []
    model = OpenAIModel(
        "qwen-0.5b", base, api_key="not-needed", tool_protocol="auto",
        context_tokens=8192, timeout_s=REQUEST_S,
    )  # fmt: skip
    agent = Agent(
        workspace=workspace,
        model=model,
        settings=RunSettings(mode="read-only", approval="never", max_steps=6, time_budget_s=RUN_S),
        proposals=ProposalStore(workspace),
        on_event=lambda event: events.append(event.to_dict()),
    )
    try:
        state = await asyncio.wait_for(agent.run("Summarise notes.txt"), RUN_S + 60)
    except TimeoutError:
        pytest.fail(f"the run did not end within {RUN_S + 60:g} s; server log:\n{_tail(log)}")
    finally:
        await model.aclose()
    return state, model, events


async def test_a_run_completes_through_llama_cpp_server_with_auto_protocol(
    llama_server: tuple[str, Path], tmp_path: Path
) -> None:
    base, log = llama_server
    # The 0.5B itself is the weak part: in CI one run in several went round in circles
    # (read_file three times) after the protocol had settled. A second run with a fresh
    # agent on the same server must then complete: the endpoint works, the model wavers.
    for attempt in range(2):
        state, model, events = await _run_once(base, log, tmp_path / f"ws{attempt}")
        if state.status == "completed":
            break
    shown = json.dumps(events, ensure_ascii=False)[-4000:]
    assert state.status == "completed", f"{state.error}\nevents: {shown}\nserver:\n{_tail(log)}"
    assert state.summary and state.summary.strip()
    notices = [e["notice"] for e in events if e["kind"] == "status" and e.get("notice")]
    assert model.protocol.settled, notices
    shape = model.protocol.shape  # json_object in every run so far (README § tool protocols)
    assert shape in ("native", "json_object"), (shape, notices)  # json_schema: HTTP 500 here
