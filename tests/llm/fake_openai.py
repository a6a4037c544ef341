"""A scripted OpenAI-compatible `/v1/chat/completions` server for tests (stdlib only).

Runs on 127.0.0.1 (random port) in a thread. Each request takes the next scripted turn:
`{"content", "tool_calls": [{"id", "name", "arguments"}], "usage"}` is answered as one
JSON body, or — when the request says `"stream": true` — as SSE `data:` chunks with the
content and the tool-call arguments split into deltas; `{"status": 401, "message": ...}`
is answered as that HTTP error; `"delay"` (seconds) waits first. Every request body and
its headers are recorded.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def completion_body(turn: dict[str, Any], model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": turn.get("content")}
    calls = turn.get("tool_calls") or []
    if calls:
        message["tool_calls"] = [
            {
                "id": c["id"],
                "type": "function",
                "function": {"name": c["name"], "arguments": c["arguments"]},
            }
            for c in calls
        ]
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}
        ],
        "usage": turn.get("usage", {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}),
    }


def stream_chunks(turn: dict[str, Any], model: str, include_usage: bool) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [choice],
        }

    out = [chunk({"role": "assistant", "content": ""})]
    if turn.get("content"):
        out += [chunk({"content": p}) for p in _pieces(turn["content"], 3)]
    calls = turn.get("tool_calls") or []
    for index, call in enumerate(calls):
        head = {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["name"], "arguments": ""},
        }
        out.append(chunk({"tool_calls": [head]}))
        for piece in _pieces(call["arguments"], 5):
            out.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
    out.append(chunk({}, "tool_calls" if calls else "stop"))
    if include_usage:
        usage = turn.get("usage", {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0})
        out.append(
            {
                "id": "chatcmpl-fake",
                "object": "chat.completion.chunk",
                "created": 0,
                "model": model,
                "choices": [],
                "usage": usage,
            }
        )
    return out


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up (a cancelled or timed-out test turn) is not an error."""
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class FakeOpenAIServer:
    """`with FakeOpenAIServer(script) as server:` → `server.base_url`, `server.requests`."""

    def __init__(self, script: list[dict[str, Any]]) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []
        self._lock = threading.Lock()
        self._httpd = _QuietServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _next(self, body: dict[str, Any], headers: dict[str, str], path: str) -> dict[str, Any]:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            self.paths.append(path)
            if not self.script:
                return {"status": 500, "message": "fake server: script exhausted"}
            return self.script.pop(0)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def _send_json(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                turn = server._next(
                    body, {k.lower(): v for k, v in self.headers.items()}, self.path
                )
                time.sleep(float(turn.get("delay", 0)))
                if not self.path.endswith("/chat/completions"):
                    self._send_json(404, {"error": {"message": f"no route {self.path}"}})
                elif "status" in turn:
                    error = {
                        "message": turn.get("message", "error"),
                        "type": "test_error",
                        "code": None,
                    }
                    self._send_json(int(turn["status"]), {"error": error})
                elif body.get("stream"):
                    include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    for chunk in stream_chunks(turn, body.get("model", ""), include_usage):
                        self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                        self.wfile.flush()
                    self.wfile.write(b"data: [DONE]\n\n")
                else:
                    self._send_json(200, completion_body(turn, body.get("model", "")))

        return Handler
