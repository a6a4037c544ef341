"""The approval rule (permissions.approval_for): every mode × asked approval × whether
anyone can be asked → the approval followed and which rules changed it."""

from __future__ import annotations

import pytest

from agentls.tools.permissions import APPROVALS, MODES, approval_for

AUTO = {"dev", "full"}


def expected(mode: str, asked: str, interactive: bool) -> tuple[str, tuple[str, ...]]:
    followed, applied = ("ask" if asked == "plan" else asked), ()  # plan: ask, once reviewed
    if followed == "auto" and mode not in AUTO:
        followed, applied = "ask", ("mode_forbids_auto",)
    if followed == "ask" and not interactive:
        followed, applied = "never", (*applied, "no_one_to_ask")
    return followed, applied


TABLE = [
    (mode, asked, interactive, *expected(mode, asked, interactive))
    for mode in (*MODES, "custom")
    for asked in APPROVALS
    for interactive in (True, False)
]


@pytest.mark.parametrize(("mode", "asked", "interactive", "followed", "applied"), TABLE)
def test_the_approval_followed(
    mode: str, asked: str, interactive: bool, followed: str, applied: tuple[str, ...]
) -> None:
    grant = approval_for(mode, asked, interactive=interactive)  # type: ignore[arg-type]
    assert (grant.asked, grant.approval, grant.applied) == (asked, followed, applied)
    assert grant.changed == bool(applied) and len(grant.reasons) == len(applied)
    assert grant.plan == (asked == "plan" and interactive)


@pytest.mark.parametrize(
    ("mode", "asked", "interactive", "followed"),
    [
        ("dev", "auto", False, "auto"),  # auto needs no one to ask
        ("full", "auto", True, "auto"),
        ("read-only", "auto", True, "ask"),
        ("ci", "auto", False, "never"),  # both rules, in order
        ("dev", "ask", False, "never"),
        ("read-only", "never", False, "never"),
    ],
)
def test_spot_checks(mode: str, asked: str, interactive: bool, followed: str) -> None:
    assert approval_for(mode, asked, interactive=interactive).approval == followed  # type: ignore[arg-type]


def test_the_reasons_say_why() -> None:
    grant = approval_for("read-only", "auto", interactive=False)
    assert grant.reasons == (
        "approval 'auto' is only allowed in modes dev and full, not in 'read-only'",
        "there is no one to ask",
    )
    assert approval_for("dev", "ask").reasons == ()
