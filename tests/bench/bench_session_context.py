"""How much of the model's window a session's earlier runs take (issue 21, DESIGN §9).

Five follow-up goals in one session (`agentls run … --continue last`) on a copy of
examples/sample-workspace, each writing a ~40-line module, against a scripted
OpenAI-compatible model that records every request. For each run's first request: the
tokens of the whole prompt and of the earlier-runs block (Qwen2.5-Coder's tokenizer when
the embedded model is installed, else characters / 4), against the window the run
assumed. Twice: with the hosted model's default window (32k: the earlier runs may take
8,000 tokens) and with the embedded model's (its 8,192-token context less the reply and
the tool list: 6,144 tokens for the prompt, so the earlier runs may take 1,536; the
provider is made to assume it in the CLI process).

Usage: `.venv/bin/python tests/bench/bench_session_context.py`; results in
tests/bench/results/session_context.json.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.llm.fake_openai import FakeOpenAIServer  # noqa: E402

GOALS = [
    "Add a module src/shop/discounts.py with the store's discount rules",
    "Now add a docstring to every function in it",
    "Add tests for it in tests/test_discounts.py",
    "Rename apply_discount to discounted_price everywhere",
    "Make the default discount 15 percent",
]
MARKER = "The user asked:"
#: The CLI, its OpenAI provider assuming a window of `window` prompt tokens (0: its own).
LAUNCH = """import sys
from agentls.llm import openai_provider as p
if {window}:
    init = p.OpenAIModel.__init__
    def sized(self, *a, **k):
        init(self, *a, **k)
        self.context_tokens = {window}
    p.OpenAIModel.__init__ = sized
from agentls.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def module(n: int) -> str:
    body = [f'"""Discount rules, version {n}."""', "", "DEFAULT_RATE = 0.1", ""]
    for i in range(6):
        body += [f"def rule_{i}(price: float, rate: float = DEFAULT_RATE) -> float:",
                 f"    if price < {10 * (i + 1)}:", "        return price",
                 f"    return round(price * (1 - rate) - {i}, 2)", "", ""]  # fmt: skip
    return "\n".join(body)


class SessionModel(FakeOpenAIServer):
    """Answers by what is asked: a planning turn gets the goal as the one task (then none),
    an acting turn writes the run's module, then finishes."""

    def __init__(self) -> None:
        super().__init__([])
        self.run = 0
        self.planned = False

    def _next(self, body: dict[str, Any], headers: dict[str, str], path: str) -> dict[str, Any]:
        with self._lock:
            self.requests.append({"run": self.run, **body})
        if not body.get("tools"):
            tasks = [] if self.planned else [GOALS[self.run]]
            self.planned = True
            return {"content": json.dumps(tasks)}
        wrote = any(m.get("role") == "tool" for m in body["messages"][-2:])
        if wrote:
            return {"tool_calls": [{"id": "f", "name": "finish", "arguments": json.dumps({"summary": f"Wrote version {self.run} of the discount rules."})}]}
        args = {"path": f"src/shop/discounts_{self.run}.py", "content": module(self.run)}
        return {"tool_calls": [{"id": "w", "name": "write_file", "arguments": json.dumps(args)}]}


def counter() -> Any:
    try:
        from llama_cpp import Llama

        from agentls.llm.local import model_files

        path = model_files.ensure_model(model_files.KNOWN_MODELS["1.5b"])
        vocab = Llama(model_path=str(path), vocab_only=True, verbose=False)
        return "qwen", lambda text: len(vocab.tokenize(text.encode(), add_bos=False, special=False))
    except Exception:
        return "chars/4", lambda text: len(text) // 4


def text_of(messages: list[dict[str, Any]]) -> str:
    return "".join(str(m.get("content") or "") + json.dumps(m.get("tool_calls") or "") for m in messages)


def session(window: int | None, count: Any) -> list[dict[str, Any]]:
    ws = Path(tempfile.mkdtemp(prefix="agentls-session-"))
    shutil.copytree(ROOT / "examples" / "sample-workspace", ws, dirs_exist_ok=True)
    rows = []
    with SessionModel() as server:
        for n, goal in enumerate(GOALS):
            server.run, server.planned = n, False
            cmd = [sys.executable, "-c", LAUNCH.format(window=window or 0), "run", goal, "--workspace", str(ws),
                   "--model", "openai:bench", "--base-url", server.base_url, "--approve", "auto", "--mode", "dev",
                   "--json"]  # fmt: skip
            if n:
                cmd += ["--continue", "last"]
            env = {**os.environ, "OPENAI_API_KEY": "bench"}
            out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
            result = json.loads(out.stdout) if out.stdout.strip().startswith("{") else {}
            first = next(r for r in server.requests if r["run"] == n)
            earlier = next((str(m.get("content")) for m in first["messages"] if MARKER in str(m.get("content") or "")), "")
            usage = result.get("usage") or {}
            rows.append({
                "run": n + 1, "status": result.get("status"), "promptTokens": count(text_of(first["messages"])),
                "earlierTokens": count(earlier), "contextWindow": usage.get("contextWindow"),
                "leftOut": "Left out for want of room" in earlier,
            })  # fmt: skip
    shutil.rmtree(ws, ignore_errors=True)
    return rows


def main() -> None:
    name, count = counter()
    results = {"tokenizer": name, "hosted_default": session(None, count), "embedded_window": session(6144, count)}
    out = ROOT / "tests" / "bench" / "results" / "session_context.json"
    out.write_text(json.dumps(results, indent=2) + "\n")
    for key in ("hosted_default", "embedded_window"):
        print(key)
        for row in results[key]:
            print("  ", row)


if __name__ == "__main__":
    main()
