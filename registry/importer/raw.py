"""Raw submission folders: packed to .tgz in memory and ingested through the upload pipeline.

A folder whose id is an imported io500.org row is attached to that row. Any other folder (SC21 and
later, whose list data is not public) becomes a new imported row: institution, system and file system
come from the folder path (index.csv) and the release from what the run says: when it ran and with
which version (see `place_run`).
"""

from __future__ import annotations

import datetime
import gzip
import io
import re
import tarfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from django.core.files.base import ContentFile
from django.db import transaction

from registry.importer.source import RawFolder
from registry.models import Release
from registry.versions import version_tag
from scoring.model import ReadError
from scoring.readers.locate import read_runs
from submissions.models import Archive, Institution, ReviewState, StorageSystem, Submission, SystemDescription

# The IO500 result directory name (both the shell script and the C app): 2023.04.26-13.56.52.
RUN_TIMESTAMP = re.compile(r"(20\d\d)\.(\d\d)\.(\d\d)-(\d\d)\.(\d\d)\.(\d\d)")
# Files whose text names the run when no directory does (result.txt has "timestamp = ...").
TIMESTAMP_FILES = ("result.txt", "result_summary.txt", "output.txt")
TIMESTAMP_SCAN_BYTES = 64 * 1024


@dataclass
class RawImportResult:
    submission_ids: list[int] = field(default_factory=list)
    ingested: int = 0
    already_present: int = 0
    rows_created: int = 0
    missing_folders: list[int] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)


def folder_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def run_dates(folder: Path) -> list[datetime.date]:
    found: list[datetime.date] = []
    files = folder_files(folder)
    texts: Iterable[str] = (str(path.relative_to(folder)) for path in files)
    for text in texts:
        found.extend(_dates_in(text))
    if not found:
        for path in files:
            if path.name in TIMESTAMP_FILES:
                with path.open("rb") as handle:
                    found.extend(_dates_in(handle.read(TIMESTAMP_SCAN_BYTES).decode("utf-8", "replace")))
    return found


def _dates_in(text: str) -> list[datetime.date]:
    dates = []
    for match in RUN_TIMESTAMP.finditer(text):
        try:
            dates.append(datetime.date(int(match[1]), int(match[2]), int(match[3])))
        except ValueError:
            continue
    return dates


@dataclass(frozen=True)
class RunClock:
    """What a folder's runs say about when they ran and with which IO500 version."""

    day: datetime.date | None
    said_by: str  # where `day` comes from, in words
    tag: str | None  # the release tag the run's printed version was built from


@dataclass(frozen=True)
class Placement:
    release: Release
    reason: str  # why this release, in words (stored on the imported row, printed by the import)


def run_clock(folder: Path) -> RunClock:
    """The earliest run of the folder: the result folder's timestamp name, else the run's own clocks
    (result.txt's `; START`, a phase's t_start, a tool's start line), with the version it printed."""
    try:
        runs = read_runs(folder)
    except ReadError:
        runs = []
    dated: list[tuple[datetime.date, str, str | None]] = []
    for run in runs:
        tag = version_tag(run.version)
        named = _dates_in(run.timestamp or "")
        if named:
            dated.append((named[0], f"the run's folder name {run.timestamp}", tag))
        elif run.started is not None:
            dated.append((run.started.date(), f"the run's own clock ({run.started:%Y-%m-%d %H:%M:%S})", tag))
    if dated:
        day, said_by, tag = min(dated, key=lambda item: item[0])
        return RunClock(day=day, said_by=said_by, tag=tag)
    # No run could be read: a timestamp in a file name or a result file's text is all there is.
    dates = run_dates(folder)
    tags = [version_tag(run.version) for run in runs]
    tag = next((found for found in tags if found), None)
    if dates:
        return RunClock(day=min(dates), said_by="a run timestamp in the folder's files", tag=tag)
    return RunClock(day=None, said_by="no run clock", tag=tag)


def _accepts(release: Release, tag: str | None) -> bool:
    # A release without recorded versions (before ISC20) and a run that names no tag are not refused.
    return tag is None or not release.accepted_versions or tag in release.accepted_versions


# Deadlines are "Anywhere on Earth" (UTC-12) and a run's clocks are the local time of its site, at
# most UTC+14: a local day can be one calendar day past the AoE day that is still open.
LOCAL_DAY_AHEAD = datetime.timedelta(days=1)


def call_open_on(release: Release, day: datetime.date) -> bool:
    """Was the release's call still open on a run's local `day` (its deadline, else its BoF day)?"""
    return day - LOCAL_DAY_AHEAD <= release.closes_on


