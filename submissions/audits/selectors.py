"""The reads of audits and objections: who may see what."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef, QuerySet

from registry.models import ListSnapshot, Release
from submissions.audits.models import AuditDraw, AuditRequest, Objection, ObjectionAnswer
from submissions.models import PhaseResult, ReviewState, Submission
from submissions.review.roles import is_committee

# Anywhere on Earth: a deadline day ends at 24:00 in UTC-12 (IO500's calls give deadlines in AoE).
AOE = dt.timezone(dt.timedelta(hours=-12))
# The submissions a draw picks from: every run handed to the committee for this release.
AUDITED_STATES = (
    ReviewState.SUBMITTED,
    ReviewState.UNDER_REVIEW,
    ReviewState.CHANGES_REQUESTED,
    ReviewState.ACCEPTED,
    ReviewState.PUBLISHED,
)


def deadline_passed(release: Release, now: dt.datetime) -> bool:
    if release.submission_deadline is None:
        return False
    end = dt.datetime.combine(release.submission_deadline + dt.timedelta(days=1), dt.time(), tzinfo=AOE)
    return now >= end


def audit_candidates(release: Release) -> list[int]:
    return sorted(
        Submission.objects.filter(
            release=release, source=Submission.Source.UPLOAD, review_state__in=AUDITED_STATES
        ).values_list("pk", flat=True)
    )


def run_phases(submission: Submission) -> dict[str, tuple[float, str]]:
    """The listed run's phases that have a value: name -> (value, unit)."""
    rows = PhaseResult.objects.filter(
        result__submission=submission, result__is_primary=True, value__isnull=False
    ).values_list("name", "value", "unit")
    return {name: (value, unit) for name, value, unit in rows if value is not None}


def release_audit_draw(release: Release) -> AuditDraw | None:
    return AuditDraw.objects.filter(release=release).first()


def draw_requests(draw: AuditDraw) -> QuerySet[AuditRequest]:
    return draw.requests.select_related("submission__system", "submission__submitter", "answer", "run_token")


def submission_audits(*, user: User | AnonymousUser, submission: Submission) -> list[AuditRequest]:
    """The audits the viewer may see on a submission page: the committee and the submitter always,
    everyone else once the submission is public (published on a list)."""
    own = user.is_authenticated and submission.submitter_id == user.pk
    if not (own or is_committee(user) or submission.review_state == ReviewState.PUBLISHED):
        return []
    return list(
        submission.audits.select_related("draw__release", "run_token", "answer").order_by("-created_at")
    )


def audits_for_user(*, user: User) -> QuerySet[AuditRequest]:
    rows = AuditRequest.objects.select_related("submission", "draw__release", "run_token", "answer")
    return rows if is_committee(user) else rows.filter(submission__submitter=user)


def answered_q() -> Exists:
    return Exists(ObjectionAnswer.objects.filter(objection=OuterRef("pk"), revoked_at__isnull=True))


def upheld_q() -> Exists:
    """The objection's current (unrevoked) answer upholds it."""
    return Exists(
        ObjectionAnswer.objects.filter(
            objection=OuterRef("pk"), revoked_at__isnull=True, outcome=ObjectionAnswer.Outcome.UPHELD
        )
    )


def objections_open(queryset: QuerySet[Objection]) -> QuerySet[Objection]:
    return queryset.annotate(answered=answered_q()).filter(answered=False)


def snapshot_open_objections(snapshot: ListSnapshot) -> list[Objection]:
    """The unanswered objections against the entries of a draft list (publishing waits for them)."""
    entries = snapshot.entries.values("submission_id")
    return list(
        objections_open(
            Objection.objects.filter(release=snapshot.release, submission_id__in=entries)
        ).select_related("submission__system")
    )


def objection_current_answer(objection: Objection) -> ObjectionAnswer | None:
    return objection.answers.filter(revoked_at__isnull=True).order_by("-answered_at").first()


def release_objections(release: Release, snapshot: ListSnapshot | None = None) -> list[Objection]:
    """Every objection of a release (or against a draft's entries), the unanswered first (the
    committee's pages); each says whether it is `answered` and whether it is `upheld`."""
    rows = Objection.objects.filter(release=release)
    if snapshot is not None:
        rows = rows.filter(submission_id__in=snapshot.entries.values("submission_id"))
    rows = rows.select_related("objector", "submission__system")
    rows = rows.annotate(answered=answered_q(), upheld=upheld_q()).prefetch_related("answers")
    return sorted(rows, key=lambda row: (row.answered, row.created_at))  # type: ignore[attr-defined]


def objections_visible(*, user: User, release: Release) -> list[Objection]:
    """The objections a submitter may read: the ones they filed and the ones against their runs."""
    rows = (
        Objection.objects.filter(release=release)
        .select_related("submission__system")
        .prefetch_related("answers")
    )
    if is_committee(user):
        return list(rows)
    return [row for row in rows if row.objector_id == user.pk or row.submission.submitter_id == user.pk]


def may_object(*, user: User | AnonymousUser, release: Release) -> bool:
    return bool(
        user.is_authenticated
        and Submission.objects.filter(
            release=release, submitter=user, source=Submission.Source.UPLOAD, review_state__in=AUDITED_STATES
        ).exists()
    )


def draft_entries(release: Release) -> list[tuple[ListSnapshot, list[object]]]:
    """The draft lists of a release and their entries, for the submitters who may object."""
    drafts = ListSnapshot.objects.filter(release=release, status=ListSnapshot.Status.DRAFT).order_by("kind")
    return [
        (draft, list(draft.entries.select_related("submission__system").order_by("rank", "id")))
        for draft in drafts
    ]
