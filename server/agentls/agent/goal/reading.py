"""One reading of a goal: what kind of job it is, what it names, what it asks for.

`read_goal(goal, facts, may_write)` is the one place a goal's words are read; the policy
(which tools, which turns), the done check, the recipes and the prompts all take this
`GoalReading` instead of matching the goal themselves.

The kind of job, for a goal that asks for a change (intent.py):
| kind | when |
|---|---|
| rename | it renames a name the workspace has (renames.rename_of) |
| fix_tests | it speaks of tests failing or having to pass, and writes none |
| tests | it asks to write tests |
| docstring | it asks for a docstring or documentation |
| hints | it asks for type hints or annotations |
| implement | it asks to implement, complete or fill in a name the workspace has, or changes a function whose body is a stub (`pass`, `...`), or builds from a description (instructions, spec, README) |
| add | it names a definition to make that the workspace lacks ("a subtract(a, b) function") |
| new_file | it names a file to make that the workspace lacks |
| remove | it asks to take something out |
| change | any other change |
and `answer` when it asks for no change (a question, an explanation, a review), or the
run may not write. `clear` is False when the goal shows neither a change nor a look.
Must not know: tools, the loop, models, LSP.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from agentls.agent.goal.intent import Intent, read_intent
from agentls.agent.goal.names import Facts, Mentions, mentions
from agentls.agent.goal.renames import rename_of
from agentls.agent.goal.values import asked_values
from agentls.agent.goal.words import (
    SPEC_WORDS,
    TAKE_OUT,
    TEST_OUTCOME,
    TEST_WORDS,
    lemma,
    misspelt,
    tokens,
)

Kind = Literal[
    "answer", "rename", "fix_tests", "tests", "docstring", "hints", "implement", "add", "new_file", "remove", "change"
]  # fmt: skip

_ANY = re.IGNORECASE
_DOC = re.compile(r"\bdoc\s?strings?\b|\bjsdoc\b|\bdocblock\b|\bdocument(?:s|ed|ing)?\b(?!\s+(?:what|how|which|where))|\bdoc comments?\b", _ANY)
_MODULE_DOC = re.compile(r"\bmodule\b|\btop of\b|\bthe file\b|\bfile[- ]level\b|\bfor the file\b", _ANY)
_HINTS = re.compile(r"\btype[- ]?(?:hint\w*|annotat\w*)\b|\bannotat\w*\b|\btyping\b|\btyped\b|\b(?:int|str|float|bool|type)\s+hints?\b|"
    r"`[^`]*\b[A-Za-z_]\w*\s*:\s*(?:int|str|float|bool|bytes|list|dict|tuple|set)\b[^`]*`", _ANY)
_WRITES_TESTS = re.compile(r"\b(?:write|writes|add|adds|create|generate|need|needs|want|wants|cover|covers|with)\b(?:(?!\bno\b|\bnot\b|n't\b)[^.;]){0,50}?(?<!failing )(?<!failed )(?<!broken )\b(?:unit\s+|pytest\s+|some\s+|more\s+)?tests?\b(?![/._-]\w)(?!\s+(?:fail|pass))", _ANY)
_DOC_WORDS = frozenset(["docstring", "docstrings"])  # "docstirng"
_ALSO_TESTS = re.compile(r"\b(?:and|with|plus|also)\s+(?:an?\s+|some\s+|unit\s+|pytest\s+)*tests?\b(?!\s+(?:fail|pass))", _ANY)
_IMPLEMENT = frozenset(["implement", "complete", "finish", "fill", "flesh"])
_MAKES = frozenset(["add", "create", "write", "define", "introduce", "implement", "make", "build", "generate", "need", "needs", "provide", "give"])
_REMOVES = frozenset(["remove", "delete", "drop", "strip", "eliminate", "erase"])
_REMOVE_PHRASES = ("get rid of", "comment out", "take out", "pull out")
#: "x needs a y", "x should have a y", "I'd like a y", "I want a y": a wish for something new.
_WANTS_ONE = re.compile(r"\bneed|\bshould have\b|(?:'d|would) like (?:an?|some)\b|\bwant (?:an?|some)\b")
_SIGNATURE_WORDS = frozenset(["parameter", "parameters", "argument", "arguments", "default", "defaults", "signature"])
_DESCRIBES = re.compile(r"\b(?:explain|explanation|describe|description|summar(?:y|ies|ize|ise)|overview|outline|walk me through|what (?:[\w./-]+ ){0,4}(?:does|do|is for|are for))\b", _ANY)
_SEVERAL = re.compile(r"\b(?:every|all|each|everywhere|throughout)\b", _ANY)
#: "when b is 0", "if the list is empty", "on an empty list", "unless …": the change holds
#: for some inputs only.
_CONDITION = re.compile(r"\b(?:when|whenever|if|unless|in case|otherwise|on (?:an? |the )?(?:empty|zero|none|null|negative|missing|invalid)|for (?:an? )?(?:empty|zero|negative|missing|invalid))\b", _ANY)
_TEST_FILE = re.compile(r"(?:^|/)(?:test_[^/]*|[^/]*_test\.\w+|[^/]*\.(?:test|spec)\.\w+|conftest\.py)$|(?:^|/)tests?/")
_SPEC_DIRS = (".docs/", "docs/")
#: "Ticket #412 – …", "BUG: …", "TODO: …": a tracker's prefix, not part of the request.
_TICKET = re.compile(r"^\s*(?:ticket|issue|bug|todo|task|jira)\b\s*(?:#?[\w-]*\d[\w-]*)?\s*[:–—-]\s*", _ANY)
#: "chore(config): …", "fix(calc)!: …": a commit message's type stays, its scope goes.
_SCOPE = re.compile(r"^(\s*(?:feat|fix|chore|docs|refactor|test|tests|style|perf|build|ci))(\([^)]*\)!?|!)?:", _ANY)


def _unticket(m: re.Match[str]) -> str:
    """A tracker's prefix blanked (the offsets hold); "BUG: …" reads as "fix: …"."""
    text = m.group(0)
    return "fix:" + " " * (len(text) - 4) if text.strip().lower().startswith("bug") and len(text) >= 4 else " " * len(text)


