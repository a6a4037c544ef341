"""What the real server says on the wire for each part of docs/lsp-extensions.md.

`capture(tmp)` starts `agentls serve` on stdio three times (an editor that announces
`experimental.agentls.proposals`, one that does not, one that sets `navigation: false`)
against a one-file workspace, drives every `agent/*` request, the code actions, the
commands and the `workspace/applyEdit` fallback with scripted models (`replay:`
transcripts), and returns every message both ways as plain JSON (stdio_client.py). `python -m tests.lsp.docs_capture` prints them: the doc's examples
are cut from that output, and tests/lsp/test_docs_examples.py checks them against it.
Must not know: the doc.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from agentls.tools.proposals.edit import apply_text_edit
from tests.agent.conftest import act, finish, plan
from tests.lsp.stdio_client import Captured, StdioClient

APP = '''"""A tiny shop."""


def price(amount):
    return amount


def total(items):
    return sum(items)


def tax(amount):
    return amount * 0.2


def main():
    return total([1, 2])
'''
# Two changes far apart: two hunks.
NEW_APP = APP.replace('"""A tiny shop."""', '"""A tiny shop: prices, totals and tax."""').replace(
    "return total([1, 2])", "return total([1, 2, 3])"
)
EDITOR_CAPS: dict[str, Any] = {
    "window": {"workDoneProgress": True},
    "workspace": {
        "configuration": True,
        "applyEdit": True,
        "workspaceEdit": {"documentChanges": True, "changeAnnotationSupport": {"groupsOnLabel": True}},
    },
}


def _script(tmp: Path, name: str, turns: list[dict[str, Any]]) -> str:
    path = tmp / f"{name}.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in turns), "utf-8")
    return f"replay:{path}"


def _initialize(client: StdioClient, root: Path, caps: dict[str, Any], options: dict[str, Any]) -> None:
    client.settings = options  # what workspace/configuration answers too
    client.result("initialize", {
        "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": caps,
        "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
        "initializationOptions": options,
    })  # fmt: skip
    client.notify("initialized", {})


def _configure(client: StdioClient, **settings: Any) -> None:
    client.settings = settings
    client.notify("workspace/didChangeConfiguration", {"settings": {"agentls": settings}})


def _apply_hunks(client: StdioClient, proposal: dict[str, Any], indexes: list[int], path: Path, version: int) -> None:
    """What an editor does when the user accepts some hunks: apply their edits to the
    buffer (the server hears didChange), save."""
    edits = [e for h in proposal["hunks"] if h["index"] in indexes for e in h["edits"]]
    data = path.read_bytes()
    for edit in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]), reverse=True):
        data = apply_text_edit(data, edit)
    text = data.decode("utf-8")
    client.notify("textDocument/didChange", {"textDocument": {"uri": path.as_uri(), "version": version}, "contentChanges": [{"text": text}]})
    path.write_bytes(data)


def _with_proposals(client: StdioClient, root: Path, tmp: Path) -> None:
    """An editor that takes `agent/proposal`: runs, hunks, undo, cancel, errors."""
    app = root / "app.py"
    uri = app.as_uri()
    base = {"mode": "dev", "approval": "ask"}
    (root / "AGENTS.md").write_text("Keep the shop's functions small.\n", "utf-8")  # a `rules` event each run
    caps = {**EDITOR_CAPS, "experimental": {"agentls": {"proposals": True}}}
    _initialize(client, root, caps, base)
    client.wait_for(lambda m: m.method == "$/progress" and m.body["value"]["kind"] == "end", what="the index")
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": APP}})
    client.result("agent/tools", {})
    client.result("agent/executeTool", {"name": "read_file", "input": {"path": "app.py", "start_line": 0, "end_line": 4}})
    client.result("agent/executeTool", {"name": "read_file", "input": {"path": "../secrets.txt"}, "mode": "read-only"})

    # A run that proposes an edit of two hunks; the editor applies the first only.
    turns = [
        plan("Update app.py"),
        act("no_such_tool", {}),
        act("write_file", {"path": "app.py", "content": NEW_APP}, content="I will rewrite app.py."),
        finish("Updated the docstring of app.py"),
        plan(),
    ]
    _configure(client, **base, model=_script(tmp, "edit", turns))
    run_id = client.result("agent/run", {"goal": "Describe the shop in the docstring of app.py", "mode": "dev"})["runId"]
    proposal = client.wait_for(lambda m: m.method == "agent/proposal", what="agent/proposal").body
    client.event(run_id, "proposal")  # the run has it too (its events come on its own loop turn)
    client.result("agent/status", {"runId": run_id})
    client.result("agent/proposals", {"runId": run_id})
    _apply_hunks(client, proposal, [0], app, version=2)
    client.result("agent/resolveProposal", {"id": proposal["id"], "decision": "accepted", "hunks": [0], "comment": "keep main as it is"})
    client.event(run_id, "finished")
    client.result("agent/status", {"runId": run_id})
    client.result("agent/cancel", {"runId": run_id})  # an ended run: its final status

    # Undo: one new proposal, rejected here.
    undo = client.result("agent/undo", {"runId": run_id})
    client.wait_for(lambda m: m.method == "agent/proposal" and m.body["id"] == undo["proposalId"], what="the undo proposal")
    client.result("agent/resolveProposal", {"id": undo["proposalId"], "decision": "rejected", "comment": "not now"})

    # Edit before accept: the user changes the proposed text, the editor applies theirs.
    turns = [plan("Rename main"), act("edit_file", {"path": "app.py", "old": "def main():", "new": "def start():"}), finish("Renamed main"), plan()]
    _configure(client, **base, model=_script(tmp, "edited", turns))
    edited_run = client.result("agent/run", {"goal": "Rename main to start"})["runId"]
    edited = client.wait_for(lambda m: m.method == "agent/proposal" and m.body["runId"] == edited_run, what="the proposal to edit").body
    users = app.read_text("utf-8").replace("def main():", "def run_shop():")
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": users}]})
    app.write_text(users, "utf-8")
    client.result("agent/resolveProposal", {"id": edited["id"], "decision": "accepted", "content": {uri: users}})
    client.event(edited_run, "finished")

    # A code action's command starts a run.
    actions = client.result("textDocument/codeAction", {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": 3, "character": 0}, "end": {"line": 4, "character": 17}},
        "context": {"diagnostics": []},
    })  # fmt: skip
    explain = next(a for a in actions if a["title"].startswith("Agent: Explain"))
    syntax_error = {
        "range": {"start": {"line": 4, "character": 4}, "end": {"line": 4, "character": 10}},
        "severity": 1, "source": "agentls", "message": "syntax error near 'return'",
    }  # fmt: skip
    client.result("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": syntax_error["range"],
        "context": {"diagnostics": [syntax_error], "only": ["quickfix"]},
    })  # fmt: skip
    turns = [
        plan("Read price"),
        act("read_file", {"path": "prices.py"}),
        act("read_file", {"path": "app.py", "start_line": 3, "end_line": 5}),
        finish("price returns its argument"),
        plan(),
    ]
    _configure(client, **base, model=_script(tmp, "explain", turns))
    explained = client.result("workspace/executeCommand", {"command": explain["command"]["command"], "arguments": explain["command"]["arguments"]})
    client.event(explained["runId"], "finished")

    # A run that runs out of steps.
    # (its first turn is replayed as a streaming model gave it: `stream` events)
    streamed = {**act("read_file", {"path": "app.py"}), "stream": ['{"name": "read_file", ', '"arguments": {"path": "app.py"}}']}
    turns = [plan("Read twice"), streamed, act("read_file", {"path": "app.py"}), finish()]
    _configure(client, **base, model=_script(tmp, "budget", turns))
    budget = client.result("agent/run", {"goal": "Read app.py twice", "maxSteps": 1})["runId"]
    client.event(budget, "finished")

    # A run with the client's own progress token, cancelled during a model turn.
    slow = act("finish", {"summary": "never"})
    slow["delay_s"] = 60
    _configure(client, **base, shellSandbox="none", model=_script(tmp, "slow", [plan("Wait"), slow]))
    slow_id = client.result("agent/run", {
        "goal": "Wait for a minute", "mode": "full", "approval": "never", "maxSteps": 5,
        "context": {
            "uri": uri, "range": {"start": {"line": 3, "character": 0}, "end": {"line": 5, "character": 0}},
            "diagnostics": [{"range": {"start": {"line": 4, "character": 4}, "end": {"line": 4, "character": 17}}, "message": "unused value", "source": "mylinter"}],
            "mentions": ["@src/util.py", "@diff"],  # neither resolves here: `warning` events
        },
        "workDoneToken": "my-run-1",
    })["runId"]  # fmt: skip
    client.event(slow_id, "status", phase="acting")
    client.result("agent/cancel", {"runId": slow_id})
    client.event(slow_id, "finished")
    client.wait_for(lambda m: m.method == "$/progress" and m.body["token"] == "my-run-1" and m.body["value"]["kind"] == "end", what="the end of my-run-1")

    # Sessions: a follow-up run in the first run's session, then the list.
    _configure(client, **base, model=_script(tmp, "follow-up", [plan("Answer"), finish("It says: a tiny shop"), plan()]))
    session_id = client.result("agent/status", {"runId": run_id})["sessionId"]
    follow_up = client.result("agent/run", {"goal": "What does the docstring say now?", "sessionId": session_id, "mode": "read-only"})["runId"]
    client.event(follow_up, "finished")
    client.result("agent/sessions", {})

    # Plan review: the editor edits the plan, then one run's plan is rejected.
    client.plan_answer = lambda params: {"tasks": [*params["tasks"], "Read prices.py too"]}
    turns = [plan("Read app.py"), act("read_file", {"path": "app.py"}), finish("read"),
             act("read_file", {"path": "prices.py"}), finish("no prices.py"), plan()]  # fmt: skip
    _configure(client, **base, model=_script(tmp, "plan", turns))
    planned = client.result("agent/run", {"goal": "Read app.py", "mode": "read-only", "approval": "plan"})["runId"]
    client.event(planned, "finished")
    client.plan_answer = lambda params: {"decision": "rejected", "comment": "not today"}
    _configure(client, **base, model=_script(tmp, "rejected", [plan("Rewrite app.py")]))
    rejected = client.result("agent/run", {"goal": "Rewrite app.py", "approval": "plan"})["runId"]
    client.event(rejected, "finished")

    # Errors.
    client.request("agent/status", {"runId": "run-000000000000"})
    client.request("agent/run", {"goal": "Go", "sessionId": "ses-0000000000000000"})
    client.request("agent/run", {"goal": "Go", "mode": "turbo"})
    client.request("agent/run", {"goal": "Go", "mode": "read-only", "approval": "auto"})
    client.request("agent/resolveProposal", {"id": proposal["id"], "decision": "accepted", "hunks": [7]})
    client.request("agent/resolveProposal", {"id": edited["id"], "decision": "accepted", "content": {"file:///etc/passwd": "x"}})
    client.request("agent/undo", {"runId": "run-000000000000"})
    client.request("agent/sessions", {})


def _without_proposals(client: StdioClient, root: Path, tmp: Path) -> None:
    """An editor without the capability: proposals come as workspace/applyEdit."""
    _initialize(client, root, EDITOR_CAPS, {"mode": "dev", "approval": "ask"})
    client.result("agent/executeTool", {"name": "write_file", "input": {"path": "NOTES.md", "content": "# Notes\n"}})


def _navigation_off(client: StdioClient, root: Path, tmp: Path) -> None:
    """`navigation: false`: no navigation capabilities, and their requests are refused."""
    _initialize(client, root, {}, {"navigation": False})
    position = {"textDocument": {"uri": (root / "app.py").as_uri()}, "position": {"line": 3, "character": 4}}
    client.request("textDocument/definition", position)


def capture(tmp: Path) -> list[Captured]:
    """Every message of the three sessions, in order."""
    log: list[Captured] = []
    sessions = (("with", _with_proposals), ("without", _without_proposals), ("navigation-off", _navigation_off))
    for name, drive in sessions:
        root = tmp / f"ws-{name}"
        root.mkdir(parents=True)
        (root / "app.py").write_text(APP, "utf-8")
        client = StdioClient(root)
        try:
            drive(client, root, tmp)
        finally:
            client.close()
            log += client.log
    return log


def main() -> int:
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        log = capture(Path(tmp))
    for item in log:
        print(f"### {item.label} {item.method}{'' if item.ok else ' (answered with an error)'}")
        print(json.dumps(item.body, indent=2, ensure_ascii=False))
    print(f"# {len(log)} messages in {time.monotonic() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
