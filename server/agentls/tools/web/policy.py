"""The network policy (DESIGN §3): which URLs and which addresses a web tool may reach.

Only `http` and `https`; no credentials in the URL and no secret (the value of an
environment variable whose name looks secret) anywhere in it; a host matching a `webDeny`
pattern is refused; when `webAllow` is non-empty only hosts it matches are reachable. An
address that is loopback, private, link-local, unspecified, multicast, reserved or a cloud
metadata endpoint — also when embedded in an IPv6 address (IPv4-mapped, -compatible,
NAT64, 6to4, Teredo) — is refused unless a `webAllow` entry names the host exactly. The
address check is applied to the resolved addresses the connection will use (transport.py),
so every spelling of a host (decimal, hex, octal, short forms, names) meets the same check.
Every refusal is a `permission` ToolError. Must not know: HTTP, sockets, the tools.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from urllib.parse import unquote

from agentls.settings import Settings
from agentls.tools.base import ToolError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

SCHEMES = frozenset({"http", "https"})
#: Cloud metadata endpoints (AWS, ECS, GCP, Azure, Alibaba, Oracle; AWS IPv6).
METADATA = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254", "169.254.170.2", "168.63.129.16", "100.100.100.200",
        "192.0.0.192", "fd00:ec2::254", "fd00:ec2::23",
    )
)  # fmt: skip
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
#: Names of environment variables whose values are secrets (same rule as the shell sandbox).
SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
_MIN_SECRET_LEN = 8


def normalize_host(host: str) -> str:
    """Lower case, no brackets, no trailing dot: how hosts are compared."""
    return host.strip().strip("[]").rstrip(".").lower()


def embedded_ipv4(ip: IPAddress) -> list[ipaddress.IPv4Address]:
    """IPv4 addresses an IPv6 address carries (mapped, compatible, NAT64, 6to4, Teredo)."""
    if isinstance(ip, ipaddress.IPv4Address):
        return []
    found: list[ipaddress.IPv4Address] = []
    if ip.ipv4_mapped is not None:
        found.append(ip.ipv4_mapped)
    value = int(ip)
    if value >> 32 == 0 and value > 1:  # ::a.b.c.d (IPv4-compatible, deprecated)
        found.append(ipaddress.IPv4Address(value & 0xFFFFFFFF))
    if any(ip in net for net in _NAT64):
        found.append(ipaddress.IPv4Address(value & 0xFFFFFFFF))
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)
    return found


def internal_kind(ip: IPAddress) -> str | None:
    """What makes an address internal ("loopback", "cloud metadata", ...), or None if public."""
    if ip in METADATA:
        return "cloud metadata"
    inner = embedded_ipv4(ip)
    for v4 in inner:
        kind = internal_kind(v4)
        if kind:
            return f"{kind} (embedded in {ip})"
    if inner:  # a wrapper (mapped, NAT64, ...) around public addresses: as public as they are
        return None
    checks = (
        ("loopback", ip.is_loopback),
        ("unspecified", ip.is_unspecified),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("private", ip.is_private),
        ("reserved", ip.is_reserved),
        ("non-public", not ip.is_global),
    )
    return next((kind for kind, hit in checks if hit), None)


def secret_values(settings: Settings, environ: dict[str, str] | None = None) -> list[str]:
    """Values that must never leave: secret-named variables and the model's key variable."""
    env = os.environ if environ is None else environ
    names = {n for n in env if SECRET_NAME.search(n)} | {settings.api_key_env}
    return sorted({v for n in names if len(v := env.get(n, "")) >= _MIN_SECRET_LEN})


@dataclass(frozen=True)
class WebPolicy:
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    max_bytes: int = 2_000_000
    timeout_s: float = 20.0
    #: Origins the user configured (the search endpoint, as host and port): reachable like
    #: an exact webAllow entry, but on that port only.
    trusted: frozenset[tuple[str, int]] = frozenset()
    secrets: tuple[str, ...] = field(default=(), repr=False)
    tool: str = ""

    @classmethod
    def from_settings(
        cls, settings: Settings, tool: str = "", trusted: Iterable[tuple[str, int]] = ()
    ) -> WebPolicy:
        return cls(
            allow=tuple(normalize_host(h) for h in settings.web_allow if h.strip()),
            deny=tuple(normalize_host(h) for h in settings.web_deny if h.strip()),
            max_bytes=settings.web_max_bytes,
            timeout_s=settings.web_timeout_s,
            trusted=frozenset((normalize_host(h), port) for h, port in trusted),
            secrets=tuple(secret_values(settings)),
            tool=tool,
        )

    def refuse(self, message: str) -> ToolError:
        return ToolError("permission", message, self.tool)

    def denied(self, name: str) -> bool:
        return any(fnmatchcase(name, pattern) for pattern in self.deny)

    def named(self, host: str, port: int) -> bool:
        """Whether the user named this host exactly (webAllow entry or a configured endpoint)."""
        return host in self.allow or (host, port) in self.trusted

    def check_url(self, url: str, scheme: str, host: str, port: int, userinfo: str) -> None:
        """Refuse a URL before any connection: scheme, credentials, secrets, deny, allow."""
        if scheme.lower() not in SCHEMES:
            raise self.refuse(f"only http and https URLs may be fetched, not {scheme or 'no'} scheme: {url}")
        if userinfo:
            raise self.refuse(f"URLs with credentials (user:password@) are never sent: {url}")
        if not host:
            raise self.refuse(f"the URL has no host: {url}")
        decoded = unquote(unquote(url))
        if any(s in url or s in decoded for s in self.secrets):
            raise self.refuse("the URL contains the value of a secret environment variable; it is not sent")
        name = normalize_host(host)
        if self.denied(name):
            raise self.refuse(f"host {name} matches a webDeny pattern")
        if self.allow and (name, port) not in self.trusted and not any(fnmatchcase(name, p) for p in self.allow):
            raise self.refuse(f"host {name} is not in webAllow ({', '.join(self.allow)})")

    def check_addresses(self, host: str, port: int, addresses: Iterable[str]) -> list[str]:
        """The addresses to connect to, all checked; refuses if any one is internal or denied."""
        name = normalize_host(host)
        checked: list[str] = []
        for raw in addresses:
            ip = ipaddress.ip_address(raw.split("%", 1)[0])
            if self.denied(str(ip)):
                raise self.refuse(f"host {name} resolves to {ip}, which matches a webDeny pattern")
            kind = internal_kind(ip)
            if kind and not self.named(name, port):
                raise self.refuse(
                    f"host {name} resolves to {ip}, a {kind} address; internal addresses are "
                    f"reachable only when webAllow names the host"
                )
            checked.append(raw)
        if not checked:
            raise ToolError("runtime", f"host {name} resolved to no address", self.tool)
        return checked
