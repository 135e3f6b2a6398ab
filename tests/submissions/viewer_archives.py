"""Stored archives for the viewer's tests: a submission whose result archive holds the given members."""

from __future__ import annotations

import gzip
import hashlib
import io
import tarfile
from typing import Any

from django.core.files.base import ContentFile

from submissions.archives import storage_key, store_once
from submissions.models import Archive, Submission
from tests.factories import make_submission


def tar_gz(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(buffer.getvalue(), mtime=0)


def with_archive(data: bytes, name: str = "results.tgz", **fields: Any) -> tuple[Submission, Archive]:
    submission = make_submission(**fields)
    sha = hashlib.sha256(data).hexdigest()
    key = store_once(ContentFile(data), storage_key(sha, name))
    archive = Archive.objects.create(
        submission=submission,
        kind=Archive.Kind.RESULT,
        file=key,
        sha256=sha,
        size=len(data),
        original_name=name,
    )
    return submission, archive
