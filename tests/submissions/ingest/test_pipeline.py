"""The ingest pipeline's recovery: stuck, lost and poison submissions (tasks in-process; the real worker
is in test_worker.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from submissions.ingest.pipeline import submission_ingest, submission_requeue_stuck
from submissions.models import Submission
from tests.submissions.helpers import real_tarball

pytestmark = pytest.mark.django_db


class TestRecovery:
    def _stuck(self, submitter: Any, create: Any, attempts: int) -> Submission:
        submission: Submission = create(submitter, real_tarball(33))[0]
        # Its worker died an hour ago: its attempt began then and its heartbeat stopped then.
        an_hour_ago = timezone.now() - timedelta(hours=1)
        Submission.objects.filter(pk=submission.pk).update(
            status=Submission.Status.PROCESSING,
            attempts=attempts,
            processing_started_at=an_hour_ago,
            heartbeat_at=an_hour_ago,
        )
        return submission

    def test_a_submission_stuck_in_processing_is_requeued_and_finishes(
        self, submitter: Any, create: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        submission = self._stuck(submitter, create, attempts=1)
        with django_capture_on_commit_callbacks(execute=True):
            assert submission_requeue_stuck(older_than=timedelta(minutes=20)) == 1
        submission.refresh_from_db()
        assert submission.status == Submission.Status.VERIFIED
        assert submission.attempts == 0

    def test_a_recent_processing_submission_is_left_alone(self, submitter: Any, create: Any) -> None:
        submission, _ = create(submitter, real_tarball(33))
        Submission.objects.filter(pk=submission.pk).update(
            status=Submission.Status.PROCESSING, processing_started_at=timezone.now()
        )
        assert submission_requeue_stuck(older_than=timedelta(minutes=20)) == 0

    def test_a_processing_row_with_a_fresh_heartbeat_is_neither_requeued_nor_run_twice(
        self, submitter: Any, create: Any
    ) -> None:
        submission = self._stuck(submitter, create, attempts=1)
        Submission.objects.filter(pk=submission.pk).update(heartbeat_at=timezone.now())
        assert submission_requeue_stuck(older_than=timedelta(minutes=1)) == 0
        # A duplicate message arrives while the live attempt holds the lease: it does nothing.
        again = submission_ingest(submission_id=submission.pk)
        assert again.status == Submission.Status.PROCESSING and again.attempts == 1

    def test_a_worker_that_stopped_beating_is_noticed_after_the_default_lease(
        self, submitter: Any, create: Any, settings: Any
    ) -> None:
        assert (
            settings.INGEST_STUCK_AFTER_MINUTES * 60
            + settings.CELERY_BEAT_SCHEDULE["requeue-stuck-submissions"]["schedule"]
            <= 120
        ), "recovery must come within 2 minutes"
        submission = self._stuck(submitter, create, attempts=1)
        Submission.objects.filter(pk=submission.pk).update(
            heartbeat_at=timezone.now() - timedelta(seconds=70)
        )
        assert (
            submission_requeue_stuck(older_than=timedelta(minutes=settings.INGEST_STUCK_AFTER_MINUTES)) == 1
        )

    def test_a_lost_broker_message_is_sent_again(self, submitter: Any, create: Any) -> None:
        submission: Submission = create(submitter, real_tarball(33))[0]
        Submission.objects.filter(pk=submission.pk).update(
            status=Submission.Status.RECEIVED, updated_at=timezone.now() - timedelta(minutes=2)
        )
        assert submission_requeue_stuck(older_than=timedelta(minutes=1)) == 1

    def test_a_poison_archive_ends_rejected_instead_of_looping(
        self, submitter: Any, create: Any, settings: Any
    ) -> None:
        submission = self._stuck(submitter, create, attempts=settings.INGEST_MAX_ATTEMPTS)
        assert submission_requeue_stuck(older_than=timedelta(minutes=20)) == 0
        submission.refresh_from_db()
        assert submission.status == Submission.Status.REJECTED
        assert f"tried to process this archive {settings.INGEST_MAX_ATTEMPTS} times" in submission.error

    def test_a_redelivered_task_of_an_exhausted_submission_rejects_it(
        self, submitter: Any, create: Any, settings: Any
    ) -> None:
        submission = self._stuck(submitter, create, attempts=settings.INGEST_MAX_ATTEMPTS)
        assert submission_ingest(submission_id=submission.pk).status == Submission.Status.REJECTED

    def test_the_ingest_task_ignores_a_submission_that_no_longer_exists(self, db: None) -> None:
        from submissions.tasks import submission_ingest as task

        assert task.delay(987654).get() is None


def test_the_beat_schedule_runs_a_registered_requeue_task_every_half_minute(settings: Any) -> None:
    from registry.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["requeue-stuck-submissions"]
    assert entry["schedule"] == 30.0
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks
