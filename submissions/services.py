"""Writes of the submission pipeline: upload, system description, ingest, recovery.

Every function is keyword-only and named `<entity>_<action>`. The state a researcher sees (status,
progress, error) lives on the Submission row; Celery only carries ids.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from registry.models import Release
from submissions.archive_store import clean_original_name, digest_file, storage_key, store_once
from submissions.ingest_store import ingest_store_rejection, ingest_store_verifications
from submissions.ingest_work import IngestRejected, run_ingest_work
from submissions.lease import heartbeat, lease_is_held
from submissions.models import Archive, ReviewState, StorageSystem, Submission, SystemDescription
from submissions.system_description import CleanSystem, system_description_clean

if TYPE_CHECKING:
    from django.contrib.auth.models import User

logger = logging.getLogger(__name__)


class DuplicateArchive(ValidationError):
    """The same bytes were already submitted from another account. Says nothing about that submission."""

    def __init__(self) -> None:
        super().__init__(
            "This archive has already been submitted from another account, so it cannot be submitted "
            "again. If you believe this is a mistake, contact the IO500 committee.",
            code="duplicate-archive",
        )


def _fmt_size(size: int) -> str:
    return f"{size / 2**20:,.1f} MiB"


def _schedule_ingest(submission_id: int) -> None:
    # Imported here: tasks import this module, and the task must only see committed rows.
    from submissions.tasks import submission_ingest as submission_ingest_task

    # Robust: with the broker down the upload is still stored and answered; the periodic requeue
    # task sends it once the broker is back (see submission_requeue_stuck).
    transaction.on_commit(lambda: submission_ingest_task.delay(submission_id), robust=True)


def _check_release_open(release: Release) -> None:
    today = timezone.localdate()
    deadline = release.submission_deadline or release.publication_date
    if deadline < today:
        raise ValidationError(
            f"The call for submissions to {release.name} closed on {deadline:%Y-%m-%d}; "
            "choose a release that is still open.",
            code="release-closed",
        )


def _same_submitter(submission: Submission, submitter: User | None) -> bool:
    submitter_id = submitter.pk if submitter is not None else None
    return submission.submitter_id == submitter_id


def _answer_duplicate(sha256: str, submitter: User | None) -> tuple[Submission, bool] | None:
    existing = Archive.objects.filter(kind=Archive.Kind.RESULT, sha256=sha256).select_related("submission")
    archive = existing.first()
    if archive is None:
        return None
    if _same_submitter(archive.submission, submitter):
        return archive.submission, False
    raise DuplicateArchive()


def _clean_extra_files(extra_files: Mapping[str, File[bytes]] | None) -> dict[str, File[bytes]]:
    allowed = {Archive.Kind.JOB_SCRIPT.value, Archive.Kind.JOB_OUTPUT.value}
    extra = dict(extra_files or {})
    unknown = sorted(set(extra) - allowed)
    if unknown:
        raise ValidationError(
            f"Unknown kind of extra file: {', '.join(unknown)}. Give {' or '.join(sorted(allowed))}."
        )
    return extra


def _store_archive(submission: Submission, file: File[bytes], kind: str, original_name: str) -> Archive:
    digest = digest_file(file)
    name = clean_original_name(original_name)
    key = store_once(file, storage_key(digest.sha256, name))
    archive = Archive(
        submission=submission, kind=kind, sha256=digest.sha256, size=digest.size, original_name=name
    )
    archive.file.name = key
    archive.save()
    return archive


def _link_storage_system(submission: Submission, clean: CleanSystem) -> None:
    identity = clean.identity
    if identity is None or submission.storage_system_id is not None:
        return
    from submissions.models import Institution

    system_name, institution_name, fs_type = identity
    institution, _ = Institution.objects.get_or_create(name=institution_name)
    system, _ = StorageSystem.objects.get_or_create(
        name=system_name,
        institution=institution,
        filesystem_type=fs_type,
        defaults={"vendor": clean.fields.get("storage_vendor", "")},
    )
    submission.storage_system = system
    submission.save(update_fields=["storage_system", "updated_at"])


def _record_clean_system(submission: Submission, clean: CleanSystem) -> SystemDescription:
    description, _ = SystemDescription.objects.update_or_create(
        submission=submission, defaults={**clean.fields, "data": clean.data}
    )
    _link_storage_system(submission, clean)
    return description


def system_description_record(*, submission: Submission, data: dict[str, object]) -> SystemDescription:
    """Validate the questionnaire and store it (replacing an earlier one) as typed fields plus JSON.

    Raises ValidationError naming every wrong field; nothing is stored then.
    """
    clean = system_description_clean(data)
    with transaction.atomic():
        return _record_clean_system(submission, clean)


def submission_create(
    *,
    submitter: User | None,
    archive: File[bytes],
    original_name: str,
    system: dict[str, object] | None = None,
    release: Release | None = None,
    ten_node: bool = False,
    extra_files: Mapping[str, File[bytes]] | None = None,
    source: str = Submission.Source.UPLOAD,
    io500_id: int | None = None,
    existing: Submission | None = None,
) -> tuple[Submission, bool]:
    """Store an uploaded result archive and queue its ingest; (submission, created).

    The same bytes from the same submitter answer (the earlier submission, False). The same bytes
    from another account raise DuplicateArchive. `extra_files` maps "job-script" / "job-output" to
    files kept next to the archive. `existing` attaches the archive to a submission that was created
    without one (imported history). An archive above ARCHIVE_MAX_BYTES is still stored, and the
    submission ends rejected with the reason, so nothing a researcher uploads is lost.
    """
    clean_system = system_description_clean(system) if system is not None else None
    extras = _clean_extra_files(extra_files)
    if release is not None and source == Submission.Source.UPLOAD:
        _check_release_open(release)

    digest = digest_file(archive)
    duplicate = _answer_duplicate(digest.sha256, submitter)
    if duplicate is not None:
        return duplicate
    if existing is not None and existing.archives.filter(kind=Archive.Kind.RESULT).exists():
        raise ValidationError(
            f"{existing} already has its result archive; stored archives are never replaced.",
            code="archive-immutable",
        )

    try:
        with transaction.atomic():
            submission = _create_row(
                submitter=submitter,
                release=release,
                ten_node=ten_node,
                source=source,
                io500_id=io500_id,
                existing=existing,
            )
            stored = _store_archive(submission, archive, Archive.Kind.RESULT, original_name)
            for kind, file in extras.items():
                _store_archive(submission, file, kind, file.name or kind)
            if clean_system is not None:
                _record_clean_system(submission, clean_system)
            if stored.size > settings.ARCHIVE_MAX_BYTES:
                _reject_at_upload(submission, stored.size)
            else:
                _schedule_ingest(submission.pk)
    except IntegrityError:
        # Two uploads of the same bytes raced; the loser answers like any later duplicate.
        duplicate = _answer_duplicate(digest.sha256, submitter)
        if duplicate is None:
            raise
        return duplicate
    return submission, True


def _create_row(
    *,
    submitter: User | None,
    release: Release | None,
    ten_node: bool,
    source: str,
    io500_id: int | None,
    existing: Submission | None,
) -> Submission:
    if existing is not None:
        submission = Submission.objects.select_for_update().get(pk=existing.pk)
        submission.status = Submission.Status.RECEIVED
        submission.progress = 0
        submission.error = ""
        submission.attempts = 0
        submission.save()
        return submission
    return Submission.objects.create(
        submitter=submitter,
        release=release,
        ten_node=ten_node,
        source=source,
        io500_id=io500_id,
        # Imported history was published on io500.org; an upload starts as the submitter's draft.
        review_state=ReviewState.PUBLISHED if source == Submission.Source.IMPORT else ReviewState.DRAFT,
    )


def _reject_at_upload(submission: Submission, size: int) -> None:
    ingest_store_rejection(
        submission_id=submission.pk,
        reason=(
            f"The archive is {_fmt_size(size)}; the registry accepts archives up to "
            f"{_fmt_size(settings.ARCHIVE_MAX_BYTES)}. It has been kept, but was not processed: "
            "leave out large scratch files and upload the result folder again."
        ),
    )


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
        if submission.attempts >= settings.INGEST_MAX_ATTEMPTS:
            reason = _poison_reason(submission.attempts)
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
    to them. A submission whose earlier attempts all died ends rejected instead of looping.
    """
    submission, may_run = _ingest_start(submission_id)
    if not may_run:
        return submission
    archive = submission.archives.filter(kind=Archive.Kind.RESULT).first()
    try:
        with heartbeat(submission_id):
            return _ingest_archive(submission, archive)
    except IngestRejected as rejected:
        return ingest_store_rejection(submission_id=submission_id, reason=str(rejected))


