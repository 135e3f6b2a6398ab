"""Re-verification: run every stored archive through the current scoring engine again (one Celery
task per submission) and record whose verdict changed. The submission rows take the new outcome;
published list snapshots keep the ranks and scores they were frozen with."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from registry.models import Release
from submissions.ingest.faults import our_fault
from submissions.ingest.record import ingest_store_rejection, ingest_store_verifications
from submissions.ingest.verify import IngestRejected, run_ingest_work
from submissions.models import Archive, Finding, Result, ReverifyItem, ReverifyRun, Submission

logger = logging.getLogger(__name__)

# Scores are compared at this many decimals: a float re-rounding is not a changed verdict.
SCORE_DECIMALS = 4


def submission_verdict(submission: Submission) -> dict[str, Any]:
    """What the registry concluded about a submission, in a form that compares and stores as JSON."""
    findings = Finding.objects.filter(submission=submission).values_list("severity", "code")
    errors = sorted({code for severity, code in findings if severity == Finding.Severity.ERROR})
    warnings = sorted({code for severity, code in findings if severity == Finding.Severity.WARNING})
    # What the verdict rests on: a run that lost its evidence (or gained it) is a changed verdict,
    # since the lists read it (registry.lists.membership).
    basis = (
        Result.objects.filter(submission=submission, is_primary=True)
        .values_list("basis_level", "summary_only_phases")
        .first()
    )
    return {
        "status": submission.status,
        "valid": submission.valid,
        "score": round(submission.score, SCORE_DECIMALS) if submission.score is not None else None,
        "errors": errors,
        "warnings": warnings,
        "basis": basis[0] if basis else "",
        "summary_only": list(basis[1] or ()) if basis else [],
    }


def _enqueue(run_id: int, submission_ids: list[int]) -> None:
    from submissions.tasks import submission_reverify

    for submission_id in submission_ids:
        submission_reverify.delay(run_id, submission_id)


def reverify_start(*, user: User | None, release: Release | None = None) -> ReverifyRun:
    """Queue every submission with a stored result archive (of one release, or all) for re-verification."""
    with_archive = Archive.objects.filter(kind=Archive.Kind.RESULT).values("submission_id")
    rows = Submission.objects.filter(pk__in=with_archive).exclude(status__in=Submission.IN_PROGRESS_STATUSES)
    if release is not None:
        rows = rows.filter(release=release)
    submissions = list(rows.order_by("pk"))
    with transaction.atomic():
        run = ReverifyRun.objects.create(release=release, started_by=user, total=len(submissions))
        ReverifyItem.objects.bulk_create(
            [ReverifyItem(run=run, submission=s, before=submission_verdict(s)) for s in submissions]
        )
        if not submissions:
            run.finished_at = timezone.now()
            run.save(update_fields=["finished_at"])
        ids = [s.pk for s in submissions]
        transaction.on_commit(lambda: _enqueue(run.pk, ids))
    return run


def _rerun(submission: Submission) -> Submission:
    archive = submission.archives.filter(kind=Archive.Kind.RESULT).first()
    if archive is None:
        return ingest_store_rejection(
            submission_id=submission.pk, reason="This submission has no result archive to verify."
        )
    try:
        work = run_ingest_work(submission, archive)
    except IngestRejected as rejected:
        if our_fault(rejected) is not None:
            # Our disk failed under the scratch copy: the item records the error, the verdict stays.
            raise
        return ingest_store_rejection(submission_id=submission.pk, reason=str(rejected))
    return ingest_store_verifications(
        submission_id=submission.pk,
        verifications=work.verifications,
        system_files=work.system_files,
        client_facts=work.client_facts,
    )


def _finish(item: ReverifyItem, *, after: dict[str, Any], changed: bool, error: str) -> None:
    with transaction.atomic():
        updated = ReverifyItem.objects.filter(pk=item.pk, finished_at__isnull=True).update(
            after=after, changed=changed, error=error, finished_at=timezone.now()
        )
        if not updated:
            return  # a redelivered task: the first one already counted this item
        ReverifyRun.objects.filter(pk=item.run_id).update(
            done=F("done") + 1,
            changed=F("changed") + (1 if changed else 0),
            failed=F("failed") + (1 if error else 0),
        )
        ReverifyRun.objects.filter(pk=item.run_id, finished_at__isnull=True, done__gte=F("total")).update(
            finished_at=timezone.now()
        )


def reverify_submission(*, run_id: int, submission_id: int) -> ReverifyItem | None:
    """Verify one stored archive again and record the verdict before and after. Safe to redeliver."""
    item = ReverifyItem.objects.filter(run_id=run_id, submission_id=submission_id).first()
    if item is None or item.finished_at is not None:
        return item
    submission = Submission.objects.get(pk=submission_id)
    try:
        submission = _rerun(submission)
    except Exception as error:
        # The report must finish even when one archive breaks the infrastructure; the error is kept.
        logger.exception("re-verification of submission %d failed", submission_id)
        _finish(item, after={}, changed=False, error=f"{type(error).__name__}: {error}")
        return item
    after = submission_verdict(submission)
    _finish(item, after=after, changed=bool(verdict_differences(item.before, after)), error="")
    item.refresh_from_db()
    return item


def verdict_differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Readable lines saying what changed between two verdicts."""
    lines = []
    for key in ("status", "valid", "score"):
        if before.get(key) != after.get(key):
            lines.append(f"{key}: {before.get(key)} -> {after.get(key)}")
    # A level first recorded now (rows verified before levels were kept, or items without the key)
    # is no change of the verdict: only a level that moves is.
    if before.get("basis") and before.get("basis") != after.get("basis"):
        lines.append(
            f"evidence: {before.get('basis') or 'not recorded'} -> {after.get('basis') or 'not recorded'}"
        )
    if before.get("basis") and before.get("summary_only") != after.get("summary_only"):
        now = ", ".join(after.get("summary_only") or ()) or "none"
        lines.append(f"phases without raw output: {now}")
    for key in ("errors", "warnings"):
        added = sorted(set(after.get(key, [])) - set(before.get(key, [])))
        removed = sorted(set(before.get(key, [])) - set(after.get(key, [])))
        if added:
            lines.append(f"new {key}: {', '.join(added)}")
        if removed:
            lines.append(f"{key} gone: {', '.join(removed)}")
    return lines
