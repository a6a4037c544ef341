"""The HTTP client of the web tools: connections go only to addresses the policy checked.

httpcore asks its network backend to connect to the URL's host; `GuardedBackend` resolves
that host once, checks every address it got (`WebPolicy.check_addresses`) and connects to
those same addresses — no second lookup, so a name that answers public to one lookup and
internal to the next (DNS rebinding) cannot slip through. TLS still verifies the host name
(httpcore passes it as the server name). The client ignores the environment (no proxy, no
.netrc credentials), stores no cookies and follows no redirects itself (fetcher.py checks
every hop). Must not know: the tools, HTML.
"""

from __future__ import annotations

import socket
import ssl
from collections.abc import Iterable
from functools import cache
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpcore2
import httpx2

from agentls import __version__
from agentls.tools.web.policy import WebPolicy

USER_AGENT = f"agentls/{__version__} (web tools; +https://pypi.org/project/agentls/)"
HEADERS = {"User-Agent": USER_AGENT, "Accept-Language": "en;q=0.9, *;q=0.5"}


class AddressRefused(Exception):
    """Raised inside the connection attempt; carries the policy's ToolError."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class GuardedBackend(httpcore2.NetworkBackend):
    def __init__(self, policy: WebPolicy) -> None:
        self.policy = policy
        self.inner = httpcore2.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.NetworkStream:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as exc:
            raise httpcore2.ConnectError(f"cannot resolve host {host}: {exc}") from exc
        addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
        try:
            checked = self.policy.check_addresses(host, port, addresses)
        except Exception as exc:
            raise AddressRefused(exc) from exc
        last: Exception | None = None
        for address in checked:
            try:
                return self.inner.connect_tcp(
                    address, port, timeout=timeout, local_address=local_address,
                    socket_options=socket_options,
                )  # fmt: skip
            except httpcore2.ConnectError as exc:  # try the next checked address
                last = exc
        raise last or httpcore2.ConnectError(f"cannot connect to {host}")

    def connect_unix_socket(self, *args: Any, **kwargs: Any) -> httpcore2.NetworkStream:
        raise httpcore2.ConnectError("unix sockets are not reachable from the web tools")

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


@cache
def ssl_context() -> ssl.SSLContext:
    """One verifying context per process: loading the CA store takes ~60 ms here."""
    return httpx2.create_ssl_context(trust_env=False)


class GuardedTransport(httpx2.HTTPTransport):
    """httpx2's transport with its connection pool built on a GuardedBackend."""

    def __init__(self, policy: WebPolicy) -> None:
        super().__init__(verify=ssl_context(), trust_env=False)
        self._pool = httpcore2.ConnectionPool(
            ssl_context=ssl_context(),
            max_connections=4,
            network_backend=GuardedBackend(policy),
        )


def guarded_client(policy: WebPolicy) -> httpx2.Client:
    """A client for one tool call: guarded connections, no env, no cookies, no redirects."""
    return httpx2.Client(
        transport=GuardedTransport(policy),
        headers=HEADERS,
        cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=[])),
        follow_redirects=False,
        trust_env=False,
        timeout=policy.timeout_s,
    )