@dataclass
class GoalReading:
    """The reading of one goal (see the module docstring)."""

    goal: str
    kind: Kind = "answer"
    wants_change: bool = False
    clear: bool = True
    #: existing files the goal names (by path, unique file name, or a name defined there)
    files: list[str] = field(default_factory=list)
    #: files the goal asks to make
    new_files: list[str] = field(default_factory=list)
    #: files the goal takes as existing that the workspace lacks
    missing_files: list[str] = field(default_factory=list)
    #: code names the goal mentions that the workspace has
    names: list[str] = field(default_factory=list)
    #: names the goal asks to make (a new definition, a rename's new name)
    new_names: list[str] = field(default_factory=list)
    #: names the goal takes as existing that no file has
    unknown_names: list[str] = field(default_factory=list)
    #: a name written with its parameters ("subtract(a, b)") → "a, b"
    signatures: dict[str, str] = field(default_factory=dict)
    rename: tuple[str, str] | None = None
    #: what the changed lines must hold afterwards ("to 60")
    values: list[str] = field(default_factory=list)
    module_doc: bool = False
    #: it is about a function's signature (hints, parameters, defaults): its def line matters
    signature: bool = False
    #: several places to change ("every function"): a guided run does not end after one
    several: bool = False
    #: the change is for some inputs only ("… when b is 0", "divide(5, 0) raises"): the
    #: other inputs must keep what the code does
    conditional: bool = False
    #: whether the workspace's tests decide the job (they fail now, or must pass)
    tests_matter: bool = False
    #: it also asks for tests beside its main job ("… and a test for it")
    also_tests: bool = False
    #: files (or "tests") the goal says not to change
    protected: list[str] = field(default_factory=list)
    #: description files to work from (named, or a .docs/ folder's)
    specs: list[str] = field(default_factory=list)
    #: test files that exercise what the goal names (for jobs the tests decide)
    tests: list[str] = field(default_factory=list)
    #: it asks what code does or is for (explain, describe, summarise, "what … does")
    describes: bool = False
    #: the goal's plain words, lower-case, with singular forms (not the parts of code names)
    words: frozenset[str] = frozenset()
    intent: Intent = field(default_factory=Intent)

    def is_protected(self, path: str) -> bool:
        """Whether the goal says `path` must not change."""
        if "tests" in self.protected and _TEST_FILE.search(path):
            return True
        return any(path == p or path.endswith("/" + p) for p in self.protected if p != "tests")

    @property
    def presumed(self) -> list[str]:
        """Names the goal takes as existing that the workspace lacks (it cannot be done)."""
        return [n for n in self.unknown_names if n not in self.new_names]


