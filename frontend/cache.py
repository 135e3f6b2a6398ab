"""The cache of chart data and page data: one generation number in every key, bumped on publish.

Bumping the generation is O(1) and works on every cache backend (locmem in the demo, Redis in
production) without scanning keys; the old entries simply age out.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import TypeVar, cast

from django.core.cache import cache

CHARTS_GENERATION_KEY = "frontend:charts:generation"
CHARTS_TIMEOUT_S = 60 * 60

T = TypeVar("T")


def new_generation() -> int:
    """A first generation that no earlier one can equal, even after the cache lost its keys.

    Processes keep copies of public answers under keys holding the generations
    (frontend.public_cache); a generation restarting at 1 after a cache flush would make those
    stale copies current again.
    """
    return time.time_ns() // 1000


def charts_generation() -> int:
    generation = cache.get(CHARTS_GENERATION_KEY)
    if generation is None:
        # add() does not overwrite: two processes starting together agree on the same generation.
        cache.add(CHARTS_GENERATION_KEY, new_generation(), timeout=None)
        generation = cache.get(CHARTS_GENERATION_KEY)
    return int(generation) if generation is not None else new_generation()


def charts_invalidate() -> None:
    """Drop every cached chart and page dataset; call it when a list is published or data changes."""
    try:
        cache.incr(CHARTS_GENERATION_KEY)
    except ValueError:
        # The key was evicted (or never set): a fresh generation differs from every earlier one.
        cache.set(CHARTS_GENERATION_KEY, new_generation(), timeout=None)


def charts_key(name: str, *parts: object) -> str:
    # Parts may hold user input (file-system names); hashing keeps keys short and memcached-safe.
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:32]
    return f"charts:{charts_generation()}:{name}:{digest}"


def charts_cached(name: str, parts: tuple[object, ...], build: Callable[[], T]) -> T:
    """The value cached under (generation, name, parts), built and stored on a miss."""
    key = charts_key(name, *parts)
    missing = object()
    value = cache.get(key, missing)
    if value is not missing:
        return cast(T, value)
    built = build()
    cache.set(key, built, CHARTS_TIMEOUT_S)
    return built
