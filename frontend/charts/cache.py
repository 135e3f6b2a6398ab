"""The chart datasets' cache: every key holds the chart generation, moved on by
frontend.charts.receivers when the lists change."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TypeVar, cast

from django.core.cache import cache

from registry.core.generations import charts_generation

CHARTS_TIMEOUT_S = 60 * 60

T = TypeVar("T")


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
