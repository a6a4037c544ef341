"""The English a goal is written in, as data: verbs that ask for a change, verbs that ask
to look, the marks of a question and of a wanted state, and a tokenizer that tells code
names, file names and literals from words.

The lexicons are lemmas, kept as data in `english.toml` (`bump`, not `bumped`): `lemma()` maps an inflected word onto
the lexicon it is looked up in. Nothing here knows a workspace, a tool or a benchmark;
`reading.py` combines these facts with the workspace's.
Must not know: tools, the loop, models, LSP.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

_LEXICON: dict[str, frozenset[str]] = {
    key: frozenset(words)
    for key, words in tomllib.loads(Path(__file__).with_name("english.toml").read_text(encoding="utf-8")).items()
}

#: Verbs whose imperative asks for files to change.
CHANGE_VERBS = _LEXICON["change_verbs"]
#: Verbs whose imperative asks to look, not to change.
LOOK_VERBS = _LEXICON["look_verbs"]
#: Phrases that ask for a change whatever their words are alone.
CHANGE_PHRASES = (
    "get rid of", "clean up", "comment out", "fill in", "flesh out", "hook up", "take out",
    "pull out", "make sure", "tidy up", "break out", "split up", "wire up", "spell out",
)  # fmt: skip
#: "take the print out of f": a change phrase with its object inside.
TAKE_OUT = re.compile(
    r"\b(?:take|pull|rip|cut|strip)\s+(?:[\w'-]+\s+){1,5}?out\b(?!\s+(?:loud|there))", re.IGNORECASE
)
#: Phrases that ask to look.
LOOK_PHRASES = (
    "tell me", "let me know", "i want to know", "i'd like to know", "i would like to know",
    "walk me through", "give me an overview", "what's", "whats", "any idea", "show me",
)  # fmt: skip
#: "I need an explanation", "we want to know": a wish to be told, not a change.
_NOT_TO_KNOW = r"(?! (?:to know|an? (?:explanation|overview|summary|review|description|answer|list)\b))"
#: Marks of a wanted state or of a defect: "x should …", "… is wrong", "typo in …".
WANTS = re.compile(
    rf"\b(?:should(?:n't| not)?|must(?:n't| not)?|needs?{_NOT_TO_KNOW}|has to|have to|ought to|want(?:s|ed)? \w+ to|"
    rf"would like|'d like|would be (?:great|nice|good|awesome|helpful|ideal|better) if|(?:i|we) want\b{_NOT_TO_KNOW}|instead of|rather than|no longer|any ?more|is (?:wrong|broken|incorrect|"
    r"buggy|off|missing|outdated|misspelled)|are (?:wrong|broken|incorrect|missing)|"
    r"does(?:n't| not) work|do(?:n't| not) work|crash(?:es|ing)?|fails?\b|failing|broken|bugs?\b|"
    r"typos?\b|misspel\w*|spelling|let's|lets|wrong|incorrect(?:ly)?|off by one|not right|"
    r"get\b[^.;?]{0,60}?\b(?:passing|green|working|to (?:pass|work)))|→|->|=>|\w\s*(?<![=!<>])=(?!=)\s*\S",
    re.IGNORECASE,
)
#: "describe it in the docstring", "explain the flag in a comment": a look verb whose
#: words go into a file is a change.
INTO_TEXT = re.compile(
    r"\b(?:in|into|to|as)\s+(?:the|a|an|its|their)\s+(?:module\s+|function's\s+|class\s+)?"
    r"(?:doc\s?strings?|comments?|readme|changelog|docs?|documentation|header)\b",
    re.IGNORECASE,
)
#: Words that open a question.
QUESTION_WORDS = _LEXICON["question_words"]
#: Auxiliaries that open a yes/no question ("does x …?") — or a request ("can you …?").
AUXILIARIES = _LEXICON["auxiliaries"]
#: Objects that make a negated change verb rule out every change ("do not change anything").
EVERYTHING = _LEXICON["everything"]
#: A change verb under one of these is ruled out ("without changing the tests").
NEGATIONS = ("do not", "don't", "dont", "never", "without", "not", "no need to", "avoid", "nor",
             "can't", "cannot", "mustn't", "shouldn't", "won't", "may not")
#: "only report", "just tell me": the goal asks to look and nothing else.
ONLY_LOOK = re.compile(
    r"\b(?:only|just|simply|merely)\s+(?:be\s+)?(?:report|tell|explain|answer|describe|list|say|show|look|read|review)\w*\b|"
    r"\bread[- ]only\b|\bno (?:changes|edits)\b(?!\s+to\s+(?:the\s+)?(?:tests?\b|[\w/-]+\.\w+))|\bwith nothing (?:edited|changed|modified|touched)\b|"
    r"\bno\s+(?:files?|code|changes?)\s+\w+\s+be\s+(?:changed|edited|modified|touched|made)\b",
    re.IGNORECASE,
)
#: English words that follow a kind word without being a name ("the parameter is used").
AFTER_KIND = _LEXICON["after_kind"]
#: Words that say a goal is about tests.
TEST_WORDS = _LEXICON["test_words"]
#: Words that say tests fail or must pass.
TEST_OUTCOME = _LEXICON["test_outcome"]
#: Words naming the kind of a definition.
KIND_WORDS = _LEXICON["kind_words"]
#: Words never taken for code names even when shaped like one.
NOT_NAMES = _LEXICON["not_names"]
#: Plain English words that codebases also define: names only on stronger evidence.
COMMON_NOUNS = _LEXICON["common_nouns"]
#: Words that point at a description to implement from.
SPEC_WORDS = _LEXICON["spec_words"]
#: Literal words that count as values ("return None").
LITERAL_WORDS = _LEXICON["literal_words"]
#: File suffixes a goal names files by.
FILE_SUFFIXES = "py|pyi|ts|tsx|js|jsx|mjs|cjs|md|rst|txt|json|toml|ya?ml|cfg|ini|html|css|sh|go|rs|java"

_TOKEN = re.compile(
    r"`(?P<tick>[^`]+)`"
    r"|\"(?P<dq>[^\"]*)\"|“(?P<cq>[^”]*)”|(?<![\w])'(?P<sq>[^']*)'(?![\w])"
    rf"|(?P<file>(?:[\w.-]+/)*[\w.-]*\w\.(?:{FILE_SUFFIXES}))\b"
    r"|(?P<call>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\((?P<args>[^()]*)\)"
    r"|(?P<num>-?\d+(?:\.\d+)*%?)(?!\w|\.\d)"
    r"|(?P<word>[A-Za-z_][\w'’]*(?:\.[A-Za-z_]\w*)*)"
    r"|(?P<arrow>→|->|=>)"
    r"|(?P<punct>[?.!;:,=])"
)
#: A file name in running text ("in calc.py", "tests/test_x.py").
FILE_NAME = re.compile(rf"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.(?:{FILE_SUFFIXES}))\b")
_GROUPS = ("tick", "dq", "cq", "sq", "file", "call", "num", "word", "arrow", "punct")
_CODE_SHAPE = re.compile(r"^(?:[A-Za-z]\w*_\w*[A-Za-z0-9]|_\w+|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[A-Z][A-Z0-9_]*_[A-Z0-9_]+)$")
_IDENT = re.compile(r"^[A-Za-z_]\w*$")


@dataclass(frozen=True, slots=True)
class Token:
    """One piece of a goal: its kind, its text (without quotes or backticks), where it
    starts, and whether it is quoted (backticks or quotes)."""

    kind: str  # word | name | file | call | number | string | arrow | punct
    text: str
    start: int
    quoted: bool = False
    args: str = ""  # a call's argument text ("a, b")

    @property
    def low(self) -> str:
        return self.text.lower()


def tokens(goal: str) -> list[Token]:
    """The goal's tokens; a backticked identifier is a `name`, quoted text a `string`."""
    out: list[Token] = []
    for m in _TOKEN.finditer(goal):
        kind = next(g for g in _GROUPS if m.group(g) is not None)
        if kind == "tick":
            text = m.group("tick").strip()
            inner = text.rstrip("()")
            if re.fullmatch(rf"(?:[\w.-]+/)*[\w.-]*\w\.(?:{FILE_SUFFIXES})", text):
                out.append(Token("file", text, m.start(), True))
            elif _IDENT.match(inner) or re.fullmatch(r"[A-Za-z_][\w.]*", inner):
                out.append(Token("name", inner, m.start(), True))
            elif call := re.fullmatch(r"([A-Za-z_]\w*)\((.*)\)", text, re.DOTALL):
                out.append(Token("call", call.group(1), m.start(), True, args=call.group(2)))  # `f(a, b)`
            else:
                out.append(Token("string", text, m.start(), True))
        elif kind in ("dq", "cq", "sq"):
            out.append(Token("string", m.group(kind), m.start(), True))
        elif kind == "call":
            out.append(Token("call", m.group("call"), m.start(), args=m.group("args")))
        elif kind == "num":
            out.append(Token("number", m.group("num"), m.start()))
        else:
            out.append(Token(kind, m.group(kind).replace("’", "'"), m.start()))
    return out


