"""Fixtures of the submission tests (Django imported lazily, as in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from django.core.files.base import ContentFile

    from submissions.models import Submission


@pytest.fixture
def create(django_capture_on_commit_callbacks: Any) -> Callable[..., tuple[Submission, bool]]:
    """submission_create as a request runs it: the queued ingest runs once the transaction commits."""
    from submissions.services import submission_create

    def run(user: Any, archive: ContentFile[bytes], **kwargs: Any) -> tuple[Submission, bool]:
        with django_capture_on_commit_callbacks(execute=True):
            return submission_create(
                submitter=user, archive=archive, original_name=archive.name or "a.tgz", **kwargs
            )

    return run
