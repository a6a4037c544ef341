"""Model spec strings → providers (DESIGN §6)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from agentls.llm.factory import SPEC_FORMS, make_model
from agentls.llm.local import LocalModel
from agentls.llm.openai_provider import OpenAIModel

HAS_REPLAY = importlib.util.find_spec("agentls.llm.replay") is not None


@pytest.mark.parametrize(
    ("spec", "kwargs", "cls", "checks"),
    [
        (
            "openai:gpt-4o-mini",
            {},
            OpenAIModel,
            {
                "name": "openai:gpt-4o-mini",
                "model": "gpt-4o-mini",
                "base_url": "https://api.openai.com/v1",
                "api_key_env": "OPENAI_API_KEY",
            },
        ),
        (
            " openai:qwen2.5-coder:7b ",
            {"base_url": "http://127.0.0.1:11434/v1/", "api_key_env": "MY_KEY"},
            OpenAIModel,
            {
                "model": "qwen2.5-coder:7b",
                "base_url": "http://127.0.0.1:11434/v1",
                "api_key_env": "MY_KEY",
            },
        ),
        ("local", {}, LocalModel, {"name": "local"}),
        ("local:/models/my.gguf", {}, LocalModel, {"name": "local:/models/my.gguf"}),
    ],
)
def test_specs(spec: str, kwargs: dict[str, str], cls: type, checks: dict[str, str]) -> None:
    model = make_model(spec, **kwargs)  # type: ignore[arg-type]
    assert isinstance(model, cls)
    for attr, value in checks.items():
        assert getattr(model, attr) == value


@pytest.mark.parametrize(
    "spec", ["", "openai", "openai:", "gpt-4o", "local:", "replay:", "anthropic:claude", "LOCAL"]
)
def test_unknown_specs_list_the_accepted_forms(spec: str) -> None:
    with pytest.raises(ValueError) as info:
        make_model(spec)
    assert SPEC_FORMS in str(info.value)


@pytest.mark.skipif(not HAS_REPLAY, reason="agentls.llm.replay not written yet")
def test_replay_and_record(tmp_path: Path) -> None:
    from agentls.llm.replay import Recorder, ReplayModel

    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"response": {"content": "[]", "tool_calls": []}}\n')
    assert isinstance(make_model(f"replay:{transcript}"), ReplayModel)
    recorded = make_model("local", record=str(tmp_path / "out.jsonl"))
    assert isinstance(recorded, Recorder)


def test_making_models_loads_nothing() -> None:
    """Importing and constructing never imports llama_cpp nor touches model files."""
    code = (
        "import sys; from agentls.llm.factory import make_model; "
        "make_model('local'); make_model('local:/nonexistent.gguf'); make_model('openai:m'); "
        "print('llama_cpp' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "False"


def test_the_embedded_model_is_shared_between_runs() -> None:
    assert make_model("local") is make_model("local")
    assert make_model("local:/models/a.gguf") is make_model("local:/models/a.gguf")
    assert make_model("local:/models/a.gguf") is not make_model("local")
