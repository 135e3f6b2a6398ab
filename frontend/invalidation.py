"""Cached list pages and charts show release names, the release picker and embargoes: a change to any
release (a new one, a moved embargo end) drops them, as a publish does."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from frontend.cache import charts_invalidate
from registry.models import Release
from registry.services import list_cache_invalidate


def caches_invalidate() -> None:
    list_cache_invalidate()
    charts_invalidate()


def _release_changed(sender: type[Release], **kwargs: Any) -> None:
    # After the commit: a reader in between would otherwise re-cache the old state.
    transaction.on_commit(caches_invalidate)


def connect() -> None:
    post_save.connect(_release_changed, sender=Release, dispatch_uid="frontend-release-saved")
    post_delete.connect(_release_changed, sender=Release, dispatch_uid="frontend-release-deleted")
