"""The rename a goal asks for: "rename X to Y", "X should be called/named Y", "X should be
renamed to Y", "call X Y", "X → Y" (two identifiers), "change the name of X to Y" — within
a sentence, X a name the workspace has —, or, with a rename verb and one such name in the
goal, that name and the new one said apart ("Usr is a bad name. Rename the class to User",
"I'd prefer the name User. Please rename it").
Must not know: workspaces (it is given the known names), tools, models, LSP.
"""

from __future__ import annotations

from collections.abc import Callable

from agentls.agent.goal.words import NOT_NAMES, Token, code_shaped, identifier, misspelt

_ARROWS = frozenset({"→", "->", "=>"})
_RENAME = frozenset(["rename"])


def rename_of(toks: list[Token], known: Callable[[str], bool]) -> tuple[str, str] | None:
    """(old, new) when the goal renames a name the workspace has (see the module docstring)."""
    words = [t for t in toks if t.kind != "punct"]
    ends = [t.start for t in toks if t.kind == "punct" and t.text in (".", "?", "!")]
    for i, old in enumerate(words):
        if old.kind not in ("word", "name", "call") or not identifier(old.text) or not known(old.text):
            continue
        before = [w.low for w in words[max(0, i - 6) : i]]
        renames = any(_renaming(w) for w in before)
        for j in range(i + 1, min(i + 13, len(words))):
            new = words[j]
            if any(old.start < e < new.start for e in ends):
                break  # "Clnt is badly named. Rename …": not across a sentence's end
            if new.kind not in ("word", "name", "call") or not identifier(new.text) or new.low in NOT_NAMES:
                continue
            between = [w.low for w in words[i + 1 : j]]
            last = between[-1] if between else ""
            if j > i + 6 and not (renames and last in ("to", "into", "as")):
                continue  # far apart only as "rename X (the one with …) to Y"
            if new.text == old.text or (last not in ("called", "named", "renamed") and not _plausible(new, old)):
                continue
            passive = any(_renaming(w) for w in between)  # "X should be renamed to Y"
            if (renames or passive or "name" in before) and last in ("to", "into", "as"):
                return old.text, new.text
            if last in ("called", "named", "renamed"):
                return old.text, new.text
            if last in _ARROWS and not known(new.text):
                return old.text, new.text
            if before and before[-1] == "call" and j == i + 1:
                return old.text, new.text  # "call X Y"
    return _rename_of_the_one(words, known)


def _rename_of_the_one(words: list[Token], known: Callable[[str], bool]) -> tuple[str, str] | None:
    """ "Usr is a bad name. Rename the class to User": a rename verb with no old name
    after it, of the one name the goal mentions that the workspace has."""
    def shaped(w: Token) -> bool:  # a name by its look: quoted, a call, code-shaped, capitalised
        return w.kind in ("name", "call") or code_shaped(w.text) or w.text[:1].isupper()

    olds = {w.text for w in words if identifier(w.text) and shaped(w) and known(w.text)}
    if len(olds) != 1:
        return None
    old = next(iter(olds))

    def fits(new: Token) -> bool:
        return identifier(new.text) and new.text != old and not known(new.text) and shaped(new)

    for i, w in enumerate(words):
        if not _renaming(w.low):
            continue
        for j in range(i + 1, min(i + 6, len(words) - 1)):
            if words[j].low in ("to", "into", "as") and fits(words[j + 1]):
                return old, words[j + 1].text
        # "I'd prefer the name compute_total. Please rename it": the new name said apart
        for j in range(len(words) - 1):
            if words[j].low in ("name", "named", "called") and fits(words[j + 1]):
                return old, words[j + 1].text
    return None


def _renaming(word: str) -> bool:
    return word.startswith("renam") or misspelt(word, _RENAME) is not None


def _plausible(new: Token, old: Token) -> bool:
    """A word that can be a new name: quoted, shaped like code, capitalised like the old
    name, or lower-case where the old name is (`calc_total` → `total`)."""
    if new.kind in ("name", "call") or code_shaped(new.text):
        return True
    if new.text[:1].isupper():
        return old.text[:1].isupper()
    return old.text.islower() and ("_" in old.text or "_" in new.text)
