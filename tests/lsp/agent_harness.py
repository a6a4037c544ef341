"""Helpers for the end-to-end `agent/*` tests: a small workspace, scripted model transcripts
set through `workspace/didChangeConfiguration`, a client-side record of what the server
sends (`agent/event`, `agent/proposal`, `workspace/applyEdit`), and an applyEdit handler
that behaves like an editor (applies the edit on disk, applies it only to its buffer, or
declines, or holds the confirmation until the server withdraws it)."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from lsprotocol import converters
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from agentls.lsp.params import plain
from agentls.tools.proposals.edit import apply_text_edit

APP = "def main():\n    return 1\n"
_converter = converters.get_converter()
_scripts = itertools.count(1)


def make_workspace(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "app.py").write_text(APP, "utf-8")
    (root / "src" / "util.py").write_text("def helper(x):\n    return x * 2\n", "utf-8")
    return root


def path_of(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


def apply_on_disk(edit: dict[str, Any]) -> None:
    """Apply a WorkspaceEdit (plain JSON) to the files, as an editor would."""
    for change in edit.get("documentChanges") or []:
        if change.get("kind") == "create":
            path_of(change["uri"]).write_bytes(b"")
            continue
        if change.get("kind") == "delete":
            path_of(change["uri"]).unlink(missing_ok=True)
            continue
        path = path_of(change["textDocument"]["uri"])
        data = path.read_bytes()
        for text_edit in _last_first(change["edits"]):
            data = apply_text_edit(data, text_edit)
        path.write_bytes(data)


def _last_first(edits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Edits against one text, applied from the end so earlier ranges stay valid."""
    start = lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"])  # noqa: E731
    return sorted(edits, key=start, reverse=True)


def apply_hunks_on_disk(proposal: dict[str, Any], indexes: list[int]) -> None:
    """What an editor does for a per-hunk acceptance: only the chosen hunks' edits."""
    chosen = [h for h in proposal["hunks"] if h["index"] in indexes]
    by_uri: dict[str, list[dict[str, Any]]] = {}
    for hunk in chosen:
        by_uri.setdefault(hunk["uri"], []).extend(hunk["edits"])
    apply_on_disk(
        {"documentChanges": [
            {"textDocument": {"uri": uri, "version": None}, "edits": edits}
            for uri, edits in by_uri.items()
        ]}  # fmt: skip
    )


@dataclass
class Seen:
    """What the client received from the server, and how its applyEdit handler answers."""

    events: list[dict[str, Any]] = field(default_factory=list)
    proposals: list[dict[str, Any]] = field(default_factory=list)
    apply_edits: list[dict[str, Any]] = field(default_factory=list)
    apply_mode: str = "disk"  # disk | buffer (applied, nothing written) | decline | hold
    withdrawn: int = 0  # held applyEdit requests the server cancelled

    def run_events(self, run_id: str, *, skip: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        return [e for e in self.events if e["runId"] == run_id and e["kind"] not in skip]

    def finished(self, run_id: str) -> dict[str, Any] | None:
        return next((e for e in self.run_events(run_id) if e["kind"] == "finished"), None)


def attach(client: LanguageClient) -> Seen:
    seen = Seen()

    @client.feature("agent/event")
    def on_event(params: Any) -> None:
        seen.events.append(plain(params))

    @client.feature("agent/proposal")
    def on_proposal(params: Any) -> None:
        seen.proposals.append(plain(params))

    @client.feature(lsp.WORKSPACE_APPLY_EDIT)
    async def on_apply_edit(params: lsp.ApplyWorkspaceEditParams) -> lsp.ApplyWorkspaceEditResult:
        raw = _converter.unstructure(params)
        seen.apply_edits.append(raw)
        if seen.apply_mode == "hold":  # the user looks at the confirmation for a long time
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                seen.withdrawn += 1
                raise
        if seen.apply_mode == "decline":
            return lsp.ApplyWorkspaceEditResult(
                applied=False, failure_reason="not this way, please"
            )
        if seen.apply_mode == "disk":
            apply_on_disk(raw["edit"])
        return lsp.ApplyWorkspaceEditResult(applied=True)

    @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: lsp.RegistrationParams) -> None:
        return None

    return seen


def configure(
    client: LanguageClient, tmp: Path, script: list[dict[str, Any]] | None = None, **settings: Any
) -> None:
    """New settings for the server (the whole section); with a script, a fresh replay model."""
    values: dict[str, Any] = {"mode": "dev", "approval": "ask", "proposalTimeoutS": 15, **settings}
    if script is not None:
        path = tmp / f"script-{next(_scripts)}.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in script), "utf-8")
        values["model"] = f"replay:{path}"
    client.workspace_did_change_configuration(
        lsp.DidChangeConfigurationParams(settings={"agentls": values})
    )


async def request(
    client: LanguageClient, method: str, params: dict[str, Any], timeout: float = 15.0
) -> Any:
    result = await asyncio.wait_for(client.protocol.send_request_async(method, params), timeout)
    return plain(result)


async def wait_until(
    check: Callable[[], Any], timeout: float = 10.0, what: str = "condition"
) -> Any:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = check()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)
