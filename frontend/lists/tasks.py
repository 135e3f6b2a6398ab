"""The bulk downloads are built here, in a worker, never in a request (frontend.lists.bulk)."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from kombu.exceptions import OperationalError as BrokerUnavailable

from frontend.lists.bulk import BULK_FORMATS, bulk_lists, bulk_needs_build, bulk_prune, bulk_store
from registry.signals import lists_changed

logger = logging.getLogger(__name__)


# Celery ships without type hints, hence the ignores on its decorator.
@shared_task(acks_late=True)  # type: ignore[untyped-decorator]
def bulk_downloads_build() -> dict[str, int]:
    """Build and store both bulk files for the current lists and delete those of earlier lists."""
    lists = bulk_lists()  # read once, written in both formats
    built = {fmt: bulk_store(fmt, lists).rows for fmt in BULK_FORMATS}
    bulk_prune()
    return built


@shared_task(acks_late=True)  # type: ignore[untyped-decorator]
def bulk_downloads_refresh() -> bool:
    """Celery beat, every minute: build the files when they are missing (a lost message, a flushed
    cache that started a new generation) or older than an embargo's end (a release left its embargo,
    which moves no generation). Whether it built."""
    if not bulk_needs_build():
        return False
    bulk_downloads_build()
    return True


def bulk_downloads_queue(**kwargs: Any) -> None:
    """lists_changed receiver: the lists changed, so the files are built anew in the background. A
    broker that is down costs the files nothing but freshness: the next request queues the build."""
    try:
        bulk_downloads_build.delay()
    except BrokerUnavailable as error:
        logger.warning("bulk downloads not queued after a change of the lists: %s", error)


def connect() -> None:
    # Connected after the chart receiver (frontend.apps), which moves the list generation on first:
    # the build stores its files under the new generation.
    lists_changed.connect(bulk_downloads_queue, dispatch_uid="frontend-bulk-downloads")
