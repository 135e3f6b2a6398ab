"""Cache generations: one number in every cache key, moved on when what the key caches changes.

Bumping the generation is O(1) and works on every cache backend (locmem in the demo, Redis in
production) without scanning keys; the old entries simply age out.
"""

from __future__ import annotations

import time

from django.core.cache import cache

# Every cached list page, download and list row holds the first in its key; every chart dataset
# the second; the public response cache both (docs/architecture.md, "Caches").
LIST_CACHE_GENERATION_KEY = "registry:lists:generation"
CHARTS_GENERATION_KEY = "frontend:charts:generation"
# How long a list page, download or row set is kept at most (a publish drops it sooner).
LIST_CACHE_SECONDS = 60 * 60


def new_generation() -> int:
    """A first generation that no earlier one can equal, even after the cache lost its keys.

    Processes keep copies of public answers under keys holding the generations
    (registry.core.public_cache); a generation restarting at 1 after a cache flush would make those
    stale copies current again.
    """
    return time.time_ns() // 1000


def generation(key: str) -> int:
    """The current generation stored under `key`, set to a fresh one when missing."""
    current = cache.get(key)
    if current is None:
        # add() does not overwrite: two processes starting together agree on the same generation.
        cache.add(key, new_generation(), timeout=None)
        current = cache.get(key)
    return int(current) if current is not None else new_generation()


def generation_bump(key: str) -> None:
    """Move the generation under `key` on, so that every entry keyed by the old one is dropped."""
    try:
        cache.incr(key)
    except ValueError:
        # The key was evicted (or never set): a fresh generation differs from every earlier one.
        cache.set(key, new_generation(), timeout=None)


def charts_generation() -> int:
    return generation(CHARTS_GENERATION_KEY)


def charts_invalidate() -> None:
    """Drop every cached chart and page dataset; call it when a list is published or data changes."""
    generation_bump(CHARTS_GENERATION_KEY)


def list_cache_generation() -> int:
    return generation(LIST_CACHE_GENERATION_KEY)


def list_cache_invalidate() -> None:
    """Drop every cached list page, download and list row (all are keyed by this generation)."""
    generation_bump(LIST_CACHE_GENERATION_KEY)
