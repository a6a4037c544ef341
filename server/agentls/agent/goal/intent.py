"""What a goal asks for, from its sentences alone: a change, a look (a question, an
explanation, a review), or neither clearly; and what it rules out ("without changing the
tests", "do not edit anything").

Each sentence is read on its own. A sentence asks for a change when a change verb opens
one of its clauses (at its start, after "and", "then", "please", "to", "can you", "we
should"…), when it holds a change phrase ("get rid of"), or when it states a wanted state
or a defect ("x should be y", "… needs a z", "I want …", "is broken", "typo", "a → b"), or
names what to make with no verb at all ("new file test_x.py with a test for f"); a question
("…?", "what/which/how …", "does x …") asks to look unless it is a request ("can you add
…?"). A change verb under a negation is ruled out; with "anything", "any file", "the
code" as its object, or with "only report", every change is.
Must not know: workspaces, tools, the loop, models, LSP.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agentls.agent.goal.words import (
    AUXILIARIES,
    CHANGE_PHRASES,
    CHANGE_VERBS,
    EVERYTHING,
    INTO_TEXT,
    LOOK_PHRASES,
    LOOK_VERBS,
    NEGATIONS,
    ONLY_LOOK,
    QUESTION_WORDS,
    TAKE_OUT,
    TEST_WORDS,
    WANTS,
    Token,
    lemma,
    misspelt,
    sentences,
    tokens,
)

#: Words after which a clause starts (an imperative may follow).
_CLAUSE_OPENERS = frozenset(["and", "then", "also", "please", "so", "to", "or", "but", "just", "simply", "first", "finally", "next", "now"])
#: "In app.py, could you add …?", "x is missing a docstring, can you write one?", "… — could
#: you add that?": a request opening a later clause; "is it possible to add …?".
_REQUEST = re.compile(
    r"(?:^|[,;:—–]\s*|\s-\s+|\b(?:so|and|but|then|please|pls)\s+)(?:can|could|would|will)\s+(?:you|u|someone)\s+(?:please\s+)?[a-z]"
    r"|\b(?:is|would)\s+it\s+(?:be\s+)?possible\s+to\s+[a-z]"
    r"|\b(?:wondering|wonder)\s+if\s+(?:you|u)\s+(?:could|can|would)\b|\bany\s+chance\s+(?:you|u)\s+(?:could|can)\b"
    r"|\b(?:do|would)\s+you\s+think\s+(?:you|u)\s+(?:could|can)\b|^\W*(?:would\s+you\s+)?mind\s+\w+ing\b"
    r"|\bit\s+would\s+be\s+(?:great|nice|good|awesome|helpful|ideal)\s+if\b",
    re.IGNORECASE,
)
#: "the test itself must stay unchanged", "test_x.py should remain as it is", "the tests
#: must be left unchanged", "the test shouldn't be modified", "… with no changes to the test"
_STAYS = re.compile(
    r"\b([\w./-]+)(?:\s+(?:itself|themselves|file|files))?\s+(?:(?:must|should|has to|have to|needs? to|will|can|may)\s+)?(?:stays?|remains?)\s+(?:unchanged|untouched|as (?:it|they) (?:is|are)|as is|intact|the same)\b"
    r"|\b([\w./-]+)(?:\s+(?:itself|themselves|file|files))?\s+(?:must|should|has to|have to|needs? to|will|can|may)(?:\s+be\s+left\s+(?:unchanged|untouched|alone|as (?:it|they) (?:is|are)|as is|intact)|(?:\s*n[o']t|\s+not|\s*never)\s+be\s+(?:modif|chang|touch|edit|alter)\w*)\b"
    r"|\b(?:with\s+)?no\s+(?:changes?|edits?)\s+(?:to\s+)?(?:the\s+)?([\w./-]+)"
    r"|\bthe\s+(tests?)\s+(?:you\s+)?(?:must|should|may|can)(?:\s*n[o']t|\s+not|\s*never)\s+(?:change|modify|touch|edit)"
    r"|\b(tests?)\s+unchanged\b",
    re.IGNORECASE,
)
#: "fix discount.py, not the tests"
_NOT_THAT = re.compile(
    r"(?:[,;]|\bbut)\s*(?:and\s+)?not\s+(?:the\s+|any\s+|its\s+)?(tests?|[\w./-]+\.\w+)\b(?!['’]|\s+(?:fail|pass))",
    re.IGNORECASE,
)
#: "type-hint", "type annotate": the verb is the second word.
_TYPE_VERB = re.compile(r"\btype[- ](?=hint|annotat)", re.IGNORECASE)
#: "leave the tests alone", "keep app.py as it is"
_LEAVE = re.compile(r"\b(?:leave|keep)\s+(?:the\s+|any\s+|all\s+)?([\w./-]+)(?:\s+\w+)?\s+(?:alone|as it is|as is|unchanged|untouched|intact)\b", re.IGNORECASE)
#: A sentence that names what to make, with no verb: "new file test_x.py with a test for f",
#: "pytest tests for f in new test_x.py", "module docstring at top of x.py", "int hint on n".
_ORDER = re.compile(
    r"^\W*(?:`?[\w./-]+`?\s*:\s*)?(?:(?:a|an|some|more)\s+)?(?:new\s+(?:(?:test\s+|python\s+)?file\b|`?[\w./-]+\.\w+)|"
    r"(?:(?:new|module|pytest|unit|type|int|str|float|bool)\s+)?(?:docstrings?|tests?|type\s+hints?|hints?|annotations?)\s+(?:for|at|to|on|in|of)\b)",
    re.IGNORECASE,
)
#: Look verbs that say what tests do, in a sentence about tests.
_TESTS_DO = frozenset(["check", "verify", "confirm", "compare"])
_SUBJECTS = frozenset(["you", "we", "i", "u", "someone"])
#: "then finish with the explanation", "end by saying …": how the reply ends, not a change
_ENDING_VERBS = frozenset(["finish", "complete", "end", "conclude"])
_ENDING_NEXT = frozenset(["with", "by", "saying", "and"])
_MODALS = frozenset(["can", "could", "would", "will", "should", "must", "need", "needs", "want", "wanna", "gotta", "let's", "lets", "pls", "plz"])


@dataclass
class Intent:
    """What the goal's sentences ask for (see the module docstring)."""

    change: bool = False
    look: bool = False
    question: bool = False
    #: every change ruled out ("do not change anything", "only report")
    read_only: bool = False
    #: what a negated change verb is about: file names, or "tests" for the test files
    protected: list[str] = field(default_factory=list)
    #: the change verbs, as lemmas, in order (not the negated ones)
    verbs: list[str] = field(default_factory=list)

    @property
    def clear(self) -> bool:
        return self.change or self.look or self.question or self.read_only


