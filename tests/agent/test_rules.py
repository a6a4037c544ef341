"""The project's rules files (DESIGN §9, builtin/rules.py) in the model's first request,
for every turn policy, reported by a `rules` event; `rules: false`; the budget; links
leading outside the workspace."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from agentls.agent.agent import Agent, RunEvent, RunSettings
from agentls.agent.builtin.rules import RULES_MAX_CHARS
from agentls.settings import Settings, parse_settings
from agentls.workspace import Workspace
from tests.agent.conftest import RunAgent, SpyModel, finish, plan, write_script

RULES = {
    "AGENTS.md": "Agents: run the tests with `make check`.",
    ".agentls/rules/b-style.md": "Style: four spaces.",
    ".agentls/rules/a-naming.md": "Naming: snake_case functions.",
    ".agentls/rules/notes.txt": "Not a rules file (only .md files are read here).",
    ".clinerules/01-review.md": "Cline: keep diffs small.",
    ".clinerules/02-tests.txt": "Cline: every fix gets a test.",
    "CONVENTIONS.md": "Conventions: no global state.",
    ".github/copilot-instructions.md": "Copilot: prefer pathlib.",
}
ORDER = [
    "AGENTS.md", ".agentls/rules/a-naming.md", ".agentls/rules/b-style.md", ".clinerules/01-review.md",
    ".clinerules/02-tests.txt", "CONVENTIONS.md", ".github/copilot-instructions.md",
]  # fmt: skip


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


# the first reply of each policy: the full one plans first, the others act at once
POLICIES: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {
    "full": ({}, [plan(), finish("ok")]),
    "small": ({"small": True}, [finish("ok")]),
    "guided": ({"guided": True}, [finish("ok")]),
}


@pytest.mark.parametrize("policy", POLICIES)
async def test_every_rules_file_is_in_the_first_request_and_named_by_the_rules_event(
    run_agent: RunAgent, ws_root: Path, policy: str
) -> None:
    _write(ws_root, RULES)
    flags, script = POLICIES[policy]
    out = await run_agent(script, goal="Explain src/app.py", **flags)
    first = out.model.turns[0]
    system = first.messages[1]
    assert system["role"] == "system"
    for rel in ORDER:
        assert RULES[rel] in system["content"], rel
    assert RULES[".agentls/rules/notes.txt"] not in first.text()
    (event,) = out.of("rules")
    assert [f["path"] for f in event["files"]] == ORDER
    assert not any(f["cut"] for f in event["files"])
    assert event["files"][0]["chars"] == len(RULES["AGENTS.md"])
    kinds = out.kinds()
    assert kinds.index("rules") < kinds.index("task")  # before any work


async def test_a_clinerules_file_is_read_like_a_folder(run_agent: RunAgent, ws_root: Path) -> None:
    _write(ws_root, {".clinerules": "One file of rules: be terse."})
    out = await run_agent([plan(), finish()])
    assert "be terse" in out.model.turns[0].text()
    assert [f["path"] for f in out.of("rules")[0]["files"]] == [".clinerules"]


async def test_rules_false_leaves_them_out(run_agent: RunAgent, ws_root: Path) -> None:
    _write(ws_root, RULES)
    settings = RunSettings(approval="never", source=Settings(rules=False))
    out = await run_agent([plan(), finish()], settings=settings)
    text = out.model.turns[0].text()
    assert not any(rule in text for rule in RULES.values())
    assert out.of("rules") == [] and out.of("warning") == []
    assert out.state.status == "completed"


async def test_no_rules_files_no_event(run_agent: RunAgent) -> None:
    out = await run_agent([plan(), finish()])
    assert out.of("rules") == [] and "project's rules" not in out.model.turns[0].text()


async def test_a_huge_rules_file_is_cut_to_the_budget_with_a_note(run_agent: RunAgent, ws_root: Path) -> None:
    huge = "".join(f"Rule {i}: keep rule {i}.\n" for i in range(5000))  # ~110k characters
    _write(ws_root, {"AGENTS.md": huge, "CONVENTIONS.md": "Conventions after the budget."})
    out = await run_agent([plan(), finish()])
    system = out.model.turns[0].messages[1]["content"]
    assert "Rule 0: keep rule 0." in system and "Rule 4999" not in system
    assert "[AGENTS.md cut: " in system and f"of its {len(huge.strip())} characters shown" in system
    assert len(system) < RULES_MAX_CHARS + 1000
    assert "Conventions after the budget" not in system
    files = out.of("rules")[0]["files"]
    assert files == [
        {"path": "AGENTS.md", "chars": len(huge.strip()), "cut": True},
        {"path": "CONVENTIONS.md", "chars": len("Conventions after the budget."), "cut": True},
    ]


async def test_the_budget_follows_the_models_window(ws_root: Path, tmp_path: Path) -> None:
    _write(ws_root, {"AGENTS.md": "x" * 5000})
    cut = {}
    for window in (32_000, 2000):  # 2000 tokens: 800 characters of rules at most
        model = SpyModel(write_script(tmp_path / f"{window}.jsonl", [plan(), finish()]))
        model.context_tokens = window
        events: list[RunEvent] = []
        agent = Agent(workspace=Workspace(ws_root), model=model, settings=RunSettings(approval="never"), on_event=events.append)
        await agent.run("Explain src/app.py")
        (rules,) = [e.data for e in events if e.kind == "rules"]
        cut[window] = (rules["files"][0]["cut"], len(model.turns[0].messages[1]["content"]))
    assert cut[32_000] == (False, cut[32_000][1]) and cut[32_000][1] > 5000
    assert cut[2000][0] is True and cut[2000][1] < 1200


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
async def test_a_rules_file_linking_outside_the_workspace_is_refused(
    run_agent: RunAgent, ws_root: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("TOP SECRET outside the workspace")
    (ws_root / "AGENTS.md").symlink_to(secret)
    (ws_root / ".agentls").mkdir()
    (ws_root / ".agentls" / "rules").symlink_to(tmp_path, target_is_directory=True)
    _write(ws_root, {"CONVENTIONS.md": "Conventions inside."})
    out = await run_agent([plan(), finish()])
    assert "TOP SECRET" not in out.model.turns[0].text()
    assert "Conventions inside." in out.model.turns[0].text()
    warnings = out.of("warning")
    assert {w["subject"] for w in warnings} == {"AGENTS.md", ".agentls/rules"}
    assert all(w["source"] == "rules" and "outside" in w["message"] for w in warnings)
    assert [f["path"] for f in out.of("rules")[0]["files"]] == ["CONVENTIONS.md"]
    assert out.state.status == "completed"


def test_the_rules_setting_is_validated() -> None:
    assert Settings().rules is True
    assert parse_settings({"rules": False})[0].rules is False
    settings, problems = parse_settings({"rules": "sometimes"})
    assert settings.rules is True and problems and "'rules'" in problems[0]
