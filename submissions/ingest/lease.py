"""The lease a worker holds on the submission it processes: a heartbeat on the row.

A worker killed as a whole (kill -9, out of memory, a lost machine) cannot say so, and with late
acknowledgement its broker message only comes back after the broker's visibility timeout (half an
hour). The periodic requeue (submissions.ingest.pipeline.submission_requeue_stuck) instead looks at the row: a
`processing` row whose heartbeat is older than the lease had its worker die, and is queued again
within a minute or two; a duplicate message for a row whose heartbeat is fresh is skipped, so one
submission is never processed twice at the same time.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from submissions.models import Submission

logger = logging.getLogger(__name__)


def lease_expired_before() -> datetime:
    return timezone.now() - timedelta(seconds=settings.INGEST_LEASE_S)


def lease_is_held(submission: Submission) -> bool:
    """Another attempt is alive on this row: it is processing and its heartbeat is fresh."""
    beat = submission.heartbeat_at or submission.processing_started_at
    return (
        submission.status == Submission.Status.PROCESSING
        and beat is not None
        and beat >= lease_expired_before()
    )


@contextmanager
def heartbeat(submission_id: int) -> Iterator[None]:
    """Renew the row's heartbeat every INGEST_HEARTBEAT_S while the block runs."""
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(settings.INGEST_HEARTBEAT_S):
                Submission.objects.filter(pk=submission_id, status=Submission.Status.PROCESSING).update(
                    heartbeat_at=timezone.now()
                )
        except Exception:  # a missed beat only makes the requeue come sooner; never fail the ingest
            logger.warning("heartbeat of submission %d failed", submission_id, exc_info=True)
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=beat, name=f"heartbeat-{submission_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=settings.INGEST_HEARTBEAT_S + 5)
