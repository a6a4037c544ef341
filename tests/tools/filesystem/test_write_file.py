"""write_file: a proposal, never a write; the approval policy decides what happens next."""

from __future__ import annotations

import sys
import threading

import pytest

APP_OLD = "def main():\n    return 1\n"


@pytest.mark.parametrize(
    ("approval", "mode", "status", "on_disk", "fragment"),
    [
        ("never", "dev", "pending", APP_OLD, "pending the user's review"),
        ("auto", "dev", "applied", "changed\n", "Applied: src/app.py"),
        ("auto", "full", "applied", "changed\n", "Applied"),
    ],
)
def test_approval_policies(call, make_ctx, ws_root, approval, mode, status, on_disk, fragment):
    ctx = make_ctx(mode, approval)
    result = call(ctx, "write_file", path="src/app.py", content="changed\n")
    assert result.ok, result.error
    out = result.output
    assert out["status"] == status and out["path"] == "src/app.py"
    assert fragment in out["message"]
    assert out["diff"].startswith("--- a/src/app.py\n+++ b/src/app.py\n")
    assert "-def main():\n-    return 1\n+changed\n" in out["diff"]
    assert (ws_root / "src" / "app.py").read_text() == on_disk
    assert ctx.proposals.get(out["proposal_id"]).status == status


def test_auto_is_refused_outside_dev_and_full(call, make_ctx, ws_root):
    ctx = make_ctx("dev", "auto")
    ctx.permissions.mode = "custom"  # a write-capable set whose mode does not allow auto
    ctx.extra["proposal_timeout_s"] = 0.05
    out = call(ctx, "write_file", path="src/app.py", content="changed\n").output
    assert out["status"] == "pending" and "'auto' is not allowed in mode 'custom'" in out["message"]
    assert (ws_root / "src" / "app.py").read_text() == APP_OLD


@pytest.mark.parametrize(
    ("decision", "comment", "status", "fragment"),
    [
        ("accepted", None, "applied", "Applied"),
        ("rejected", "use a constant", "rejected", "rejected by the user: use a constant"),
        ("rejected", None, "rejected", "rejected by the user (no comment)"),
    ],
)
def test_ask_waits_for_the_decision(call, make_ctx, ws_root, decision, comment, status, fragment):
    ctx = make_ctx("dev", "ask")

    def decide(event: dict) -> None:
        if event["action"] == "created":
            pid = event["proposal"]["id"]
            threading.Timer(0.05, ctx.proposals.resolve, args=(pid, decision, comment)).start()

    ctx.proposals.add_listener(decide)
    out = call(ctx, "write_file", path="src/app.py", content="changed\n").output
    assert out["status"] == status and out["comment"] == comment
    assert fragment in out["message"]
    expected = "changed\n" if status == "applied" else APP_OLD
    assert (ws_root / "src" / "app.py").read_text() == expected


def test_ask_gives_up_after_the_proposal_timeout(call, make_ctx):
    ctx = make_ctx("dev", "ask", extra={"proposal_timeout_s": 0.1})
    out = call(ctx, "write_file", path="src/app.py", content="changed\n").output
    assert out["status"] == "pending" and "no decision within 0.1 s" in out["message"]


def test_accepting_after_the_file_changed_is_stale(call, make_ctx, ws_root):
    ctx = make_ctx("dev", "ask")

    def change_then_accept(event: dict) -> None:
        if event["action"] == "created":
            (ws_root / "src" / "app.py").write_text("edited by someone else\n")
            ctx.proposals.resolve(event["proposal"]["id"], "accepted")

    ctx.proposals.add_listener(change_then_accept)
    out = call(ctx, "write_file", path="src/app.py", content="changed\n").output
    assert out["status"] == "stale" and "Read src/app.py again" in out["message"]
    assert (ws_root / "src" / "app.py").read_text() == "edited by someone else\n"


def test_a_new_file_is_a_create_proposal(call, make_ctx, ws_root):
    ctx = make_ctx("dev", "never")
    out = call(ctx, "write_file", path="pkg/new.py", content="x = 1\n").output
    proposal = ctx.proposals.get(out["proposal_id"])
    assert proposal.edit["documentChanges"][0]["kind"] == "create"
    assert not (ws_root / "pkg").exists()
    assert ctx.proposals.resolve(proposal.id, "accepted") == "applied"
    assert (ws_root / "pkg" / "new.py").read_text() == "x = 1\n"


def test_a_change_that_breaks_the_syntax_is_refused(call, make_ctx):
    pytest.importorskip("agentls.analysis.syntax")
    ctx = make_ctx("dev", "auto")
    result = call(ctx, "write_file", path="src/app.py", content="def main(:\n    return 1\n")
    assert result.error["type"] == "runtime"
    assert (
        "refused: the change would introduce syntax errors in src/app.py at line 0"
        in result.error["message"]
    )
    assert ctx.proposals.list() == []


