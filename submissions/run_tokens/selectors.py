"""The reads of run tokens."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet

from registry.models import Release
from submissions.run_tokens.models import RunToken


def run_tokens_of(*, user: User) -> QuerySet[RunToken]:
    """The account's tokens, newest first, with what the page and the API show of each."""
    return RunToken.objects.filter(user=user).select_related("release").order_by("-issued_at", "-id")


def releases_taking_tokens() -> QuerySet[Release]:
    """The releases a token can be asked for: those open for submissions, soonest first."""
    return Release.objects.open_for_submissions()
