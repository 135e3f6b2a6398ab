"""Every hostile archive of the corpus is refused through the real pipeline, with a reason, its bytes
kept, nothing written outside the sandbox, and (with the real worker) bounded memory and no crash."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from submissions.models import Archive, Finding, Submission
from tests.reliability.conftest import by_kind, sha256
from tests.reliability.hostile import HOSTILE, Hostile
from tests.reliability.memory import children, peak_rss_kib
from tests.reliability.records import record
from tests.submissions.helpers import wait_for_final

LIST_URL = "/api/v1/submissions/"
# The pool process unpacks and verifies; everything above this would mean a bomb got through.
WORKER_PEAK_RSS_LIMIT_MIB = 512


def _upload(client: Any, hostile: Hostile, data: bytes) -> Any:
    response = client.post(
        LIST_URL, {"archive": ContentFile(data, name=hostile.filename)}, format="multipart"
    )
    assert response.status_code == 202, response.content
    return response


def _stored_sha256(submission: Submission) -> str:
    archive = submission.archives.get(kind=Archive.Kind.RESULT)
    digest = hashlib.sha256()
    with default_storage.open(str(archive.file.name), "rb") as stored:
        while chunk := stored.read(1024 * 1024):
            digest.update(chunk)
    return digest.hexdigest()


def _assert_refused(hostile: Hostile, submission: Submission, data: bytes, canary: Path) -> None:
    assert submission.status in hostile.statuses, f"{hostile.kind}: {submission.status} ({submission.error})"
    assert hostile.reason_matches(submission.error), f"{hostile.kind}: unhelpful reason {submission.error!r}"
    assert submission.valid is False
    assert Finding.objects.filter(submission=submission, severity=Finding.Severity.ERROR).exists()
    assert _stored_sha256(submission) == sha256(data), "the raw bytes were not kept as uploaded"
    assert list(canary.iterdir()) == [], f"{hostile.kind} wrote outside the sandbox"


@pytest.mark.django_db
@pytest.mark.parametrize("hostile", HOSTILE, ids=[h.kind for h in HOSTILE])
def test_each_hostile_archive_is_refused_with_a_reason_and_kept(
    hostile: Hostile,
    hostile_bytes: Callable[[Hostile], bytes],
    canary: Path,
    api_client_for: Any,
    submitter: Any,
    settings: Any,
    tmp_path: Path,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.INGEST_SCRATCH_DIR = str(tmp_path / "scratch")
    (tmp_path / "scratch").mkdir()
    data = hostile_bytes(hostile)
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        response = _upload(api_client_for(submitter), hostile, data)
    submission = Submission.objects.get(pk=response.json()["id"])
    _assert_refused(hostile, submission, data, canary)
    # The per-submission scratch folder is gone, whatever the archive did.
    assert list((tmp_path / "scratch").iterdir()) == []
    detail = api_client_for(submitter).get(f"{LIST_URL}{submission.pk}/")
    assert detail.status_code == 200 and detail.json()["error"] == submission.error
    record(
        "hostile",
        hostile.kind,
        kind=hostile.kind,
        bytes=len(data),
        status=submission.status,
        reason=submission.error[:300],
        seconds=round(time.monotonic() - started, 3),
        path="eager",
    )


# A representative subset through `celery -A registry worker`: every family of attack, the heaviest
# bombs included, so the worker's peak memory is measured where it matters.
WORKER_SUBSET = by_kind(
    "path traversal (..)",
    "absolute path",
    "symlink then write through it",
    "hard link out of the tree",
    "character device",
    "FIFO",
    "invalid UTF-8 name",
    "deeply nested path",
    "gzip bomb (1 GiB of zeros)",
    "zip bomb (128 MiB of zeros)",
    "sparse member of 10^9 bytes (GNU)",
    "zip with overlapping entries",
    "encrypted zip",
    "truncated tar.gz",
    "100,000 tiny members",
    "17 MiB single line",
    "12 MiB line in result.txt",
    "NaN result",
    "mixed eras in one folder",
    "several tampered result folders",
)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_real_worker_refuses_hostile_archives_in_bounded_memory_without_crashing(
    worker: Any, hostile_bytes: Callable[[Hostile], bytes], canary: Path, api_client_for: Any, submitter: Any
) -> None:
    pool_before = children(worker.pid)
    assert pool_before, "the worker has no pool process"
    client = api_client_for(submitter)
    uploads = [(hostile, hostile_bytes(hostile)) for hostile in WORKER_SUBSET]
    started = time.monotonic()
    ids = [(_upload(client, hostile, data).json()["id"], hostile, data) for hostile, data in uploads]
    for submission_id, hostile, data in ids:
        _assert_refused(hostile, wait_for_final(submission_id, timeout_s=120), data, canary)
    elapsed = time.monotonic() - started
    assert worker.poll() is None, "the worker died"
    pool_after = children(worker.pid)
    assert pool_after == pool_before, "a pool process was replaced: a task crashed or was killed"
    peak_mib = max(peak_rss_kib(pid) for pid in pool_after) / 1024
    assert peak_mib < WORKER_PEAK_RSS_LIMIT_MIB
    record(
        "hostile-worker",
        "real worker subset",
        archives=len(ids),
        kinds=[hostile.kind for hostile in WORKER_SUBSET],
        total_bytes=sum(len(data) for _, data in uploads),
        seconds=round(elapsed, 2),
        worker_peak_rss_mib=round(peak_mib, 1),
        worker_main_peak_rss_mib=round(peak_rss_kib(worker.pid) / 1024, 1),
        pool_restarts=0,
    )
