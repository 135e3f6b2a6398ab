"""The audit and objection mails: the drawn submitter, the objector and the entry's submitter."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.urls import reverse

from registry.core.site import site_url
from submissions.audits.models import AuditRequest, Objection, ObjectionAnswer
from submissions.review.mail import _send


def _to(user: User | None) -> list[str]:
    return [user.email] if user is not None and user.email else []


def audit_requested(audit: AuditRequest) -> None:
    submission = audit.submission
    body = (
        f"Your IO500 submission {submission.pk} was drawn for an audit of {audit.draw.release.name}.\n\n"
        f"Re-run the phase {audit.phase} on the same system with the run token {audit.run_token.token}\n"
        f"(io500 config.ini --timestamp={audit.run_token.token}) and upload the result directory by "
        f"{audit.deadline:%Y-%m-%d %H:%M} UTC.\n\n"
        f"The audit: {site_url(reverse('submissions:audit', args=[audit.pk]))}\n\nThe IO500 committee\n"
    )
    _send(f"[IO500] Submission {submission.pk} drawn for an audit", body, _to(submission.submitter))


def audit_decided(audit: AuditRequest) -> None:
    body = (
        f"The audit of your IO500 submission {audit.submission_id}: {audit.get_outcome_display()}.\n\n"
        f"{audit.detail}\n\n{site_url(reverse('submissions:audit', args=[audit.pk]))}\n"
    )
    _send(f"[IO500] Audit of submission {audit.submission_id}", body, _to(audit.submission.submitter))


def objection_filed(objection: Objection) -> None:
    url = site_url(reverse("submissions:objections", args=[objection.release.slug]))
    _send(
        f"[IO500] Your objection against submission {objection.submission_id}",
        f"The committee received your objection and will answer it before publishing.\n\n{url}\n",
        _to(objection.objector),
    )
    _send(
        f"[IO500] An objection against your submission {objection.submission_id}",
        f"Another submitter of {objection.release.name} objected to your entry:\n\n{objection.reason}\n\n"
        f"The committee answers it before the list is published.\n\n{url}\n",
        _to(objection.submission.submitter),
    )


def objection_answered(answer: ObjectionAnswer) -> None:
    objection = answer.objection
    url = site_url(reverse("submissions:objections", args=[objection.release.slug]))
    body = (
        f"The committee {answer.get_outcome_display().lower()} the objection against submission "
        f"{objection.submission_id}:\n\n{answer.text}\n\n{url}\n"
    )
    recipients = _to(objection.objector) + _to(objection.submission.submitter)
    _send(f"[IO500] Objection against submission {objection.submission_id} answered", body, recipients)
