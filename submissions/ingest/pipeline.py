"""The ingest of one stored upload: start (status and lease on the row), unpack and verify
(submissions.ingest.verify), record (submissions.ingest.record); and the recovery of rows whose
worker died. The state a researcher sees (status, progress, error) lives on the Submission row;
Celery only carries ids (submissions.tasks).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from submissions.archives import StorageFault
from submissions.ingest.faults import fault_reason, our_fault, retry_delay
from submissions.ingest.lease import heartbeat, lease_is_held
from submissions.ingest.record import ingest_store_fault, ingest_store_rejection, ingest_store_verifications
from submissions.ingest.verify import IngestRejected, run_ingest_work
from submissions.models import Archive, Submission

logger = logging.getLogger(__name__)


def fmt_size(size: int) -> str:
    return f"{size / 2**20:,.1f} MiB"


def ingest_schedule(submission_id: int) -> None:
    # Imported here: tasks import this module, and the task must only see committed rows.
    from submissions.tasks import submission_ingest as submission_ingest_task

    # Robust: with the broker down the upload is still stored and answered; the periodic requeue
    # task sends it once the broker is back (see submission_requeue_stuck).
    transaction.on_commit(lambda: submission_ingest_task.delay(submission_id), robust=True)


def _ingest_start(submission_id: int) -> tuple[Submission, bool]:
    """Mark the row processing and count the attempt: (the row, whether this attempt may run).

    Raises Submission.DoesNotExist when the row is gone (a message outliving its submission).
    """
    with transaction.atomic():
        submission = Submission.objects.select_for_update().get(pk=submission_id)
        if submission.is_final:
            # A duplicate message: the requeue re-sends rows still `received` after a minute, and
            # behind a long queue the first message may have finished the job since.
            logger.info("submission %d is already %s; message skipped", submission_id, submission.status)
            return submission, False
        if lease_is_held(submission):
            # A duplicate message (a requeue raced a slow queue): the live attempt finishes the job.
            logger.info("submission %d is being processed by another attempt; skipped", submission_id)
            return submission, False
        if submission.interrupted_attempts >= settings.INGEST_MAX_ATTEMPTS:
            reason = _poison_reason(submission.interrupted_attempts)
            logger.error(
                "submission %d rejected after %d interrupted attempts", submission_id, submission.attempts
            )
            return ingest_store_rejection(submission_id=submission_id, reason=reason), False
        submission.status = Submission.Status.PROCESSING
        submission.progress = 5
        submission.error = ""
        submission.attempts += 1
        submission.processing_started_at = submission.heartbeat_at = timezone.now()
        submission.save(
            update_fields=[
                "status",
                "progress",
                "error",
                "attempts",
                "processing_started_at",
                "heartbeat_at",
                "updated_at",
            ]
        )
        return submission, True


def _poison_reason(attempts: int) -> str:
    return (
        f"The registry tried to process this archive {attempts} times and every attempt stopped before "
        "it finished (for example, the worker ran out of time or memory). The archive has been kept; "
        "please check that it only holds the IO500 result folder, or contact the IO500 committee."
    )


def submission_ingest(*, submission_id: int) -> Submission:
    """Extract, verify and store the outcome of one submission. Idempotent and safe to retry.

    A re-run replaces the submission's results, phases and findings in one transaction; it never adds
    to them. A submission whose earlier attempts all died ends rejected instead of looping. A fault
    of ours (our disk, our archive storage) ends the attempt `retrying` with its reason, never
    rejected: the requeue tries again after a backoff.
    """
    submission, may_run = _ingest_start(submission_id)
    if not may_run:
        return submission
    archive = submission.archives.filter(kind=Archive.Kind.RESULT).first()
    try:
        with heartbeat(submission_id):
            return _ingest_archive(submission, archive)
    except IngestRejected as rejected:
        fault = our_fault(rejected)
        if fault is not None:
            return _ingest_fault(submission, fault)
        return ingest_store_rejection(submission_id=submission_id, reason=str(rejected))
    except (OSError, StorageFault) as exc:
        # What the archive causes is an IngestRejected by now (submissions.ingest.verify), so any
        # OSError left is our own disk or machine, whatever its errno.
        return _ingest_fault(submission, our_fault(exc) or exc)


def _ingest_fault(submission: Submission, fault: BaseException) -> Submission:
    fault_attempts = submission.fault_attempts + 1
    delay = retry_delay(fault_attempts)
    logger.error(
        "submission %d: attempt stopped by a fault of ours (%s: %s); retried in %d s",
        submission.pk,
        type(fault).__name__,
        fault,
        delay.total_seconds(),
    )
    return ingest_store_fault(
        submission_id=submission.pk,
        reason=fault_reason(fault, attempt=fault_attempts, delay=delay),
        retry_at=timezone.now() + delay,
    )


def _ingest_archive(submission: Submission, archive: Archive | None) -> Submission:
    if archive is None:
        raise IngestRejected("This submission has no result archive to verify.")
    if archive.size > settings.ARCHIVE_MAX_BYTES:
        raise IngestRejected(
            f"The archive is {fmt_size(archive.size)}; the registry accepts archives up to "
            f"{fmt_size(settings.ARCHIVE_MAX_BYTES)}."
        )
    work = run_ingest_work(submission, archive)
    return ingest_store_verifications(
        submission_id=submission.pk,
        verifications=work.verifications,
        system_files=work.system_files,
        client_facts=work.client_facts,
    )


def submission_requeue_stuck(*, older_than: timedelta) -> int:
    """Send submissions whose worker died back to the queue; returns how many were requeued.

    Stuck means `processing` with no heartbeat since the cut-off (its worker died), or `received`
    with an archive but not picked up since the cut-off (the broker lost or never got the message).
    A `retrying` row (a fault of ours stopped its attempt) is due once its backoff has passed.
    A submission out of attempts is rejected.
    """
    now = timezone.now()
    cutoff = now - older_than
    # The heartbeat is the lease (submissions.ingest.lease); rows from before it existed have none.
    last_beat = Coalesce("heartbeat_at", "processing_started_at")
    stuck = (
        Q(status=Submission.Status.PROCESSING, last_beat__lt=cutoff)
        | Q(status=Submission.Status.RECEIVED, updated_at__lt=cutoff, archives__kind=Archive.Kind.RESULT)
        | Q(status=Submission.Status.RETRYING, retry_at__lte=now)
    )
    requeued = 0
    exhausted: list[tuple[int, int]] = []
    with transaction.atomic():
        # FOR UPDATE cannot be combined with the DISTINCT the archive join needs, hence the subquery.
        matching = Submission.objects.annotate(last_beat=last_beat).filter(stuck).values("pk")
        for submission in Submission.objects.select_for_update(skip_locked=True).filter(pk__in=matching):
            if submission.interrupted_attempts >= settings.INGEST_MAX_ATTEMPTS:
                exhausted.append((submission.pk, submission.interrupted_attempts))
                continue
            submission.status = Submission.Status.RECEIVED
            submission.progress = 0
            submission.retry_at = None
            submission.save(update_fields=["status", "progress", "retry_at", "updated_at"])
            ingest_schedule(submission.pk)
            requeued += 1
    for submission_id, attempts in exhausted:
        logger.error("submission %d rejected after %d interrupted attempts", submission_id, attempts)
        ingest_store_rejection(submission_id=submission_id, reason=_poison_reason(attempts))
    if requeued:
        logger.warning("requeued %d submission(s) stuck since before %s", requeued, cutoff.isoformat())
    return requeued
