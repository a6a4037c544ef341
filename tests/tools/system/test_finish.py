"""finish: needs no permission and returns its summary."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("mode", ["read-only", "dev", "ci", "full"])
def test_finish_returns_the_summary_in_every_mode(call, make_ctx, mode):
    result = call(make_ctx(mode), "finish", summary="done: fixed the bug")
    assert result.to_dict() == {"ok": True, "output": {"summary": "done: fixed the bug"}}


@pytest.mark.parametrize(
    ("raw", "fragment"), [({}, "'summary': Field required"), ({"summary": ""}, "'summary'")]
)
def test_finish_needs_a_summary(call, make_ctx, raw, fragment):
    result = call(make_ctx(), "finish", **raw)
    assert result.error["type"] == "validation" and fragment in result.error["message"]
