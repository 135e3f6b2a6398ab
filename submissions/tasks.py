"""Celery entry points: ids in, services called, retries at the edge. No logic lives here."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError

logger = logging.getLogger(__name__)

# Failures of the infrastructure, not of the archive: worth another try a little later.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, RedisConnectionError, ConnectionError, TimeoutError)


# Celery ships without type hints, hence the ignores on its decorator.
@shared_task(  # type: ignore[untyped-decorator]
    acks_late=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=2,
    retry_backoff_max=120,
    retry_jitter=True,
    max_retries=5,
)
def submission_ingest(submission_id: int) -> str | None:
    from submissions.ingest.pipeline import submission_ingest as ingest
    from submissions.models import Submission

    try:
        return ingest(submission_id=submission_id).status
    except Submission.DoesNotExist:
        # The row was deleted (or the message belongs to another database): nothing left to do.
        logger.warning("ingest of submission %s skipped: it does not exist", submission_id)
        return None


@shared_task(  # type: ignore[untyped-decorator]
    acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=2, max_retries=3
)
def submission_requeue_stuck() -> int:
    from submissions.ingest.pipeline import submission_requeue_stuck as requeue

    return requeue(older_than=timedelta(minutes=settings.INGEST_STUCK_AFTER_MINUTES))


@shared_task(  # type: ignore[untyped-decorator]
    acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=2, max_retries=3
)
def submission_reverify(run_id: int, submission_id: int) -> bool | None:
    """One archive of a `reverify` run; True when its verdict changed."""
    from submissions.review.reverify import reverify_submission

    item = reverify_submission(run_id=run_id, submission_id=submission_id)
    return None if item is None else item.changed


@shared_task(  # type: ignore[untyped-decorator]
    acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=2, max_retries=3
)
def audits_draw_due() -> int:
    from submissions.audits.services import audits_draw_due as draw_due

    return len(draw_due())


@shared_task(  # type: ignore[untyped-decorator]
    acks_late=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=2, max_retries=3
)
def audits_mark_overdue() -> int:
    from submissions.audits.services import audits_mark_overdue as mark

    return mark()
