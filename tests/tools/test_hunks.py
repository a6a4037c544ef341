"""Per-hunk review in the tools layer: hunks of a change (difflib's groups, one per `@@`
section), every subset of hunks applied through the spans and through the LSP TextEdits
giving the same text, and partial acceptance in the ProposalStore (only the chosen hunks
written, the note naming what was left out, bad choices refused)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from agentls.tools.proposals import ProposalStore
from agentls.tools.proposals.edit import apply_text_edit
from agentls.tools.proposals.hunks import apply_hunks, file_hunks
from agentls.workspace import Workspace

LINES = [f"line {i}\n" for i in range(30)]
OLD = "".join(LINES).encode()


def _edited(*changes: tuple[int, str]) -> bytes:
    lines = list(LINES)
    for index, text in sorted(changes, reverse=True):
        lines[index : index + 1] = [text] if text else []
    return "".join(lines).encode()


CASES = [
    ("one change", OLD, _edited((3, "three\n")), 1),
    ("two far apart", OLD, _edited((2, "two\n"), (25, "twenty-five\n")), 2),
    ("three, one removal", OLD, _edited((1, "one\n"), (12, ""), (27, "x\ny\n")), 3),
    ("near changes merge", OLD, _edited((5, "five\n"), (8, "eight\n")), 1),
    ("no final newline", b"a\nb\nc", b"a\nB\nc", 1),
    ("unicode", "é\n".encode() * 10 + "ü€\n".encode(), "é\n".encode() * 10 + "🎉€\n".encode(), 1),
    ("new file", None, b"x = 1\n", 1),
    ("deleted file", OLD, None, 1),
]


def _via_edits(old: bytes, hunks: list) -> bytes:
    edits = sorted(
        (e for h in hunks for e in h.edits),
        key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
        reverse=True,
    )
    for edit in edits:
        old = apply_text_edit(old, edit)
    return old


@pytest.mark.parametrize(("name", "old", "new", "count"), CASES, ids=[c[0] for c in CASES])
def test_every_subset_of_hunks_applies_the_same_through_spans_and_text_edits(
    name: str, old: bytes | None, new: bytes | None, count: int
) -> None:
    hunks = file_hunks("f.py", "file:///w/f.py", old, new, first=4)
    assert [h.index for h in hunks] == list(range(4, 4 + count))
    assert all(h.diff.startswith("--- a/f.py\n") and h.diff.count("\n@@") == 1 for h in hunks)
    assert apply_hunks(old, hunks) == new
    for size in range(count + 1):
        for subset in itertools.combinations(hunks, size):
            by_spans = apply_hunks(old, subset) if subset else old
            if by_spans is not None:
                assert _via_edits(old or b"", list(subset)) == by_spans
    if count > 1:  # each hunk alone changes only its own lines
        for hunk in hunks:
            alone = apply_hunks(old, [hunk])
            assert alone not in (old, new)


def test_partial_acceptance_writes_only_the_chosen_hunks_and_says_what_was_left_out(
    tmp_path: Path,
) -> None:
    (tmp_path / "f.py").write_bytes(OLD)
    new = _edited((2, "two\n"), (14, "fourteen\n"), (27, "twenty-seven\n"))
    store = ProposalStore(Workspace(tmp_path))
    proposal = store.propose("f.py", OLD, new, run_id="r1")
    assert [h.index for h in proposal.hunks] == [0, 1, 2]
    assert [h["index"] for h in proposal.to_dict()["hunks"]] == [0, 1, 2]
    assert store.resolve(proposal.id, "accepted", "the middle one is wrong", hunks=[2, 0]) == "applied"
    assert (tmp_path / "f.py").read_bytes() == _edited((2, "two\n"), (27, "twenty-seven\n"))
    assert proposal.accepted_hunks == [0, 2] and proposal.partial
    note = proposal.note or ""
    assert "left out hunk 1 of f.py" in note and "+fourteen" in note and "+two" not in note


@pytest.mark.parametrize(
    ("decision", "hunks", "message"),
    [
        ("accepted", [], "at least one hunk"),
        ("accepted", [0, 7], "no hunk [7]"),
        ("rejected", [0], "'accepted' only"),
    ],
)
def test_bad_hunk_choices_are_refused_and_nothing_is_written(
    tmp_path: Path, decision: str, hunks: list[int], message: str
) -> None:
    (tmp_path / "f.py").write_bytes(OLD)
    store = ProposalStore(Workspace(tmp_path))
    proposal = store.propose("f.py", OLD, _edited((2, "two\n"), (20, "twenty\n")))
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        store.resolve(proposal.id, decision, hunks=hunks)  # type: ignore[arg-type]
    assert proposal.status == "pending" and (tmp_path / "f.py").read_bytes() == OLD


def test_all_hunks_is_the_whole_proposal_and_a_changed_file_is_stale(tmp_path: Path) -> None:
    (tmp_path / "f.py").write_bytes(OLD)
    store = ProposalStore(Workspace(tmp_path))
    new = _edited((2, "two\n"), (20, "twenty\n"))
    whole = store.propose("f.py", OLD, new)
    assert store.resolve(whole.id, "accepted", hunks=[1, 0]) == "applied"
    assert not whole.partial and whole.note is None and (tmp_path / "f.py").read_bytes() == new
    (tmp_path / "f.py").write_bytes(OLD + b"user line\n")
    late = store.propose("f.py", OLD, new)
    assert store.resolve(late.id, "accepted", hunks=[0]) == "stale"
    assert (tmp_path / "f.py").read_bytes() == OLD + b"user line\n"


def test_a_proposal_over_several_files_creates_edits_and_deletes(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_bytes(OLD)
    (tmp_path / "gone.py").write_bytes(b"bye\n")
    store = ProposalStore(Workspace(tmp_path))
    changes = [
        store.change("a.py", OLD, _edited((1, "one\n"), (20, "twenty\n"))),
        store.change("gone.py", b"bye\n", None),
        store.change("new/b.py", None, b"hi\n"),
    ]
    proposal = store.propose_changes(changes, title="Several")
    assert [(h.index, h.path) for h in proposal.hunks] == [
        (0, "a.py"), (1, "a.py"), (2, "gone.py"), (3, "new/b.py")
    ]
    kinds = [c.get("kind", "edit") for c in proposal.edit["documentChanges"]]
    assert kinds == ["edit", "edit", "delete", "create", "edit"]
    assert "+++ /dev/null" in proposal.diff
    assert store.resolve(proposal.id, "accepted", hunks=[1, 2]) == "applied"
    assert (tmp_path / "a.py").read_bytes() == _edited((20, "twenty\n"))
    assert not (tmp_path / "gone.py").exists() and not (tmp_path / "new" / "b.py").exists()
    selected = [c.get("kind", "edit") for c in proposal.selected_edit()["documentChanges"]]
    assert selected == ["edit", "edit", "delete"]
