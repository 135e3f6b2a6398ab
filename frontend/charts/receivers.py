"""The presentation layer's answer to `registry.signals.lists_changed`: the one place that knows
which caches show the lists (docs/architecture.md has the map)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from frontend.charts.digests import digests_refresh, digests_store
from registry.core.generations import charts_invalidate, list_cache_invalidate
from registry.models import RANKED_KIND_VALUES, ListSnapshot
from registry.signals import lists_changed


def caches_refresh(*, snapshot_ids: Collection[int] = (), everything: bool = False, **kwargs: Any) -> None:
    """Make the chart digests of what changed, then drop every cached list page, download, list
    row and chart dataset (the public response cache is keyed by both generations)."""
    if everything:
        digests_refresh(kinds=RANKED_KIND_VALUES)
    elif snapshot_ids:
        ranked = ListSnapshot.objects.filter(pk__in=list(snapshot_ids), kind__in=RANKED_KIND_VALUES)
        digests_store(list(ranked.exclude(status=ListSnapshot.Status.DRAFT).values_list("pk", flat=True)))
    list_cache_invalidate()
    charts_invalidate()


def connect() -> None:
    lists_changed.connect(caches_refresh, dispatch_uid="frontend-lists-changed")
