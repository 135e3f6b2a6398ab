"""E-mails of the workflow: the submitter hears of every step, the committee of new submissions."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.urls import reverse

from registry.core.site import site_url
from submissions.models import ReviewEvent, Submission
from submissions.review.roles import COMMITTEE_GROUP

logger = logging.getLogger(__name__)

_SUBJECTS = {
    "submit": "submitted for review",
    "start_review": "under review",
    "accept": "accepted",
    "request_changes": "changes requested",
    "reject": "rejected",
    "publish": "published",
    "assess": "reproducibility assessed",
    "accept_gap": "accepted despite missing raw outputs",
    "withdraw": "withdrawn",
    "withdraw_published": "withdrawn from the lists",
    "exclude": "excluded from a list",
    "move": "moved to another release",
    "duplicate": "marked a duplicate",
    "revoke": "decision revoked",
}


def _submission_url(submission: Submission) -> str:
    return site_url(reverse("submissions:detail", args=[submission.pk]))


def _send(subject: str, body: str, recipients: list[str]) -> None:
    if not recipients:
        return
    # A mail server that is down must not undo a decision already committed; the audit trail and
    # the page still show it, and the failure is logged for the administrators.
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, recipients)
    except OSError:
        logger.exception("could not send %r to %s", subject, recipients)


def review_event_notify(event: ReviewEvent) -> None:
    """Tell the submitter what happened to their submission, and why."""
    submission = event.submission
    submitter = submission.submitter
    if submitter is None or not submitter.email:
        return
    what = _SUBJECTS.get(event.action, event.action.replace("_", " "))
    lines = [
        f"Hello {submitter.get_full_name() or submitter.get_username()},",
        "",
        f"your IO500 submission {submission.pk} is now: {submission.get_review_state_display()}.",
    ]
    if event.action == "assess":
        lines.append(
            f"Reproducibility: {submission.get_reproducibility_display()}; "
            f"list category: {submission.get_category_display()}."
        )
    if event.reason:
        # The submitter's own withdrawal is confirmed to them in their words.
        own = event.actor_id is not None and event.actor_id == submitter.pk
        lines += ["", "You wrote:" if own else "The committee wrote:", event.reason]
    lines += [
        "",
        f"See the submission and its history at {_submission_url(submission)}",
        "",
        "The IO500 committee",
    ]
    _send(f"[IO500] Submission {submission.pk} {what}", "\n".join(lines), [submitter.email])


def committee_notify_submitted(submission: Submission) -> None:
    """A new submission waits in the review queue."""
    recipients = list(
        User.objects.filter(groups__name=COMMITTEE_GROUP, is_active=True)
        .exclude(email="")
        .values_list("email", flat=True)
        .distinct()
    )
    body = (
        f"Submission {submission.pk} was submitted for review.\n\n"
        f"Review queue: {site_url(reverse('review:queue'))}\n"
        f"Submission: {site_url(reverse('review:detail', args=[submission.pk]))}\n"
    )
    _send(f"[IO500] Submission {submission.pk} waits for review", body, recipients)


def comment_notify(submission: Submission, author: User, body: str) -> None:
    """A committee comment reaches the submitter by mail; the submitter's reaches the committee page."""
    submitter = submission.submitter
    if submitter is None or author.pk == submitter.pk or not submitter.email:
        return
    text = (
        f"The IO500 committee commented on your submission {submission.pk}:\n\n{body}\n\n"
        f"Reply on {_submission_url(submission)}\n"
    )
    _send(f"[IO500] New comment on submission {submission.pk}", text, [submitter.email])