def read_intent(goal: str, names: set[str], at: set[int] | None = None) -> Intent:
    """The intent of `goal`; `names` are the words already known to be code names (never
    taken for verbs: "the add function") — or, given `at`, only those starting at these
    offsets of the goal ("pls add a docstring to add": the first add is a verb)."""
    out = Intent()
    # "type-hint x": the verb is hint; blanked, not cut, so the offsets in `at` still hold
    goal = _TYPE_VERB.sub(lambda m: " " * len(m.group(0)), goal)
    if ONLY_LOOK.search(goal):
        out.read_only = True
    for pattern in (_LEAVE, _STAYS, _NOT_THAT):
        for m in pattern.finditer(goal):
            _left_alone(next(g for g in m.groups() if g), out)
    cursor = 0
    for sentence in sentences(goal):
        base = goal.find(sentence, cursor)
        cursor = base + len(sentence) if base >= 0 else cursor
        if at is None or base < 0:
            _sentence(sentence, names, out)
        else:
            _sentence(sentence, names, out, {s - base for s in at})
    if out.read_only:
        out.change = False
        out.look = True
    return out


def _sentence(text: str, names: set[str], out: Intent, at: set[int] | None = None) -> None:
    toks = [t for t in tokens(text) if t.kind != "punct" or t.text in ",;:"]
    words = [t for t in toks if t.kind in ("word", "name", "call", "file", "string", "number", "arrow")]
    low = text.lower().replace("’", "'")
    first = words[0].low if words else ""
    second = words[1].low if len(words) > 1 else ""
    asks = text.rstrip().endswith("?") or first in QUESTION_WORDS or (
        first in AUXILIARIES and second not in _SUBJECTS
    )
    request = (first in ("can", "could", "would", "will") and second in _SUBJECTS) or bool(
        _REQUEST.search(text)
    )
    change = False
    for i, tok in enumerate(toks):
        if tok.kind != "word" or _is_name(tok, names, at):
            continue
        verb = lemma(tok.text, CHANGE_VERBS)
        if verb is None and _verb_position(toks, i) and not lemma(tok.text, LOOK_VERBS):
            verb = misspelt(tok.text, CHANGE_VERBS)  # "implment", "renmae"
        if verb is None:
            continue
        if verb in _ENDING_VERBS and i + 1 < len(toks) and toks[i + 1].low in _ENDING_NEXT:
            continue
        if _negated(low, tok.start):
            _rule_out(toks, i, out)
            continue
        if not _verb_position(toks, i):
            continue
        change = True
        out.verbs.append(verb)
    if (any(p in low for p in CHANGE_PHRASES) or TAKE_OUT.search(low)) and not _phrase_negated(low):
        change = True
    # "… tests in a new file: check one palindrome": what the tests check, not a look
    plain = {t.low for t in toks if t.kind == "word"}
    about_tests = bool(plain & TEST_WORDS and plain & {"new", "need", "needs", "write", "add", "create", "want"})
    looks = any(
        t.kind == "word" and not _is_name(t, names, at) and (verb := lemma(t.text, LOOK_VERBS))
        and _verb_position(toks, i) and not (about_tests and verb in _TESTS_DO)
        for i, t in enumerate(toks)
    ) or any(p in low for p in LOOK_PHRASES)
    if looks and INTO_TEXT.search(text) and not (asks and not request):
        change, looks = True, False  # "describe X in the docstring" writes the description
    # a wanted state or a defect asks for a change, unless the sentence asks to look for it
    # ("tell me if you see any bugs") or is a question
    if WANTS.search(text) and not looks and not (asks and not request) and not _only_negations(low):
        change = True
    if not change and not looks and not asks and _ORDER.search(text):
        change = True  # "new file test_x.py with a test for f", "module docstring at top of x.py"
    if asks and not request:
        out.question = True
        if not change or text.rstrip().endswith("?"):
            change = False  # "why does x crash on 0?" describes a defect; it asks to look
    if change:
        out.change = True
    elif looks or asks:
        out.look = True


