"""Reads of the review workflow: the committee's queue, a submission's timeline and comments."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse

from submissions.evidence_basis import with_basis
from submissions.models import (
    EntryDecision,
    Finding,
    Questionnaire,
    ReviewComment,
    ReviewEvent,
    ReviewState,
    Submission,
    SubmissionRevision,
)
from submissions.review.roles import is_committee
from submissions.review.rules import AWAITING_REVIEW, SUBMITTER_EDITABLE, SUBMITTER_FIXABLE


def review_queue() -> QuerySet[Submission]:
    """Everything awaiting a committee decision, oldest submission first, with its finding counts, how
    many edits the submitter made since submitting, and what its verdict rests on
    (submissions.evidence_basis.with_basis)."""
    # A subquery, not a join: a second joined relation would multiply the finding counts.
    edits = (
        SubmissionRevision.objects.filter(submission=OuterRef("pk"), created_at__gt=OuterRef("submitted_at"))
        .order_by()
        .values("submission")
        .annotate(n=Count("id"))
        .values("n")
    )
    rows = (
        Submission.objects.filter(review_state__in=AWAITING_REVIEW)
        .select_related("release", "storage_system__institution", "submitter")
        .annotate(
            error_count=Count("findings", filter=Q(findings__severity=Finding.Severity.ERROR)),
            warning_count=Count("findings", filter=Q(findings__severity=Finding.Severity.WARNING)),
            edits_since_submitted=Coalesce(Subquery(edits), 0),
        )
        .order_by("submitted_at", "pk")
    )
    return with_basis(rows)


def duplicate_of_id(submission: Submission) -> int | None:
    """The copy that counts, for a submission marked a duplicate (None otherwise)."""
    if hasattr(submission, "duplicate_of_pk"):  # annotated by with_next_step_facts
        annotated: int | None = getattr(submission, "duplicate_of_pk", None)
        return annotated
    if submission.review_state not in (ReviewState.DUPLICATE, ReviewState.PUBLISHED):
        return None
    return (
        EntryDecision.objects.active()
        .filter(submission=submission, kind=EntryDecision.Kind.DUPLICATE)
        .order_by("-created_at", "-id")
        .values_list("duplicate_of_id", flat=True)
        .first()
    )


def review_comment_list(*, submission: Submission) -> list[ReviewComment]:
    """Every comment on the submission, oldest first, replies naming their parent (the API's view)."""
    return list(ReviewComment.objects.filter(submission=submission).select_related("author"))


def may_follow_review(user: User | AnonymousUser, submission: Submission) -> bool:
    """The timeline and comments are between the submitter and the committee."""
    if not user.is_authenticated:
        return False
    return is_committee(user) or (submission.submitter_id is not None and submission.submitter_id == user.pk)


def submission_versions(*, submission: Submission) -> list[Submission]:
    """The uploads this one replaced, oldest first, then this one: its review carries over from them."""
    chain = [submission]
    while chain[0].supersedes_id is not None and len(chain) < 100:
        previous = Submission.objects.filter(pk=chain[0].supersedes_id).first()
        if previous is None:
            break
        chain.insert(0, previous)
    return chain


def _version_ids(submission: Submission) -> list[int]:
    return [row.pk for row in submission_versions(submission=submission)]


def review_timeline(*, submission: Submission) -> list[ReviewEvent]:
    """The review's events, including those of the uploads this one replaced."""
    rows = ReviewEvent.objects.filter(submission_id__in=_version_ids(submission))
    return list(rows.select_related("actor").order_by("created_at", "id"))


def submission_revisions(*, submission: Submission) -> list[SubmissionRevision]:
    """Every edit of the system description and questionnaire by the submitter, newest first. The
    questionnaire's first version is its filling-in, not a change, so it is kept but not listed."""
    rows = SubmissionRevision.objects.filter(submission_id__in=_version_ids(submission)).exclude(
        kind=SubmissionRevision.Kind.QUESTIONNAIRE, number=1
    )
    return list(rows.select_related("author").order_by("-created_at", "-id"))


@dataclass
class CommentNode:
    comment: ReviewComment
    replies: list[CommentNode] = field(default_factory=list)


def review_comments(*, submission: Submission) -> list[CommentNode]:
    """The comments as threads: top-level comments in order, each with its replies nested (one query)."""
    rows = ReviewComment.objects.filter(submission_id__in=_version_ids(submission))
    comments = list(rows.select_related("author").order_by("created_at", "id"))
    nodes = {comment.pk: CommentNode(comment) for comment in comments}
    roots: list[CommentNode] = []
    for comment in comments:
        parent = nodes.get(comment.parent_id) if comment.parent_id else None
        (parent.replies if parent else roots).append(nodes[comment.pk])
    return roots


def questionnaire_get(*, submission: Submission) -> Questionnaire | None:
    return Questionnaire.objects.filter(submission=submission).first()


# What the submitter must do now: one step, shown at the top of the submission page and per row of
# "My submissions". Computed from a row annotated by with_next_step_facts (one query for a list).


@dataclass(frozen=True)
class StepAction:
    label: str
    url: str
    style: str = "neutral"  # primary, neutral or destructive (the button's look)
    role: str = ""  # data-role, for tests and the page's own anchors


@dataclass(frozen=True)
class NextStep:
    kind: str  # "act" (the submitter must do something), "wait" or "done"
    title: str
    detail: str = ""
    actions: tuple[StepAction, ...] = ()


def with_next_step_facts(rows: QuerySet[Submission]) -> QuerySet[Submission]:
    """What next_step reads: findings counts, the first error, the questionnaire, the last request."""
    errors = Finding.objects.filter(submission=OuterRef("pk"), severity=Finding.Severity.ERROR)
    requests = ReviewEvent.objects.filter(submission=OuterRef("pk"), action="request_changes")
    marks = EntryDecision.objects.active().filter(
        submission=OuterRef("pk"), kind=EntryDecision.Kind.DUPLICATE
    )
    return rows.annotate(
        error_count=Count("findings", filter=Q(findings__severity=Finding.Severity.ERROR), distinct=True),
        warning_count=Count("findings", filter=Q(findings__severity=Finding.Severity.WARNING), distinct=True),
        first_error=Subquery(errors.order_by("id").values("message")[:1]),
        has_questionnaire=Exists(Questionnaire.objects.filter(submission=OuterRef("pk"))),
        change_request=Subquery(requests.order_by("-created_at", "-id").values("reason")[:1]),
        superseded_by_id=Subquery(Submission.objects.filter(supersedes=OuterRef("pk")).values("pk")[:1]),
        duplicate_of_pk=Subquery(marks.order_by("-created_at", "-id").values("duplicate_of_id")[:1]),
    )


def submission_with_next_step_facts(*, submission: Submission) -> Submission:
    return with_next_step_facts(Submission.objects.filter(pk=submission.pk)).get()


def _url(name: str, submission: Submission) -> str:
    return reverse(name, args=[submission.pk])


def _fix_actions(submission: Submission) -> list[StepAction]:
    return [
        StepAction(
            "Edit the system description", _url("submissions:system-edit", submission), role="edit-system"
        ),
        StepAction(
            "Edit the questionnaire", _url("submissions:questionnaire", submission), role="edit-questionnaire"
        ),
        StepAction("Upload a corrected tarball", _url("submissions:replace", submission), role="replace"),
    ]


def _submit_action(submission: Submission, style: str = "primary") -> StepAction:
    return StepAction("Submit for review", _url("submissions:submit", submission), style, "submit-link")


def next_step(submission: Submission) -> NextStep:
    """The one thing the submitter must do now (row annotated by with_next_step_facts)."""
    state, status = submission.review_state, submission.status
    if state == ReviewState.SUPERSEDED:
        newer = getattr(submission, "superseded_by_id", None)
        actions = (
            (StepAction("Go to the new upload", reverse("submissions:detail", args=[newer])),)
            if newer
            else ()
        )
        return NextStep("done", "Nothing to do: a new upload replaced this one.", actions=actions)
    if state == ReviewState.WITHDRAWN:
        return NextStep("done", "Nothing to do: you withdrew this submission.")
    if state == ReviewState.DUPLICATE:
        original = duplicate_of_id(submission)
        return NextStep(
            "done",
            "Nothing to do: the committee marked this upload a duplicate of another copy of the same run.",
            f"Submission {original} is the copy that counts." if original else "",
            (StepAction("Go to the copy that counts", reverse("submissions:detail", args=[original])),)
            if original
            else (),
        )
    if state == ReviewState.PUBLISHED:
        return NextStep("done", "Nothing to do: this result is published.")
    if state == ReviewState.REJECTED:
        return NextStep(
            "done",
            "Nothing to do: the committee rejected this submission.",
            "The reason is in the history below.",
        )
    if state == ReviewState.ACCEPTED:
        return NextStep(
            "done",
            "Nothing to do: accepted.",
            "It goes on the list when the committee publishes the release.",
        )
    fixes = _fix_actions(submission) if state in SUBMITTER_FIXABLE else []
    if state in AWAITING_REVIEW:
        return NextStep(
            "wait",
            "Wait for the committee's review.",
            "You will hear by e-mail. Until it is accepted you can still fix the description, the "
            "questionnaire or the tarball; the committee sees each change.",
            tuple(fixes),
        )
    if status in (Submission.Status.RECEIVED, Submission.Status.PROCESSING):
        return NextStep(
            "wait",
            "Wait: the registry is verifying the archive.",
            "This takes a minute or two; the page updates itself.",
            (_submit_action(submission, "neutral"),),
        )
    first_error = getattr(submission, "first_error", None)
    if status != Submission.Status.VERIFIED or first_error:
        replace = StepAction(
            "Upload a corrected tarball", _url("submissions:replace", submission), "primary", "replace"
        )
        what = first_error or submission.error or "The archive could not be verified."
        return NextStep(
            "act",
            "Fix this finding, then submit for review.",
            what,
            (replace, *fixes[:2], _submit_action(submission, "neutral")),
        )
    if state == ReviewState.CHANGES_REQUESTED:
        asked = getattr(submission, "change_request", None)
        request = f"The committee wrote: “{asked}”" if asked else "See the history below."
        return NextStep(
            "act",
            "Answer the committee's request, then submit for review again.",
            request,
            (_submit_action(submission), *fixes),
        )
    if not getattr(submission, "has_questionnaire", False):
        return NextStep(
            "act",
            "Fill in the reproducibility questionnaire, then submit for review.",
            "",
            (
                StepAction(
                    "Fill in the questionnaire",
                    _url("submissions:questionnaire", submission),
                    "primary",
                    "fill-questionnaire",
                ),
                _submit_action(submission, "neutral"),
            ),
        )
    assert state in SUBMITTER_EDITABLE
    return NextStep(
        "act",
        "Submit for review.",
        "The result is verified and the questionnaire is filled in.",
        (_submit_action(submission), *fixes),
    )