@pytest.mark.parametrize(
    ("path", "old", "new", "fragment"),
    [
        # what the tree-sitter grammar forgives and CPython does not (benchmark pattern 2)
        ("src/mod.py", "def f():\n    return 1\n", "    return 2\n", "IndentationError: unexpected indent"),
        ("src/mod.py", "def f():\n    return 1\n", "def f():\n    # todo\n", "IndentationError: expected an indented block"),
        ("src/fragment.py", None, "    x = 1\n", "IndentationError: unexpected indent"),  # a new file
    ],
)
def test_python_the_interpreter_rejects_is_refused(call, make_ctx, ws_root, path, old, new, fragment):
    if old is not None:
        (ws_root / path).write_text(old)
    ctx = make_ctx("dev", "auto")
    result = call(ctx, "write_file", path=path, content=new, reason="rewrite it")
    assert result.error["type"] == "runtime", result
    assert fragment in result.error["message"]
    assert ctx.proposals.list() == []
    assert (ws_root / path).exists() == (old is not None)


def test_newer_python_than_the_interpreter_is_not_refused(call, make_ctx, ws_root):
    # a file that does not compile here already (e.g. syntax of a newer Python) may still be
    # edited, and a new file is only refused for an indentation error
    (ws_root / "src/new_syntax.py").write_text("type Point = tuple[int, int]\n")
    assert call(make_ctx("dev", "auto"), "write_file", path="src/new_syntax.py",
                content="type Point = tuple[float, float]\n", reason="floats").ok  # fmt: skip
    assert call(make_ctx("dev", "auto"), "write_file", path="src/other.py",
                content="type Pair = tuple[int, int]\n").ok  # fmt: skip


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        ("src/broken.py", "def f(:\n", "def f(:\n    pass\n"),  # already broken: may stay broken
        ("notes.txt", "a\n", "def f(:\n"),  # not an analysed language
    ],
)
def test_syntax_check_only_guards_files_that_parse(call, make_ctx, ws_root, path, old, new):
    (ws_root / path).write_text(old)
    assert call(make_ctx("dev", "never"), "write_file", path=path, content=new).ok


def test_without_the_analysis_layer_there_is_no_syntax_check(call, make_ctx, monkeypatch):
    monkeypatch.setitem(sys.modules, "agentls.analysis.syntax", None)  # import fails
    result = call(make_ctx("dev", "never"), "write_file", path="src/app.py", content="def main(:\n")
    assert result.ok and result.output["status"] == "pending"


@pytest.mark.parametrize(
    ("path", "content", "setup", "etype", "fragment"),
    [
        ("src/app.py", APP_OLD, None, "runtime", "already has exactly this content"),
        ("src", "x", None, "runtime", "src is a directory"),
        (".", "x", None, "runtime", "is a directory"),
        ("README.md/child.txt", "x", None, "runtime", "README.md is a file"),
        ("blob.bin", "text", "binary", "runtime", "binary file"),
        ("../escape.txt", "x", None, "permission", "outside the workspace root"),
        ("src/app.py", 5, None, "validation", "'content'"),
    ],
)
def test_errors(call, make_ctx, ws_root, path, content, setup, etype, fragment):
    if setup == "binary":
        (ws_root / "blob.bin").write_bytes(b"\x00\x01")
    result = call(make_ctx("dev", "auto"), "write_file", path=path, content=content)
    assert result.error["type"] == etype
    assert fragment in result.error["message"]


BIG = "".join(f"def f{i}():\n    return {i}\n\n" for i in range(6))


@pytest.mark.parametrize(
    ("content", "reason", "ok"),
    [
        ("def f0():\n    return 0\n", None, False),  # drops most of the file: refused
        ("def f0():\n    return 0\n", "too short", False),  # a reason must say something
        ("def f0():\n    return 0\n", "the module is replaced by a stub on purpose", True),
        (BIG.replace("return 5", "return 50"), None, True),  # keeps most lines
        (BIG + "def g():\n    return 7\n", None, True),  # only adds
    ],
)
def test_a_write_that_drops_most_of_a_file_needs_a_reason(call, make_ctx, ws_root, content, reason, ok):
    (ws_root / "big.py").write_text(BIG)
    args = {"path": "big.py", "content": content} | ({"reason": reason} if reason else {})
    result = call(make_ctx("dev", "auto"), "write_file", **args)
    assert result.ok is ok, result.error
    if not ok:
        assert result.error["type"] == "runtime"
        assert "keep only 2 of its 12 non-blank lines" in result.error["message"]
        assert "replace_symbol" in result.error["message"]
        assert (ws_root / "big.py").read_text() == BIG


def test_a_run_may_rewrite_its_own_version_whole_but_not_the_users(call, make_ctx, ws_root):
    """The guard protects what the user had, not what this run wrote: a run that wrote a
    file may replace its own version whole (a next try); another run may not."""
    (ws_root / "stub.py").write_text("def f():\n    pass\n")
    ctx = make_ctx("dev", "auto")
    assert call(ctx, "write_file", path="stub.py", content=BIG).ok  # the stub's pass is no content
    again = call(ctx, "write_file", path="stub.py", content="def f0():\n    return 0\n")
    assert again.ok, again.error  # its own version: no reason needed
    (ws_root / "stub.py").write_text(BIG + "# the user kept on\n")  # the user's file now
    refused = call(ctx, "write_file", path="stub.py", content="def f0():\n    return 1\n")
    assert not refused.ok and "keep only" in refused.error["message"]