def place_run(clock: RunClock, year: int, releases: list[Release]) -> Placement:
    """The first release whose call was still open on the run's day (its deadline, else its
    publication day) and that accepted the run's version.

    A run cannot be on a list whose call closed before it ran (a local day one past the AoE deadline
    may still be inside it), nor on one that did not accept its version. When no open call accepted
    the version, the run goes to the first open call and the reason says so; a run newer than every
    call goes to the newest release. Without any run clock the year folder is all we know: the first
    release of that year that accepted the version.
    """
    ordered = sorted(releases, key=lambda release: release.publication_date)
    tag_words = f"version {clock.tag}" if clock.tag else "no version tag"
    if clock.day is None:
        same_year = [release for release in ordered if release.publication_date.year == year]
        later = [release for release in ordered if release.publication_date.year > year]
        pool = same_year or later or ordered[-1:]
        chosen = next((release for release in pool if _accepts(release, clock.tag)), pool[0])
        return Placement(chosen, f"no run clock; the year folder {year} and {tag_words}")
    open_calls = [release for release in ordered if call_open_on(release, clock.day)]
    when = f"ran {clock.day.isoformat()} by {clock.said_by}, {tag_words}"
    if not open_calls:
        return Placement(ordered[-1], f"{when}: after every call, so the newest release")
    accepting = [release for release in open_calls if _accepts(release, clock.tag)]
    if accepting:
        chosen = accepting[0]
        return Placement(chosen, f"{when}: the first call open then that accepted it ({chosen.name})")
    return Placement(
        open_calls[0],
        f"{when}: no release whose call was open then accepted {clock.tag}, so the first open call "
        f"({open_calls[0].name})",
    )


def infer_release(folder: RawFolder, releases: list[Release]) -> Release:
    return place_run(run_clock(folder.path), folder.year, releases).release


def pack_folder(folder: Path) -> bytes:
    """A reproducible .tgz (sorted names, zero times and owners, gzip time 0): the same folder gives
    the same bytes, so the archive's SHA-256 is stable from one import to the next."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for path in folder_files(folder):
            info = tarfile.TarInfo(name=f"{folder.name}/{path.relative_to(folder).as_posix()}")
            info.size = path.stat().st_size
            info.mode = 0o644
            info.mtime = 0
            with path.open("rb") as handle:
                archive.addfile(info, handle)
    return gzip.compress(buffer.getvalue(), compresslevel=6, mtime=0)


def new_imported_row(folder: RawFolder, releases: list[Release]) -> Submission:
    institution, _ = Institution.objects.get_or_create(name=folder.institution)
    system, _ = StorageSystem.objects.get_or_create(
        name=folder.system, institution=institution, filesystem_type=folder.filesystem
    )
    placement = place_run(run_clock(folder.path), folder.year, releases)
    submission = Submission.objects.create(
        source=Submission.Source.IMPORT,
        review_state=ReviewState.PUBLISHED,
        io500_id=folder.io500_id,
        release=placement.release,
        storage_system=system,
        published_record={
            "source_path": f"{folder.institution}/{folder.system}/{folder.filesystem}/{folder.year}/"
            f"submission-{folder.io500_id}",
            "year": folder.year,
            "placement": placement.reason,
        },
    )
    SystemDescription.objects.create(
        submission=submission,
        system_name=folder.system,
        institution_name=folder.institution,
        filesystem_type=folder.filesystem,
        # The rest comes at ingest from the folder's own system-information file, if it has one.
        origin="the folder's path in IO500/submission-data",
    )
    return submission


def import_raw(
    folders: list[RawFolder],
    releases: list[Release],
    report: Callable[[str], None] = lambda message: None,
) -> RawImportResult:
    from submissions.services import submission_create  # the pipeline's entry point, shared with uploads

    result = RawImportResult()
    attached = set(
        Archive.objects.filter(submission__io500_id__in=[folder.io500_id for folder in folders]).values_list(
            "submission__io500_id", flat=True
        )
    )
    for number, folder in enumerate(sorted(folders, key=lambda item: item.io500_id), start=1):
        if folder.io500_id in attached:
            result.already_present += 1
            continue
        if not folder.path.is_dir():
            result.missing_folders.append(folder.io500_id)
            continue
        with transaction.atomic():
            existing = Submission.objects.filter(io500_id=folder.io500_id).first()
            if existing is None:
                existing = new_imported_row(folder, releases)
                result.rows_created += 1
            name = f"submission-{folder.io500_id}.tgz"
            submission, _ = submission_create(
                submitter=None,
                archive=ContentFile(pack_folder(folder.path), name=name),
                original_name=name,
                release=existing.release,
                ten_node=existing.ten_node,
                source=Submission.Source.IMPORT,
                io500_id=folder.io500_id,
                existing=existing,
            )
        result.submission_ids.append(submission.pk)
        submission.refresh_from_db(fields=["status"])
        result.statuses[submission.status] = result.statuses.get(submission.status, 0) + 1
        result.ingested += 1
        report(f"  [{number}/{len(folders)}] submission-{folder.io500_id}: {submission.status}")
    return result


def wait_until_verified(
    submission_ids: list[int],
    *,
    timeout_s: float,
    report: Callable[[str], None] = lambda message: None,
    poll_s: float = 2.0,
) -> list[int]:
    """Wait for the workers to verify these submissions (immediate when tasks run eagerly).

    The lists imported next are joined to runs by their verified values, so they must not be read
    before. Returns the ids still unfinished when the time is up.
    """
    deadline = time.monotonic() + timeout_s
    while True:
        pending = list(
            Submission.objects.filter(pk__in=submission_ids)
            .exclude(status__in=Submission.FINAL_STATUSES)
            .values_list("pk", flat=True)
        )
        if not pending or time.monotonic() >= deadline:
            return pending
        report(
            f"  waiting for the workers: {len(pending)} of {len(submission_ids)} raw folders not verified yet"
        )
        time.sleep(poll_s)
