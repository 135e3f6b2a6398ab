"""Faults of ours during an ingest: told apart from what the archive causes, and retried.

A full scratch disk, a failing disk or an archive storage that does not answer says nothing about
the archive. Such an attempt ends in the retryable state `retrying` with the reason (never
`rejected`), and the requeue (submissions.ingest.pipeline.submission_requeue_stuck) tries again
after a backoff that grows with each fault. What the archive causes ends as IngestRejected.
"""

from __future__ import annotations

import errno
from datetime import timedelta

from django.conf import settings

from submissions.archives import StorageFault

# errno values that come from our own disk or machine, whatever file the archive names.
OUR_FAULT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS, errno.ENOMEM})

_WHAT = {
    errno.ENOSPC: "its working disk is full",
    errno.EDQUOT: "its working disk is over its quota",
    errno.EIO: "a read or write on its working disk failed",
    errno.EROFS: "its working disk is read-only",
    errno.ENOMEM: "it ran out of memory",
}


def our_fault(exc: BaseException) -> BaseException | None:
    """The fault of ours behind `exc` (itself or what it was raised from), or None.

    The unpacking code turns read errors into a rejection of a damaged archive; when what it read
    was our own scratch copy and the disk failed (EIO), the rejection was raised from our fault,
    and the chain says so.
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, StorageFault):
            return current
        if isinstance(current, OSError) and current.errno in OUR_FAULT_ERRNOS:
            return current
        current = current.__cause__ or current.__context__
    return None


def fault_reason(fault: BaseException, *, attempt: int, delay: timedelta) -> str:
    """What the submitter reads: whose fault it is, that nothing is asked of them, when it is retried."""
    if isinstance(fault, StorageFault):
        what = "its archive storage did not answer"
    elif isinstance(fault, OSError) and fault.errno in _WHAT:
        what = _WHAT[fault.errno]
    else:
        what = f"of an internal error ({type(fault).__name__})"
    minutes = max(1, round(delay.total_seconds() / 60))
    return (
        f"The registry could not finish verifying this archive because {what}. This is our fault, "
        "not a problem with your archive, and nothing needs to be done on your side: it will be "
        f"retried automatically in about {minutes} minute(s) (interrupted {attempt} time(s) so far)."
    )


def retry_delay(fault_attempts: int) -> timedelta:
    """Doubling from INGEST_FAULT_RETRY_S, capped at INGEST_FAULT_RETRY_MAX_S: a full disk is
    rarely freed within seconds, and a long outage must not make every submission hammer it."""
    base = settings.INGEST_FAULT_RETRY_S
    doubled = base * 2 ** min(max(fault_attempts - 1, 0), 20)
    return timedelta(seconds=min(doubled, settings.INGEST_FAULT_RETRY_MAX_S))
