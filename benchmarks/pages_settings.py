"""Settings for benchmarks/pages.py: the registry's settings with the cache chosen by BENCH_CACHE.

BENCH_CACHE=dummy measures every request uncached; BENCH_CACHE=locmem (or redis, with REDIS_URL)
measures the cached path.
"""

from __future__ import annotations

import os

from registry.settings import *  # noqa: F403
from registry.settings import REDIS_URL

_choice = os.environ.get("BENCH_CACHE", "locmem")
if _choice == "dummy":
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
elif _choice == "redis" and REDIS_URL:
    CACHES = {"default": {"BACKEND": "registry.core.cache_backend.ReusingRedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
