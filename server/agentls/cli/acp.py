"""`agentls acp`: the agent over the Agent Client Protocol on stdio (DESIGN §7, §10).

The flags and `--settings` are the defaults of every session: the model, its endpoint,
the permission mode (a session mode the client can change) and the approval (a session
config option; `plan`: each prompt's plan is put to the user first, DESIGN §9).
"""

from __future__ import annotations

import argparse
import sys

from agentls.cli import Subcommand, helptext
from agentls.cli.settings_option import SettingsError, add_settings_argument, load_settings


def _add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", help="model spec (local, openai:<model>, replay:<file>)")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint for openai: models")
    parser.add_argument("--mode", choices=["read-only", "dev", "ci", "full"], help="default permission mode")
    parser.add_argument("--approve", choices=["ask", "auto", "never", "plan"], help="default approval")
    add_settings_argument(parser)
    helptext.explain(parser, helptext.section("how an editor uses it:", [
        ("start", "`agentls acp`: ACP (JSON-RPC, one message a line) on stdin and stdout, logs on stderr"),
        ("Zed", 'settings.json: "agent_servers": {"agentls": {"command": "agentls", "args": ["acp"]}}'),
    ]), helptext.exit_codes([
        ("0", "the client closed the connection"),
        ("2", "bad usage: an unknown flag or value, bad --settings"),
    ]))  # fmt: skip


def _run(args: argparse.Namespace) -> int:
    from agentls.acp.stdio import serve
    from agentls.llm.factory import make_model

    try:
        configured = load_settings(args.settings)
    except SettingsError as exc:
        print(f"agentls: {exc}", file=sys.stderr)
        return 2
    flags = {"mode": args.mode, "approval": args.approve, "model": args.model, "baseUrl": args.base_url}
    raw = configured.model_dump(by_alias=True)
    raw.update({k: v for k, v in flags.items() if v is not None})
    settings = type(configured).model_validate(raw)

    def model():  # noqa: ANN202 - made on the first prompt, in a worker thread
        return make_model(settings.model, base_url=settings.base_url, api_key_env=settings.api_key_env,
                          tool_protocol=settings.tool_protocol)  # fmt: skip

    return serve(settings, model)


SUBCOMMANDS = [Subcommand("acp", "the agent over the Agent Client Protocol on stdio (Zed, JetBrains, Neovim, Emacs)", _add, _run)]
