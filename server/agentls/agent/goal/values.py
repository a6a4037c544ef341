"""The values a change goal asks for.

A value is what must be in the changed lines afterwards: B in "from A to B", "replace A
with B", "swap A for B"; a literal after "to", "=", "be", "become", "return(s)",
"default(s) to", "give back", an arrow ("60 → 90"); or before "instead of" (after it when
a verb in the present says what the code does now: "returns 190 instead of 180") — a
number, quoted text (its longest fixed piece when it has placeholders: "Hi, <name>!") or
None/True/False; a capitalised word set against another ("Hello -> Welcome", "be Welcome,
not Hello"). Values from a sentence saying how things are now ("currently it defaults to
3") count only when no other sentence asks for one. (The rename a goal asks for is renames.py's.)
Must not know: workspaces (it is given the known names), tools, models, LSP.
"""

from __future__ import annotations

import re

from agentls.agent.goal.words import (
    LITERAL_WORDS,
    NOT_NAMES,
    Token,
)

_LEADS = frozenset(["to", "=", "be", "become", "becomes", "return", "returns", "returned", "default", "defaults", "equal", "equals", "read", "reads", "say", "says"])
_ARROWS = frozenset({"→", "->", "=>"})
#: Leads that may state what the code does now ("it returns True", "does f say True?").
_STATES = frozenset(["return", "returns", "returned", "be", "become", "becomes", "back", "say", "says", "read", "reads"])
#: "make it 5", "set it to …": verbs whose "it" is followed by the value.
_SETS = frozenset(["make", "set", "change", "bump", "raise", "lower", "increase", "decrease"])
#: "fetch has retries=3", "timeout is 30": what a name holds now.
_HAS = frozenset(["has", "have", "had", "is", "was", "currently", "uses"])
#: Quoted code that sets a value: `NAME = 60`, `retries=5`, `return None`.
_CODE_VALUE = re.compile(r"(?:[A-Za-z_][\w.]*\s*(?::[^=]+)?=(?!=)|return\s)\s*(.+)")
_PLACEHOLDER = re.compile(r"<[^<>]*>|\{[^{}]*\}")


def _gives_back(words: list[Token], i: int) -> bool:
    """ "give back None", "by returning None": a lead into the value to return."""
    low = words[i].low
    if low == "back":
        return i > 0 and words[i - 1].low in ("give", "gives", "hand", "hands", "send", "sends")
    return low == "returning" and i > 0 and words[i - 1].low in ("by", "instead", "just", "start")


def _literal(tok: Token | None) -> str | None:
    if tok is None:
        return None
    if tok.kind == "string" and _PLACEHOLDER.search(tok.text):
        # "Welcome, <name>!": the code builds it; its longest fixed piece must be there
        piece = max((p.strip(" ,.!?:;") for p in _PLACEHOLDER.split(tok.text)), key=len)
        return piece or None
    if tok.kind == "string" and tok.quoted and (code := _CODE_VALUE.fullmatch(tok.text.strip())):
        return code.group(1).strip()  # `retries=5`, `return None`: the value in the code
    if tok.kind in ("number", "string") and tok.text.strip():
        return tok.text.rstrip("%") if tok.kind == "number" else tok.text
    if tok.kind == "word" and tok.text in LITERAL_WORDS:
        return tok.text
    return None


