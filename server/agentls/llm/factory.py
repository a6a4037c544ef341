"""Model spec string → ChatModel (DESIGN §6).

`openai:<model>` (OpenAI-compatible endpoint; base URL from settings/`--base-url`, key
from the env var named by `api_key_env`, tool calls by `tool_protocol`), `local` (the embedded model), `local:<path>`
(a GGUF file of the user's), `replay:<file>` (recorded turns). `record` wraps any of them
in a Recorder that appends each turn to that file (replayable with `replay:`).
Constructing a model is cheap and offline: keys, model files and endpoints are checked on
the first turn. Must not know: the agent loop, tools, LSP.
"""

from __future__ import annotations

import threading
from typing import Any

from agentls.llm.base import ChatModel

_LOCAL: dict[str | None, Any] = {}  # one embedded model per file, shared by every run
_LOCAL_LOCK = threading.Lock()

SPEC_FORMS = "openai:<model>, local, local:/path/to/model.gguf, replay:<file>"


def make_model(
    spec: str,
    *,
    base_url: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
    record: str | None = None,
    tool_protocol: str = "auto",
) -> ChatModel:
    """The model named by `spec`; ValueError for a spec of no known form."""
    kind, sep, rest = spec.strip().partition(":")
    model: ChatModel
    if kind == "openai" and sep and rest.strip():
        from agentls.llm.openai_provider import OpenAIModel

        model = OpenAIModel(
            rest.strip(), base_url, api_key_env=api_key_env, tool_protocol=tool_protocol
        )
    elif kind == "local" and not sep:
        model = _local(None)
    elif kind == "local" and rest.strip():
        model = _local(rest.strip())
    elif kind == "replay" and sep and rest.strip():
        from agentls.llm.replay import ReplayModel

        model = ReplayModel(rest.strip())
    else:
        raise ValueError(f"unknown model spec {spec!r}: use one of {SPEC_FORMS}")
    if record:
        from agentls.llm.replay import Recorder

        model = Recorder(model, record)
    return model


def _local(path: str | None) -> ChatModel:
    """The embedded model is shared: one `Llama` per file in the process, so runs reuse
    its loaded weights and prompt prefix (a server runs many). Closing it only frees the
    weights; the next turn loads them again."""
    from agentls.llm.local import LocalModel

    with _LOCAL_LOCK:
        model = _LOCAL.get(path)
        if model is None:
            model = _LOCAL[path] = LocalModel(path) if path else LocalModel()
        return model  # type: ignore[no-any-return]
