"""The writes of audits: the draw at a release's deadline, the re-run's upload and its check, the
overdue marking. Objections are in objections.py."""

from __future__ import annotations

import datetime as dt
import secrets
from functools import partial

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files import File
from django.db import transaction
from django.utils import timezone

from registry.models import Release
from submissions.audits import mail
from submissions.audits.check import audit_answer_check
from submissions.audits.draw import ALGORITHM, auditable_phases, draw, phase_of
from submissions.audits.models import AuditDraw, AuditOutcome, AuditRequest
from submissions.audits.selectors import audit_candidates, deadline_passed, run_phases
from submissions.audits.touch import submission_touch
from submissions.models import Submission
from submissions.review.roles import is_committee
from submissions.run_tokens.services import run_token_issue_for_audit
from submissions.services import submission_create


def audit_draw(
    *, release: Release, seed: str | None = None, user: User | None = None, now: dt.datetime | None = None
) -> AuditDraw:
    """Draw the release's audits once, after its deadline (AoE). `seed` given: the committee's command
    (a test, or re-doing a lost draw in the open); otherwise a fresh one."""
    now = now or timezone.now()
    if user is not None and not is_committee(user):
        raise PermissionDenied("Only the IO500 committee draws audits.")
    if not deadline_passed(release, now):
        raise ValidationError(f"{release.name}'s submission deadline has not passed yet (Anywhere on Earth).")
    with transaction.atomic():
        Release.objects.select_for_update().get(pk=release.pk)
        if AuditDraw.objects.filter(release=release).exists():
            raise ValidationError(f"{release.name}'s audits were drawn already.")
        seed = seed or secrets.token_hex(16)
        candidates = audit_candidates(release)
        picked = draw(candidates, seed, release.audit_share_percent)
        record = AuditDraw.objects.create(
            release=release,
            seed=seed,
            algorithm=ALGORITHM,
            share_percent=release.audit_share_percent,
            candidates=sorted(candidates),
            drawn=[],
            drawn_at=now,
            drawn_by=user,
        )
        drawn: list[dict[str, object]] = []
        requests: list[AuditRequest] = []
        for submission_id in picked:
            submission = Submission.objects.select_related("submitter").get(pk=submission_id)
            phases = run_phases(submission)
            auditable = auditable_phases(phases)
            phase = phase_of(seed, submission_id, auditable)
            drawn.append({"submission": submission_id, "phase": phase, "phases": auditable})
            if phase is None or submission.submitter is None:
                continue
            value, unit = phases[phase]
            token = run_token_issue_for_audit(
                user=submission.submitter, release=release, system_name=_system_name(submission), now=now
            )
            requests.append(
                AuditRequest.objects.create(
                    draw=record,
                    submission=submission,
                    phase=phase,
                    claimed_value=value,
                    unit=unit,
                    deadline=now + dt.timedelta(days=release.audit_answer_days),
                    run_token=token,
                )
            )
        record.drawn = drawn
        record.save(update_fields=["drawn"])
        for request in requests:
            submission_touch(request.submission_id)
        for request in requests:
            transaction.on_commit(partial(mail.audit_requested, request))
    return record


def _system_name(submission: Submission) -> str:
    system = getattr(submission, "system", None)
    name = system.system_name if system is not None else ""
    return name or f"system of submission {submission.pk}"


def audits_draw_due(*, now: dt.datetime | None = None) -> list[AuditDraw]:
    """The beat task's work: draw every release whose deadline passed and that has no draw yet."""
    now = now or timezone.now()
    done: list[AuditDraw] = []
    due = Release.objects.filter(submission_deadline__isnull=False, audit_draw__isnull=True)
    for release in due:
        if deadline_passed(release, now):
            try:
                done.append(audit_draw(release=release, now=now))
            except ValidationError:
                continue
    return done


def audit_answer_upload(
    *,
    user: User,
    audit: AuditRequest,
    archive: File[bytes],
    original_name: str,
    now: dt.datetime | None = None,
) -> Submission:
    """The submitter's re-run: stored as an audit upload (never listed), checked at ingest."""
    now = now or timezone.now()
    if audit.submission.submitter_id != user.pk:
        raise PermissionDenied("Only the submitter of the audited run answers its audit.")
    if audit.outcome != AuditOutcome.PENDING:
        raise ValidationError(f"This audit is closed: {audit.get_outcome_display()}.")
    if now > audit.deadline:
        raise ValidationError("The time to answer this audit has passed.")
    submission, _ = submission_create(
        submitter=user,
        archive=archive,
        original_name=original_name,
        release=audit.submission.release,
        ten_node=audit.submission.ten_node,
        source=Submission.Source.AUDIT,
    )
    with transaction.atomic():
        locked = AuditRequest.objects.select_for_update().get(pk=audit.pk)
        locked.answer = submission
        locked.outcome = AuditOutcome.CHECKING
        locked.save(update_fields=["answer", "outcome"])
    # An ingest that finished before the link was written (an eager or fast worker) is checked now.
    current = Submission.objects.get(pk=submission.pk)
    if current.status in (Submission.Status.VERIFIED, Submission.Status.INVALID):
        audit_answer_check(answer=current)
    return current


def audits_mark_overdue(*, now: dt.datetime | None = None) -> int:
    """The beat task's work: requests still waiting for their re-run after their deadline."""
    now = now or timezone.now()
    overdue = list(AuditRequest.objects.filter(outcome=AuditOutcome.PENDING, deadline__lt=now))
    for audit in overdue:
        audit.outcome = AuditOutcome.OVERDUE
        audit.decided_at = now
        audit.detail = f"No re-run was uploaded by {audit.deadline:%Y-%m-%d %H:%M} UTC."
        audit.save(update_fields=["outcome", "decided_at", "detail"])
        submission_touch(audit.submission_id)
        transaction.on_commit(partial(mail.audit_decided, audit))
    return len(overdue)
