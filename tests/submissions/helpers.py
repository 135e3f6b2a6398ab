"""Small helpers shared by the submission tests."""

from __future__ import annotations

import csv
import functools
import time
from typing import Any

from django.core.files.base import ContentFile

from submissions.models import Submission
from submissions.services import submission_create
from tests.submissions.archives import pack_folder
from tests.support.data import data_root, submission_folder

SYSTEM = {
    "system_name": "Wolf",
    "institution_name": "Intel",
    "filesystem_type": "DAOS",
    "client_nodes": 10,
    "procs_per_node": 32,
    "client_network_gbps": 200,
}


def real_tarball(number: int) -> ContentFile[bytes]:
    """A real IO500 submission folder of the shared data, packed as .tgz on the fly."""
    return ContentFile(_packed(number), name=f"s{number}.tgz")


@functools.cache
def _packed(number: int) -> bytes:
    # The shared data is read-only and pack_folder deterministic: each folder is packed once a run.
    return pack_folder(submission_folder(number))


def published_score(number: int) -> float:
    """The score io500.org published for that submission (lists/submissions.csv), an independent source."""
    with open(data_root() / "lists" / "submissions.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["id"] == str(number):
                return float(row["io500_score"])
    raise LookupError(f"submission {number} has no published score")


def wait_for_final(submission_id: int, timeout_s: float = 60.0) -> Submission:
    deadline = time.monotonic() + timeout_s
    while True:
        submission = Submission.objects.get(pk=submission_id)
        if submission.is_final:
            return submission
        if time.monotonic() > deadline:
            state = f"{submission.status} ({submission.progress}%)"
            raise AssertionError(f"submission {submission_id} still {state} after {timeout_s} s")
        time.sleep(0.05)


def counts(submission: Submission) -> dict[str, Any]:
    from submissions.models import Finding, PhaseResult, Result

    return {
        "results": Result.objects.filter(submission=submission).count(),
        "phases": PhaseResult.objects.filter(result__submission=submission).count(),
        "findings": Finding.objects.filter(submission=submission).count(),
    }


def upload_with_job_files(submitter: Any, capture_on_commit: Any) -> Submission:
    """A real run (submission-585, 640 client nodes) uploaded through the service and verified, with
    a job script whose name and content would be dangerous if served as a page."""
    with capture_on_commit(execute=True):
        submission, _ = submission_create(
            submitter=submitter,
            archive=real_tarball(585),
            original_name="narval.tgz",
            system={**SYSTEM, "client_nodes": 640},
            ten_node=True,
            extra_files={
                "job-script": ContentFile(b"#!/bin/bash\n<script>alert(1)</script>\n", name="job.html")
            },
        )
    submission.refresh_from_db()
    return submission