def asked_values(toks: list[Token], renaming: bool) -> list[str]:
    """The values the goal's change must bring in (see the module docstring)."""
    if renaming:
        return []
    words = [t for t in toks if t.kind != "punct" or t.text == "="]
    now = _current(toks)
    opened = {b.start for a, b in zip(toks, toks[1:], strict=False) if a.kind == "punct" and a.text in ":;,"}
    found: list[tuple[str, bool]] = []  # (value, from a sentence saying how things are now)

    def add(value: str, at: Token) -> None:
        found.append((value, at.start in now))

    for i, tok in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else None
        if tok.low == "from" and _from_to(words, i) is not None:
            add(_from_to(words, i) or "", tok)
        elif tok.low in _LEADS or tok.text in _ARROWS or _gives_back(words, i):
            if tok.low in _STATES and not _desired(words, i) and not _bidden(words, i, opened):
                continue  # "it returns True for odd numbers", "does f say True?" state the defect
            if tok.text == "=" and i >= 2 and words[i - 2].low in _HAS and not _desired(words, i - 2):
                continue  # "fetch has retries=3": what the code holds now
            if tok.low in ("default", "defaults") and any(w.low in _HAS for w in words[max(0, i - 3) : i]) and not _desired(words, i):
                continue  # "fetch has retries default 3"
            value = _literal(nxt)
            if value is None and nxt is not None and nxt.low in ("a", "an", "the") and i + 2 < len(words):
                value = _literal(words[i + 2]) if words[i + 2].kind == "string" else None
            if value is None and nxt is not None and _set_against(words, i):
                value = nxt.text  # "Hello -> Welcome", "should be Welcome, not Hello"
            if value is not None and not _is_condition(words, i + 1):
                add(value, tok)
        elif tok.low == "it" and i > 0 and words[i - 1].low in _SETS and (value := _literal(nxt)) is not None:
            add(value, tok)  # "please make it 5"
        elif tok.kind == "string" and tok.quoted and _CODE_VALUE.fullmatch(tok.text.strip()) and (nxt is None or nxt.text not in _ARROWS):
            if (value := _literal(tok)) is not None and not tok.text.lstrip().startswith("return"):
                add(value, tok)  # `TIMEOUT_SECONDS = 60` on its own (not the left of an arrow)
        elif tok.low in ("instead", "rather") and nxt is not None and nxt.low in ("of", "than"):
            if (expected := _actual_instead_of(words, i)) is not None:
                add(expected, tok)  # "f(2) gives 190 instead of 180": 180 is wanted
                continue
            for k in (i - 1, i - 2):
                value = _literal(words[k]) if k >= 0 else None
                if value is None and k == i - 1 and k >= 0 and _word_pair(words[k], words[i + 2] if i + 2 < len(words) else None):
                    value = words[k].text  # "Welcome instead of Hello"
                if value is not None and not _is_condition(words, k):
                    add(value, words[k])
                    break
        elif tok.low in ("replace", "swap", "switch", "exchange", "trade") and (pair := _replace_with(words, i)) is not None:
            add(pair, tok)
    wanted = [v for v, current in found if not current]
    # "Right now it defaults to 3. I'd like 5": the values of how things are now, only
    # when nothing else is asked
    out = wanted if wanted else [v for v, _ in found]
    return list(dict.fromkeys(v for v in out if v))


#: Words that say a sentence tells how things are now ("currently", "right now").
_NOW = re.compile(r"\b(?:currently|right now|at the moment|at present|as of now|today)\b", re.IGNORECASE)


def _current(toks: list[Token]) -> set[int]:
    """The starts of the tokens in sentences that say how things are now."""
    out: set[int] = set()
    sentence: list[Token] = []
    for tok in [*toks, None]:
        if tok is None or (tok.kind == "punct" and tok.text in (".", "?", "!", ";")):
            if sentence and _NOW.search(" ".join(t.text for t in sentence)):
                out |= {t.start for t in sentence}
            sentence = []
        else:
            sentence.append(tok)
    return out


def _bidden(words: list[Token], i: int, opened: set[int]) -> bool:
    """ "return None when …" as an order: the bare verb opening a clause (the start, after
    a colon, semicolon or comma, or after "please", "and", "then", "just")."""
    if words[i].low != "return":
        return False
    return i == 0 or words[i].start in opened or words[i - 1].low in ("please", "and", "then", "just", "pls")


