"""Driving `agentls acp` with the official TypeScript SDK's client side (tests/clients/acp_client.mjs) against
the scripted OpenAI-compatible model server: `drive(...)` plays a scenario and returns what
the client saw, in order, with the requests the model received."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.clients import node, package
from tests.llm.fake_openai import FakeOpenAIServer

CLIENT = Path(__file__).resolve().parents[1] / "clients" / "acp_client.mjs"
USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def call(name: str, arguments: dict[str, Any], n: int) -> dict[str, Any]:
    return {"tool_calls": [{"id": f"call_{n}", "name": name, "arguments": json.dumps(arguments)}], "usage": USAGE}


def plan(*tasks: str) -> dict[str, Any]:
    return {"content": json.dumps(list(tasks)), "usage": USAGE}


def drive(
    tmp_path: Path, script: list[dict[str, Any]], steps: list[dict[str, Any]], *,
    flags: tuple[str, ...] = ("--mode", "dev", "--approve", "ask"), timeout_s: float = 60,
    **scenario: Any,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:  # fmt: skip
    """Play `steps` against `agentls acp FLAGS` with the model answering `script`: the
    client's log and the model's requests."""
    package("@agentclientprotocol/sdk")
    with FakeOpenAIServer(script) as server:
        command = [sys.executable, "-m", "agentls.cli", "acp", "--model", "openai:test-model",
                   "--base-url", server.base_url, *flags]  # fmt: skip
        spec = {"command": command, "steps": steps, "timeoutMs": int(timeout_s * 1000) - 5000,
                "env": {"PYTHONPATH": os.pathsep.join(sys.path)}, **scenario}  # fmt: skip
        path = tmp_path / "scenario.json"
        path.write_text(json.dumps(spec), "utf-8")
        proc = subprocess.run(
            [node(), str(CLIENT), str(path)], capture_output=True, text=True, timeout=timeout_s,
            cwd=CLIENT.parent,
        )  # fmt: skip
        requests = list(server.requests)
    assert proc.stdout.strip(), f"the client printed nothing (exit {proc.returncode}): {proc.stderr[-3000:]}"
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert proc.returncode == 0, f"client exit {proc.returncode}: {out['log'][-3:]}\n{proc.stderr[-3000:]}"
    out["stderr"] = proc.stderr
    return out, requests


def updates(out: dict[str, Any], kind: str | None = None) -> list[dict[str, Any]]:
    found = [e["update"] for e in out["log"] if e["type"] == "update"]
    return [u for u in found if kind is None or u["sessionUpdate"] == kind]


def responses(out: dict[str, Any], op: str) -> list[dict[str, Any]]:
    return [e for e in out["log"] if e["type"] == "response" and e["op"] == op]


def workspace(tmp_path: Path) -> Path:
    """A one-file workspace: app.py's main returns 1."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "app.py").write_text("def main():\n    return 1\n", "utf-8")
    return root


def one_edit(summary: str = "main now returns 2") -> list[dict[str, Any]]:
    """The model's turns for one edit of app.py (return 1 → return 2), then finish."""
    return [
        plan("Make main return 2"),
        call("edit_file", {"path": "app.py", "old": "return 1", "new": "return 2"}, 1),
        call("finish", {"summary": summary}, 2),
        plan(),
    ]
