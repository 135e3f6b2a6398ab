"""The whole pipeline through a real `celery -A registry worker` process, PostgreSQL and Redis."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from submissions.models import Submission
from submissions.tasks import submission_ingest as submission_ingest_task
from tests.submissions.helpers import SYSTEM, counts, published_score, real_tarball, wait_for_final

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_real_tarball_uploaded_through_the_api_ends_verified_with_the_right_score(
    worker: Any, api_client_for: Any, submitter: Any
) -> None:
    response = api_client_for(submitter).post(
        "/api/v1/submissions/",
        {"archive": real_tarball(33), "system": json.dumps(SYSTEM)},
        format="multipart",
    )
    assert response.status_code == 202, response.content
    submission = wait_for_final(response.json()["id"])
    assert submission.status == Submission.Status.VERIFIED, submission.error
    assert submission.score == pytest.approx(published_score(33), abs=0.01)
    assert submission.progress == 100


def test_a_shell_era_tarball_ends_verified_with_the_right_score(
    worker: Any, api_client_for: Any, submitter: Any
) -> None:
    response = api_client_for(submitter).post(
        "/api/v1/submissions/", {"archive": real_tarball(3)}, format="multipart"
    )
    submission = wait_for_final(response.json()["id"])
    assert submission.status == Submission.Status.VERIFIED, submission.error
    assert submission.score == pytest.approx(published_score(3), abs=0.01)


def test_a_corrupt_tarball_ends_rejected_with_its_reason_and_its_bytes_kept(
    worker: Any, api_client_for: Any, submitter: Any
) -> None:
    broken = real_tarball(33).read()[:4000]
    response = api_client_for(submitter).post(
        "/api/v1/submissions/", {"archive": ContentFile(broken, name="broken.tgz")}, format="multipart"
    )
    assert response.status_code == 202
    submission = wait_for_final(response.json()["id"])
    assert submission.status == Submission.Status.REJECTED
    assert "damaged or truncated" in submission.error
    with default_storage.open(str(submission.archives.get().file.name), "rb") as stored:
        assert stored.read() == broken


def test_a_duplicate_upload_is_recognised(
    worker: Any, api_client_for: Any, submitter: Any, other_submitter: Any
) -> None:
    first = api_client_for(submitter).post(
        "/api/v1/submissions/", {"archive": real_tarball(6)}, format="multipart"
    )
    wait_for_final(first.json()["id"])
    again = api_client_for(submitter).post(
        "/api/v1/submissions/", {"archive": real_tarball(6)}, format="multipart"
    )
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    other = api_client_for(other_submitter).post(
        "/api/v1/submissions/", {"archive": real_tarball(6)}, format="multipart"
    )
    assert other.status_code == 409


def test_a_task_delivered_twice_does_not_duplicate_rows(
    worker: Any, api_client_for: Any, submitter: Any
) -> None:
    response = api_client_for(submitter).post(
        "/api/v1/submissions/", {"archive": real_tarball(585)}, format="multipart"
    )
    submission = wait_for_final(response.json()["id"])
    before = counts(submission)
    assert before["results"] == 1 and before["phases"] >= 12
    history_before = submission.history.count()
    # What a redelivery after a lost acknowledgement looks like: the same message, twice more.
    submission_ingest_task.delay(submission.pk)
    submission_ingest_task.delay(submission.pk)
    # An upload queued behind them: once it is verified, the worker has consumed both duplicates.
    later = api_client_for(submitter).post(
        "/api/v1/submissions/", {"archive": real_tarball(33)}, format="multipart"
    )
    wait_for_final(later.json()["id"])
    # The duplicates found the submission finished and left it alone: no new save, no new rows.
    assert submission.history.count() == history_before
    assert wait_for_final(submission.pk).status == submission.status
    assert counts(submission) == before
