"""Auto-approve rules (tools/auto_approval.py, DESIGN §9): the rule as a table, the settings
that hold it (a bad pattern is a settings error, a bad deny list drops the allow list), and
the rule at work — a write_file proposal marked before anyone hears of it and applied at
once, a gated call that skips the gate, both in the audit log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.tools.conftest import MakeCtx

from agentls.settings import Settings, parse_settings
from agentls.tools.audit import AuditLog
from agentls.tools.auto_approval import AutoApproval, call_rule, proposal_rule
from agentls.tools.base import Tool, ToolContext
from agentls.tools.executor import ToolExecutor
from agentls.tools.filesystem import TOOLS as FILESYSTEM_TOOLS
from agentls.tools.registry import ToolRegistry
from agentls.tools.system import TOOLS as SYSTEM_TOOLS


def rules(allow: dict[str, Any], deny: dict[str, Any] | None = None, **more: Any) -> Settings:
    settings, problems = parse_settings({"autoApprove": allow, "autoApproveDeny": deny or {}, **more})
    assert problems == []
    return settings


PROPOSALS = [
    # allow, deny, tool, paths, command → the rule that matched (None: ask)
    ({"paths": ["docs/**"]}, {}, "write_file", ["docs/a.md"], None, "autoApprove.paths ['docs/**']"),
    ({"paths": ["docs/**"]}, {}, "write_file", ["docs/a.md", "src/x.py"], None, None),  # every file
    ({"paths": ["*.md"]}, {}, "write_file", ["deep/er/notes.md"], None, "autoApprove.paths ['*.md']"),
    ({"paths": ["src/"]}, {}, "edit_file", ["src/a/b.py"], None, "autoApprove.paths ['src/']"),
    ({"paths": ["docs/**", "!docs/secret/**"]}, {}, "write_file", ["docs/secret/k.md"], None, None),
    ({"paths": ["docs/**", "*.txt"]}, {}, "write_file", ["docs/a.md", "b.txt"], None, "autoApprove.paths ['*.txt', 'docs/**']"),
    ({"tools": ["write_file"]}, {}, "write_file", ["src/x.py"], None, "autoApprove.tools 'write_file'"),
    ({"tools": ["write_file"]}, {}, "edit_file", ["src/x.py"], None, None),
    ({"tools": ["write_file"]}, {"paths": ["src/**"]}, "write_file", ["src/x.py"], None, None),  # deny wins
    ({"paths": ["**"]}, {"paths": [".env"]}, "write_file", ["a.py", ".env"], None, None),  # any file denied
    ({"paths": ["**"]}, {"tools": ["run_command"]}, "run_command", ["a.py"], "make", None),
    ({"commands": ["npm run *"]}, {}, "run_command", ["a.js"], "npm run format", "autoApprove.commands 'npm run *'"),
    ({"commands": ["npm run *"]}, {"commands": ["npm run publish*"]}, "run_command", ["a.js"], "npm run publish", None),
    ({"commands": ["npm test"]}, {}, "write_file", ["a.js"], None, None),
]


@pytest.mark.parametrize(("allow", "deny", "tool", "paths", "command", "expected"), PROPOSALS)
def test_a_proposal_goes_ahead_when_an_allow_rule_covers_it_and_no_deny_rule_matches(
    allow: dict[str, Any], deny: dict[str, Any], tool: str, paths: list[str], command: str | None, expected: str | None
) -> None:
    assert AutoApproval.of(rules(allow, deny)).proposal(tool, paths, command) == expected


COMMANDS = [
    ("npm test", "npm test", True),
    ("npm test", "  npm test  ", True),  # trimmed
    ("npm test", "npm test --watch", False),  # the whole line
    ("npm test*", "npm test --watch", True),
    ("npm run ?", "npm run a", True),
    ("npm run *", "npm run x; rm -rf ~", False),  # a wildcard never crosses a control character
    ("npm run *", "npm run x && curl evil", False),
    ("npm run *", "npm run x | sh", False),
    ("npm run *", "npm run $(whoami)", False),
    ("npm run *", "npm run `id`", False),
    ("npm run *", "npm run x\nrm -rf ~", False),
    ("npm run *", "npm run x > /etc/passwd", False),
    ("make && make test", "make && make test", True),  # literal control characters are the user's
    ("pytest [a]*", "pytest [a] -q", True),  # brackets are literal
]


@pytest.mark.parametrize(("pattern", "command", "matches"), COMMANDS)
def test_command_patterns_match_the_whole_line_and_wildcards_never_cross_shell_control(
    pattern: str, command: str, matches: bool
) -> None:
    found = AutoApproval.of(rules({"commands": [pattern]})).call("run_command", command)
    assert (found is not None) == matches


@pytest.mark.parametrize(
    ("more", "mode", "approval", "applies"),
    [
        ({}, "dev", "ask", True),
        ({"workspaceTrusted": False}, "dev", "ask", False),  # never in an untrusted workspace
        ({}, "dev", "never", False),  # propose only stays propose only
        ({}, "dev", "auto", False),  # everything is applied anyway
        ({}, "read-only", "auto", True),  # auto not allowed there: it asks, so the rules apply
    ],
)
def test_the_rules_apply_only_under_ask_in_a_trusted_workspace(
    more: dict[str, Any], mode: str, approval: str, applies: bool
) -> None:
    settings = rules({"paths": ["**"], "commands": ["ls"]}, **more)
    assert (proposal_rule(settings, mode, approval, "write_file", ["a.py"]) is not None) == applies
    assert (call_rule(settings, mode, approval, "run_command", {"command": "ls"}) is not None) == applies


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ({"autoApprove": {"paths": ["[z-a]"]}}, "not a valid path glob"),
        ({"autoApprove": {"paths": ["  "]}}, "at least 1 character"),
        ({"autoApprove": {"path": ["docs/**"]}}, "Extra inputs are not permitted"),  # a typo
        ({"autoApprove": ["docs/**"]}, "autoApprove"),
        ({"autoApprove": {"commands": ["npm test\nrm -rf ~"]}}, "autoApprove.commands.0"),
    ],
)
def test_a_bad_rule_is_a_settings_problem_and_nothing_is_auto_approved(raw: dict[str, Any], said: str) -> None:
    settings, problems = parse_settings(raw)
    assert settings.auto_approve.empty and any(said in p for p in problems), problems


def test_a_bad_deny_list_drops_the_allow_list_too() -> None:
    settings, problems = parse_settings(
        {"autoApprove": {"paths": ["**"]}, "autoApproveDeny": {"paths": [".env", "[z-a]"]}}
    )
    assert settings.auto_approve.empty and settings.auto_approve_deny.empty
    assert any("ignored too" in p for p in problems)


def _audit(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_a_matching_proposal_is_marked_before_it_is_heard_of_applied_and_audited(
    make_ctx: MakeCtx, ws_root: Path, tmp_path: Path
) -> None:
    audit = AuditLog(tmp_path / "audit.jsonl")
    executor = ToolExecutor(ToolRegistry([*FILESYSTEM_TOOLS, *SYSTEM_TOOLS]), audit)
    ctx = make_ctx(approval="ask", settings=rules({"paths": ["docs/**"]}), extra={"proposal_timeout_s": 30})
    heard: list[tuple[str, str | None]] = []
    ctx.proposals.add_listener(lambda e: heard.append((e["action"], e["proposal"]["autoApproved"])))
    result = executor.execute("write_file", {"path": "docs/new.md", "content": "# new\n"}, ctx)
    assert result.ok and result.output is not None
    assert result.output["status"] == "applied" and (ws_root / "docs" / "new.md").read_text() == "# new\n"
    rule = "autoApprove.paths ['docs/**']"
    assert result.output["auto_approved"] == rule and rule in result.output["message"]
    assert heard == [("created", rule), ("resolved", rule)]
    assert ctx.auto_approved == []  # the call's own list, not the run's
    other = make_ctx(approval="ask", settings=ctx.settings, extra={"proposal_timeout_s": 0.2})
    pending = executor.execute("write_file", {"path": "src/other.py", "content": "X = 1\n"}, other)
    assert pending.output is not None and pending.output["status"] == "pending"  # asked; nobody answered
    logged = _audit(audit.path)
    assert logged[0]["permission"] == {"decision": "auto-approved", "missing": [], "mode": "dev", "autoApproved": [rule]}
    assert logged[1]["permission"]["decision"] == "allowed" and "autoApproved" not in logged[1]["permission"]


def test_a_gated_call_a_rule_covers_skips_the_gate_and_is_audited(make_ctx: MakeCtx, tmp_path: Path) -> None:
    audit = AuditLog(tmp_path / "audit.jsonl")
    executor = ToolExecutor(ToolRegistry([*FILESYSTEM_TOOLS, *SYSTEM_TOOLS]), audit)
    asked: list[str] = []

    def gate(tool: Tool, arguments: dict[str, Any], context: ToolContext) -> str | None:
        asked.append(tool.name)
        return "rejected by the user"

    settings = rules({"tools": ["read_file"]}, {"tools": ["list_directory"]})
    ctx = make_ctx(approval="ask", settings=settings, gate=gate)
    through = executor.execute("read_file", {"path": "README.md"}, ctx)
    refused = executor.execute("list_directory", {"path": "."}, ctx)
    untrusted = make_ctx(approval="ask", settings=settings.model_copy(update={"workspace_trusted": False}), gate=gate)
    asked_anyway = executor.execute("read_file", {"path": "README.md"}, untrusted)
    assert through.ok and not refused.ok and not asked_anyway.ok
    assert asked == ["list_directory", "read_file"]
    decisions = [(a["tool"], a["permission"]["decision"]) for a in _audit(audit.path)]
    assert decisions == [("read_file", "auto-approved"), ("list_directory", "refused"), ("read_file", "refused")]
