"""One guarded GET: every redirect hop checked again, the body and the time capped.

`fetch(url, policy)` checks the URL (policy.py), sends it through the guarded client
(transport.py, which checks the addresses it connects to), follows at most
`MAX_REDIRECTS` redirects — each new URL checked like the first — and reads at most
`policy.max_bytes` of the decoded body within `policy.timeout_s` for the whole exchange.
Refusals are `permission` ToolErrors; network failures, timeouts, oversized bodies and
redirect loops are `runtime` ToolErrors naming the URL. Must not know: the tools, HTML.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import httpx2

from agentls.tools.base import ToolError
from agentls.tools.web.policy import WebPolicy
from agentls.tools.web.transport import AddressRefused, guarded_client

MAX_REDIRECTS = 5
REDIRECT_CODES = frozenset({301, 302, 303, 307, 308})


@dataclass(frozen=True, slots=True)
class Fetched:
    url: str  # after redirects
    status: int
    content_type: str  # media type, lower case, no parameters
    charset: str | None
    body: bytes


def parse_url(raw: str) -> httpx2.URL:
    """A URL as the web tools read it; ValueError with the reason when it is malformed."""
    try:
        url = httpx2.URL(raw.strip())
    except (httpx2.InvalidURL, TypeError, UnicodeError) as exc:
        raise ValueError(f"not a valid URL: {exc}") from exc
    if not url.scheme:
        raise ValueError(f"not an absolute URL (no http:// or https://): {raw!r}")
    return url


def port_of(url: httpx2.URL) -> int:
    return url.port or (443 if url.scheme == "https" else 80)


def check(url: httpx2.URL, policy: WebPolicy) -> None:
    host = url.raw_host.decode("ascii", "replace")
    policy.check_url(str(url), url.scheme, host, port_of(url), url.userinfo.decode("ascii", "replace"))


def _runtime(policy: WebPolicy, message: str) -> ToolError:
    return ToolError("runtime", message, policy.tool)


def _read(
    response: httpx2.Response, policy: WebPolicy, deadline: float, cancel: threading.Event | None
) -> bytes:
    url = str(response.url)
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > policy.max_bytes:
        raise _runtime(policy, f"{url}: the body ({declared} bytes) is larger than webMaxBytes ({policy.max_bytes})")
    chunks: list[bytes] = []
    total = 0
    for chunk in response.iter_bytes():  # decoded: a compressed bomb meets the same cap
        total += len(chunk)
        if total > policy.max_bytes:
            raise _runtime(policy, f"{url}: the body is larger than webMaxBytes ({policy.max_bytes} bytes)")
        if cancel is not None and cancel.is_set():
            raise _runtime(policy, f"{url}: cancelled")
        if time.monotonic() > deadline:
            raise _runtime(policy, f"{url}: timed out after {policy.timeout_s:g} s (webTimeoutS)")
        chunks.append(chunk)
    return b"".join(chunks)


def fetch(
    url: httpx2.URL | str,
    policy: WebPolicy,
    *,
    accept: str = "text/html, application/xhtml+xml, text/*;q=0.9, */*;q=0.5",
    cancel: threading.Event | None = None,
) -> Fetched:
    current = url if isinstance(url, httpx2.URL) else parse_url(url)
    deadline = time.monotonic() + policy.timeout_s
    with guarded_client(policy) as client:
        for _hop in range(MAX_REDIRECTS + 1):
            check(current, policy)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _runtime(policy, f"{current}: timed out after {policy.timeout_s:g} s (webTimeoutS)")
            request = client.build_request(
                "GET", current, headers={"Accept": accept}, timeout=httpx2.Timeout(remaining)
            )
            try:
                response = client.send(request, stream=True)
                try:
                    location = response.headers.get("location")
                    if response.status_code in REDIRECT_CODES and location:
                        try:
                            current = current.join(location.strip())
                        except (httpx2.InvalidURL, UnicodeError) as exc:
                            raise _runtime(policy, f"{current} redirects to an invalid URL: {exc}") from exc
                        continue
                    body = _read(response, policy, deadline, cancel)
                finally:
                    response.close()
            except AddressRefused as exc:
                raise exc.error from None
            except httpx2.TimeoutException as exc:
                raise _runtime(policy, f"{current}: timed out after {policy.timeout_s:g} s (webTimeoutS)") from exc
            except httpx2.HTTPError as exc:
                raise _runtime(policy, f"{current}: {type(exc).__name__}: {exc}") from exc
            media = response.headers.get("content-type", "").split(";", 1)[0]
            return Fetched(
                url=str(response.url),
                status=response.status_code,
                content_type=media.strip().lower(),
                charset=response.charset_encoding,
                body=body,
            )
    raise _runtime(policy, f"{url}: more than {MAX_REDIRECTS} redirects")
