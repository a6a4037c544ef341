"""The backends' shared probe (sandbox/probe.py): `true` run through the backend's argv in
an empty folder; the reason it failed, or None."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentls.tools.sandbox.probe import probe

# (the argv before "true", what the probe says: exactly, or how it begins when it ends in ": ")
CASES = [
    ([], None),
    (["sh", "-c", "exit 0"], None),
    (["sh", "-c", "echo no namespaces >&2; exit 3"], "B does not work here: no namespaces"),
    (["sh", "-c", "exit 7"], "B does not work here: exit code 7"),
    (["/nonexistent/agentls-launcher"], "L failed to start: "),
]


@pytest.mark.parametrize(("argv", "why"), CASES)
def test_the_probe_says_why(argv: list[str], why: str | None) -> None:
    said = probe(lambda folder: argv, timeout=10, launcher="L", backend="B")
    if why is not None and why.endswith(": "):
        assert said is not None and said.startswith(why) and len(said) > len(why)
    else:
        assert said == why


def test_the_command_runs_in_an_empty_folder_that_is_gone_after() -> None:
    seen: list[Path] = []

    def argv_for(folder: Path) -> list[str]:
        seen.append(folder)
        assert folder.is_dir() and not any(folder.iterdir()) and folder == folder.resolve()
        return ["sh", "-c", 'test "$(ls -A "$1")" = "" || exit 9', "probe", str(folder)]

    assert probe(argv_for, timeout=10, launcher="L", backend="B") is None
    assert len(seen) == 1 and not seen[0].exists()


def test_a_launcher_that_hangs_is_cut_off() -> None:
    said = probe(lambda folder: ["sh", "-c", "sleep 30"], timeout=0.2, launcher="L", backend="B")
    assert said is not None and said.startswith("L failed to start: ") and "timed out" in said
