"""The ingest's record of an archive with several runs: the listed (primary) run is the complete,
latest one (scoring/primary.py), never the best score, and the warning naming the others is stored."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scoring import verify
from submissions.ingest.record import ingest_store_verifications
from submissions.models import Result, Submission
from tests.conftest import IO500_DATA

pytestmark = pytest.mark.django_db

# Two real, valid, complete io500-isc25-era runs: the earlier one scores 37.3, the later one 10.1.
EARLIER = ("submission-738", "2025.05.07-09.01.18")
LATER = ("submission-762", "2025.10.21-12.48.03")


def test_the_latest_complete_run_is_listed_although_an_earlier_one_scores_higher(tmp_path: Path) -> None:
    for folder, stamp in (EARLIER, LATER):
        shutil.copytree(IO500_DATA / "submissions" / folder / "results" / stamp, tmp_path / "upload" / stamp)
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
