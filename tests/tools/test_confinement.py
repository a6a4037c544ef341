"""Property: no path argument gets a filesystem tool outside the workspace root.

Paths are built from `..`, absolute prefixes, symlinks to files and folders inside and
outside, NUL bytes, very long and non-ASCII names. Every call either succeeds inside the
root, fails at runtime for a path that is inside (missing file, ...), or is a permission
or validation error; nothing outside is read, listed or written.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentls.tools.base import ToolContext
from agentls.tools.executor import ToolExecutor
from agentls.tools.filesystem import TOOLS
from agentls.tools.permissions import PermissionSet
from agentls.tools.proposals import ProposalStore
from agentls.tools.registry import ToolRegistry
from agentls.workspace import PathOutsideWorkspace, Workspace, confine

SECRET = "OUTSIDE-SECRET"


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("confine")
    root, outside = base / "root", base / "outside"
    (root / "dir" / "sub").mkdir(parents=True)
    (root / "ünïcødé").mkdir()
    outside.mkdir()
    (outside / "zz_secret.txt").write_text(SECRET)
    (outside / "zz_dir").mkdir()
    (outside / "zz_dir" / "zz_secret.txt").write_text(SECRET)
    (root / "inside.txt").write_text("inside\n")
    (root / "dir" / "file.txt").write_text("file\n")
    (root / "ünïcødé" / "naïve.txt").write_text("naïve\n")
    links = {
        "link_in_file": root / "inside.txt",
        "link_in_dir": root / "dir",
        "link_out_file": outside / "zz_secret.txt",
        "link_out_dir": outside,
        "dir/sub/up": root,
        "dir/sub/out": outside / "zz_dir",
        "loop": root / "loop",
    }
    for name, target in links.items():
        os.symlink(target, root / name)
    return root, outside


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


COMPONENTS = [
    "..",
    ".",
    "",
    "dir",
    "sub",
    "up",
    "out",
    "inside.txt",
    "file.txt",
    "ünïcødé",
    "naïve.txt",
    "link_in_file",
    "link_in_dir",
    "link_out_file",
    "link_out_dir",
    "loop",
    "zz_secret.txt",
    "zz_dir",
    "outside",
    "root",
    "x" * 300,
    "é" * 200,
    "~",
    "$HOME",
    "a\x00b",
    "\x00",
    " ",
    "...",
]


@st.composite
def paths(draw: st.DrawFn) -> str:
    parts = draw(
        st.lists(
            st.one_of(st.sampled_from(COMPONENTS), st.text(min_size=1, max_size=12)),
            min_size=1,
            max_size=6,
        )
    )
    prefix = draw(st.sampled_from(["", "", "", "/", "//", "./", "ROOT/", "OUTSIDE/", "/etc/"]))
    return prefix + "/".join(parts)


def _resolve_prefix(path: str, root: Path, outside: Path) -> str:
    return path.replace("ROOT/", f"{root}/", 1).replace("OUTSIDE/", f"{outside}/", 1)


def _inside(root: Path, path: str) -> bool:
    try:
        confine(root, path)
    except PathOutsideWorkspace:
        return False
    return "\x00" not in path


def _check(result, root: Path, path: str, inside: bool) -> None:
    if result.ok:
        assert inside, f"{path!r} succeeded but is not inside the root"
        assert SECRET not in str(result.output)
        return
    err = result.error
    assert SECRET not in err["message"]
    if inside:
        assert err["type"] in ("runtime", "permission", "validation"), err
    else:
        assert err["type"] in ("permission", "validation"), (path, err)


PROPERTY = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _ctx(root: Path, approval: str = "never") -> ToolContext:
    workspace = Workspace(root)
    return ToolContext(
        workspace=workspace,
        permissions=PermissionSet.for_mode("dev"),
        proposals=ProposalStore(workspace),
        approval=approval,  # type: ignore[arg-type]
    )


EXECUTOR = ToolExecutor(ToolRegistry(TOOLS))


@PROPERTY
@given(raw=paths())
def test_read_file_never_escapes(sandbox, raw):
    root, outside = sandbox
    path = _resolve_prefix(raw, root, outside)
    inside = _inside(root, path)
    result = EXECUTOR.execute("read_file", {"path": path}, _ctx(root))
    _check(result, root, path, inside)
    if result.ok:
        assert not Path(result.output["path"]).is_absolute() and not result.output[
            "path"
        ].startswith("..")


@PROPERTY
@given(raw=paths(), recursive=st.booleans())
def test_list_directory_never_escapes(sandbox, raw, recursive):
    root, outside = sandbox
    path = _resolve_prefix(raw, root, outside)
    inside = _inside(root, path)
    result = EXECUTOR.execute("list_directory", {"path": path, "recursive": recursive}, _ctx(root))
    _check(result, root, path, inside)
    if result.ok:
        real_root = os.path.realpath(root)
        for entry in result.output["entries"]:
            parent = os.path.realpath(root / os.path.dirname(entry["path"]))
            assert parent == real_root or parent.startswith(real_root + os.sep), entry


@PROPERTY
@given(raw=paths())
def test_write_file_never_writes_outside(sandbox, raw):
    root, outside = sandbox
    before = _snapshot(outside)
    path = _resolve_prefix(raw, root, outside)
    inside = _inside(root, path)
    ctx = _ctx(root, approval="auto")
    result = EXECUTOR.execute("write_file", {"path": path, "content": "PROBE\n"}, ctx)
    _check(result, root, path, inside)
    assert _snapshot(outside) == before
    for proposal in ctx.proposals.list():
        assert _inside(root, proposal.path)
        if proposal.status == "applied":
            assert (root / proposal.path).read_text() == "PROBE\n"
