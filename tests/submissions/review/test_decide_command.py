"""`manage.py decide`: the committee's decisions from the command line, through the same services,
a refusal exiting non-zero with the reason and recording nothing."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from submissions.models import EntryDecision, Result, ReviewState, Submission
from tests.submissions.review.helpers import open_release, storage, verified_upload

pytestmark = pytest.mark.django_db


def decide(*args: Any) -> str:
    out = io.StringIO()
    call_command("decide", *[str(arg) for arg in args], stdout=out)
    return out.getvalue()


def with_run(submission: Submission, fingerprint: str) -> Submission:
    Result.objects.create(
        submission=submission, path="run", is_primary=True, era="c-sc21", fingerprint=fingerprint
    )
    return submission


def test_the_committee_accepts_from_the_command_line(submitter: Any, committee_member: Any) -> None:
    row = verified_upload(submitter, open_release(), review_state=ReviewState.SUBMITTED)
    assert "now accepted" in decide(row.pk, "accept", "--user", "carol")
    row.refresh_from_db()
    assert row.review_state == ReviewState.ACCEPTED


def test_a_refused_decision_exits_non_zero_with_the_reason(submitter: Any, committee_member: Any) -> None:
    row = verified_upload(submitter, open_release(), review_state=ReviewState.SUBMITTED)
    with pytest.raises(CommandError, match="Refused: Say why"):
        decide(row.pk, "reject", "--user", "carol")
    row.refresh_from_db()
    assert row.review_state == ReviewState.SUBMITTED


def test_a_submitter_cannot_decide_from_the_command_line(submitter: Any) -> None:
    row = verified_upload(submitter, open_release(), review_state=ReviewState.ACCEPTED)
    with pytest.raises(CommandError, match="Only the IO500 committee"):
        decide(row.pk, "exclude", "--user", "alice", "--list", "research", "--reason", "wrong list")
    assert not EntryDecision.objects.exists()


def test_an_exclusion_names_the_list_and_is_recorded_with_its_reason(
    submitter: Any, committee_member: Any
) -> None:
    release = open_release()
    row = verified_upload(submitter, release, review_state=ReviewState.ACCEPTED)
    said = decide(row.pk, "exclude", "--user", "carol", "--list", "research", "--reason", "node count wrong")
    assert "excluded from the research lists from ISC40 on: node count wrong" in said
    decision = EntryDecision.objects.get(submission=row)
    assert (decision.kind, decision.release_id, decision.actor) == ("exclude", release.pk, committee_member)


def test_a_move_files_the_submission_under_the_named_release(submitter: Any, committee_member: Any) -> None:
    row = verified_upload(submitter, open_release(), review_state=ReviewState.ACCEPTED)
    later = open_release("SC40")
    decide(row.pk, "move", "--user", "carol", "--release", "sc40", "--reason", "uploaded to the wrong call")
    row.refresh_from_db()
    assert row.release_id == later.pk


def test_an_unknown_release_is_named(submitter: Any, committee_member: Any) -> None:
    row = verified_upload(submitter, open_release(), review_state=ReviewState.ACCEPTED)
    with pytest.raises(CommandError, match='no release "sc99"'):
        decide(row.pk, "move", "--user", "carol", "--release", "sc99", "--reason", "x")


def test_duplicate_of_marks_the_copy_and_lets_the_other_be_accepted(
    submitter: Any, other_submitter: Any, committee_member: Any
) -> None:
    release = open_release()
    first = with_run(verified_upload(submitter, release, review_state=ReviewState.SUBMITTED), "f" * 64)
    second = with_run(
        verified_upload(other_submitter, release, system=storage("Copy"), review_state="submitted"), "f" * 64
    )
    with pytest.raises(CommandError, match="Decide which copy counts first"):
        decide(first.pk, "accept", "--user", "carol")
    decide(second.pk, "duplicate-of", "--of", first.pk, "--user", "carol", "--reason", "uploaded twice")
    decide(first.pk, "accept", "--user", "carol")
    first.refresh_from_db()
    assert first.review_state == ReviewState.ACCEPTED


def test_withdraw_takes_a_published_submission_off_the_next_lists(
    submitter: Any, committee_member: Any
) -> None:
    row = verified_upload(submitter, open_release(), review_state=ReviewState.PUBLISHED)
    decide(row.pk, "withdraw", "--user", "carol", "--reason", "the run broke the rules")
    assert EntryDecision.objects.get(submission=row).kind == EntryDecision.Kind.WITHDRAW_PUBLISHED


def test_accept_gap_goes_with_accept_only(submitter: Any, committee_member: Any) -> None:
    row = verified_upload(submitter, open_release(), review_state=ReviewState.SUBMITTED)
    with pytest.raises(CommandError, match="--accept-gap goes with accept only"):
        decide(row.pk, "reject", "--user", "carol", "--reason", "x", "--accept-gap", "ior-easy-write")
    with pytest.raises(CommandError, match="Refused: Every scored phase"):
        decide(row.pk, "accept", "--user", "carol", "--accept-gap", "ior-easy-write")
    row.refresh_from_db()
    assert row.review_state == ReviewState.SUBMITTED