def _ingest_archive(submission: Submission, archive: Archive | None) -> Submission:
    if archive is None:
        raise IngestRejected("This submission has no result archive to verify.")
    if archive.size > settings.ARCHIVE_MAX_BYTES:
        raise IngestRejected(
            f"The archive is {_fmt_size(archive.size)}; the registry accepts archives up to "
            f"{_fmt_size(settings.ARCHIVE_MAX_BYTES)}."
        )
    verifications = run_ingest_work(submission, archive)
    return ingest_store_verifications(submission_id=submission.pk, verifications=verifications)


def submission_requeue_stuck(*, older_than: timedelta) -> int:
    """Send submissions whose worker died back to the queue; returns how many were requeued.

    Stuck means `processing` with no heartbeat since the cut-off (its worker died), or `received`
    with an archive but not picked up since the cut-off (the broker lost or never got the message).
    A submission out of attempts is rejected.
    """
    cutoff = timezone.now() - older_than
    # The heartbeat is the lease (submissions.lease); rows from before it existed have none.
    last_beat = Coalesce("heartbeat_at", "processing_started_at")
    stuck = Q(status=Submission.Status.PROCESSING, last_beat__lt=cutoff) | Q(
        status=Submission.Status.RECEIVED, updated_at__lt=cutoff, archives__kind=Archive.Kind.RESULT
    )
    requeued = 0
    exhausted: list[tuple[int, int]] = []
    with transaction.atomic():
        # FOR UPDATE cannot be combined with the DISTINCT the archive join needs, hence the subquery.
        matching = Submission.objects.annotate(last_beat=last_beat).filter(stuck).values("pk")
        for submission in Submission.objects.select_for_update(skip_locked=True).filter(pk__in=matching):
            if submission.attempts >= settings.INGEST_MAX_ATTEMPTS:
                exhausted.append((submission.pk, submission.attempts))
                continue
            submission.status = Submission.Status.RECEIVED
            submission.progress = 0
            submission.save(update_fields=["status", "progress", "updated_at"])
            _schedule_ingest(submission.pk)
            requeued += 1
    for submission_id, attempts in exhausted:
        logger.error("submission %d rejected after %d interrupted attempts", submission_id, attempts)
        ingest_store_rejection(submission_id=submission_id, reason=_poison_reason(attempts))
    if requeued:
        logger.warning("requeued %d submission(s) stuck since before %s", requeued, cutoff.isoformat())
    return requeued
