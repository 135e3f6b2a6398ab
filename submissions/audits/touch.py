"""An audit outcome is part of the submission page: its change must renew the page's public cache,
whose fingerprint reads Submission.updated_at (submissions.selectors)."""

from __future__ import annotations

from django.utils import timezone

from submissions.models import Submission


def submission_touch(submission_id: int) -> None:
    Submission.objects.filter(pk=submission_id).update(updated_at=timezone.now())
