"""The Redis cache backend keeps one client per server and behaves as Django's own."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest

from registry.core.cache_backend import ReusingRedisCache

# make test sets CACHE_URL; the default is the machine's Redis, database 6 as in the Makefile.
REDIS = os.environ.get("CACHE_URL") or "redis://127.0.0.1:6379/6"


@pytest.fixture
def backend() -> Iterator[ReusingRedisCache]:
    cache = ReusingRedisCache(str(REDIS), {"KEY_PREFIX": "backend-test"})
    yield cache
    cache.delete_many(["a", "n", *(f"thread-{i}" for i in range(8))])


def test_every_operation_uses_the_same_client(backend: ReusingRedisCache) -> None:
    first = backend._cache.get_client()
    backend.set("a", {"value": 1})
    assert backend.get("a") == {"value": 1}
    assert backend._cache.get_client() is first
    assert backend._cache.get_client(write=True) is first


def test_incr_add_and_missing_keys_behave_as_in_django(backend: ReusingRedisCache) -> None:
    assert backend.add("n", 5)
    assert not backend.add("n", 6)
    assert backend.incr("n") == 6
    with pytest.raises(ValueError):
        backend.incr("missing-key")
    assert backend.get("missing-key", "default") == "default"


def test_threads_share_the_client_safely(backend: ReusingRedisCache) -> None:
    wrong: list[tuple[int, int, object]] = []

    def work(i: int) -> None:
        for n in range(50):
            backend.set(f"thread-{i}", n)
            got = backend.get(f"thread-{i}")
            if got != n:
                wrong.append((i, n, got))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong
    assert [backend.get(f"thread-{i}") for i in range(8)] == [49] * 8
