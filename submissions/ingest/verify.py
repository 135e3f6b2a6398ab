"""The file side of an ingest: fetch the stored archive, unpack it safely, run the scoring engine.

Runs in a per-submission scratch folder that is removed afterwards, whatever happens. Everything a
submitter can cause ends as `IngestRejected` with a readable reason; failures of our own
infrastructure (database, disk, storage) propagate so the task is retried.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError

import scoring
from scoring.model import ReadError, Verification
from submissions.archives import Digest, clean_original_name, copy_verified
from submissions.ingest.unpack import ExtractionRejected, extract_archive
from submissions.models import Archive, Submission
from submissions.system.archive_files import FoundSystemFile, find_system_files
from submissions.system.runner_facts import FoundFacts, find_client_facts

logger = logging.getLogger(__name__)

PROGRESS_FETCHED = 15
PROGRESS_EXTRACTED = 40
PROGRESS_VERIFIED = 85
TRANSIENT_INFRA_ERRORS = (DatabaseError,)


class IngestRejected(Exception):
    """The archive cannot be accepted; the message is shown to the submitter as the reason."""


@dataclass(frozen=True)
class IngestWork:
    """What the file side found: the scoring engine's verdicts and the system-description files."""

    verifications: list[Verification]
    system_files: list[FoundSystemFile] = field(default_factory=list)
    client_facts: FoundFacts | None = None


def _progress(submission: Submission, percent: int) -> None:
    # A plain UPDATE: progress ticks are not worth a history row each.
    Submission.objects.filter(pk=submission.pk).update(progress=percent)


def _verify(folder: Path) -> list[Verification]:
    try:
        verifications = scoring.verify(folder)
    except ReadError as exc:
        raise IngestRejected(str(exc)) from exc
    except SoftTimeLimitExceeded:
        raise
    except Exception as exc:
        # A crash of the pure scoring code on some input is deterministic: retrying cannot help.
        logger.exception("scoring.verify crashed on %s", folder)
        raise IngestRejected(
            "The registry could not read this archive because of an internal error in its verifier. "
            "The archive has been kept and the administrators can see the error; please contact the "
            "IO500 committee."
        ) from exc
    if not verifications:
        raise IngestRejected(
            "No IO500 result was found in the archive: it should hold the result folder with "
            "result_summary.txt (and result.txt, config.ini) of at least one run."
        )
    return verifications


@contextmanager
def _scratch(submission: Submission) -> Iterator[Path]:
    """A scratch folder for one attempt, removed on every path out of it (result, rejection, fault).

    Removing a file that is still open frees no space: the unpacker's reader of the archive copy, a
    generator that a failed attempt left suspended, lives on in the frames the traceback keeps
    (a full scratch disk once kept 22 MiB that way). Those frames are cleared first, which closes it.
    """
    folder = Path(
        tempfile.mkdtemp(prefix=f"io500-ingest-{submission.pk}-", dir=settings.INGEST_SCRATCH_DIR or None)
    )
    try:
        yield folder
    except BaseException as exc:
        _release_frames(exc)
        raise
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if folder.exists():
            logger.error("submission %d: scratch folder %s could not be removed", submission.pk, folder)


def _release_frames(exc: BaseException) -> None:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        # Frames still running (ours, up the stack) are left alone by clear_frames.
        traceback.clear_frames(current.__traceback__)
        current = current.__cause__ or current.__context__


def run_ingest_work(submission: Submission, archive: Archive) -> IngestWork:
    with _scratch(submission) as scratch:
        local = scratch / "upload.bin"
        if not copy_verified(str(archive.file.name), Digest(archive.sha256, archive.size), local):
            logger.error(
                "submission %d: stored archive %s fails its checksum", submission.pk, archive.file.name
            )
            raise IngestRejected(
                "The stored archive no longer matches the checksum recorded when it was uploaded, so it "
                "was not verified. The IO500 committee has to look into this; please contact them."
            )
        _progress(submission, PROGRESS_FETCHED)
        # Named after the upload, because the verifier's messages name the folder it was given.
        folder = scratch / "unpacked" / clean_original_name(archive.original_name)
        folder.mkdir(parents=True)
        try:
            report = extract_archive(local, folder)
        except ExtractionRejected as exc:
            raise IngestRejected(str(exc)) from exc
        except SoftTimeLimitExceeded as exc:
            raise IngestRejected(_too_slow("unpacking")) from exc
        except (OSError, *TRANSIENT_INFRA_ERRORS):
            raise  # our disk or services: the task is retried
        except Exception as exc:
            # Anything else the archive provokes in the unpacking libraries is deterministic: retrying
            # the same bytes cannot help, so end it here rather than after several stuck attempts.
            logger.exception("submission %d: unpacking crashed", submission.pk)
            raise IngestRejected(
                "The registry could not unpack this archive because of an internal error. The archive "
                "has been kept and the administrators can see the error; please contact the IO500 "
                "committee."
            ) from exc
        logger.info(
            "submission %d: %d members, %d bytes unpacked",
            submission.pk,
            report.members,
            report.unpacked_bytes,
        )
        local.unlink()
        _progress(submission, PROGRESS_EXTRACTED)
        try:
            verifications = _verify(folder)
        except SoftTimeLimitExceeded as exc:
            raise IngestRejected(_too_slow("verifying")) from exc
        _progress(submission, PROGRESS_VERIFIED)
        return IngestWork(verifications, find_system_files(folder), find_client_facts(folder))


def _too_slow(stage: str) -> str:
    minutes = settings.CELERY_TASK_SOFT_TIME_LIMIT // 60
    return (
        f"The registry stopped {stage} this archive after {minutes} minutes. The archive has been kept; "
        "please upload only the IO500 result folder, or contact the IO500 committee."
    )