def _is_name(tok: Token, names: set[str], at: set[int] | None) -> bool:
    return tok.start in at if at is not None else tok.text in names


def _verb_position(toks: list[Token], i: int) -> bool:
    """Whether toks[i] opens a clause: the sentence's first word, or after an opener
    ("and", "please", "to", a comma), a modal with its subject ("can you", "we should"),
    or "let's"."""
    j = i - 1
    while j >= 0 and toks[j].kind == "word" and toks[j].low in ("please", "just", "also", "now", "then", "simply", "kindly"):
        j -= 1
    if j < 0 or (j < i - 1 and toks[j + 1].low in ("please", "kindly")):
        return True  # "In greet.py please change …"
    prev = toks[j]
    if prev.kind == "punct":
        return True
    if prev.kind != "word":
        return False
    p = prev.low
    if p in _CLAUSE_OPENERS or p in _MODALS or p in ("let's", "lets", "pls"):
        return True
    if p == "by" and toks[i].low.endswith("ing"):
        return True  # "… by fixing the parser": the means is the change
    if p in _SUBJECTS and j > 0 and toks[j - 1].low in _MODALS:
        return True  # "can you fix"
    if p == "mind" and (j == 0 or toks[j - 1].low in _SUBJECTS) and toks[i].low.endswith("ing"):
        return True  # "would you mind putting …", "Mind adding …?"
    if p in _SUBJECTS and j > 0 and toks[j - 1].low in ("if", "think"):
        return True  # "wondering if you could …" has its modal after the subject
    return p in _SUBJECTS and j == 0  # "you fix …" / "we add …"


def _negated(low: str, at: int) -> bool:
    before = low[max(0, at - 24) : at]
    return any(re.search(rf"(?:^|\W){re.escape(n)}\s+(?:\w+\s+)?$", before) for n in NEGATIONS)


def _phrase_negated(low: str) -> bool:
    return any(re.search(rf"\b{re.escape(n)}\s+(?:\w+\s+)?{re.escape(p)}", low) for n in NEGATIONS for p in CHANGE_PHRASES)


def _only_negations(low: str) -> bool:
    """The wanted-state marks are all negative rules ("it must not change the tests")."""
    marks = [m.group(0).lower() for m in WANTS.finditer(low)]
    return bool(marks) and all(m.startswith(("mustn", "must not", "shouldn", "should not")) for m in marks)


def _rule_out(toks: list[Token], i: int, out: Intent) -> None:
    """A negated change verb: every change ruled out, or only what it names — after the
    verb, or before it in the passive ("the tests must not be touched")."""
    if _ruled_out(toks[i + 1 : i + 6], out, everything=True):
        return
    if i + 1 < len(toks) and toks[i + 1].low in ("them", "it") and any(t.kind == "word" and t.low in TEST_WORDS for t in toks[max(0, i - 6) : i]):
        out.protected.append("tests")  # "make the tests pass without changing them"
        return
    if i > 0 and toks[i - 1].low in ("be", "been", "get", "gets"):
        _ruled_out(list(reversed(toks[max(0, i - 7) : i])), out, everything=False)


def _ruled_out(near: list[Token], out: Intent, everything: bool) -> bool:
    """Protect the first file or test word in `near` (up to a punctuation mark)."""
    for tok in near:
        if tok.kind == "punct":
            return False
        if everything and tok.kind == "word" and tok.low in EVERYTHING:
            out.read_only = True
            return True
        if tok.kind == "file":
            out.protected.append(tok.text)
            return True
        if tok.kind == "word" and tok.low in TEST_WORDS:
            out.protected.append("tests")
            return True
    return False


def _left_alone(what: str, out: Intent) -> None:
    what = what.rstrip(".,;:")  # "… with no changes to the test."
    low = what.lower()
    if low in EVERYTHING or low in ("code", "source", "files", "repo", "project", "rest"):
        out.read_only = low not in ("rest",)
    elif low in TEST_WORDS or low.rstrip("s") == "test":
        out.protected.append("tests")
    elif "." in what:
        out.protected.append(what)
