"""The code names and files a goal mentions, and what the workspace makes of them.

A word is a code name when it is quoted in backticks, written as a call (`total(prices)`),
shaped like code (snake_case, camelCase, CONSTANT_CASE), next to a kind word ("the area
function", "class Usr"), or a name the workspace defines written where no verb stands
("make divide return None"). A file is named by its path, by a path ending that only one
file has, by its module name next to the word "module" ("the textutils module"), or
through a name defined in one or two files. A file name the workspace lacks
is a new file when the goal makes content ("add a test for it in tests/test_x.py"), and a
missing one when it presumes content there ("the function f in server.py").
Must not know: tools, the loop, models, LSP.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from agentls.agent.goal.words import (
    AFTER_KIND,
    CHANGE_VERBS,
    COMMON_NOUNS,
    KIND_WORDS,
    LOOK_VERBS,
    NOT_NAMES,
    Token,
    code_shaped,
    identifier,
    lemma,
)


class Facts(Protocol):
    """What the workspace holds, as the reading needs it."""

    @property
    def paths(self) -> Sequence[str]:
        """The workspace's files (workspace-relative, `/`-separated)."""
        ...

    @property
    def complete(self) -> bool:
        """Whether `paths` is every file (a walk may stop early in a huge tree)."""
        ...

    def defined(self, name: str) -> list[str]:
        """The files that define `name` (a function, class, variable…)."""
        ...

    def used(self, name: str) -> bool:
        """Whether any file mentions `name` (as code, or in its text)."""
        ...

    def stub(self, name: str) -> bool:
        """Whether `name` is a function whose body is only a stub (`pass`, `...`)."""
        ...

    def mentioning(self, name: str) -> list[str]:
        """The files whose code or text holds `name` as a word."""
        ...


@dataclass
class Mentions:
    """The names and files of a goal, resolved."""

    names: list[str] = field(default_factory=list)  # every code name, in order
    known: list[str] = field(default_factory=list)  # names the workspace has
    unknown: list[str] = field(default_factory=list)  # names it does not have
    calls: dict[str, str] = field(default_factory=dict)  # name → its argument text, when written as a call
    files: list[str] = field(default_factory=list)  # existing files named (or defining a named name)
    absent: list[str] = field(default_factory=list)  # file names the workspace lacks
    starts: set[int] = field(default_factory=set)  # where in the goal a word was taken as a name


def mentions(toks: list[Token], facts: Facts) -> Mentions:
    out = Mentions()
    words = [t for t in toks if t.kind != "punct"]
    cut = _after_punct(toks)
    arrowed = {w.start for k, a in enumerate(words) if a.kind == "arrow" for w in words[max(0, k - 1) : k + 2]}
    for i, tok in enumerate(words):
        name = _name(words, i, facts, cut)
        if name is not None:
            out.starts.add(tok.start)
        if name is None or name in out.names:
            continue
        out.names.append(name)
        if tok.kind == "call":
            out.calls[name] = tok.args
        if _known(name, facts):
            out.known.append(name)
        elif tok.start not in arrowed:
            out.unknown.append(name)  # (`Hello` -> `Welcome`: words set against each other, not code)
    for tok in words:
        if tok.kind != "file":
            continue
        path = _file(tok.text, facts.paths)
        if path is not None:
            _add(out.files, path)
        elif tok.text not in out.absent:
            out.absent.append(tok.text)
    for i, tok in enumerate(words):  # "the textutils module", "module billing"
        beside = any(0 <= j < len(words) and words[j].low == "module" for j in (i - 1, i + 1))
        if tok.kind in ("word", "name") and beside and (path := _module_file(tok.text, facts.paths)) is not None:
            _add(out.files, path)
    for name in out.known:
        where = facts.defined(name.rsplit(".", 1)[-1])
        if 0 < len(where) <= 2:
            for path in sorted(where):
                _add(out.files, path)
    return out


