"""HumanEval-shaped problems into spec workspaces (tests/bench/agent_tasks/humaneval_*.py,
make_spec_tasks.py), on a small problem written here in HumanEval's format: the stub, the
instructions, which docstring examples become visible tests, the hidden check, the TOML.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

import pytest

AGENT_TASKS = Path(__file__).resolve().parents[1] / "bench" / "agent_tasks"
sys.path.insert(0, str(AGENT_TASKS))

from bench_tasks import materialize, parse  # noqa: E402
from bench_verify import verify  # noqa: E402
from humaneval_examples import candidate_examples, visible_only  # noqa: E402
from humaneval_tasks import Ineligible, convert, module_name, title  # noqa: E402
from make_spec_tasks import overfit_caught, problems_found, task_toml, toml_string  # noqa: E402

PROBLEM = {
    "task_id": "Sample/7",
    "entry_point": "countVowels",
    "prompt": (
        "from typing import List\n\n\n"
        "def is_vowel(c: str) -> bool:\n"
        '    """A helper the prompt gives."""\n'
        "    return c in 'aeiou'\n\n\n"
        "def countVowels(words: List[str]) -> int:\n"
        '    """Count the vowels in all the words.\n'
        "    >>> countVowels(['ab', 'e'])\n"
        "    2\n"
        "    >>> countVowels([])\n"
        "    0\n"
        "    countVowels(['xyz']) ➞ 0\n"
        "    countVowels(['aa']) == 3\n"
        "    * countVowels(['o']) => 1 (one vowel)\n"
        "    For words = ['i', 'u'] the output should be 2\n"
        "    countVowels(undefined_name) -> 4\n"
        '    """\n'
    ),
    "canonical_solution": "    return sum(is_vowel(c) for w in words for c in w)\n",
    "test": (
        "\n\ndef check(candidate):\n"
        "    assert candidate(['banana', 'kiwi']) == 5\n"
        "    assert candidate(['rhythm']) == 0\n"
        "    assert is_vowel('a')\n"
    ),
}


def test_the_stub_keeps_imports_helpers_and_signature_without_the_docstring() -> None:
    ws = convert(PROBLEM)
    assert ws.module == "count_vowels" and ws.stub_path == "count_vowels.py"
    stub = ws.files["count_vowels.py"]
    assert stub.startswith("from typing import List\n")
    assert "def is_vowel(c: str) -> bool:" in stub and "return c in 'aeiou'" in stub
    assert stub.endswith("def countVowels(words: List[str]) -> int:\n    pass\n")
    assert "Count the vowels" not in stub
    assert ws.solution.endswith("    return sum(is_vowel(c) for w in words for c in w)\n")


def test_the_instructions_are_the_docstring_with_its_examples_fenced() -> None:
    text = convert(PROBLEM).files[".docs/instructions.md"]
    assert text.startswith("# Count Vowels\n\nCount the vowels in all the words.\n\n```python\n")
    assert ">>> countVowels(['ab', 'e'])\n2\n" in text
    assert "```\n\nFor words = ['i', 'u'] the output should be 2\n\n```python\n" in text
    assert text.count("```") == 4


def test_visible_tests_keep_only_examples_the_reference_meets() -> None:
    ws = convert(PROBLEM)
    assert ws.examples == [
        ("countVowels(['ab', 'e'])", 2),
        ("countVowels([])", 0),
        ("countVowels(['xyz'])", 0),
        ("countVowels(['o'])", 1),
        ("countVowels(['i', 'u'])", 2),
    ]  # `== 3` is wrong, `undefined_name` does not evaluate
    visible = ws.files["count_vowels_test.py"]
    assert visible.startswith("from count_vowels import countVowels\n")
    assert visible.count("def test_example_") == 5
    ast.parse(visible)


def test_without_examples_the_visible_test_only_imports() -> None:
    bare = {**PROBLEM, "prompt": PROBLEM["prompt"].split("    >>>")[0] + '    """\n'}
    ws = convert(bare)
    assert ws.examples == []
    assert "assert callable(countVowels)" in ws.files["count_vowels_test.py"]
    assert (
        visible_only(ws.files["count_vowels.py"], ws.files["count_vowels_test.py"], "countVowels")
        is None
    )


def test_the_hidden_test_runs_humanevals_check_with_the_original_helpers() -> None:
    hidden = convert(PROBLEM).hidden
    assert "def is_vowel(c: str) -> bool:" in hidden  # a copy: the stub's may be edited
    assert "from count_vowels import countVowels\n" in hidden
    assert hidden.rstrip().endswith("def test_hidden_check():\n    check(countVowels)")


@pytest.mark.parametrize(
    "prompt",
    [
        "X = 1\n\ndef f(a):\n    '''Doc.'''\n",
        "def f(a):\n    import math\n    '''Doc.'''\n",
        "def f(a):\n    '''Doc.'''\n\n\ndef g():\n    pass\n",
    ],
)
def test_other_prompt_shapes_are_ineligible(prompt: str) -> None:
    with pytest.raises(Ineligible):
        convert({**PROBLEM, "entry_point": "f", "prompt": prompt})


def test_names() -> None:
    assert (module_name("Strongest_Extension"), title("Strongest_Extension")) == (
        "strongest_extension",
        "Strongest Extension",
    )
    assert module_name("string") == "string_ex"  # would shadow the standard module
    assert candidate_examples(["f(1) -> 19 - 5 = 14"], "f") == []


@pytest.mark.parametrize("text", ["plain\n", "has ''' inside and \\ a backslash\n", 'ends """\n'])
def test_toml_strings_round_trip(text: str) -> None:
    assert tomllib.loads(f"x = {toml_string(text)}\n")["x"] == text


def test_the_task_file_verifies_as_intended(tmp_path: Path) -> None:
    ws = convert(PROBLEM)
    task = parse(tomllib.loads(task_toml(ws, "holdout", 2)), "sample", "sample")
    assert (task.category, task.mode, task.split, task.source) == (
        "implement",
        "full",
        "holdout",
        "Sample/7",
    )
    assert task.goal == "count_vowels.py only has a stub of countVowels. Implement it."
    assert problems_found(task, tmp_path) == []
    assert overfit_caught(task, tmp_path) is True
    # an edit to the visible tests is caught, even when the code is right
    root = materialize(task, tmp_path / "edited", solved=True, git=False)
    (root / "count_vowels_test.py").write_text("def test_nothing():\n    pass\n")
    verdict = verify(task, root, "completed", "")
    assert [c.check for c in verdict.checks if not c.ok] == ["only_changed", "unchanged"]
