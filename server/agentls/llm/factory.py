"""Model spec string → ChatModel (DESIGN §6).

`openai:<model>` (OpenAI-compatible endpoint; base URL from settings/`--base-url`, key
from the env var named by `api_key_env`), `local` (the embedded model), `local:<path>`
(a GGUF file of the user's), `replay:<file>` (recorded turns). `record` wraps any of them
in a Recorder that appends each turn to that file (replayable with `replay:`).
Constructing a model is cheap and offline: keys, model files and endpoints are checked on
the first turn. Must not know: the agent loop, tools, LSP.
"""

from __future__ import annotations

from agentls.llm.base import ChatModel

SPEC_FORMS = "openai:<model>, local, local:/path/to/model.gguf, replay:<file>"


def make_model(
    spec: str,
    *,
    base_url: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
    record: str | None = None,
) -> ChatModel:
    """The model named by `spec`; ValueError for a spec of no known form."""
    kind, sep, rest = spec.strip().partition(":")
    model: ChatModel
    if kind == "openai" and sep and rest.strip():
        from agentls.llm.openai_provider import OpenAIModel

        model = OpenAIModel(rest.strip(), base_url, api_key_env=api_key_env)
    elif kind == "local" and not sep:
        from agentls.llm.local import LocalModel

        model = LocalModel()
    elif kind == "local" and rest.strip():
        from agentls.llm.local import LocalModel

        model = LocalModel(rest.strip())
    elif kind == "replay" and sep and rest.strip():
        from agentls.llm.replay import ReplayModel

        model = ReplayModel(rest.strip())
    else:
        raise ValueError(f"unknown model spec {spec!r}: use one of {SPEC_FORMS}")
    if record:
        from agentls.llm.replay import Recorder

        model = Recorder(model, record)
    return model
