"""The hostile-URL suite: internal addresses however spelled, redirect chains into them,
non-HTTP schemes, oversized and slow bodies. Each is a `permission` or `runtime` error, and
the net guard (conftest) fails the test if any connection but the public stand-in's was
even attempted, or if the internal server saw a request."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from web_servers import InternalServer, NetGuard, WebCall

PORT = "{internal}"  # the internal server's port, filled in per test

#: Spellings of loopback, private, link-local, unspecified and metadata addresses.
INTERNAL_URLS = [
    f"http://127.0.0.1:{PORT}/",
    f"http://localhost:{PORT}/",
    f"http://LOCALHOST:{PORT}/",
    f"http://localhost.:{PORT}/",
    f"http://127.1:{PORT}/",
    f"http://127.0.1:{PORT}/",
    f"http://2130706433:{PORT}/",
    f"http://0x7f000001:{PORT}/",
    f"http://0x7f.0x0.0x0.0x1:{PORT}/",
    f"http://0x7f.1:{PORT}/",
    f"http://017700000001:{PORT}/",
    f"http://127.254.1.2:{PORT}/",
    f"http://[::1]:{PORT}/",
    f"http://[0:0:0:0:0:0:0:1]:{PORT}/",
    f"http://[::ffff:127.0.0.1]:{PORT}/",
    f"http://[::ffff:7f00:1]:{PORT}/",
    f"http://[::127.0.0.1]:{PORT}/",
    f"http://[64:ff9b::127.0.0.1]:{PORT}/",
    f"http://[2002:7f00:1::]:{PORT}/",
    f"http://0.0.0.0:{PORT}/",
    f"http://0:{PORT}/",
    f"http://[::]:{PORT}/",
    "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    "http://2852039166/latest/meta-data/",
    "http://0xa9fea9fe/latest/meta-data/",
    "http://[::ffff:169.254.169.254]/latest/meta-data/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://100.100.100.200/latest/meta-data/",
    "http://168.63.129.16/machine?comp=goalstate",
    "http://192.0.0.192/opc/v1/instance/",
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.1.1/admin",
    "http://100.64.0.1/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "http://internal.test/",
    "http://127.0.0.1.nip.io/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://mixed.test/",
    "http://v6.test/",
    "http://mapped.test/",
    f"http://public.test@127.0.0.1:{PORT}/",
    f"HTTP://127.0.0.1:{PORT}/",
]

NON_HTTP = [
    "file:///etc/passwd",
    "ftp://public.test/pub/",
    f"gopher://127.0.0.1:{PORT}/_GET%20/",
    f"dict://127.0.0.1:{PORT}/info",
    "ws://public.test/socket",
    "data:text/html,<h1>hi</h1>",
    "javascript:alert(1)",
    "jar:http://public.test/a.jar!/",
]


def _fill(url: str, internal: InternalServer) -> str:
    return url.replace(PORT, str(internal.port))


@pytest.mark.parametrize("url", INTERNAL_URLS)
def test_internal_addresses_are_refused(web: WebCall, internal_server: InternalServer, url: str) -> None:
    result = web("web_fetch", url=_fill(url, internal_server))
    assert not result.ok
    assert result.error is not None and result.error["type"] in ("permission", "runtime"), result.error


def test_the_refusal_names_the_address_and_the_way_out(web: WebCall, internal_server: InternalServer) -> None:
    result = web("web_fetch", url=f"http://0x7f000001:{internal_server.port}/")
    assert result.error and result.error["type"] == "permission"
    assert "127.0.0.1" in result.error["message"] and "loopback" in result.error["message"]
    assert "webAllow" in result.error["message"]


@pytest.mark.parametrize("url", NON_HTTP)
def test_non_http_schemes_are_refused(web: WebCall, internal_server: InternalServer, url: str) -> None:
    result = web("web_fetch", url=_fill(url, internal_server))
    assert result.error and result.error["type"] == "permission", result.error


#: Spellings the URL parser itself rejects (octal dotted quads, full-width digits, no
#: scheme): malformed arguments, so `validation` errors — and no connection either.
MALFORMED = [
    f"http://0177.0.0.1:{PORT}/",
    f"http://127.000.000.001:{PORT}/",
    "http://１２７.０.０.１/",
    f"//127.0.0.1:{PORT}/",
    "127.0.0.1",
    "http://[::1",
]


@pytest.mark.parametrize("url", MALFORMED)
def test_malformed_spellings_are_validation_errors(web: WebCall, internal_server: InternalServer, url: str) -> None:
    result = web("web_fetch", url=_fill(url, internal_server))
    assert result.error and result.error["type"] == "validation" and "URL" in result.error["message"]


REDIRECT_TARGETS = [
    (302, f"http://127.0.0.1:{PORT}/"),
    (301, f"http://localhost:{PORT}/admin"),
    (307, "http://internal.test/"),
    (308, f"http://[::1]:{PORT}/"),
    (303, f"http://0x7f000001:{PORT}/"),
    (302, "http://169.254.169.254/latest/meta-data/"),
    (302, "http://metadata.google.internal/computeMetadata/v1/"),
    (302, "file:///etc/passwd"),
    (302, f"gopher://127.0.0.1:{PORT}/_x"),
    (302, "http://user:pw@public.test/hello"),
]


@pytest.mark.parametrize(("code", "target"), REDIRECT_TARGETS)
def test_every_redirect_hop_is_checked_again(web: WebCall, internal_server: InternalServer, code: int, target: str) -> None:
    to = quote(_fill(target, internal_server), safe="")
    result = web("web_fetch", url=f"http://public.test/redirect?code={code}&to={to}")
    assert result.error and result.error["type"] == "permission", result.error


def test_a_chain_of_redirects_is_checked_at_its_last_hop(web: WebCall, internal_server: InternalServer) -> None:
    last = quote(f"http://[::ffff:127.0.0.1]:{internal_server.port}/", safe="")
    middle = quote(f"/redirect?code=302&to={last}", safe="")
    result = web("web_fetch", url=f"http://public.test/redirect?code=301&to={middle}")
    assert result.error and result.error["type"] == "permission"


def test_a_redirect_loop_ends_with_a_runtime_error(web: WebCall) -> None:
    result = web("web_fetch", url="http://public.test/loop")
    assert result.error and result.error["type"] == "runtime" and "redirects" in result.error["message"]


def test_dns_rebinding_connects_only_to_the_checked_address(web: WebCall, net_guard: NetGuard) -> None:
    """rebind.test answers public once, loopback after: one lookup, and the checked answer is used."""
    result = web("web_fetch", url="http://rebind.test/hello")
    assert result.ok and "Hello from the test web" in result.output["text"]
    assert net_guard.lookups.count("rebind.test") == 1


@pytest.mark.parametrize(
    ("path", "settings", "fragment"),
    [
        ("/big?n=50000", {"webMaxBytes": 10_000}, "webMaxBytes"),
        ("/big-unsized?n=50000", {"webMaxBytes": 10_000}, "webMaxBytes"),
        ("/bomb", {"webMaxBytes": 100_000}, "webMaxBytes"),
        ("/slow-body", {"webTimeoutS": 1}, "timed out"),
        ("/stall", {"webTimeoutS": 1}, "timed out"),
        ("/image.png", {}, "not text"),
    ],
)
def test_oversized_slow_and_binary_bodies_are_runtime_errors(web: WebCall, path: str, settings: dict, fragment: str) -> None:
    result = web("web_fetch", url=f"http://public.test{path}", settings=settings)
    assert result.error and result.error["type"] == "runtime", result.error
    assert fragment in result.error["message"]


def test_secrets_never_leave_in_a_url(web: WebCall, monkeypatch: pytest.MonkeyPatch, web_server) -> None:
    monkeypatch.setenv("DEPLOY_TOKEN", "tok-3f9a1c77e2")
    before = len(web_server.requests)
    for url in ("http://public.test/echo?t=tok-3f9a1c77e2", "http://public.test/echo?t=tok%2D3f9a1c77e2",
                "http://public.test/tok-3f9a1c77e2/", "http://user:pass@public.test/echo"):
        result = web("web_fetch", url=url)
        assert result.error and result.error["type"] == "permission", (url, result.error)
    assert len(web_server.requests) == before


def test_requests_carry_no_credentials_and_keep_no_cookies(web: WebCall, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # ignored: no proxy from the env
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    result = web("web_fetch", url="http://public.test/set-cookie")
    assert result.ok, result.error
    headers = {k.lower() for k in __import__("json").loads(result.output["text"])}
    assert not headers & {"cookie", "authorization", "proxy-authorization"}
    assert "sk-test-0123456789" not in result.output["text"]


@pytest.mark.parametrize(
    ("settings", "url", "ok"),
    [
        ({"webDeny": ["*.test"]}, "http://public.test/hello", False),
        ({"webDeny": ["93.184.216.*"]}, "http://public.test/hello", False),  # the resolved address
        ({"webAllow": ["docs.example"]}, "http://public.test/hello", False),  # not in the allow list
        ({"webAllow": ["*.test"]}, "http://public.test/hello", True),
        ({"webAllow": ["*.test"]}, "http://internal.test/", False),  # a pattern does not open internal
        ({"webAllow": ["public.test"], "webDeny": ["public.test"]}, "http://public.test/hello", False),
    ],
)
def test_allow_and_deny_lists(web: WebCall, settings: dict, url: str, ok: bool) -> None:
    result = web("web_fetch", url=url, settings=settings)
    assert result.ok is ok, result.error
    if not ok:
        assert result.error and result.error["type"] == "permission"


def test_a_host_webAllow_names_is_reachable_at_a_loopback_address(web: WebCall, web_server) -> None:
    result = web("web_fetch", url=f"http://127.0.0.1:{web_server.port}/hello", settings={"webAllow": ["127.0.0.1"]})
    assert result.ok and result.output["title"] == "Hi"
    other = web("web_fetch", url="http://public.test/hello", settings={"webAllow": ["127.0.0.1"]})
    assert other.error and other.error["type"] == "permission"  # non-empty webAllow: only what it names


def test_network_needs_the_permission(web: WebCall) -> None:
    for mode in ("read-only", "ci"):
        result = web("web_fetch", mode=mode, url="http://public.test/hello")
        assert result.error and result.error["type"] == "permission" and "network" in result.error["message"]
    assert web("web_fetch", mode="full", url="http://public.test/hello").ok
