"""Assembling the embedded model from part packages: order, verification, reuse, errors.

Fake part packages (a tmp dir on sys.path, each `__init__.py` raising if imported) hold
pieces of a small fake GGUF file; a KnownModel entry describes them.
"""

from __future__ import annotations

import hashlib
import os
import struct
import uuid
from pathlib import Path

import pytest

from agentls.llm.base import ModelError
from agentls.llm.local import model_files as mf


def gguf_bytes(
    arch: str = "qwen2", name: str = "Tiny", size: int = 5000, array_first: bool = False
) -> bytes:
    def string(s: str) -> bytes:
        return struct.pack("<Q", len(s.encode())) + s.encode()

    kvs = []
    if array_first:  # a numeric array before the keys we want: skipped by seeking
        kvs.append(
            string("general.tags_ids") + struct.pack("<IIQ", 9, 4, 3) + struct.pack("<3I", 1, 2, 3)
        )
    kvs.append(string("general.architecture") + struct.pack("<I", 8) + string(arch))
    kvs.append(string("general.file_type") + struct.pack("<II", 4, 15))
    kvs.append(string("general.name") + struct.pack("<I", 8) + string(name))
    data = b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs)) + b"".join(kvs)
    return data + bytes(range(256)) * ((size - len(data)) // 256 + 1)


def make_parts(root: Path, blob: bytes, cuts: list[int], *, version: str = "1.0") -> mf.KnownModel:
    """Write `blob` split at `cuts` into fake part packages under `root`."""
    dist = f"agentls-fake-{uuid.uuid4().hex[:8]}-part{{n}}"
    bounds = [0, *cuts, len(blob)]
    for n in range(1, len(bounds)):
        pkg = root / dist.format(n=n).replace("-", "_")
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text(
            "raise ImportError('part packages must never be imported')\n"
        )
        (pkg / "data" / f"part{n:02d}.bin").write_bytes(blob[bounds[n - 1] : bounds[n]])
    return mf.KnownModel(
        key="tiny",
        filename="tiny.gguf",
        distribution=dist,
        version=version,
        count=len(bounds) - 1,
        sha256=hashlib.sha256(blob).hexdigest(),
        size=len(blob),
        architecture="qwen2",
    )


@pytest.fixture
def parts_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    return root


def part_file(root: Path, model: mf.KnownModel, n: int) -> Path:
    module, rel = model.part_packages()[n - 1]
    return root / module / rel


@pytest.mark.parametrize("cuts", [[1000, 2000], [1, 4999], [2500]])
def test_joins_parts_in_order_and_verifies(
    parts_root: Path, tmp_path: Path, cuts: list[int]
) -> None:
    blob = gguf_bytes()
    model = make_parts(parts_root, blob, cuts)
    path = mf.ensure_model(model, directory=tmp_path / "cache")
    assert path == tmp_path / "cache" / "tiny.gguf"
    assert path.read_bytes() == blob
    assert [p.name for p in (tmp_path / "cache").iterdir() if p.name.endswith(".part")] == []


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("swap", "SHA-256"),  # both parts present, wrong order of bytes
        ("truncate", "truncated"),
        ("flip", "SHA-256"),
    ],
)
def test_damaged_parts_are_refused(
    parts_root: Path, tmp_path: Path, damage: str, message: str
) -> None:
    blob = gguf_bytes()
    model = make_parts(parts_root, blob, [2500])
    one, two = part_file(parts_root, model, 1), part_file(parts_root, model, 2)
    if damage == "swap":
        a, b = one.read_bytes(), two.read_bytes()
        one.write_bytes(b)
        two.write_bytes(a)
    elif damage == "truncate":
        two.write_bytes(two.read_bytes()[:-10])
    else:
        data = bytearray(two.read_bytes())
        data[100] ^= 0xFF
        two.write_bytes(bytes(data))
    cache = tmp_path / "cache"
    with pytest.raises(ModelError, match=message):
        mf.ensure_model(model, directory=cache)
    assert list(cache.iterdir()) == []  # no half-assembled file left behind


def test_missing_part_names_the_requirement(parts_root: Path, tmp_path: Path) -> None:
    model = make_parts(parts_root, gguf_bytes(), [1000, 2000], version="0.9.0")
    part_file(parts_root, model, 2).unlink()
    with pytest.raises(ModelError) as info:
        mf.ensure_model(model, directory=tmp_path / "cache")
    text = str(info.value)
    assert model.requirements()[1] in text and "0.9.0" in text and "agentls[local]" in text
    assert model.requirements()[0] not in text


