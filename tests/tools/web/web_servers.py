"""Loopback HTTP servers for the web-tool tests, and the net guard.

`WebServer` is the stand-in for the internet: saved pages, redirects, oversized, slow and
binary bodies, a SearxNG-compatible search endpoint, a header echo. `InternalServer` is
what the policy must protect: it counts every request it gets. `NetGuard` replaces DNS
(`socket.getaddrinfo`) and `socket.connect` for the test: names resolve from a table
(numeric spellings through the C library with AI_NUMERICHOST, never a DNS query), and a
connection is made only to the "public" address, rerouted to the WebServer on loopback;
any other connection attempt is recorded as a violation and refused before a packet is
sent — so even broken policy code cannot reach the internal server or the network.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from agentls.tools.executor import ToolResult

FIXTURES = Path(__file__).parent / "fixtures"
PUBLIC_IP = "93.184.216.34"  # what public.test resolves to; rerouted to the WebServer
#: web(name, mode="dev", settings=None, **input) → the executor's ToolResult (conftest.py).
WebCall = Callable[..., ToolResult]
BOMB = gzip.compress(b"\0" * 5_000_000)  # ~5 KB on the wire, 5 MB decoded


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _send(self, status: int, body: bytes, ctype: str = "text/html; charset=utf-8", **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        if "no_length" not in headers:
            self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            if name != "no_length":
                self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        parts = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        self.server.requests.append({"path": parts.path, "query": query, "headers": dict(self.headers)})
        route = self.server.routes.get(parts.path) or self.server.routes.get("*")
        if route is None:
            self._send(404, b"<html><body><h1>Not found</h1></body></html>")
        else:
            route(self, query)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    requests: list[dict[str, Any]]
    routes: dict[str, Callable[[_Handler, dict[str, str]], None]]


class _Base:
    def __init__(self) -> None:
        self.httpd = _Server(("127.0.0.1", 0), _Handler)
        self.httpd.requests = []
        self.httpd.routes = self.routes()
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def requests(self) -> list[dict[str, Any]]:
        return self.httpd.requests

    def routes(self) -> dict[str, Callable[[_Handler, dict[str, str]], None]]:
        raise NotImplementedError

    def __enter__(self) -> _Base:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class InternalServer(_Base):
    def routes(self) -> dict[str, Callable[[_Handler, dict[str, str]], None]]:
        return {"*": lambda h, q: h._send(200, b"INTERNAL SECRET", "text/plain")}


def _slow_body(h: _Handler, q: dict[str, str]) -> None:
    h.send_response(200)
    h.send_header("Content-Type", "text/plain")
    h.end_headers()
    try:
        for _ in range(40):  # at most 8 s, then the handler ends by itself
            h.wfile.write(b"x")
            h.wfile.flush()
            time.sleep(0.2)
    except OSError:
        pass


def _stall(h: _Handler, q: dict[str, str]) -> None:
    time.sleep(3.0)
    with contextlib.suppress(OSError):
        h._send(200, b"late")


def _search(h: _Handler, q: dict[str, str]) -> None:
    term = q.get("q", "")
    results = [
        {"title": f"Result {i} for {term}", "url": f"https://docs.example/{i}", "content": f"  snippet\n {i}  ", "engine": "x"}
        for i in range(1, 9)
    ]
    results.insert(1, {"title": "no url"})  # skipped: a result without a url
    h._send(200, json.dumps({"query": term, "results": results}).encode(), "application/json")


class WebServer(_Base):
    def routes(self) -> dict[str, Callable[[_Handler, dict[str, str]], None]]:
        def page(h: _Handler, q: dict[str, str]) -> None:
            h._send(200, (FIXTURES / q["name"]).read_bytes())

        def redirect(h: _Handler, q: dict[str, str]) -> None:
            h._send(int(q.get("code", "302")), b"", Location=q["to"])

        def loop(h: _Handler, q: dict[str, str]) -> None:
            h._send(302, b"", Location=f"/loop?n={int(q.get('n', '0')) + 1}")

        def set_cookie(h: _Handler, q: dict[str, str]) -> None:
            h._send(302, b"", Location="/echo", Set_Cookie="session=abc123; Path=/")

        return {
            "/page": page,
            "/redirect": redirect,
            "/loop": loop,
            "/big": lambda h, q: h._send(200, b"a" * int(q["n"]), "text/plain"),
            "/big-unsized": lambda h, q: h._send(200, b"a" * int(q["n"]), "text/plain", no_length="1"),
            "/bomb": lambda h, q: h._send(200, BOMB, "text/plain", Content_Encoding="gzip"),
            "/slow-body": _slow_body,
            "/stall": _stall,
            "/image.png": lambda h, q: h._send(200, b"\x89PNG\r\n\x1a\n" + b"\0" * 64, "image/png"),
            "/echo": lambda h, q: h._send(200, json.dumps(dict(h.headers)).encode(), "application/json"),
            "/set-cookie": set_cookie,
            "/search": _search,
            "/search-html": lambda h, q: h._send(200, b"<html><body>rate limited</body></html>"),
            "/search-500": lambda h, q: h._send(500, b"{}", "application/json"),
            "/hello": lambda h, q: h._send(200, b"<html><head><title>Hi</title></head><body><p>Hello from the test web.</p></body></html>"),
        }


class NetGuard:
    """Fake DNS and a connect() that reaches only the public stand-in (see module doc)."""

    def __init__(self, public_port: int) -> None:
        web = ("127.0.0.1", public_port)
        self.routes = {(PUBLIC_IP, 80): web, web: web}  # the stand-in, by its name or directly
        self.violations: list[Any] = []
        self.lookups: list[str] = []
        self._rebind_calls = 0
        self.real_getaddrinfo = socket.getaddrinfo
        self.real_connect = socket.socket.connect
        self.names: dict[str, list[str]] = {
            "public.test": [PUBLIC_IP],
            "internal.test": ["127.0.0.1"],
            "127.0.0.1.nip.io": ["127.0.0.1"],
            "metadata.google.internal": ["169.254.169.254"],
            "mixed.test": [PUBLIC_IP, "10.0.0.5"],
            "v6.test": ["::1"],
            "mapped.test": ["::ffff:169.254.169.254"],
            "localhost": ["127.0.0.1", "::1"],
        }

    def _answers(self, name: str) -> list[str] | None:
        if name == "rebind.test":  # public to the first lookup, loopback to every later one
            self._rebind_calls += 1
            return [PUBLIC_IP] if self._rebind_calls == 1 else ["127.0.0.1"]
        return self.names.get(name)

    def getaddrinfo(self, host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0, flags: int = 0) -> list[Any]:
        name = (host.decode() if isinstance(host, bytes) else str(host)).lower().rstrip(".")
        self.lookups.append(name)
        answers = self._answers(name)
        if answers is None:  # numeric spellings only, through the C library; never DNS
            return self.real_getaddrinfo(host, port, family, type, proto, flags | socket.AI_NUMERICHOST)
        out = []
        for addr in answers:
            fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
            sockaddr = (addr, int(port or 0), 0, 0) if fam == socket.AF_INET6 else (addr, int(port or 0))
            out.append((fam, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", sockaddr))
        return out

    def connect(self, sock: socket.socket, address: Any) -> None:
        key = (address[0], address[1]) if isinstance(address, tuple) else address
        if key in self.routes:
            return self.real_connect(sock, self.routes[key])
        self.violations.append(address)
        raise ConnectionRefusedError(f"net guard: the test refused a connection to {address!r}")

    def connect_ex(self, sock: socket.socket, address: Any) -> int:
        self.violations.append(address)
        return 111  # ECONNREFUSED

    def install(self, monkeypatch: Any) -> NetGuard:
        monkeypatch.setattr(socket, "getaddrinfo", self.getaddrinfo)
        guard = self  # plain functions, so that they bind to the socket like methods

        def connect(sock: socket.socket, address: Any) -> None:
            return guard.connect(sock, address)

        def connect_ex(sock: socket.socket, address: Any) -> int:
            return guard.connect_ex(sock, address)

        monkeypatch.setattr(socket.socket, "connect", connect)
        monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
        return self
