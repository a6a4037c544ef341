"""The third-party protocol clients and servers the tests drive, from npm (package.json here,
installed by `scripts/test`: `npm ci`). `bin(name)` gives one of their commands; a test that
needs one skips, naming the missing install, when `npm ci` has not run here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CLIENTS = Path(__file__).resolve().parent
NODE_MODULES = CLIENTS / "node_modules"


def node() -> str:
    """The `node` the npm packages run on (Node >= 20)."""
    found = shutil.which("node")
    if found is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    return found


def bin(name: str) -> Path:
    """A command an npm package here installs (node_modules/.bin/NAME)."""
    path = NODE_MODULES / ".bin" / name
    if not path.exists():
        pytest.skip(f"{name} is not installed: run `npm ci` in {CLIENTS} (scripts/test does)")
    return path


def package(name: str) -> Path:
    """An npm package's folder here (for a script that imports it)."""
    path = NODE_MODULES / name
    if not (path / "package.json").exists():
        pytest.skip(f"{name} is not installed: run `npm ci` in {CLIENTS} (scripts/test does)")
    return path
