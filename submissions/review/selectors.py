"""Reads of the review workflow: the committee's queue, a submission's timeline and comments."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Q, QuerySet

from submissions.evidence_basis import with_basis
from submissions.models import Finding, Questionnaire, ReviewComment, ReviewEvent, Submission
from submissions.review.roles import is_committee
from submissions.review.rules import AWAITING_REVIEW


def review_queue() -> QuerySet[Submission]:
    """Everything awaiting a committee decision, oldest submission first, with its finding counts and
    what its verdict rests on (submissions.evidence_basis.with_basis)."""
    rows = (
        Submission.objects.filter(review_state__in=AWAITING_REVIEW)
        .select_related("release", "storage_system__institution", "submitter")
        .annotate(
            error_count=Count("findings", filter=Q(findings__severity=Finding.Severity.ERROR)),
            warning_count=Count("findings", filter=Q(findings__severity=Finding.Severity.WARNING)),
        )
        .order_by("submitted_at", "pk")
    )
    return with_basis(rows)


def may_follow_review(user: User | AnonymousUser, submission: Submission) -> bool:
    """The timeline and comments are between the submitter and the committee."""
    if not user.is_authenticated:
        return False
    return is_committee(user) or (submission.submitter_id is not None and submission.submitter_id == user.pk)


def review_timeline(*, submission: Submission) -> list[ReviewEvent]:
    return list(ReviewEvent.objects.filter(submission=submission).select_related("actor"))


@dataclass
class CommentNode:
    comment: ReviewComment
    replies: list[CommentNode] = field(default_factory=list)


def review_comments(*, submission: Submission) -> list[CommentNode]:
    """The comments as threads: top-level comments in order, each with its replies nested (one query)."""
    comments = list(ReviewComment.objects.filter(submission=submission).select_related("author"))
    nodes = {comment.pk: CommentNode(comment) for comment in comments}
    roots: list[CommentNode] = []
    for comment in comments:
        parent = nodes.get(comment.parent_id) if comment.parent_id else None
        (parent.replies if parent else roots).append(nodes[comment.pk])
    return roots


def questionnaire_get(*, submission: Submission) -> Questionnaire | None:
    return Questionnaire.objects.filter(submission=submission).first()
