"""HTTPS through the guarded transport: the connection goes to the checked address, and
the certificate is still verified against the host NAME (SNI and hostname check), with a
self-signed certificate for public.test made by openssl for the test."""

from __future__ import annotations

import shutil
import ssl
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from web_servers import PUBLIC_IP, NetGuard, WebCall

from agentls.tools.web import transport

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not on PATH: apt-get install openssl")


class _Hello(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        body = b"<html><head><title>TLS</title></head><body><p>Over TLS.</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def tls_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    tmp = tmp_path_factory.mktemp("tls")
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=public.test",
         "-addext", "subjectAltName=DNS:public.test", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_ctx.load_cert_chain(cert, key)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Hello)
    httpd.socket = server_ctx.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd.server_address[1], cert
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def routed(net_guard: NetGuard, tls_site: tuple[int, Path]) -> Path:
    net_guard.routes[(PUBLIC_IP, 443)] = ("127.0.0.1", tls_site[0])
    net_guard.names["other.test"] = [PUBLIC_IP]
    return tls_site[1]


@pytest.fixture
def trusting(monkeypatch: pytest.MonkeyPatch, routed: Path) -> None:
    ctx = ssl.create_default_context(cafile=str(routed))
    monkeypatch.setattr(transport, "ssl_context", lambda: ctx)


def test_an_untrusted_certificate_is_a_runtime_error(web: WebCall, routed: Path) -> None:
    result = web("web_fetch", url="https://public.test/")
    assert result.error and result.error["type"] == "runtime" and "CERTIFICATE_VERIFY_FAILED" in result.error["message"]


def test_the_certificate_is_checked_against_the_host_name(web: WebCall, trusting: None) -> None:
    ok = web("web_fetch", url="https://public.test/")
    assert ok.ok and ok.output["title"] == "TLS" and ok.output["text"] == "Over TLS."
    other = web("web_fetch", url="https://other.test/")  # same address, a name the cert lacks
    assert other.error and other.error["type"] == "runtime" and "other.test" in other.error["message"]
