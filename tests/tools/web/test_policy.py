"""The network policy's address table: what counts as internal (and what must not)."""

from __future__ import annotations

import ipaddress

import pytest

from agentls.settings import Settings
from agentls.tools.base import ToolError
from agentls.tools.web.policy import WebPolicy, internal_kind, secret_values


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"), ("127.200.0.9", "loopback"), ("::1", "loopback"),
        ("0.0.0.0", "unspecified"), ("::", "unspecified"),
        ("10.1.2.3", "private"), ("172.31.255.1", "private"), ("192.168.0.10", "private"), ("fc00::5", "private"),
        ("169.254.1.1", "link-local"), ("fe80::1", "link-local"),
        ("169.254.169.254", "cloud metadata"), ("168.63.129.16", "cloud metadata"), ("fd00:ec2::254", "cloud metadata"),
        ("100.64.0.1", "non-public"), ("224.0.0.251", "multicast"), ("240.0.0.1", "private"),
        ("::ffff:10.0.0.1", "private (embedded in ::ffff:a00:1)"),
        ("64:ff9b::a9fe:a9fe", "cloud metadata (embedded in 64:ff9b::a9fe:a9fe)"),
        ("2002:c0a8:0101::", "private (embedded in 2002:c0a8:101::)"),
        ("::7f00:1", "loopback (embedded in ::7f00:1)"),
        ("8.8.8.8", None), ("93.184.216.34", None), ("2606:4700:4700::1111", None), ("1.1.1.1", None),
        ("64:ff9b::808:808", None), ("::ffff:8.8.4.4", None),
    ],
)  # fmt: skip
def test_internal_kind(address: str, kind: str | None) -> None:
    assert internal_kind(ipaddress.ip_address(address)) == kind


def test_every_resolved_address_must_pass() -> None:
    policy = WebPolicy()
    assert policy.check_addresses("example.test", 80, ["8.8.8.8", "2606:4700:4700::1111"])
    with pytest.raises(ToolError, match="10.0.0.9, a private address") as caught:
        policy.check_addresses("example.test", 80, ["8.8.8.8", "10.0.0.9"])
    assert caught.value.type == "permission"


def test_a_configured_endpoint_is_trusted_on_its_port_only() -> None:
    policy = WebPolicy(trusted=frozenset({("localhost", 8888)}))
    assert policy.check_addresses("localhost", 8888, ["127.0.0.1"]) == ["127.0.0.1"]
    with pytest.raises(ToolError):
        policy.check_addresses("localhost", 8889, ["127.0.0.1"])


def test_secret_values_come_from_secret_named_variables_and_the_key_variable() -> None:
    env = {"GITHUB_TOKEN": "ghp_abcdefgh", "MODEL_CREDS": "s3cr3t-value", "HOME": "/root", "SHORT_KEY": "abc"}
    settings = Settings.model_validate({"apiKeyEnv": "MODEL_CREDS"})
    assert secret_values(settings, env) == ["ghp_abcdefgh", "s3cr3t-value"]