def test_verified_file_is_reused_without_parts(
    parts_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blob = gguf_bytes()
    model = make_parts(parts_root, blob, [2500])
    cache = tmp_path / "cache"
    path = mf.ensure_model(model, directory=cache)
    for n in (1, 2):
        part_file(parts_root, model, n).unlink()
    hashed: list[Path] = []
    monkeypatch.setattr(
        mf, "_sha256", lambda p: hashed.append(p) or hashlib.sha256(p.read_bytes()).hexdigest()
    )
    assert mf.ensure_model(model, directory=cache) == path
    assert hashed == []  # size + mtime recorded: not hashed again
    mf._sidecar(path).unlink()  # record lost: hashed once, recorded again
    assert mf.ensure_model(model, directory=cache) == path
    assert mf.ensure_model(model, directory=cache) == path
    assert hashed == [path]


def test_changed_cached_file_is_reassembled(parts_root: Path, tmp_path: Path) -> None:
    blob = gguf_bytes()
    model = make_parts(parts_root, blob, [2500])
    cache = tmp_path / "cache"
    path = mf.ensure_model(model, directory=cache)
    tampered = bytearray(blob)
    tampered[-1] ^= 0xFF
    path.write_bytes(bytes(tampered))
    os.utime(path, ns=(1, 1))
    assert mf.ensure_model(model, directory=cache).read_bytes() == blob


@pytest.mark.parametrize(
    ("blob", "architecture", "message"),
    [
        (b"GGML" + bytes(100), None, "bad magic"),
        (b"GGUF" + struct.pack("<IQQ", 7, 0, 0), None, "version 7"),
        (b"GGUF\x03\x00", None, "ends inside"),
        (gguf_bytes(arch="llama"), "qwen2", "'llama', expected 'qwen2'"),
    ],
)
def test_check_gguf_refuses(
    tmp_path: Path, blob: bytes, architecture: str | None, message: str
) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(blob)
    with pytest.raises(ModelError, match=message):
        mf.check_gguf(path, architecture)


@pytest.mark.parametrize("array_first", [False, True])
def test_read_gguf_header(tmp_path: Path, array_first: bool) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(gguf_bytes(arch="qwen2", name="Tiny Coder", array_first=array_first))
    info = mf.read_gguf_header(path)
    assert (info.version, info.architecture, info.name) == (3, "qwen2", "Tiny Coder")


def test_check_gguf_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not found"):
        mf.check_gguf(tmp_path / "nope.gguf")


@pytest.mark.parametrize(
    ("env", "installed", "expected"),
    [
        ({}, {"1.5b", "0.5b"}, "1.5b"),
        ({}, {"0.5b"}, "0.5b"),
        ({}, set(), "1.5b"),  # the default, reported as missing when assembled
        ({"AGENTLS_LOCAL_MODEL": "0.5b"}, {"1.5b", "0.5b"}, "0.5b"),
        ({"AGENTLS_LOCAL_MODEL": "1.5B"}, set(), "1.5b"),
    ],
)
def test_choose_model(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], installed: set[str], expected: str
) -> None:
    monkeypatch.setattr(mf, "is_installed", lambda model: model.key in installed)
    assert mf.choose_model(env).key == expected


def test_choose_model_unknown_value() -> None:
    with pytest.raises(ModelError, match="0.5b, 1.5b"):
        mf.choose_model({"AGENTLS_LOCAL_MODEL": "7b"})


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"XDG_CACHE_HOME": "/x/cache"}, Path("/x/cache/agentls/models")),
        ({}, Path.home() / ".cache/agentls/models"),
    ],
)
def test_cache_dir(env: dict[str, str], expected: Path) -> None:
    assert mf.cache_dir(env) == expected


@pytest.mark.parametrize("key", list(mf.KNOWN_MODELS))
def test_known_model_table(key: str) -> None:
    model = mf.KNOWN_MODELS[key]
    packages = model.part_packages()
    assert len(packages) == model.count == len(model.requirements())
    assert (
        packages[0][1] == "data/part01.bin" and packages[-1][1] == f"data/part{model.count:02d}.bin"
    )
    assert all(r.endswith(f"=={model.version}") for r in model.requirements())
    assert len(model.sha256) == 64


def test_installed_real_parts_have_the_pinned_size() -> None:
    """The real 0.5B part packages, when installed: found without importing, sizes add up."""
    model = mf.KNOWN_MODELS["0.5b"]
    paths, missing = mf.part_paths(model)
    if missing:
        pytest.skip("the 0.5B part packages are not installed")
    assert sum(p.stat().st_size for p in paths) == model.size
    assert paths[0].read_bytes()[:4] == b"GGUF"