def code_shaped(word: str) -> bool:
    """snake_case, camelCase, CapWords with an inner capital, CONSTANT_CASE."""
    return bool(_CODE_SHAPE.match(word))


def identifier(word: str) -> bool:
    return bool(_IDENT.match(word))


def lemma(word: str, lexicon: frozenset[str]) -> str | None:
    """The lexicon entry an inflected `word` stands for ("bumped" → "bump"), or None."""
    w = word.lower().strip("'’")
    candidates = [w]
    if w.endswith("ies"):
        candidates.append(w[:-3] + "y")
    if w.endswith("es"):
        candidates.append(w[:-2])
    if w.endswith("s"):
        candidates.append(w[:-1])
    if w.endswith("ed"):
        candidates += [w[:-2], w[:-1]]
        if len(w) > 4 and w[-3] == w[-4]:
            candidates.append(w[:-3])  # stopped → stop
    if w.endswith("ied"):
        candidates.append(w[:-3] + "y")
    if w.endswith("ing"):
        candidates += [w[:-3], w[:-3] + "e"]
        if len(w) > 5 and w[-4] == w[-5]:
            candidates.append(w[:-4])  # setting → set
    return next((c for c in candidates if c in lexicon), None)


def misspelt(word: str, lexicon: frozenset[str]) -> str | None:
    """The lexicon entry a misspelt `word` stands for ("implment" → "implement", "renmae"
    → "rename"): one letter dropped, added, changed or two swapped, in a word of six
    letters or more (shorter words have too many neighbours), uninflected or inflected."""
    w = word.lower().strip("'’")
    if len(w) < 6 or not w.isalpha():
        return None
    stems = [w] + [
        w[: -len(end)]
        for end in ("ing", "ed", "es", "s")
        if w.endswith(end) and len(w) - len(end) >= 5
    ]
    for stem in stems:
        for entry in lexicon:
            if len(entry) >= 5 and _one_edit(stem, entry):
                return entry
    return None


def _one_edit(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def sentences(goal: str) -> list[str]:
    """The goal cut at sentence ends, before a capital or not ("3 is odd. please fix it");
    a dot inside a file or dotted name, or after "e.g", "i.e", "etc", "vs", does not cut."""
    parts = re.split(r"(?<=[.!?;])\s+(?=[A-Z`\"'(@])|(?<=[!?;])\s+|\n+", goal.strip())
    out: list[str] = []
    for part in parts:
        last = 0
        for m in _LOWER_CUT.finditer(part):
            if m.group(1).lower() not in _ABBREVIATIONS:
                out.append(part[last : m.start() + len(m.group(0).rstrip())])
                last = m.end()
        out.append(part[last:])
    return [p.strip() for p in out if p.strip()]


#: A sentence's end before a lower-case word: "3 is odd. please fix it".
_LOWER_CUT = re.compile(r"([\w.]*\w)\.\s+(?=[a-z])")
_ABBREVIATIONS = frozenset(["e.g", "i.e", "etc", "vs", "cf", "approx", "eg", "ie"])
