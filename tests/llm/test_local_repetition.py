"""A reply gone into a loop is told early (llm/local/repetition.py), a long but varied one
is not."""

from __future__ import annotations

from agentls.llm.local.repetition import WINDOW, looping


def test_one_line_shape_over_and_over_is_a_loop() -> None:
    head = "def closest(value):\n"
    loop = "".join(f"    if value.endswith('{c}'):\n        value = value[:-1]\n" for c in "abcdefghijklmnopqrstuvwxyz")
    assert looping(head + loop)
    assert not looping(head + loop[: 300])  # not yet: too few lines to tell


def test_long_varied_code_is_not_a_loop() -> None:
    code = "".join(f"def f{i}(x):\n    return x * {i} + len(str(x)) - {i % 3}\n\n" for i in range(WINDOW))
    code += "".join(f"    total{i} = compute_{i}(items[{i}], weight={i})\n" for i in range(WINDOW))
    assert not looping(code)