def _set_against(words: list[Token], i: int) -> bool:
    """A plain word set against another: "Hello -> Welcome" (an arrow between two),
    "Hello to Welcome" (both capitalised), or "be Welcome, not Hello" / "to be Welcome
    instead"."""
    nxt = words[i + 1]
    if words[i].text in _ARROWS:
        return i > 0 and _word_pair(nxt, words[i - 1])
    if words[i].low == "to" and i > 0 and words[i - 1].text[:1].isupper() and nxt.text[:1].isupper():
        return _word_pair(nxt, words[i - 1])  # "change the greeting word Hello to Welcome"
    after = words[i + 2].low if i + 2 < len(words) else ""
    return words[i].low in ("be", "to") and nxt.kind == "word" and nxt.text[:1].isupper() and nxt.low not in NOT_NAMES and after in ("not", "instead", "rather")


#: Verbs that say what the code does now ("it returns 190 instead of 180").
_DOES = frozenset(
    [
        "gives",
        "returns",
        "outputs",
        "prints",
        "produces",
        "yields",
        "shows",
        "is",
        "computes",
        "evaluates",
        "comes",
        "equals",
        "got",
        "get",
        "gets",
        "reports",
    ]
)


def _actual_instead_of(words: list[Token], i: int) -> str | None:
    """ "X gives 190 instead of 180" states a defect: what it does now, then what is
    wanted; the value after "of" (a literal) when a present-tense verb with no modal
    stands before the first."""
    if i < 2 or i + 2 >= len(words) or _literal(words[i - 1]) is None:
        return None
    verb = words[i - 2]
    if verb.low not in _DOES or _desired(words, i - 2):
        return None
    return _literal(words[i + 2])


def _word_pair(new: Token, old: Token | None) -> bool:
    """Two single words set against each other ("Welcome instead of Hello"): both plain
    words or both names, neither glue."""
    return (
        old is not None
        and new.kind in ("word", "name")
        and old.kind in ("word", "name")
        and new.low not in NOT_NAMES
        and old.low not in NOT_NAMES
        and (new.text[:1].isupper() or new.kind == "name" or old.text[:1].isupper())
    )


def _replace_with(words: list[Token], i: int) -> str | None:
    """"replace B with A", "replace B by A", "swap B for A" (B and A one token each): A."""
    links = ("with", "by") if words[i].low == "replace" else ("for", "with")
    for j in range(i + 2, min(i + 7, len(words) - 1)):
        if words[j].low in links:
            a = words[j + 1]
            return _literal(a) or (a.text if a.kind in ("word", "name") and a.low not in NOT_NAMES else None)
    return None


def _from_to(words: list[Token], i: int) -> str | None:
    """"from A to B" (A and B one token each): B."""
    if i + 3 < len(words) and words[i + 2].low == "to":
        b = words[i + 3]
        return _literal(b) or (b.text if b.kind in ("word", "name") else None)
    return None


def _desired(words: list[Token], i: int) -> bool:
    """"should return 0", "make it return None", "to be 5": a wanted value, not a
    description of what the code does now."""
    back = [w.low for w in words[max(0, i - 4) : i]]
    if any(w in ("should", "must", "to", "shall", "needs", "need", "always", "instead", "will", "let", "it'd", "would") for w in back):
        return True
    # further back: "make the mean function in stats.py return 0.0", "great if f returned None"
    return any(w.low in ("make", "making", "makes", "great", "nice", "ideal") for w in words[max(0, i - 7) : i])


def _is_condition(words: list[Token], k: int) -> bool:
    """"when b is 0", "if the list is empty", "calling f with b = 0": a literal in a
    condition is no new value."""
    wide = [w.low for w in words[max(0, k - 6) : k]]
    back = wide[-4:]
    start = len(wide) - len(back)
    wish = {n for n, w in enumerate(wide) if w == "if" and n > 0 and wide[n - 1] in _WISH}
    if any(w in ("when", "if", "unless", "while", "where", "for") for n, w in enumerate(back, start) if n not in wish):
        return True
    return "with" in back and any(w in ("calling", "called", "call", "calls") for w in wide)  # "calling f with b = 0"


#: "it would be great if …": the "if" of a wish, not a condition.
_WISH = frozenset(["great", "nice", "good", "awesome", "helpful", "ideal", "better"])
