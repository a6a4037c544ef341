"""`agentls run "GOAL"`: a headless agent run (DESIGN §7).

Progress goes to stderr (tasks, tool calls and results, a spinner while the model thinks
when stderr is a terminal); each proposal is shown as a coloured diff and, with
`--approve ask` on a terminal, asked about (accept, hunk by hunk, or reject with a comment
that goes back to the model: cli/review.py); the run's trace goes to
`.agentls/runs/<runId>.json` (for `agentls undo`); the final summary goes to stdout, or with `--json` one JSON object
`{runId, sessionId, status, summary, tasks, steps, proposals, verification, usage}`. Exit 0
only when the run completed. Every run belongs to a session (DESIGN §9,
`.agentls/sessions/`): a new one, or with `--continue SESSION_ID|last` the one named (the
run then sees the earlier runs); its id is said on stderr so the user can continue it.
The run is started as every front end starts one (`agent.launch.start_run`); this module
adds the terminal: the approval policy (`auto` outside dev/full is asked about instead,
with a warning; without a terminal `ask` becomes `never` and `plan` is refused), the
reviewer, the plan review (cli/plans.py), the progress.
Must not know: the loop's internals (it listens to the run's events).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import sys
import threading
from typing import Any

from agentls.cli import Subcommand, helptext
from agentls.cli.settings_option import SettingsError, add_settings_argument, load_settings

APPROVALS = helptext.APPROVAL_CHOICES
MODES = helptext.MODE_CHOICES
EXIT_CODES = [
    ("0", "the run completed"),
    ("1", "the run ended otherwise: failed, cancelled (Ctrl-C) or budget_exhausted (out of "
          "steps, tokens, time or cost)"),
    ("2", "bad usage: an unknown flag or value, bad --settings, a workspace that is not a "
          "folder, a model spec that cannot be used, an unknown session to --continue, "
          "--approve plan without a terminal"),
]  # fmt: skip


def _add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("goal", help="what the agent should achieve")
    parser.add_argument("--workspace", default=".", help="the workspace root (default: the current folder)")
    parser.add_argument("--mode", choices=MODES, default=None, help="what the agent's tools may do (below; default: settings, dev)")
    parser.add_argument("--approve", choices=(*APPROVALS, "plan"), default=None, help="what happens to proposed edits (below; default: settings, ask)")
    parser.add_argument("--continue", dest="session", metavar="SESSION_ID|last", default=None,
                        help="continue a session of this workspace (last: the most recently updated one)")
    parser.add_argument("--model", default=None, help="openai:<model>, local, local:/path.gguf, replay:<file> (default: local)")
    parser.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint for openai:<model>")
    parser.add_argument("--max-steps", type=int, default=None, help="acting turns at most (default 30)")
    parser.add_argument("--record", default=None, help="append every model turn to FILE (replayable with replay:FILE)")
    parser.add_argument("--json", action="store_true", help="print one JSON object with the result")
    add_settings_argument(parser)
    helptext.explain(parser, helptext.modes(), helptext.approvals(plan=True), helptext.exit_codes(EXIT_CODES))


#: Characters of the model's streamed output shown on the live line.
STREAM_SHOWN = 100


class _Progress:
    """Prints run events on stderr; a spinner runs while the model is thinking."""

    COLORS = {"+": "\x1b[32m", "-": "\x1b[31m", "@": "\x1b[36m"}

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self._spin: threading.Thread | None = None
        self._stop = threading.Event()
        self.lock = threading.Lock()
        self._stream = ""

    def line(self, text: str) -> None:
        self._stream = ""
        with self.lock:
            if self.tty:
                sys.stderr.write("\r\x1b[K")
            sys.stderr.write(text.rstrip("\n") + "\n")
            sys.stderr.flush()

    def diff(self, text: str) -> None:
        for raw in (text or "(no textual change)\n").splitlines():
            color = self.COLORS.get(raw[:1], "") if self.tty and not raw.startswith(("+++", "---")) else ""
            self.line(f"{color}{raw}\x1b[0m" if color else raw)

    def streamed(self, text: str) -> None:
        """Show the tail of what the model is writing on one line (terminals only)."""
        if not self.tty or not text:
            return
        self.thinking(False)
        self._stream = (self._stream + text)[-STREAM_SHOWN:]
        shown = " ".join(self._stream.split())[-STREAM_SHOWN:]
        with self.lock:
            sys.stderr.write(f"\r\x1b[K  ✎ {shown}")
            sys.stderr.flush()

    def thinking(self, on: bool) -> None:
        if not self.tty:
            return
        if on and self._spin is None:
            self._stop.clear()
            self._spin = threading.Thread(target=self._spinner, daemon=True)
            self._spin.start()
        elif not on and self._spin is not None:
            self._stop.set()
            self._spin.join()
            self._spin = None

    def _spinner(self) -> None:
        for ch in itertools.cycle("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"):
            if self._stop.wait(0.1):
                break
            with self.lock:
                sys.stderr.write(f"\r{ch} thinking…")
                sys.stderr.flush()
        with self.lock:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _short(value: Any, limit: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _on_event(progress: _Progress) -> Any:
    def handle(event: Any) -> None:
        kind, data = event.kind, event.data
        progress.thinking(False)
        if kind == "status":  # a model turn is about to start, or news about the model
            if data.get("notice"):
                progress.line(f"  i {data['notice']}")
            progress.thinking(True)
            return
        if kind == "stream":  # the model's output as it comes: a live line on a terminal
            progress.streamed(str(data.get("text") or ""))
            return
        if kind == "task":
            progress.line(f"• task [{data.get('status', '')}] {data.get('title', '')}")
        elif kind == "thought" and data.get("text"):
            progress.line(f"  … {_short(data['text'])}")
        elif kind == "tool_call":
            progress.line(f"  → {data.get('name')}({_short(data.get('arguments', data.get('input', {})), 120)})")
        elif kind == "tool_result":
            if data.get("ok", True):
                progress.line(f"  ← {data.get('name', '')}: {_short(data.get('output', ''), 160)}")
            else:
                progress.line(f"  ✗ {data.get('name', '')}: {_short(data.get('error', ''), 160)}")
        elif kind == "error":
            progress.line(f"  ! {_short(data.get('message', data), 200)}")
        elif kind == "rules":  # the project's rules files, read into the instructions
            files = ", ".join(f["path"] + (" (cut to the budget)" if f["cut"] else "") for f in data.get("files", []))
            progress.line(f"• rules: {files}")
        elif kind == "warning":  # a mention or rules file the run goes on without
            progress.line(f"  ! warning: {_short(data.get('message', data), 200)}")

    return handle


def _run(args: argparse.Namespace) -> int:
    from agentls.agent.launch import RunHandle, RunRequest, RunRequestError, Workbench, start_run
    from agentls.agent.sessions import SessionError, SessionStore
    from agentls.cli.plans import terminal_review
    from agentls.cli.review import proposal_listener
    from agentls.llm.base import ModelError
    from agentls.llm.factory import make_model
    from agentls.tools.permissions import AUTO_APPROVE_MODES, approval_for
    from agentls.workspace import Workspace

    if not os.path.isdir(args.workspace):
        print(f"agentls: workspace {args.workspace!r} is not a directory", file=sys.stderr)
        return 2
    try:
        configured = load_settings(args.settings)  # flags win over it
    except SettingsError as exc:
        print(f"agentls: {exc}", file=sys.stderr)
        return 2
    mode = args.mode or configured.mode
    asked = args.approve or configured.approval
    if asked == "plan" and not sys.stdin.isatty():
        print("agentls: --approve plan needs a terminal to show the plan on (stdin is not one); use ask or never", file=sys.stderr)
        return 2
    grant = approval_for(mode, asked, interactive=sys.stdin.isatty())
    if "mode_forbids_auto" in grant.applied:
        print(f"agentls: --approve auto needs mode dev or full (got {mode}); proposals will wait for a decision", file=sys.stderr)
    if "no_one_to_ask" in grant.applied and mode in AUTO_APPROVE_MODES:
        print("agentls: no terminal to ask on: proposals stay pending (use --approve auto to apply)", file=sys.stderr)
    request = RunRequest(args.goal, mode=mode, approval="plan" if grant.plan else grant.approval, max_steps=args.max_steps)
    try:
        request.check(configured)
        session = _session(args.workspace, args.session)
    except RunRequestError as exc:
        print(f"agentls: {exc.message}", file=sys.stderr)
        return 2
    except SessionError as exc:
        print(f"agentls: --continue: {exc}", file=sys.stderr)
        return 2
    progress = _Progress()
    bench = Workbench.open(Workspace(args.workspace), settings=configured)
    bench.proposals.add_listener(proposal_listener(progress, bench.proposals, grant.approval == "ask"))
    try:
        model = make_model(
            args.model or configured.model,
            base_url=args.base_url or configured.base_url,
            api_key_env=configured.api_key_env,
            record=args.record,
            tool_protocol=configured.tool_protocol,
        )
    except (ValueError, ModelError) as exc:
        print(f"agentls: {exc}", file=sys.stderr)
        return 2
    facts = {"model": args.model or configured.model, "recording": args.record}
    started: list[RunHandle] = []

    if session is None:
        session = SessionStore(args.workspace).create()

    async def main() -> Any:
        handle = start_run(bench, request, settings=configured, model=model, listener=_on_event(progress),
                           close_model=True, facts=facts, session=session,
                           plan_review=terminal_review(progress) if grant.plan else None)  # fmt: skip
        started.append(handle)
        return await handle.wait()

    try:
        state = asyncio.run(main())
    except KeyboardInterrupt:
        if not started:
            raise
        started[0].cancel()
        state = started[0].state
    finally:
        progress.thinking(False)
        bench.close()  # its MCP servers
    run_id, trace = started[0].run_id, started[0].trace
    trace.close()
    progress.line(f"agentls: run {run_id}; its trace is {trace.path} (undo: agentls undo {run_id})")
    progress.line(f"agentls: session {session.session_id} (continue it: agentls run GOAL --continue {session.session_id})")
    result = state.to_dict()
    if args.json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    else:
        print(f"[{_status_tag(result)}] {result.get('summary') or state.error or ''}".rstrip())
    return 0 if result["status"] == "completed" else 1


def _session(workspace: str, wanted: str | None) -> Any:
    """The session `--continue` names (`last`: the most recently updated), or None for a new
    one; SessionError when there is no such session."""
    from agentls.agent.sessions import SessionError, SessionStore

    if wanted is None:
        return None
    store = SessionStore(workspace)
    if wanted == "last":
        found = store.list()
        if not found:
            raise SessionError("no session to continue in this workspace (.agentls/sessions is empty)")
        return found[0]
    return store.load(wanted)


def _status_tag(result: dict[str, Any]) -> str:
    """"completed, verified" / "completed, unverified" (DESIGN §9: a run no check could
    confirm is shown unverified; the summary says why)."""
    verified = (result.get("verification") or {}).get("verified", "absent")
    if result["status"] != "completed" or verified == "absent":
        return str(result["status"])
    return f"completed, {'verified' if verified else 'unverified' if verified is None else 'check failed'}"


SUBCOMMANDS = [Subcommand("run", "run the agent on a goal, headless", _add, _run)]
