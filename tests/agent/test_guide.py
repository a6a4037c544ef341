"""Guided turns for a tiny model (agent/guide.py): one tool for the goal's kind of job, its
arguments held to what the workspace has, and the run ending by itself once the done check
finds the change there — driven through the real loop by scripted transcripts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentls.agent.agent import RunSettings
from agentls.agent.choices import line_stem, rank_lines
from agentls.agent.goal import GoalReading
from agentls.agent.guide import job_of
from agentls.llm.replay import Recorder, ReplayModel

from .conftest import RunAgent, act, finish

GREET = 'def greet(name):\n    return f"Hello, {name}!"\n\n\ndef farewell(name):\n    return f"Bye, {name}."\n'
DEV = RunSettings(mode="dev", approval="auto")


@pytest.mark.parametrize(
    ("kind", "wants_change", "tool"),
    [
        ("answer", False, None),
        ("change", False, None),  # may not write: an answer
        ("rename", True, "rename_symbol"),
        ("docstring", True, "add_docstring"),
        ("add", True, "insert_symbol"),
        ("implement", True, "replace_symbol"),
        ("tests", True, "write_file"),
        ("new_file", True, "write_file"),
        ("change", True, "edit_file"),
        ("remove", True, "edit_file"),
        ("hints", True, "edit_file"),
        ("fix_tests", True, "edit_file"),
    ],
)
def test_the_kind_of_job_decides_the_one_tool(kind: str, wants_change: bool, tool: str | None) -> None:
    reading = GoalReading(goal="g", kind=kind, wants_change=wants_change)  # type: ignore[arg-type]
    assert job_of(reading).tool == tool


@pytest.mark.parametrize(
    ("goal", "text", "signature", "first"),
    [
        ("Make greet in greet.py say Welcome rather than Hello.", GREET, False, 'return f"Hello, {name}!"'),
        (
            "is_even in parity.py is wrong for odd inputs",
            "def is_even(n):\n    return n % 2 == 1\n\n\ndef evens(values):\n    return [v for v in values if is_even(v)]\n",
            False,
            "return n % 2 == 1",  # the named function's body, not its def line or a caller
        ),
        (
            "Annotate find_user's user_id as an int.",
            "def find_user(users, user_id):\n    for user in users:\n        if user['id'] == user_id:\n            return user\n",
            True,
            "def find_user(users, user_id):",  # a signature goal: the def line
        ),
    ],
)
def test_lines_the_goal_points_at_come_first(goal: str, text: str, signature: bool, first: str) -> None:
    ranked = sorted(rank_lines(goal, text, signature), key=lambda s: -s[0])
    assert ranked[0] == (ranked[0][0], first) and ranked[0][0] > 0, ranked


def test_a_line_that_is_not_unique_is_never_offered() -> None:
    lines = [line for _, line in rank_lines("Change x to 2", "x = 1\nx = 1\ny = x\n")]
    assert lines == ["y = x"]  # `x = 1` twice: an edit of it would be ambiguous


def _offered(spec: list[dict[str, Any]], name: str) -> dict[str, Any]:
    (tool,) = [t for t in spec if t["function"]["name"] == name]
    return tool["function"]["parameters"]["properties"]  # type: ignore[no-any-return]


GOAL = "greet.py should greet with Welcome instead of Hello."


async def test_a_guided_edit_is_offered_one_tool_with_the_workspace_choices_and_ends_by_itself(
    run_agent: RunAgent, ws_root: Path
) -> None:
    (ws_root / "greet.py").write_text(GREET)
    edit = {"path": "greet.py", "old": 'return f"Hello, {name}!"', "new": 'return f"Welcome, {name}!"'}
    out = await run_agent([act("edit_file", edit)], goal=GOAL, settings=DEV, small=True, guided=True)
    assert out.state.status == "completed", out.state.error
    (turn,) = out.acting()  # no finish turn: the done check found the change there
    assert turn.tools == ["edit_file", "finish"]
    props = _offered(turn.specs, "edit_file")
    assert props["path"]["enum"] == ["greet.py"]
    assert props["old"]["enum"] == ['return f"Hello, {name}!"']  # the one line the goal points at
    assert props["new"]["maxLength"] == 240
    (branch, *_) = turn.specs[0]["function"]["parameters"]["anyOf"]  # what the grammar takes
    assert branch["properties"]["path"] == {"const": "greet.py"}
    assert branch["properties"]["old"] == {"const": 'return f"Hello, {name}!"'}
    assert branch["properties"]["new"]["x-prefix"] == "return "  # the line's stem is kept
    assert "Call edit_file with `old` = the one line to change" in turn.text()
    assert (ws_root / "greet.py").read_text() == GREET.replace("Hello", "Welcome")
    assert out.state.summary.startswith('Changed greet.py (+1 −1): applied.\n- return f"Hello, {name}!"; + return f"Welcome')


async def test_a_guided_edit_that_misses_the_asked_value_is_told_and_does_not_complete(
    run_agent: RunAgent, ws_root: Path
) -> None:
    (ws_root / "greet.py").write_text(GREET)
    wrong = {"path": "greet.py", "old": 'return f"Hello, {name}!"', "new": 'return f"Hi, {name}!"'}
    out = await run_agent(
        [act("edit_file", wrong), finish("Changed the greeting."), finish("Changed the greeting.")],
        goal=GOAL, settings=DEV, small=True, guided=True,
    )  # fmt: skip
    assert out.state.status == "failed"
    assert "the goal asks for Welcome, which no line this run changed has" in (out.state.error or "")
    told = out.acting()[1].text()
    assert "Not done yet: the goal asks for Welcome" in told


async def test_several_changes_do_not_end_after_the_first(run_agent: RunAgent, ws_root: Path) -> None:
    (ws_root / "conv.py").write_text("def a(x):\n    return x\n\n\ndef b(y):\n    return y\n")
    goal = "Put float type hints on each function of conv.py, parameters and results alike."
    script = [
        act("edit_file", {"path": "conv.py", "old": "def a(x):", "new": "def a(x: float) -> float:"}),
        act("edit_file", {"path": "conv.py", "old": "def b(y):", "new": "def b(y: float) -> float:"}),
        finish("Hinted a and b."),
    ]
    out = await run_agent(script, goal=goal, settings=DEV, small=True, guided=True)
    assert out.state.status == "completed", out.state.error
    assert len(out.acting()) == 3
    second = _offered(out.acting()[1].specs, "edit_file")["old"]["enum"]
    assert "def b(y):" in second and "def a(x):" not in second  # the file as it now reads


async def test_a_guided_question_is_offered_finish_only(run_agent: RunAgent, ws_root: Path) -> None:
    (ws_root / "settings.py").write_text("MAX_RETRIES = 7\n")
    out = await run_agent(
        [finish("MAX_RETRIES is 7.")], goal="what's MAX_RETRIES set to?",
        settings=DEV, small=True, guided=True,
    )  # fmt: skip
    assert out.state.status == "completed"
    assert out.acting()[0].tools == ["finish"]
    assert "MAX_RETRIES = 7" in out.acting()[0].text()  # the file it names, read up front


async def test_an_impossible_guided_goal_is_offered_finish_only(run_agent: RunAgent) -> None:
    out = await run_agent(
        [finish("There is no server.py in this workspace.")],
        goal="Document the start_server function of server.py with a docstring.",
        settings=DEV, small=True, guided=True,
    )  # fmt: skip
    assert out.acting()[0].tools == ["finish"]
    assert out.state.status == "failed"


async def test_a_rename_is_held_to_the_goals_names(run_agent: RunAgent, ws_root: Path) -> None:
    (ws_root / "models.py").write_text("class Usr:\n    pass\n")
    (ws_root / "service.py").write_text("from models import Usr\n\nu = Usr()\n")
    out = await run_agent(
        [act("rename_symbol", {"path": "models.py", "symbol": "Usr", "new_name": "User"})],
        goal="Usr should be named User, its uses too.",
        settings=DEV, small=True, guided=True,
    )  # fmt: skip
    assert out.state.status == "completed", out.state.error
    props = _offered(out.acting()[0].specs, "rename_symbol")
    assert (props["symbol"]["enum"], props["new_name"]["enum"]) == (["Usr"], ["User"])
    assert "User()" in (ws_root / "service.py").read_text()


async def test_unguided_small_runs_keep_their_tools(run_agent: RunAgent, ws_root: Path) -> None:
    (ws_root / "greet.py").write_text(GREET)
    out = await run_agent([finish("nothing")], goal=GOAL, settings=DEV, small=True)
    tools = out.acting()[0].tools
    assert "read_file" in tools and "edit_file" in tools
    assert "enum" not in _offered(out.acting()[0].specs, "edit_file")["old"]


async def test_a_recording_of_a_guided_run_replays_guided(tmp_path: Path) -> None:
    class Tiny:
        name, context_tokens, small, guided = "tiny", 1000, True, True

        async def complete(self, messages: Any, **_: Any) -> Any:
            from agentls.llm.base import ModelTurn

            return ModelTurn(content="hi")

        async def aclose(self) -> None:
            return None

    path = tmp_path / "rec.jsonl"
    await Recorder(Tiny(), path).complete([{"role": "user", "content": "x"}], tools=[])
    assert json.loads(path.read_text().splitlines()[0])["request"]["guided"] is True
    assert ReplayModel(path).guided is True


def test_the_local_model_is_guided_for_the_0_5b_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentls.llm.local.model_files import KNOWN_MODELS
    from agentls.llm.local.provider import LocalModel

    monkeypatch.delenv("AGENTLS_GUIDED", raising=False)
    assert LocalModel(model=KNOWN_MODELS["0.5b"]).guided is True
    assert LocalModel(model=KNOWN_MODELS["1.5b"]).guided is False
    assert LocalModel("/m/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf").guided is True
    monkeypatch.setenv("AGENTLS_GUIDED", "0")
    assert LocalModel(model=KNOWN_MODELS["0.5b"]).guided is False
    monkeypatch.setenv("AGENTLS_GUIDED", "1")
    assert LocalModel(model=KNOWN_MODELS["1.5b"]).guided is True


@pytest.mark.parametrize(
    ("source", "goal", "test", "body", "prefix", "then"),
    [
        (
            ("calc.py", "def add(a, b):\n    return a + b\n"),
            "Write a pytest test for the add function of calc.py in a new file test_calc.py.",
            "test_calc.py",
            "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
            "from calc import add\n\n\ndef test_add():\n    assert add(",
            [],  # one assert line
        ),
        (  # a predicate is tested both ways
            ("strs.py", "def is_palindrome(text):\n    return text == text[::-1]\n"),
            "Add pytest tests for is_palindrome from strs.py in a new file test_strs.py.",
            "test_strs.py",
            'from strs import is_palindrome\n\n\ndef test_is_palindrome():\n    assert is_palindrome("aba")\n    assert not is_palindrome("ab")\n',
            "from strs import is_palindrome\n\n\ndef test_is_palindrome():\n    assert is_palindrome(",
            ["\n    assert not is_palindrome("],
        ),
    ],
)
async def test_a_new_test_file_starts_with_the_import_and_an_assert_of_what_it_tests(
    run_agent: RunAgent, ws_root: Path, source: tuple[str, str], goal: str, test: str,
    body: str, prefix: str, then: list[str],
) -> None:  # fmt: skip
    (ws_root / source[0]).write_text(source[1])
    out = await run_agent(
        [act("write_file", {"path": test, "content": body})], goal=goal, settings=DEV, small=True, guided=True
    )
    assert out.state.status == "completed", out.state.error
    props = _offered(out.acting()[0].specs, "write_file")
    assert props["path"]["enum"] == [test]
    assert (props["content"]["x-prefix"], props["content"]["x-then"]) == (prefix, then)
    assert (ws_root / test).read_text() == body


async def test_an_answer_gets_the_facts_of_the_names_the_goal_mentions(
    run_agent: RunAgent, ws_root: Path
) -> None:
    (ws_root / "orders.py").write_text(
        'MAX = 3\n\n\ndef make_order(customer, items, discount=0.0, note=""):\n    return {"c": customer}\n'
    )
    out = await run_agent(
        [finish("make_order takes 4 parameters.")],
        goal="how many arguments does make_order in orders.py expect, and what is MAX?",
        settings=DEV, small=True, guided=True,
    )  # fmt: skip
    text = out.acting()[0].text()
    assert "- make_order (orders.py line 4) takes 4 parameters: customer, items, discount=0.0, note=''" in text
    assert "- MAX = 3 (orders.py line 1)" in text


async def test_a_fix_that_must_not_touch_the_tests_is_offered_the_code_only(
    run_agent: RunAgent, ws_root: Path
) -> None:
    (ws_root / "text.py").write_text('def slugify(title):\n    return title.lower().replace(" ", "_")\n')
    (ws_root / "test_text.py").write_text('from text import slugify\n\n\ndef test_slug():\n    assert slugify("A b") == "a-b"\n')
    out = await run_agent(
        [finish("x"), finish("x")],
        goal="slugify is broken, test_text.py says so. Repair it in text.py but leave the test alone.",
        settings=DEV, small=True, guided=True,
    )  # fmt: skip
    props = _offered(out.acting()[0].specs, "edit_file")
    assert props["path"]["enum"] == ["text.py"]
    assert props["old"]["enum"][0] == 'return title.lower().replace(" ", "_")'
    assert not any("import" in line or "assert" in line for line in props["old"]["enum"])


@pytest.mark.parametrize(
    ("line", "stem"),
    [
        ("def area(width, height):", "def area("),
        ("async def fetch(url):", "async def fetch("),
        ("TIMEOUT_SECONDS = 30", "TIMEOUT_SECONDS = "),
        ("self.x: int = 3", "self.x: int = "),
        ('return f"Hello, {name}!"', "return "),
        ("if a == b:", None),
        ("x == 3", None),
    ],
)
def test_the_stem_an_edit_of_a_line_keeps(line: str, stem: str | None) -> None:
    assert line_stem(line) == stem


async def test_a_removal_empties_the_line_and_a_failed_edit_is_tried_again_before_finish(
    run_agent: RunAgent, ws_root: Path
) -> None:
    (ws_root / "pipe.py").write_text('def process(items):\n    print("DEBUG", items)\n    return items\n')
    goal = "Drop the stray debug print in process (pipe.py)."
    script = [
        act("edit_file", {"path": "pipe.py", "old": "return items", "new": "return items"}),  # invalid
        act("edit_file", {"path": "pipe.py", "old": 'print("DEBUG", items)', "new": ""}),
    ]
    out = await run_agent(script, goal=goal, settings=DEV, small=True, guided=True)
    assert out.state.status == "completed", out.state.error
    first, second = out.acting()
    assert first.tools == ["edit_file", "finish"] and second.tools == ["edit_file"]
    (branch, *_) = first.specs[0]["function"]["parameters"]["anyOf"]
    assert branch["properties"]["old"] == {"const": 'print("DEBUG", items)'}
    assert branch["properties"]["new"] == {"const": ""}
    assert "print" not in (ws_root / "pipe.py").read_text()


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n", True),
        ("import pytest\n\ndef test_div():\n    with pytest.raises(ZeroDivisionError):\n        1 / 0\n", True),
        ("test('adds', () => { expect(add(1, 2)).toBe(3); });\n", True),
        ("from calc import add\n\n\ndef test_add(a, b):\n    return add(a, b)\n", False),  # checks nothing
        ("def add(a, b):\n    return a + b\n", False),
    ],
)
def test_a_new_test_file_needs_a_test_that_checks_something(text: str, ok: bool) -> None:
    from agentls.agent.builtin.evidence import has_test

    assert has_test(text) is ok


@pytest.mark.skipif(
    __import__("shutil").which("bwrap") is None
    or __import__("agentls.tools.sandbox", fromlist=["x"]).bubblewrap_status()[0] is None,
    reason="needs the bubblewrap sandbox to run the workspace's tests: "
    + __import__("agentls.tools.sandbox", fromlist=["x"]).bubblewrap_status()[1],
)
async def test_a_guided_end_runs_the_workspace_tests_once(make_agent: Any, ws_root: Path) -> None:
    (ws_root / "test_app.py").write_text("from src.app import main\n\n\ndef test_main():\n    assert main() == 2\n")
    edit = act("edit_file", {"path": "src/app.py", "old": "return 1", "new": "return 2"})
    agent, _, _ = make_agent([edit], RunSettings(mode="full", approval="auto"), small=True, guided=True)
    runs: list[str] = []
    execute = agent.executor.execute_async

    async def counted(name: str, *args: Any, **kwargs: Any) -> Any:
        runs.append(name)
        return await execute(name, *args, **kwargs)

    agent.executor.execute_async = counted
    state = await agent.run("The test fails. Fix main in src/app.py so the test passes.")
    assert state.status == "completed", state.error
    # once as the run began (its failures in the prompt), once after the change: the end's
    # check takes that last run instead of running the suite a third time
    assert runs == ["run_test_suite", "edit_file", "run_test_suite"]
