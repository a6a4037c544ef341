"""The run's report: the summary a user reads, built from what happened, then the
model's words — which may not contradict it.

Facts first: each file the run's proposals touched, with lines added and removed and
what became of it (applied, applied in part — k of n hunks —, pending review, rejected,
stale); then the checks (tests passed or failed with their counts, the goal's own check)
or, when nothing could check the work, "Not verified: …" with the reason. Then the
model's words, without the sentences the facts contradict: a claim of a change when no
file changed, a change to a file whose change was rejected or not made, a claim of
testing or verifying when no test ran. An answer (no change asked) is the model's words
first — the answer is what the user asked for — and a line naming the files it read.
Must not know: the loop's internals, models, LSP.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from agentls.agent.verification import Verification
from agentls.tools.proposals import Proposal

_DONE = (
    r"(?:added|changed|updated|fixed|removed|renamed|implemented|created|wrote|written|"
    r"refactored|replaced|modified|inserted|deleted|edited|corrected|moved|annotated|"
    r"documented|converted|guarded|rewrote|rewritten|adjusted|bumped|introduced)"
)
#: A sentence that claims the run made a change: "Added …", "I fixed …", "… has been
#: renamed", "… is now updated" (not "TAX_RATE is set to 0.2", which describes the code).
_CLAIMS_CHANGE = re.compile(
    rf"^\W*{_DONE}\b|\b(?:I|we)(?:'ve| have)?\s+(?:\w+\s+)?{_DONE}\b|"
    rf"\b(?:has|have|had|was|were)\s+(?:been\s+|now\s+)?{_DONE}\b|\b(?:is|are)\s+now\s+{_DONE}\b",
    re.IGNORECASE,
)
#: Words of a sentence that claims the work was checked.
_CLAIMS_CHECK = re.compile(r"\b(?:tested|verified|tests? (?:now )?pass(?:es|ed)?|passing|confirmed)\b", re.IGNORECASE)
#: … or that it is right (dropped when a check failed).
_CLAIMS_RIGHT = re.compile(r"\b(?:works?|correct(?:ly)?|fixed|as expected|as described)\b", re.IGNORECASE)
#: The tools' own words, which the 1.5B copies into its summary ("Applied: x.py now
#: contains the change. It is in place: do not make it again. Lines 0-4 now read: …"):
#: the facts say what became of each change, in the user's terms.
_TOOL_WORDS = re.compile(
    r"now contains the change|\bit is in place\b|do not make it again|\blines \d+\s*[-–]\s*\d+ now read\b|"
    r"\byour reads of\b|pending the user's review",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])|\n+")


def _counts(old: bytes | None, new: bytes | None) -> tuple[int, int]:
    """Lines added and removed from `old` to `new`."""
    a = (old or b"").decode("utf-8", "replace").splitlines()
    b = (new or b"").decode("utf-8", "replace").splitlines()
    added = removed = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            removed += i2 - i1
        if tag in ("replace", "insert"):
            added += j2 - j1
    return added, removed


def file_facts(proposals: Iterable[Proposal]) -> tuple[list[str], set[str], set[str]]:
    """(one line per file — its net change over the run and what became of its last
    proposal —, the paths changed, the paths whose change did not land)."""
    first_old: dict[str, bytes | None] = {}
    last: dict[str, tuple[Proposal, bytes | None]] = {}
    landed_new: dict[str, bytes | None] = {}
    for p in proposals:
        targets = p.targets() if p.status in ("applied", "pending") else {}
        for change in p.changes:
            first_old.setdefault(change.path, change.old)
            last[change.path] = (p, change.new)
            if change.path in targets:
                landed_new[change.path] = targets[change.path]
    lines: list[str] = []
    for path, (p, _) in last.items():
        old = first_old[path]
        if path in landed_new:
            new = landed_new[path]
            added, removed = _counts(old, new)
            size = "new file" if old is None else "deleted" if new is None else f"+{added} −{removed}"
        else:
            size = "no change"
        if p.status == "applied" and p.partial:
            state = f"applied in part ({len(p.accepted_hunks or ())} of {len(p.hunks)} hunks)"
        else:
            state = {"applied": "applied", "pending": "pending your review", "rejected": "rejected",
                     "stale": "not applied (the file changed meanwhile)",
                     "failed": "not applied (it could not be written)"}.get(p.status, p.status)  # fmt: skip
        lines.append(f"{path} ({size}): {state}")
    landed = set(landed_new)
    return lines, landed, set(last) - landed


def check_facts(verification: Verification | None) -> list[str]:
    if verification is None:
        return []
    out = []
    for c in verification.checks:
        if c.kind == "examples":
            out.append(f"Examples {'passed' if c.passed else 'failed'}: {c.summary}")
        elif c.kind == "tests":
            out.append(f"Tests {'passed' if c.passed else 'failed'}: {c.summary or c.detail.splitlines()[0]}" + (f" ({c.command})" if c.command and not c.passed else ""))
        elif not c.passed:
            out.append(f"Check failed ({c.kind}): {c.detail}")
    if verification.verified is None and verification.unverified:
        out.append(f"Not verified: {verification.unverified}.")
    return out


def model_words(text: str | None, *, changed: bool, refused: set[str], tested: bool, failed: bool = False) -> str:
    """The model's summary without the sentences the facts contradict: a change claimed
    when none landed (or to a file whose change did not), a check claimed when none ran or
    one failed; and without the tools' own words copied into it."""
    kept = []
    for sentence in _SENTENCE.split((text or "").strip()):
        s = sentence.strip()
        if not s or _TOOL_WORDS.search(s):
            continue
        if not changed and _CLAIMS_CHANGE.search(s):
            continue
        if refused and _CLAIMS_CHANGE.search(s) and any(_mentions(s, path) for path in refused):
            continue
        if (not tested or failed) and _CLAIMS_CHECK.search(s):
            continue
        if failed and _CLAIMS_RIGHT.search(s):
            continue
        kept.append(s)
    return " ".join(kept)


def _mentions(sentence: str, path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0]
    return name in sentence or re.search(rf"\b{re.escape(stem)}\b", sentence) is not None


def compose(
    words: str | None,
    proposals: list[Proposal],
    verification: Verification | None,
    *,
    answer: bool,
    read: list[str] | None = None,
) -> str:
    """The run's summary (see the module docstring)."""
    files, landed, refused = file_facts(proposals)
    tested = verification is not None and any(c.kind == "tests" for c in verification.checks)
    failed = verification is not None and any(not c.passed for c in verification.checks)
    said = model_words(words, changed=bool(landed), refused=refused, tested=tested, failed=failed)
    checks = check_facts(verification)
    if answer and not files:
        tail = [f"(Answered from {', '.join(read[:4])}; no file changed.)"] if read else []
        return "\n".join([said or (words or "").strip() or "(no answer)", *checks, *tail]).strip()
    head = ("Changed " + "; ".join(files) + ".") if files else "No file changed."
    return "\n".join(part for part in [head, *checks, said] if part).strip()
