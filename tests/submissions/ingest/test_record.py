"""What the ingest records beside the verification: a run already in the registry in other bytes."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.base import ContentFile

from submissions.models import Finding
from tests.submissions.helpers import real_tarball

pytestmark = pytest.mark.django_db


def repacked(number: int) -> ContentFile[bytes]:
    """The same real run in other bytes: a note added and the gzip stream written anew."""
    import gzip
    import io
    import tarfile

    buffer = io.BytesIO()
    source = io.BytesIO(real_tarball(number).read())
    with tarfile.open(fileobj=source, mode="r:gz") as original, tarfile.open(fileobj=buffer, mode="w") as out:
        for member in original.getmembers():
            out.addfile(member, original.extractfile(member) if member.isfile() else None)
        note = b"re-packed by someone else\n"
        info = tarfile.TarInfo("NOTES.txt")
        info.size = len(note)
        out.addfile(info, io.BytesIO(note))
    return ContentFile(gzip.compress(buffer.getvalue(), compresslevel=9), name=f"copy-{number}.tgz")


def test_a_known_run_in_new_bytes_is_flagged_for_the_committee_with_a_link_to_the_first(
    submitter: Any, other_submitter: Any, create: Any
) -> None:
    first, _ = create(submitter, real_tarball(33))
    copy, created = create(other_submitter, repacked(33))
    assert created and copy.pk != first.pk
    flagged = Finding.objects.get(submission=copy, code="run-already-submitted")
    assert flagged.severity == "warning" and f"/submissions/{first.pk}/" in flagged.message
    assert not Finding.objects.filter(submission=first, code="run-already-submitted").exists()
    # Another run is not flagged.
    other, _ = create(other_submitter, real_tarball(585))
    assert not Finding.objects.filter(submission=other, code="run-already-submitted").exists()
