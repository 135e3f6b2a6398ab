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
