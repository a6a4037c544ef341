"""Prompt-evaluation and generation speed of an embedded model with 1 and 2 threads.

Usage: `.venv/bin/python tests/bench/bench_local_threads.py [0.5b|1.5b]` (the model must be
assembled in the cache: run the agent with it once). Prints tokens/s per thread count for
a ~900-token prompt and 40 generated tokens. Run on demand; the machine's load decides the
answer (README § The agent on the embedded models).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from llama_cpp import Llama  # noqa: E402

from agentls.llm.local.model_files import KNOWN_MODELS, cache_dir  # noqa: E402

SOURCE = Path(__file__).parents[2] / "server" / "agentls" / "agent" / "loop.py"


def main(size: str = "0.5b") -> None:
    path = cache_dir() / KNOWN_MODELS[size].filename
    text = SOURCE.read_text(encoding="utf-8")[:4000]
    print(f"load average {os.getloadavg()}")
    for threads in (1, 2):
        llama = Llama(model_path=str(path), n_ctx=4096, n_threads=threads, n_threads_batch=threads, verbose=False)
        tokens = llama.tokenize(text.encode())
        start = time.perf_counter()
        llama.eval(tokens)
        prompt_s = time.perf_counter() - start
        start, n = time.perf_counter(), 0
        for _ in llama.generate(tokens[-1:], temp=0):
            n += 1
            if n >= 40:
                break
        gen_s = time.perf_counter() - start
        print(f"{size} threads={threads}: prompt {len(tokens) / prompt_s:.0f} tok/s, generation {n / gen_s:.1f} tok/s")
        del llama


if __name__ == "__main__":
    main(*sys.argv[1:2])
