"""The worker's heartbeat renews the lease on the row it processes, from its own thread."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from submissions.ingest.lease import heartbeat, lease_is_held
from submissions.models import Submission


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_renews_a_processing_row_until_the_work_ends(settings: Any) -> None:
    settings.INGEST_HEARTBEAT_S = 0.05
    started = timezone.now() - timedelta(minutes=5)
    submission = Submission.objects.create(
        status=Submission.Status.PROCESSING, processing_started_at=started, heartbeat_at=started
    )
    with heartbeat(submission.pk):
        time.sleep(0.4)
    submission.refresh_from_db()
    assert submission.heartbeat_at is not None and submission.heartbeat_at > started + timedelta(minutes=4)
    assert lease_is_held(submission)
    beat = submission.heartbeat_at
    time.sleep(0.2)  # after the block, nothing renews it any more
    submission.refresh_from_db()
    assert submission.heartbeat_at == beat


@pytest.mark.django_db
def test_a_stale_heartbeat_releases_the_lease(settings: Any) -> None:
    old = timezone.now() - timedelta(seconds=settings.INGEST_LEASE_S + 1)
    submission = Submission(status=Submission.Status.PROCESSING, processing_started_at=old, heartbeat_at=old)
    assert not lease_is_held(submission)
    submission.heartbeat_at = timezone.now()
    assert lease_is_held(submission)
    submission.status = Submission.Status.VERIFIED
    assert not lease_is_held(submission)
