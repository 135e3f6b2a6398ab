"""Recount the stored runs: node and task counts, the outputs that printed them and the start clock.

Results stored before these fields existed (or by an older reader) carry counts without their
source, or none. The counts are read again from each stored archive with the current readers,
exactly as an ingest would read them; verdicts, findings and lists are left untouched (`reverify`
is the command that re-judges runs).
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from scoring.model import ReadError, RunResult
from scoring.readers.locate import read_runs
from submissions.archives import Digest, clean_original_name, copy_verified
from submissions.ingest.unpack import ExtractionRejected, extract_archive
from submissions.models import Archive, Result

logger = logging.getLogger(__name__)

COUNTED_FIELDS = ("nodes", "procs", "nodes_source", "procs_source", "started")


@dataclass
class RecountSummary:
    archives: int = 0
    results: int = 0
    changed: int = 0
    unreadable: list[int] = field(default_factory=list)  # submissions whose archive could not be read


def _counted(run: RunResult) -> dict[str, object]:
    return {
        "nodes": run.nodes,
        "procs": run.procs,
        "nodes_source": (run.nodes_source or "")[:255],
        "procs_source": (run.procs_source or "")[:255],
        "started": f"{run.started:%Y-%m-%d %H:%M:%S}" if run.started else "",
    }


def _read_archive(archive: Archive) -> list[RunResult]:
    scratch = Path(
        tempfile.mkdtemp(
            prefix=f"io500-recount-{archive.submission_id}-", dir=settings.INGEST_SCRATCH_DIR or None
        )
    )
    try:
        local = scratch / "upload.bin"
        if not copy_verified(str(archive.file.name), Digest(archive.sha256, archive.size), local):
            raise ReadError("the stored archive no longer matches its checksum")
        # The same folder name as the ingest used, so the runs' paths match the stored Result rows.
        folder = scratch / "unpacked" / clean_original_name(archive.original_name)
        folder.mkdir(parents=True)
        try:
            extract_archive(local, folder)
        except ExtractionRejected as exc:
            raise ReadError(str(exc)) from exc
        local.unlink()
        return read_runs(folder)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def recount_stored_runs(
    *, submission_ids: list[int] | None = None, report: Callable[[str], None] = lambda message: None
) -> RecountSummary:
    summary = RecountSummary()
    archives = Archive.objects.filter(kind=Archive.Kind.RESULT).order_by("submission_id")
    if submission_ids is not None:
        archives = archives.filter(submission_id__in=submission_ids)
    for archive in archives.iterator():
        stored = {
            result.path: result for result in Result.objects.filter(submission_id=archive.submission_id)
        }
        if not stored:
            continue
        summary.archives += 1
        try:
            runs = _read_archive(archive)
        except ReadError as exc:
            summary.unreadable.append(archive.submission_id)
            report(f"  submission {archive.submission_id}: not read again ({exc})")
            continue
        for run in runs:
            result = stored.get(run.path[:1024])
            if result is None:
                continue
            summary.results += 1
            counted = _counted(run)
            if any(getattr(result, name) != value for name, value in counted.items()):
                Result.objects.filter(pk=result.pk).update(**counted)
                summary.changed += 1
    return summary