def is_test_file(path: str) -> bool:
    return bool(_TEST_FILE.search(path))


def read_goal(goal: str, facts: Facts, may_write: bool = True) -> GoalReading:
    """The reading of `goal` over a workspace (see the module docstring)."""
    said = _TICKET.sub(_unticket, goal)
    said = _SCOPE.sub(lambda m: m.group(1) + " " * len(m.group(2) or "") + ":", said)
    toks = tokens(said)
    found = mentions(toks, facts)
    intent = read_intent(said, set(found.names), found.starts)
    low = goal.lower()
    out = GoalReading(goal=goal, intent=intent, clear=intent.clear)
    out.files = list(found.files)
    out.names = list(found.known)
    out.signatures = dict(found.calls)
    out.protected = list(dict.fromkeys(intent.protected))
    out.several = bool(_SEVERAL.search(goal))
    # a call written with its arguments ("divide(5, 0) raises …") names the case that fails
    out.conditional = bool(_CONDITION.search(goal)) or any(re.search(r"\d|['\"\[\]{}]", a) for a in found.calls.values())
    words = {t.low for t in toks if t.kind == "word"}
    if any(is_test_file(t.text) for t in toks if t.kind == "file"):
        words.add("test")  # "test_app.py is failing" is about tests
    plain = {w for w in words if "_" not in w and "." not in w}
    out.words = frozenset(plain | {w[:-1] for w in plain if w.endswith("s")} | {w[:-2] for w in plain if w.endswith("es")})
    out.rename = rename_of(toks, lambda n: bool(facts.defined(n)))
    out.wants_change = may_write and intent.change
    out.kind = _kind(out, found, facts, words, low) if out.wants_change else "answer"
    if out.rename is not None and out.kind == "rename":
        out.new_names.append(out.rename[1])
    makes = out.kind in ("add", "implement", "tests", "new_file") or out.also_tests
    if out.kind in ("add", "implement", "new_file"):
        out.new_names += [n for n in found.unknown if n not in out.new_names]
    # a misspelt word a typo goal quotes is text to fix, not code it presumes
    typo = bool(words & {"typo", "typos", "misspelling", "misspelled", "misspelt", "spelling"})
    out.unknown_names = [n for n in found.unknown if n not in out.new_names and not typo]
    for name in found.absent:
        (out.new_files if (makes and out.wants_change) else out.missing_files).append(name)
    if not facts.complete:
        out.missing_files = []
    # the tests are what a fix_tests job must meet (the numbers it quotes are the failure's);
    # what new tests should assert ("should be true") is no value of the code
    out.values = (
        asked_values(toks, out.kind == "rename")
        if out.wants_change and out.kind not in ("fix_tests", "tests")
        else []
    )
    out.module_doc = out.kind == "docstring" and (bool(_MODULE_DOC.search(goal)) or not out.names)
    out.signature = out.kind == "hints" or bool(words & _SIGNATURE_WORDS)
    out.describes = not out.wants_change and bool(_DESCRIBES.search(goal))
    out.tests_matter = out.kind in ("fix_tests", "implement") or bool(words & TEST_WORDS and words & TEST_OUTCOME)
    out.specs = _specs(found, facts, words, out.kind)
    if out.tests_matter or out.kind in ("implement", "fix_tests"):
        out.tests = _tests_of(out, facts)
    return out


