"""The audit draw at the deadline, the re-run's check and the overdue marking; objections hold the
publishing of a draft list until the committee answers them."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core import mail
from django.core.exceptions import ValidationError

from registry.lists.publishing import snapshot_publish
from registry.lists.services import ListPublishError
from registry.models import ListEntry, ListSnapshot, Release
from submissions.audits.check import audit_answer_check
from submissions.audits.draw import draw, phase_of
from submissions.audits.models import AuditOutcome, AuditRequest
from submissions.audits.objections import objection_answer, objection_answer_revoke, objection_file
from submissions.audits.services import audit_draw, audits_draw_due, audits_mark_overdue
from submissions.models import Finding, ReviewState, Submission
from tests.factories import add_phases, make_release, make_result, make_submission

pytestmark = pytest.mark.django_db

AFTER = dt.datetime(2040, 6, 3, tzinfo=dt.UTC)
PHASES = {"ior-easy-write": 10.0, "mdtest-easy-write": 50.0, "ior-hard-read": 2.0}


def _release() -> Release:
    return make_release(name="ISC40", slug="isc40", publication_date=dt.date(2040, 6, 20),
                        submission_deadline=dt.date(2040, 6, 1), list_kinds=["production"])  # fmt: skip


def _run(user: Any, release: Release, state: str = ReviewState.SUBMITTED) -> Submission:
    submission = make_submission(
        source=Submission.Source.UPLOAD, submitter=user, release=release, review_state=state
    )
    add_phases(make_result(submission=submission, is_primary=True), PHASES)
    return submission


def test_the_deadline_passes_at_the_end_of_its_day_anywhere_on_earth(submitter: Any) -> None:
    release = _release()
    _run(submitter, release)
    # 2040-06-01 AoE ends 2040-06-02 12:00 UTC.
    with pytest.raises(ValidationError, match="has not passed"):
        audit_draw(release=release, now=dt.datetime(2040, 6, 2, 11, 59, tzinfo=dt.UTC))
    assert audits_draw_due(now=dt.datetime(2040, 6, 2, 11, 59, tzinfo=dt.UTC)) == []
    (done,) = audits_draw_due(now=dt.datetime(2040, 6, 2, 12, 0, tzinfo=dt.UTC))
    assert done.release == release
    assert audits_draw_due(now=AFTER) == []  # drawn once


def test_the_recorded_draw_recomputes_from_its_seed_and_asks_the_drawn_submitter(
    submitter: Any, other_submitter: Any, django_capture_on_commit_callbacks: Any
) -> None:
    release = _release()
    runs = [_run(submitter, release) for _ in range(12)] + [_run(other_submitter, release)]
    _run(submitter, release, state=ReviewState.DRAFT)  # never handed in: not a candidate
    with django_capture_on_commit_callbacks(execute=True):
        record = audit_draw(release=release, seed="fixed-seed", now=AFTER)
    assert record.candidates == sorted(run.pk for run in runs)
    picked = draw(record.candidates, record.seed, record.share_percent)
    assert [row["submission"] for row in record.drawn] == picked
    assert len(picked) == 2  # ceil(13 x 10 %)
    requests = {audit.submission_id: audit for audit in AuditRequest.objects.filter(draw=record)}
    assert set(requests) == set(picked)
    for pk, audit in requests.items():
        assert audit.phase == phase_of("fixed-seed", pk, list(PHASES))
        assert audit.claimed_value == PHASES[audit.phase]
        assert audit.deadline == AFTER + dt.timedelta(days=release.audit_answer_days)
        assert audit.run_token.user_id == audit.submission.submitter_id
        assert audit.run_token.used_by_id is None
    assert any("drawn for an audit" in message.subject for message in mail.outbox)


def _answered(audit: AuditRequest, value: float | None, token_code: str = "token-verified") -> AuditRequest:
    answer = make_submission(source=Submission.Source.AUDIT, submitter=audit.submission.submitter,
                             release=audit.submission.release, review_state=ReviewState.DRAFT)  # fmt: skip
    result = make_result(submission=answer, is_primary=True)
    if value is not None:
        add_phases(result, {audit.phase: value})
    Finding.objects.create(result=result, submission=answer, code=token_code, severity="note",
                           message=f"run token {audit.run_token.token} checks out")  # fmt: skip
    audit.answer = answer
    audit.outcome = AuditOutcome.CHECKING
    audit.save()
    checked = audit_answer_check(answer=answer)
    assert checked is not None
    return checked


@pytest.fixture
def audit(submitter: Any) -> AuditRequest:
    release = _release()
    _run(submitter, release)
    audit_draw(release=release, seed="s", now=AFTER)
    return AuditRequest.objects.get()


@pytest.mark.parametrize(
    ("factor", "outcome"),
    [(1.15, AuditOutcome.PASSED), (0.85, AuditOutcome.PASSED), (1.0, AuditOutcome.PASSED),
     (1.1501, AuditOutcome.FAILED), (0.8499, AuditOutcome.FAILED)],
)  # fmt: skip
def test_the_rerun_passes_within_15_percent_of_the_claim(
    audit: AuditRequest, factor: float, outcome: str
) -> None:
    checked = _answered(audit, PHASES[audit.phase] * factor)
    assert checked.outcome == outcome
    assert checked.rerun_value == pytest.approx(PHASES[audit.phase] * factor)
    if outcome == AuditOutcome.FAILED:
        assert f"claimed {PHASES[audit.phase]:.4g}" in checked.detail


def test_a_rerun_whose_token_was_refused_does_not_pass_whatever_its_value(audit: AuditRequest) -> None:
    checked = _answered(audit, PHASES[audit.phase], token_code="token-foreign")
    assert checked.outcome == AuditOutcome.TOKEN_REFUSED
    assert "token-foreign" in checked.detail


def test_a_request_without_a_rerun_by_its_deadline_is_marked_not_answered_in_time(
    audit: AuditRequest,
) -> None:
    assert audits_mark_overdue(now=audit.deadline - dt.timedelta(seconds=1)) == 0
    assert audits_mark_overdue(now=audit.deadline + dt.timedelta(seconds=1)) == 1
    audit.refresh_from_db()
    assert audit.outcome == AuditOutcome.OVERDUE
    assert audits_mark_overdue(now=audit.deadline + dt.timedelta(days=1)) == 0


def _draft(release: Release, runs: list[Submission]) -> ListSnapshot:
    snapshot = ListSnapshot.objects.create(
        release=release, kind="production", status=ListSnapshot.Status.DRAFT
    )
    for rank, run in enumerate(runs, start=1):
        ListEntry.objects.create(snapshot=snapshot, rank=rank, submission=run, score=1.0)
    return snapshot


def test_publishing_waits_for_the_answer_to_every_objection_and_a_revoked_answer_reopens_it(
    submitter: Any, other_submitter: Any, committee_member: Any
) -> None:
    release = _release()
    entry = _run(submitter, release, state=ReviewState.ACCEPTED)
    _run(other_submitter, release)
    draft = _draft(release, [entry])
    objection = objection_file(
        user=other_submitter, snapshot=draft, submission_id=entry.pk, reason="Cached reads."
    )
    with pytest.raises(ListPublishError, match=f"objection {objection.pk} against submission {entry.pk}"):
        snapshot_publish(user=committee_member, snapshot=draft, early=True)
    answer = objection_answer(
        user=committee_member, objection=objection, outcome="dismissed", text="Checked."
    )
    objection_answer_revoke(user=committee_member, answer=answer, reason="Answered too fast.")
    with pytest.raises(ListPublishError):
        snapshot_publish(user=committee_member, snapshot=draft, early=True)
    objection_answer(user=committee_member, objection=objection, outcome="dismissed", text="Checked twice.")
    published = snapshot_publish(user=committee_member, snapshot=draft, early=True)
    assert published.status == ListSnapshot.Status.PUBLISHED


def test_only_a_submitter_of_the_release_may_object_and_never_to_their_own_entry(
    submitter: Any, other_submitter: Any
) -> None:
    release = _release()
    entry = _run(submitter, release, state=ReviewState.ACCEPTED)
    draft = _draft(release, [entry])
    with pytest.raises(Exception, match="Only a submitter"):
        objection_file(user=other_submitter, snapshot=draft, submission_id=entry.pk, reason="x")
    with pytest.raises(ValidationError, match="your own entry"):
        objection_file(user=submitter, snapshot=draft, submission_id=entry.pk, reason="x")
