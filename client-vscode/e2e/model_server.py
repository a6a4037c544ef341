"""The scripted OpenAI-compatible model server of the end-to-end tests, as a process.

`python model_server.py SCRIPT.json REQUESTS.json` serves the turns of SCRIPT (a JSON list,
the turn format of `tests/llm/fake_openai.py`: content, tool_calls, delay, status) on
127.0.0.1 (a free port), prints its base URL (`http://127.0.0.1:PORT/v1`) as the first line
of stdout, and rewrites REQUESTS after every request with every request body received so
far, so a test can check what the model was told. It runs until it is terminated.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.llm.fake_openai import FakeOpenAIServer  # noqa: E402


class RecordingServer(FakeOpenAIServer):
    """FakeOpenAIServer that also writes what it received to a file after each request."""

    def __init__(self, script: list[dict[str, Any]], out: Path) -> None:
        super().__init__(script)
        self.out = out
        self._write_lock = threading.Lock()
        self._write()

    def _next(self, body: dict[str, Any], headers: dict[str, str], path: str) -> dict[str, Any]:
        turn = super()._next(body, headers, path)
        self._write()
        return turn

    def _write(self) -> None:
        with self._write_lock:
            tmp = self.out.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.requests, indent=1), "utf-8")
            os.replace(tmp, self.out)


def main(argv: list[str]) -> int:
    script_path, requests_path = Path(argv[1]), Path(argv[2])
    script = json.loads(script_path.read_text("utf-8"))
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    with RecordingServer(script, requests_path) as server:
        print(server.base_url, flush=True)
        stop.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
