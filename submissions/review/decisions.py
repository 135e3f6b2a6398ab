"""Reads of the per-entry decisions (submissions.review.models.EntryDecision): which submissions
a list must leave out and why, what was decided about a submission, and the other copies of the same
run (submissions.run_identity) the committee has to choose between before it accepts one.

The list build applies the decisions through `decided_exclusions` alone (registry.lists.services
passes them to the membership rules), so every list version built after a decision reflects it."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db.models import Q

from registry.models import Release
from submissions.models import EntryDecision, Result, ReviewState, Submission

# Decisions that take a submission off every list, whatever its kind or release.
EVERY_LIST = (
    EntryDecision.Kind.WITHDRAW,
    EntryDecision.Kind.WITHDRAW_PUBLISHED,
    EntryDecision.Kind.DUPLICATE,
)
# Copies in these states are out of the workflow: they compete with no other copy.
OUT_OF_WORKFLOW = (
    ReviewState.REJECTED,
    ReviewState.WITHDRAWN,
    ReviewState.SUPERSEDED,
    ReviewState.DUPLICATE,
)


def decided_exclusions(release: Release, kind: str) -> dict[int, str]:
    """Submission id -> why a decision keeps it off the `kind` list of `release`: a withdrawal or a
    duplicate mark (every list), or an exclusion from `kind` taken for this release or an earlier one
    (a later list carries the earlier one over, so the exclusion holds there too)."""
    applies = (
        Q(kind__in=EVERY_LIST)
        | Q(
            kind=EntryDecision.Kind.EXCLUDE,
            list_kind=kind,
            release__publication_date__lte=release.publication_date,
        )
        # A run moved away from this release leaves its lists, even one carried over from a version
        # published before the move (a correction carries over the version it corrects).
        | (Q(kind=EntryDecision.Kind.MOVE, from_release=release) & ~Q(submission__release=release))
    )
    rows = EntryDecision.objects.active().filter(applies).select_related("release", "from_release")
    # In decision order, so the latest decision about a submission gives its reason.
    return {decision.submission_id: decision.summary for decision in rows.order_by("created_at", "id")}


def decision_reasons(submission_ids: Iterable[int]) -> dict[int, str]:
    """Submission id -> the latest decision in force about it, in words (moves included)."""
    rows = (
        EntryDecision.objects.active()
        .filter(submission_id__in=list(submission_ids))
        .select_related("release", "from_release")
        .order_by("created_at", "id")
    )
    return {decision.submission_id: decision.summary for decision in rows}


def revocation_reasons(
    submission_ids: Iterable[int], *, in_force_at: datetime, until: datetime | None = None
) -> dict[int, str]:
    """Submission id -> the decision that was in force at `in_force_at` and has been revoked since
    (before `until`, when given), in words with the revocation's date and reason: what brought the
    run back on a list built after that time. The latest revocation wins."""
    rows = EntryDecision.objects.filter(
        submission_id__in=list(submission_ids),
        created_at__lte=in_force_at,
        revoked_at__gt=in_force_at,
    )
    if until is not None:
        rows = rows.filter(revoked_at__lte=until)
    return {decision.submission_id: decision.revocation for decision in rows.order_by("revoked_at", "id")}


def entry_decisions(*, submission: Submission) -> list[EntryDecision]:
    """Every decision about the submission, revoked ones included (they say who revoked them, why)."""
    return list(
        EntryDecision.objects.filter(submission=submission).select_related(
            "actor", "revoked_by", "release", "from_release"
        )
    )


def after_publication(*, submission: Submission) -> list[EntryDecision]:
    """The committee's decisions in force that took a published run off lists (withdrawn after
    publication, excluded from a kind of list), oldest first: its public page says them. Nothing for
    a run never published (its page is not public)."""
    if submission.review_state != ReviewState.PUBLISHED:
        return []
    kinds = (EntryDecision.Kind.WITHDRAW_PUBLISHED, EntryDecision.Kind.EXCLUDE)
    return list(
        EntryDecision.objects.active()
        .filter(submission=submission, kind__in=kinds)
        .select_related("release")
        .order_by("created_at", "id")
    )


def run_fingerprint_of(submission: Submission) -> str:
    """The fingerprint of the run the submission is ranked by ("" when it has none)."""
    found = (
        Result.objects.filter(submission=submission, is_primary=True)
        .exclude(fingerprint="")
        .values_list("fingerprint", flat=True)
        .first()
    )
    return found or ""


def is_marked_duplicate(submission_id: int) -> EntryDecision | None:
    return (
        EntryDecision.objects.active()
        .filter(submission_id=submission_id, kind=EntryDecision.Kind.DUPLICATE)
        .order_by("-created_at", "-id")
        .first()
    )


def same_run_copies(submission: Submission) -> list[Submission]:
    """The other submissions whose ranked run is this one's (same fingerprint), still in the workflow."""
    fingerprint = run_fingerprint_of(submission)
    if not fingerprint:
        return []
    return list(
        Submission.objects.filter(results__is_primary=True, results__fingerprint=fingerprint)
        .exclude(pk=submission.pk)
        .exclude(review_state__in=OUT_OF_WORKFLOW)
        .select_related("release", "submitter")
        .distinct()
        .order_by("pk")
    )


def unresolved_copies(submission: Submission) -> list[Submission]:
    """The copies of this run no decision has set aside: while any is left, the committee has not
    said which copy counts, and neither may be accepted."""
    copies = same_run_copies(submission)
    marked = set(
        EntryDecision.objects.active()
        .filter(submission_id__in=[c.pk for c in copies], kind=EntryDecision.Kind.DUPLICATE)
        .values_list("submission_id", flat=True)
    )
    return [copy for copy in copies if copy.pk not in marked]
