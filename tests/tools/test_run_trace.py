"""Run ids: made in one place (`run_trace.new_run_id`), each a valid trace file name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agentls.tools.run_trace import RUNS_DIR, new_run_id, trace_path


@pytest.mark.parametrize("kind", ["run", "tool"])
def test_new_ids_are_unique_and_name_their_trace(tmp_path: Path, kind: str) -> None:
    ids = {new_run_id(kind) for _ in range(1000)}
    assert len(ids) == 1000
    for run_id in ids:
        assert re.fullmatch(rf"{kind}-[0-9a-f]{{12}}", run_id)
        assert trace_path(tmp_path, run_id) == tmp_path / RUNS_DIR / f"{run_id}.json"


def test_the_default_is_a_run_id() -> None:
    assert new_run_id().startswith("run-")


@pytest.mark.parametrize("bad", ["", "../x", "a/b", ".hidden", "x" * 200])
def test_what_is_not_a_run_id_names_no_trace(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ValueError):
        trace_path(tmp_path, bad)
