"""docs/lsp-extensions.md against the real server, so the doc cannot drift silently.

Every ```json block of the doc follows a tag `<!-- example: LABEL METHOD [subset] -->`.
Each example must have the shape of a message the real server sent or took in
(tests/lsp/docs_capture.py): the same keys (all of them, or a part with `subset`), the
same JSON types, the same `kind` and `code` values; in a list, each element of the example
must fit some element of the real list. Labels: `request` (params the server accepted),
`bad-request` (params it answered with an error), `result`, `error`, `notification`,
`server-request` (a request from the server), `client-result` (an editor's answer to it),
`settings` (a settings object: every key known, every value valid). Every `agent/*`
message the capture holds, and every event kind, needs an example; the settings table
must list exactly the settings the server reads, with their defaults.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from agentls.agent.events import KINDS
from agentls.settings import Settings, parse_settings
from tests.lsp.docs_capture import Captured, capture

DOC = Path(__file__).resolve().parents[2] / "docs" / "lsp-extensions.md"
TAG = re.compile(r"<!-- example: (?P<label>[\w-]+) (?P<method>\S+)(?P<subset> subset)? -->\n```json\n(?P<body>.*?)\n```", re.S)
FENCE = re.compile(r"^```json$", re.M)
LITERAL = frozenset({"kind", "code"})  # values that tell shapes apart, compared as values
# Methods whose every captured message (per label) must have an example in the doc.
COVERED = re.compile(r"^(agent/.*|workspace/applyEdit|workspace/executeCommand|textDocument/codeAction|\$/progress)$")
_ID_IN_KEY = re.compile(r"\b(prop|run|tool)-[0-9a-f]{12}\b")


@dataclass(frozen=True)
class Example:
    label: str
    method: str
    subset: bool
    body: Any
    line: int

    def __str__(self) -> str:
        return f"line {self.line}: {self.label} {self.method}"


def examples(text: str) -> list[Example]:
    out = []
    for m in TAG.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        try:
            body = json.loads(m["body"])
        except ValueError as exc:
            raise AssertionError(f"docs/lsp-extensions.md line {line}: not JSON: {exc}") from None
        out.append(Example(m["label"], m["method"], bool(m["subset"]), body, line))
    return out


def _type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(value)]


def _key(key: str) -> str:
    """Keys that hold ids (a change annotation's) compare without the id, document URIs
    (`content` of agent/resolveProposal) as one key."""
    return "file:///URI" if key.startswith("file:///") else _ID_IN_KEY.sub(r"\1-ID", key)


def mismatch(doc: Any, real: Any, subset: bool = False, path: str = "$") -> str | None:
    """Why the example `doc` does not have the shape of the real message; None if it has."""
    if _type(doc) != _type(real):
        return f"{path}: {_type(doc)} in the doc, {_type(real)} from the server"
    if isinstance(doc, dict):
        ours, theirs = {_key(k): v for k, v in doc.items()}, {_key(k): v for k, v in real.items()}
        if missing := sorted(ours.keys() - theirs.keys()):
            return f"{path}: the server has no {missing}"
        if not subset and (left_out := sorted(theirs.keys() - ours.keys())):
            return f"{path}: the doc leaves out {left_out}"
        for key, value in ours.items():
            if key in LITERAL and value != theirs[key]:
                return f"{path}.{key}: {value!r} in the doc, {theirs[key]!r} from the server"
            if problem := mismatch(value, theirs[key], subset, f"{path}.{key}"):
                return problem
    elif isinstance(doc, list):
        if doc and not real:
            return f"{path}: the server sent an empty list"
        for i, item in enumerate(doc):
            problems = [mismatch(item, r, subset, f"{path}[{i}]") for r in real]
            if None not in problems:
                return problems[0]
    return None


def _candidates(example: Example, captured: list[Captured]) -> list[Captured]:
    label = "request" if example.label == "bad-request" else example.label
    ok = example.label != "bad-request"
    return [
        c for c in captured
        if c.label == label and c.method == example.method and (c.ok == ok or label != "request")
    ]  # fmt: skip


DOC_EXAMPLES = examples(DOC.read_text("utf-8")) if DOC.is_file() else []


@pytest.fixture(scope="module")
def captured(tmp_path_factory: pytest.TempPathFactory) -> list[Captured]:
    return capture(tmp_path_factory.mktemp("docs"))


def test_the_doc_has_examples_and_each_json_block_is_one() -> None:
    text = DOC.read_text("utf-8")
    assert len(DOC_EXAMPLES) > 40
    assert len(FENCE.findall(text)) == len(DOC_EXAMPLES), "a ```json block without its <!-- example: … --> tag"


@pytest.mark.parametrize("example", DOC_EXAMPLES, ids=str)
def test_the_example_has_the_shape_of_a_real_message(example: Example, captured: list[Captured]) -> None:
    if example.label == "settings":
        settings, problems = parse_settings(example.body)
        assert not problems, problems
        assert set(example.body) <= set(_aliases()), set(example.body) - set(_aliases())
        return
    candidates = _candidates(example, captured)
    assert candidates, f"{example}: the server never exchanged such a message"
    problems = [mismatch(example.body, c.body, example.subset) for c in candidates]
    if None not in problems:  # what is wrong, against the closest message: same kind, deepest
        kind = _kind(example.body)
        near = [p for p, c in zip(problems, candidates, strict=True) if _kind(c.body) == kind] or problems
        closest = max(near, key=lambda p: str(p).split(":")[0].count("."))
        raise AssertionError(f"{example}: {closest} ({len(problems)} messages compared)")


def _kind(body: Any) -> Any:
    return body.get("kind") if isinstance(body, dict) else None


def test_every_agent_message_and_event_kind_has_an_example(captured: list[Captured]) -> None:
    def name(label: str, method: str, body: Any) -> str:
        kind = f" {body.get('kind')}" if method == "agent/event" and isinstance(body, dict) else ""
        return f"{label} {method}{kind}"

    documented = {name(e.label, e.method, e.body) for e in DOC_EXAMPLES}
    seen = {
        name("bad-request" if c.label == "request" and not c.ok else c.label, c.method, c.body)
        for c in captured if COVERED.match(c.method) and c.label != "client-result"
    }  # fmt: skip
    assert seen - documented == set(), "captured, without an example in the doc"
    events = {f"notification agent/event {kind}" for kind in KINDS}
    assert events - documented == set(), "event kinds without an example"
    assert events <= seen, "event kinds the capture never produced"


def test_every_agent_method_the_server_registers_is_documented() -> None:
    from agentls.lsp.server import create_server

    registered = {m for m in create_server().protocol.fm.features if m.startswith("agent/")}
    documented = {e.method for e in DOC_EXAMPLES if e.label == "request"}
    assert registered - documented == set()


def _aliases() -> dict[str, Any]:
    """Each setting's wire name → its default, as JSON."""
    out = {}
    for name, field in Settings.model_fields.items():
        default = field.get_default(call_default_factory=True)
        if isinstance(default, BaseModel):  # a nested setting (autoApprove): its JSON
            default = default.model_dump(mode="json")
        out[field.alias or name] = list(default) if isinstance(default, tuple) else default
    return out


def test_the_settings_table_lists_every_setting_with_its_default() -> None:
    section = DOC.read_text("utf-8").split("\n## Settings", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| [^|]+ \| `([^`]*)` \|", section, re.M)
    table = {key: json.loads(default) for key, default in rows}
    assert table == _aliases()


# --- the check itself fails when it should ------------------------------------------------
REAL = {"runId": "run-1", "kind": "task", "index": 0, "tasks": [{"title": "a", "status": "done"}], "summary": None}


@pytest.mark.parametrize(
    ("doc", "subset", "problem"),
    [
        ({**REAL, "runID": "run-1"}, False, "the server has no ['runID']"),
        ({k: v for k, v in REAL.items() if k != "index"}, False, "the doc leaves out ['index']"),
        ({**REAL, "index": "0"}, False, "$.index: string in the doc, number"),
        ({**REAL, "kind": "tool_call"}, False, "$.kind: 'tool_call' in the doc"),
        ({**REAL, "tasks": [{"title": "a"}]}, False, "$.tasks[0]: the doc leaves out ['status']"),
        ({**REAL, "summary": "done"}, False, "$.summary: string in the doc, null"),
        ({"runId": "run-1", "steps": 1}, True, "the server has no ['steps']"),
    ],
)
def test_the_shape_check_finds_what_is_wrong(doc: Any, subset: bool, problem: str) -> None:
    found = mismatch(doc, REAL, subset)
    assert found is not None and problem in found, found


def test_the_shape_check_takes_a_real_shape_and_a_part_of_it() -> None:
    assert mismatch(json.loads(json.dumps(REAL)), REAL) is None
    assert mismatch({"runId": "run-2", "tasks": []}, REAL, subset=True) is None
    assert mismatch({"agentls-prop-0123456789ab": 1}, {"agentls-prop-ba9876543210": 2}) is None