def _tests_of(out: GoalReading, facts: Facts) -> list[str]:
    """Test files that mention a name the goal names or import a file it names (at most 3):
    named test files first."""
    found = [f for f in out.files if is_test_file(f)]
    stems = [f.rsplit("/", 1)[-1].rsplit(".", 1)[0] for f in out.files if not is_test_file(f)]
    for word in [*out.names, *stems]:
        found += [p for p in facts.mentioning(word) if is_test_file(p)]
    return list(dict.fromkeys(found))[:3]


def _kind(out: GoalReading, found: Mentions, facts: Facts, words: set[str], low: str) -> Kind:
    verbs = set(out.intent.verbs)
    tests = bool(words & TEST_WORDS)
    writes_tests = bool(_WRITES_TESTS.search(out.goal) or _ALSO_TESTS.search(out.goal)) and tests
    outcome = bool(words & TEST_OUTCOME)
    if out.rename is not None and ("rename" in verbs or not verbs & {"add", "create", "write"}):
        return "rename"
    stubs = verbs & _IMPLEMENT or words & SPEC_WORDS
    makes = bool(verbs & _MAKES) or _WANTS_ONE.search(low) is not None
    new_defs = [n for n in found.unknown if n in found.calls or _near_kind(out.goal, n)]
    if verbs & _IMPLEMENT and found.known and not new_defs:
        return "implement"  # "implement/complete/fill in X"
    if tests and outcome and not writes_tests:
        return "fix_tests"
    if _DOC.search(out.goal) or any(misspelt(w, _DOC_WORDS) for w in words):
        return "docstring"
    if _HINTS.search(out.goal):
        return "hints"
    if any(facts.stub(n) for n in found.known) and not new_defs:
        return "implement"  # a change to a function whose body is a stub fills it in
    if stubs and (found.known or words & SPEC_WORDS) and not new_defs:
        return "implement"
    if (makes or stubs) and new_defs:
        out.also_tests = writes_tests
        return "add"
    if writes_tests or (not outcome and any(is_test_file(a) for a in found.absent)):
        return "tests"  # "… should get a test in a new test_x.py"
    if (makes or "new" in words) and found.absent:
        return "new_file"
    removed = any(w.endswith("ed") and lemma(w, _REMOVES) for w in words)  # "I'd like it removed"
    if verbs & _REMOVES or removed or any(p in low for p in _REMOVE_PHRASES) or TAKE_OUT.search(low):
        return "remove"
    return "change"


def _near_kind(goal: str, name: str) -> bool:
    """"a function total", "the Invoice class": the name sits beside a kind word."""
    kinds = r"(?:function|method|class|helper|constant|variable|field|property|attribute)"
    n = re.escape(name)
    return re.search(rf"\b{kinds}\s+[`'\"]?{n}\b|\b{n}[`'\"]?(?:\(\))?\s+{kinds}\b", goal, _ANY) is not None


def _specs(found: Mentions, facts: Facts, words: set[str], kind: Kind) -> list[str]:
    """Description files: .md/.rst/.txt files the goal names; for a job that builds code
    (implement, add, fix_tests, tests) also the instructions of a .docs/ or docs/ folder."""
    if kind not in ("implement", "add", "fix_tests", "tests") and not words & SPEC_WORDS:
        return []
    named = [f for f in found.files if f.rsplit(".", 1)[-1] in ("md", "rst", "txt")]
    near = [
        p
        for p in facts.paths
        if p.endswith((".md", ".rst")) and (p.startswith(_SPEC_DIRS) or "/.docs/" in p)
    ]
    readme = [p for p in facts.paths if p.lower() in ("readme.md", "readme.rst")] if not near or "readme" in words else []
    return list(dict.fromkeys([*named, *sorted(near)[:3], *readme]))


__all__ = ["Facts", "GoalReading", "Kind", "is_test_file", "lemma", "read_goal"]
