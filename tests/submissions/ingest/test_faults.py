"""Faults of ours during an ingest (submissions/ingest/faults.py): a retryable state with its reason,
never the submitter's rejection, retried with backoff, and the scratch folder released on every path."""

from __future__ import annotations

import errno
import itertools
import os
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError
from django.utils import timezone

from submissions.archives import StorageFault
from submissions.ingest import verify
from submissions.ingest.faults import our_fault, retry_delay
from submissions.ingest.pipeline import submission_ingest, submission_requeue_stuck
from submissions.ingest.unpack import ExtractionRejected
from submissions.models import Finding, Submission
from submissions.services import submission_create
from tests.submissions.helpers import real_tarball

pytestmark = pytest.mark.django_db

REAL_FDOPEN = os.fdopen


class _FullDisk:
    """A file whose writes fail as on a full file system (the descriptor is real and closed normally)."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def write(self, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def __enter__(self) -> _FullDisk:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()

    def close(self) -> None:
        self.handle.close()


@pytest.fixture
def scratch(settings: Any, tmp_path: Path) -> Path:
    folder = tmp_path / "scratch"
    folder.mkdir()
    settings.INGEST_SCRATCH_DIR = str(folder)
    return folder


@pytest.fixture
def full_scratch(monkeypatch: pytest.MonkeyPatch, scratch: Path) -> Iterator[Callable[[], None]]:
    """Files written below the scratch folder fail with ENOSPC until the returned function frees space."""

    def fdopen(fd: int, *args: Any, **kwargs: Any) -> Any:
        handle = REAL_FDOPEN(fd, *args, **kwargs)
        below = Path(f"/proc/self/fd/{fd}").readlink().is_relative_to(scratch)
        return _FullDisk(handle) if below else handle

    monkeypatch.setattr(os, "fdopen", fdopen)
    yield lambda: monkeypatch.setattr(os, "fdopen", REAL_FDOPEN)


def _open_below(folder: Path) -> list[str]:
    """Descriptors of this process that point below `folder` (a removed file still open keeps its space)."""
    held = []
    for fd in Path("/proc/self/fd").iterdir():
        try:
            target = fd.readlink()
        except OSError:
            continue
        if target.is_relative_to(folder):
            held.append(str(target))
    return held


def _stored(submitter: Any) -> Submission:
    """A stored upload whose ingest has not run: inside the test's transaction, the ingest queued on
    commit never starts."""
    archive = real_tarball(33)
    return submission_create(submitter=submitter, archive=archive, original_name="s33.tgz")[0]


def test_a_full_scratch_disk_leaves_the_submission_retrying_with_our_reason_never_rejected(
    submitter: Any, create: Any, scratch: Path, full_scratch: Callable[[], None]
) -> None:
    submission = _stored(submitter)
    after = submission_ingest(submission_id=submission.pk)
    assert after.status == Submission.Status.RETRYING
    assert "working disk is full" in after.error and "our fault" in after.error
    assert "not a problem with your archive" in after.error
    assert after.fault_attempts == 1 and after.retry_at is not None and after.retry_at > timezone.now()
    assert not Finding.objects.filter(submission=after, code="archive-rejected").exists()
    # Scratch released: the folder is gone and no descriptor of ours points into it.
    assert list(scratch.iterdir()) == []
    assert _open_below(scratch) == []


def test_after_space_is_back_the_retry_verifies_the_same_submission(
    submitter: Any,
    create: Any,
    scratch: Path,
    full_scratch: Callable[[], None],
    django_capture_on_commit_callbacks: Any,
) -> None:
    submission = _stored(submitter)
    assert submission_ingest(submission_id=submission.pk).status == Submission.Status.RETRYING
    # Not due yet: the requeue leaves it to its backoff.
    assert submission_requeue_stuck(older_than=timedelta(minutes=1)) == 0
    full_scratch()  # space is back
    Submission.objects.filter(pk=submission.pk).update(retry_at=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert submission_requeue_stuck(older_than=timedelta(minutes=1)) == 1
    submission.refresh_from_db()
    assert submission.status == Submission.Status.VERIFIED, submission.error
    assert submission.error == "" and submission.fault_attempts == 0 and submission.retry_at is None
    assert list(scratch.iterdir()) == []


def test_faults_of_ours_never_use_up_the_attempts_of_a_poison_archive(
    submitter: Any, create: Any, scratch: Path, full_scratch: Callable[[], None], settings: Any
) -> None:
    submission = _stored(submitter)
    delays = []
    for _ in range(settings.INGEST_MAX_ATTEMPTS + 2):
        after = submission_ingest(submission_id=submission.pk)
        assert after.status == Submission.Status.RETRYING
        assert after.retry_at is not None
        delays.append(after.retry_at - timezone.now())
    assert after.attempts == settings.INGEST_MAX_ATTEMPTS + 2
    assert after.interrupted_attempts == 0
    # The backoff grows with each fault.
    assert all(later > earlier for earlier, later in itertools.pairwise(delays))


def test_the_backoff_doubles_up_to_its_cap(settings: Any) -> None:
    settings.INGEST_FAULT_RETRY_S = 60
    settings.INGEST_FAULT_RETRY_MAX_S = 600
    assert [retry_delay(n).total_seconds() for n in range(1, 7)] == [60, 120, 240, 480, 600, 600]


def test_a_failing_disk_under_our_copy_of_the_archive_is_our_fault_not_a_damaged_archive(
    submitter: Any, create: Any, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The unpacker reports unreadable bytes as damage; when the bytes were our scratch copy and the
    # disk failed (EIO), the rejection was raised from our fault and must not reach the submitter.
    def extract(archive: Path, destination: Path) -> None:
        try:
            raise OSError(errno.EIO, "Input/output error")
        except OSError as exc:
            raise ExtractionRejected(f"The archive is damaged or truncated ({exc}).") from exc

    monkeypatch.setattr(verify, "extract_archive", extract)
    submission = _stored(submitter)
    after = submission_ingest(submission_id=submission.pk)
    assert after.status == Submission.Status.RETRYING
    assert "read or write on its working disk failed" in after.error


def test_an_archive_storage_that_fails_while_the_worker_fetches_is_retried(
    submitter: Any, create: Any, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    submission = _stored(submitter)

    def hung(*args: Any, **kwargs: Any) -> None:
        raise TimeoutError("Read timeout on endpoint URL")

    from django.core.files.storage import default_storage

    monkeypatch.setattr(default_storage, "open", hung)
    after = submission_ingest(submission_id=submission.pk)
    assert after.status == Submission.Status.RETRYING
    assert "archive storage did not answer" in after.error
    assert list(scratch.iterdir()) == []


def test_a_damaged_archive_is_still_the_submitters_rejection(
    submitter: Any, create: Any, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def extract(archive: Path, destination: Path) -> None:
        raise ExtractionRejected("The archive is damaged or truncated (unexpected end of data).")

    monkeypatch.setattr(verify, "extract_archive", extract)
    submission = _stored(submitter)
    after = submission_ingest(submission_id=submission.pk)
    assert after.status == Submission.Status.REJECTED
    assert list(scratch.iterdir()) == []


def test_an_error_the_task_retries_leaves_no_scratch_and_no_open_file(
    submitter: Any, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The database going away mid-ingest propagates for the task's own retry; scratch goes anyway.
    def database_gone(folder: Path) -> None:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(verify, "_verify", database_gone)
    submission = _stored(submitter)
    with pytest.raises(OperationalError):
        submission_ingest(submission_id=submission.pk)
    assert list(scratch.iterdir()) == []
    assert _open_below(scratch) == []


def test_only_our_errnos_and_storage_faults_are_our_fault() -> None:
    assert our_fault(OSError(errno.ENOSPC, "full")) is not None
    assert our_fault(StorageFault("hung")) is not None
    assert our_fault(OSError(errno.EINVAL, "bad name")) is None
    try:
        try:
            raise OSError(errno.EDQUOT, "quota")
        except OSError as exc:
            raise ValueError("wrapped") from exc
    except ValueError as wrapped:
        assert isinstance(our_fault(wrapped), OSError)


def test_uploading_the_same_bytes_again_while_retrying_queues_it_now_instead_of_a_rejection(
    submitter: Any,
    create: Any,
    scratch: Path,
    full_scratch: Callable[[], None],
    django_capture_on_commit_callbacks: Any,
) -> None:
    submission = _stored(submitter)
    assert submission_ingest(submission_id=submission.pk).status == Submission.Status.RETRYING
    full_scratch()
    again, created = create(submitter, real_tarball(33))
    assert not created and again.pk == submission.pk
    again.refresh_from_db()
    assert again.status == Submission.Status.VERIFIED, again.error