def _known(name: str, facts: Facts) -> bool:
    """The workspace has `name`; a dotted one (`calc.add`, `Cart.total`) when it has its
    last part."""
    if facts.defined(name) or facts.used(name) or name in _BUILTINS:
        return True
    return "." in name and bool(facts.defined(name.rsplit(".", 1)[-1]))


#: The language's own names ("ZeroDivisionError", "len"): never a name the workspace lacks.
_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_"))


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def _file(text: str, paths: Sequence[str]) -> str | None:
    """The workspace file `text` names: its path, or a path ending only one file has."""
    text = text.strip("./") if text.startswith("./") else text
    if text in paths:
        return text
    ends = [p for p in paths if p.endswith("/" + text)]
    return ends[0] if len(ends) == 1 else None


def _module_file(word: str, paths: Sequence[str]) -> str | None:
    """The one source file whose module name is `word` (`textutils` → textutils.py,
    `shop.cart` → shop/cart.py)."""
    stem = word.replace(".", "/")
    found = [p for p in paths if p.rsplit(".", 1)[0] == stem or p.rsplit(".", 1)[0].endswith("/" + stem)]
    found = [p for p in found if "." in p.rsplit("/", 1)[-1]]
    return found[0] if len(found) == 1 else None


def _after_punct(toks: list[Token]) -> set[int]:
    """The starts of the words that follow a punctuation mark ("the function, keep …":
    keep is no function's name)."""
    out: set[int] = set()
    after = False
    for t in toks:
        if t.kind == "punct":
            after = True
        else:
            if after:
                out.add(t.start)
            after = False
    return out


def _name(words: list[Token], i: int, facts: Facts, cut: set[int] | None = None) -> str | None:
    """The code name words[i] stands for, or None (see the module docstring)."""
    tok = words[i]
    if tok.kind in ("name", "call"):
        return tok.text if tok.text.lower() not in NOT_NAMES else None
    if tok.kind != "word" or not identifier(tok.text.split(".")[0]):
        return None
    text = tok.text
    if text.lower() in NOT_NAMES or text.lower() in KIND_WORDS:
        return None
    cut = cut or set()
    prev = words[i - 1] if i > 0 and tok.start not in cut else None
    nxt = words[i + 1] if i + 1 < len(words) and words[i + 1].start not in cut else None
    beside_kind = (prev is not None and prev.low in KIND_WORDS and prev.low != "type" and text.lower() not in AFTER_KIND) or (
        nxt is not None and nxt.low in KIND_WORDS and nxt.low != "type" and _determined(words, i)
    )
    if "." in text:  # `mod.attr`, `Class.method`
        head = text.split(".")[0]
        return text if facts.defined(head) or facts.defined(text.split(".")[-1]) or code_shaped(head) else None
    if code_shaped(text):
        return text
    low = text.lower()
    verbish = lemma(low, CHANGE_VERBS) or lemma(low, LOOK_VERBS)
    if beside_kind and (not verbish or facts.defined(text)):
        return text  # "the area function"; "the add function" only where add is defined
    if not facts.defined(text) or text in COMMON_NOUNS:
        return None  # ("summary", "total": plain English unless written as code)
    # a defined name written as a plain word: a name unless it stands where a verb does
    last = nxt is None  # "add a docstring to add": a verb with no object is the name
    if verbish and (prev is None or (prev.low in _BEFORE_VERB and not (last and prev.low == "to"))):
        return None
    if text[0].isupper() and i == 0 and not code_shaped(text) and verbish:
        return None
    return text


#: Words after which a word that is both a verb and a defined name is the verb ("pls add …").
_BEFORE_VERB = frozenset(["and", "then", "to", "please", "pls", "plz", "kindly", "just", "also", "now", "you", "u", "we", "i",
                          "could", "can", "would", "will", "should", "must"])


def _determined(words: list[Token], i: int) -> bool:
    """"the area function", "a process method": the word sits between a determiner (or a
    possessive) and a kind word."""
    j = i - 1
    return j >= 0 and words[j].low in ("the", "a", "an", "its", "this", "that", "my", "our", "your", "of")
