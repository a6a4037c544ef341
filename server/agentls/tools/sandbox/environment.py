"""The environment a sandboxed command gets: an allow-list of variables, never a secret.

Must not know: any sandbox backend, tools, the agent, LSP.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

#: Variables a child may inherit (plus every LC_*), unless their name looks secret.
ALLOWED_ENV = frozenset({
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TZ", "TMPDIR",
    "VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONPATH", "PYTHONHASHSEED", "PYTHONIOENCODING",
    "PYTHONUTF8", "PYENV_ROOT", "PYENV_VERSION", "JAVA_HOME", "GOPATH", "GOROOT",
    "GOMODCACHE", "GOFLAGS", "CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "NODE_PATH",
    "NVM_DIR", "NVM_BIN",
})  # fmt: skip
#: Proxy settings, passed only when the network is allowed and they hold no credentials.
PROXY_ENV = frozenset({
    "http_proxy", "https_proxy", "no_proxy", "all_proxy",
    "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
})  # fmt: skip
SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
FIXED_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "PAGER": "cat"}


def scrubbed_env(
    environ: Mapping[str, str] | None = None,
    *,
    network: bool = False,
    private_home: str | None = None,
) -> dict[str, str]:
    """The child's environment: allow-listed names only, never a secret-looking one.

    With `private_home` (a confining sandbox hides the real home) HOME, TMPDIR and the
    usual cache variables point into that private, writable folder.
    """
    source = os.environ if environ is None else environ
    env: dict[str, str] = {}
    for name, value in source.items():
        allowed = name in ALLOWED_ENV or name.startswith("LC_")
        if network and name in PROXY_ENV and "@" not in value:
            allowed = True
        if allowed and not SECRET_NAME.search(name):
            env[name] = value
    env.setdefault("PATH", os.defpath)
    env.update(FIXED_ENV)
    if private_home is not None:
        env.update({
            "HOME": private_home,
            "TMPDIR": private_home,
            "XDG_CACHE_HOME": f"{private_home}/.cache",
            "npm_config_cache": f"{private_home}/.npm",
        })  # fmt: skip
    return env
