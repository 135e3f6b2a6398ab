"""Writes of the submission pipeline's first step: upload (hashed once, stored once) and the system
description. What follows the upload is submissions.ingest.pipeline.

Every function is keyword-only and named `<entity>_<action>`. The state a researcher sees (status,
progress, error) lives on the Submission row; Celery only carries ids.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import IntegrityError, transaction

from registry.models import Release
from submissions.archives import Digest, clean_original_name, digest_file, storage_key, store_once
from submissions.ingest.pipeline import fmt_size, ingest_schedule
from submissions.ingest.record import ingest_store_rejection
from submissions.models import (
    EXTRA_FILE_FIELDS,
    Archive,
    ListCategory,
    ReviewState,
    Submission,
    SystemDescription,
)
from submissions.system.description import system_description_clean
from submissions.system.services import system_description_store

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


def _check_release_open(release: Release) -> None:
    if not release.is_open_for_submissions():
        raise ValidationError(
            f"The call for submissions to {release.name} closed on {release.closes_on:%Y-%m-%d}; "
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
        return _retry_now_if_waiting(archive.submission), False
    raise DuplicateArchive()


def _retry_now_if_waiting(submission: Submission) -> Submission:
    """The submitter sent the same bytes again while a fault of ours holds their submission back:
    they get that submission, queued again now rather than after its backoff."""
    if submission.status != Submission.Status.RETRYING:
        return submission
    with transaction.atomic():
        row = Submission.objects.select_for_update().get(pk=submission.pk)
        if row.status == Submission.Status.RETRYING:
            row.status = Submission.Status.RECEIVED
            row.retry_at = None
            row.save(update_fields=["status", "retry_at", "updated_at"])
            ingest_schedule(row.pk)
        return row


def _clean_extra_files(extra_files: Mapping[str, File[bytes]] | None) -> dict[str, File[bytes]]:
    allowed = set(EXTRA_FILE_FIELDS.values())
    extra = dict(extra_files or {})
    unknown = sorted(set(extra) - allowed)
    if unknown:
        raise ValidationError(
            f"Unknown kind of extra file: {', '.join(unknown)}. Give {' or '.join(sorted(allowed))}."
        )
    return extra


def _store_archive(
    submission: Submission, file: File[bytes], kind: str, original_name: str, digest: Digest | None = None
) -> Archive:
    digest = digest or digest_file(file)
    name = clean_original_name(original_name)
    key = store_once(file, storage_key(digest.sha256, name))
    archive = Archive(
        submission=submission, kind=kind, sha256=digest.sha256, size=digest.size, original_name=name
    )
    archive.file.name = key
    archive.save()
    return archive


def system_description_record(
    *, submission: Submission, data: dict[str, object], origin: str = ""
) -> SystemDescription:
    """Validate the questionnaire and store it (replacing an earlier one) as typed fields plus JSON.

    Raises ValidationError naming every wrong field; nothing is stored then.
    """
    clean = system_description_clean(data)
    with transaction.atomic():
        return system_description_store(submission=submission, clean=clean, origin=origin)


def submission_create(
    *,
    submitter: User | None,
    archive: File[bytes],
    original_name: str,
    system: dict[str, object] | None = None,
    system_fields: dict[str, object] | None = None,
    system_origin: str = "",
    release: Release | None = None,
    ten_node: bool = False,
    category: str = ListCategory.RESEARCH,
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
    clean_system = (
        system_description_clean(system if system is not None else {}, overrides=system_fields)
        if system is not None or system_fields
        else None
    )
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
                category=category,
                source=source,
                io500_id=io500_id,
                existing=existing,
            )
            stored = _store_archive(submission, archive, Archive.Kind.RESULT, original_name, digest)
            for kind, file in extras.items():
                _store_archive(submission, file, kind, file.name or kind)
            if clean_system is not None:
                system_description_store(submission=submission, clean=clean_system, origin=system_origin)
            if stored.size > settings.ARCHIVE_MAX_BYTES:
                _reject_at_upload(submission, stored.size)
            else:
                ingest_schedule(submission.pk)
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
    category: str,
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
        # The lists the run asks for (Production or Research, and the 10-node lists): chosen at
        # upload, confirmed or changed by the committee (submissions.review.services.submission_assess).
        ten_node=ten_node,
        category=category,
        source=source,
        io500_id=io500_id,
        # Imported history was published on io500.org; an upload starts as the submitter's draft.
        review_state=ReviewState.PUBLISHED if source == Submission.Source.IMPORT else ReviewState.DRAFT,
    )


def _reject_at_upload(submission: Submission, size: int) -> None:
    ingest_store_rejection(
        submission_id=submission.pk,
        reason=(
            f"The archive is {fmt_size(size)}; the registry accepts archives up to "
            f"{fmt_size(settings.ARCHIVE_MAX_BYTES)}. It has been kept, but was not processed: "
            "leave out large scratch files and upload the result folder again."
        ),
    )
