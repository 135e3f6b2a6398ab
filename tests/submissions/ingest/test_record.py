"""What the ingest records beside the verification: a run already in the registry in other bytes,
and, of an archive with several runs, the listed (primary) run: the complete, latest one
(scoring/primary.py), never the best score, with the warning naming the others."""

from __future__ import annotations

import io
import shutil
import tarfile
from pathlib import Path
from typing import Any

import pytest
from django.core.files.base import ContentFile

from scoring import verify
from submissions.ingest.record import ingest_store_verifications
from submissions.models import Finding, Result, Submission
from tests.submissions.helpers import real_tarball
from tests.support.data import submission_folder, submissions_root

pytestmark = pytest.mark.django_db


def repacked(number: int) -> ContentFile[bytes]:
    """The same real run in other bytes: a note added and the gzip stream written anew."""
    import gzip
    import io
    import tarfile

    buffer = io.BytesIO()
    source = io.BytesIO(real_tarball(number).read())
    with tarfile.open(fileobj=source, mode="r:gz") as original, tarfile.open(fileobj=buffer, mode="w") as out:
        for member in original.getmembers():
            out.addfile(member, original.extractfile(member) if member.isfile() else None)
        note = b"re-packed by someone else\n"
        info = tarfile.TarInfo("NOTES.txt")
        info.size = len(note)
        out.addfile(info, io.BytesIO(note))
    return ContentFile(gzip.compress(buffer.getvalue(), compresslevel=9), name=f"copy-{number}.tgz")


def test_a_known_run_in_new_bytes_is_flagged_for_the_committee_with_a_link_to_the_first(
    submitter: Any, other_submitter: Any, create: Any
) -> None:
    first, _ = create(submitter, real_tarball(33))
    copy, created = create(other_submitter, repacked(33))
    assert created and copy.pk != first.pk
    flagged = Finding.objects.get(submission=copy, code="run-already-submitted")
    assert flagged.severity == "warning" and f"/submissions/{first.pk}/" in flagged.message
    assert not Finding.objects.filter(submission=first, code="run-already-submitted").exists()
    # Another run is not flagged.
    other, _ = create(other_submitter, real_tarball(585))
    assert not Finding.objects.filter(submission=other, code="run-already-submitted").exists()


def test_renaming_someone_else_s_run_folder_and_archive_does_not_hide_the_known_run(
    submitter: Any, other_submitter: Any, create: Any
) -> None:
    first, _ = create(submitter, real_tarball(33))
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:bz2") as tar:
        tar.add(submission_folder(33), arcname="results/2026.01.01-00.00.00")
    renamed = ContentFile(buffer.getvalue(), name="our-own-run.tar.bz2")
    copy, created = create(other_submitter, renamed)
    assert created and copy.pk != first.pk
    flagged = Finding.objects.get(submission=copy, code="run-already-submitted")
    assert f"/submissions/{first.pk}/" in flagged.message


# Two real, valid, complete io500-isc25-era runs: the earlier one scores 37.3, the later one 10.1.
EARLIER = ("submission-738", "2025.05.07-09.01.18")
LATER = ("submission-762", "2025.10.21-12.48.03")


def test_the_latest_complete_run_is_listed_although_an_earlier_one_scores_higher(tmp_path: Path) -> None:
    for folder, stamp in (EARLIER, LATER):
        shutil.copytree(submissions_root() / folder / "results" / stamp, tmp_path / "upload" / stamp)
    verifications = verify(tmp_path / "upload")
    scores = {v.result.path: v.computed.score for v in verifications}
    assert all(v.valid for v in verifications)
    assert scores[EARLIER[1]] > scores[LATER[1]]  # type: ignore[operator]
    submission = Submission.objects.create(status=Submission.Status.PROCESSING)

    ingest_store_verifications(submission_id=submission.pk, verifications=verifications)

    submission.refresh_from_db()
    primary = Result.objects.get(submission=submission, is_primary=True)
    assert primary.path == LATER[1]
    assert submission.score == pytest.approx(scores[LATER[1]])
    assert Result.objects.filter(submission=submission).count() == 2
    [warning] = primary.findings.filter(code="primary-run-chosen")
    assert warning.severity == "warning"
    assert f"'{EARLIER[1]}'" in warning.message
    assert not Result.objects.get(submission=submission, path=EARLIER[1]).findings.filter(
        code="primary-run-chosen"
    )
